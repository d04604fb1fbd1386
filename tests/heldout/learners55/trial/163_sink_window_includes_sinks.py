NOTEBOOK = '13_attention_variants'
CELL = 'sink_window_keys'
MISTAKE = 'Treats the sinks as part of the window: keeps only the last window - n_sinks tokens after them.'
NAMED_IF = 'not part of the window|sinks are not|window|last|n_sinks|too few'
CODE = '''def sink_window_keys(Lk, n_sinks, window):
    sinks = np.arange(min(n_sinks, Lk))
    win = np.arange(max(0, Lk - (window - n_sinks)), Lk)
    return np.union1d(sinks, win).astype(int)
'''
