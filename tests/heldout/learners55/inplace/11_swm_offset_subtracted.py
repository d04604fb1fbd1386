NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = 'Subtracts the offset from the query positions instead of adding it.'
NAMED_IF = r"offset"
CODE = '''def sliding_window_mask(Lq, Lk, window, offset=0):
    d = np.arange(Lq)[:, None] - offset - np.arange(Lk)[None, :]
    return (d >= 0) & (d < window)
'''
