NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = "Reads window as flash-attn's window_size left count (0 <= d <= window), so each token sees window + 1 tokens."
NAMED_IF = 'off[- ]by[- ]one|window ?\\+ ?1|one (too many|extra|more)|<= ?window|too (wide|many)|window - 1'
CODE = '''def sliding_window_mask(Lq, Lk, window, offset=0):
    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
    return (d >= 0) & (d <= window)
'''
