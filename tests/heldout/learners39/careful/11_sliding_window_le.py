NOTEBOOK = "11_modern_attention"
CELL = "sliding_window_mask"
MISTAKE = "Uses (i + offset) - j <= window instead of < window, so each query sees window + 1 keys."
NAMED_IF = r"off[- ]by[- ]one|<=|≤|window ?\+ ?1|one (extra|too many)|strict"
CODE = '''
def sliding_window_mask(Lq, Lk, window, offset=0):
    """Boolean (Lq, Lk) sliding-window mask."""
    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
    return (d >= 0) & (d <= window)
'''
