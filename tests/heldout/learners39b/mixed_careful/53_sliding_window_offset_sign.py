NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = 'Subtracts the offset from the query index ((i - offset) - j) instead of adding it.'
NAMED_IF = 'offset|sign|shift|i ?\\+ ?offset|absolute position'
CODE = '''\
def sliding_window_mask(Lq, Lk, window, offset=0):
    """Boolean (Lq, Lk) sliding-window mask."""
    i = np.arange(Lq)[:, None] - offset        # (Lq, 1)
    j = np.arange(Lk)[None, :]                 # (1, Lk)
    d = i - j
    return (d >= 0) & (d < window)
'''
