NOTEBOOK = '13_attention_variants'
CELL = 'sink_window_keys'
MISTAKE = 'Concatenates the sinks and the window without removing the overlap, so on a short cache some keys appear twice.'
NAMED_IF = 'twice|duplicat|once|overlap|unique'
CODE = '''def sink_window_keys(Lk, n_sinks, window):
    sinks = np.arange(min(n_sinks, Lk))
    win = np.arange(max(0, Lk - window), Lk)
    return np.sort(np.concatenate([sinks, win])).astype(int)
'''
