NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = 'Adds the offset to the key positions instead of the query positions, shifting the window the wrong way.'
NAMED_IF = 'offset|sign|direction|shift|wrong way'
CODE = '''def sliding_window_mask(Lq, Lk, window, offset=0):
    d = np.arange(Lq)[:, None] - (np.arange(Lk)[None, :] + offset)
    return (d >= 0) & (d < window)
'''
