NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = 'Keeps 0 <= i - j <= window, so each token sees window + 1 tokens.'
NAMED_IF = r"off.by.one|window ?\+ ?1|one (too many|extra|more)|<= ?window|itself|w ?- ?1|< ?window"
CODE = '''def sliding_window_mask(Lq, Lk, window, offset=0):
    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
    m = d >= 0
    m &= d <= window
    return m
'''
