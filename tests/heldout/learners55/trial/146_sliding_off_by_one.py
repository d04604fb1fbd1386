NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = 'Keeps differences up to and including window (window + 1 tokens) instead of below window.'
NAMED_IF = 'window ?- ?1|off[- ]by[- ]one|one (too many|extra|more)|<=|itself and|window \\+ ?1'
CODE = '''def sliding_window_mask(Lq, Lk, window, offset=0):
    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
    return (d >= 0) & (d <= window)
'''
