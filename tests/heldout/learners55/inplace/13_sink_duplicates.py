NOTEBOOK = '13_attention_variants'
CELL = 'sink_window_keys'
MISTAKE = 'Concatenates the sinks and the window without removing the indices they share, so an overlapping index appears twice.'
NAMED_IF = r"duplicat|twice|\bonce\b|overlap|union|unique"
CODE = '''def sink_window_keys(Lk, n_sinks, window):
    keys = np.arange(min(n_sinks, Lk))
    keys = np.concatenate([keys, np.arange(max(Lk - window, 0), Lk)])
    keys.sort()
    return keys
'''
