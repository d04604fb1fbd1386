NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = 'Ignores offset: row i is treated as position i.'
NAMED_IF = 'offset|absolute|position'
CODE = '''def sliding_window_mask(Lq, Lk, window, offset=0):
    d = np.arange(Lq)[:, None] - np.arange(Lk)[None, :]
    return (d >= 0) & (d < window)
'''
