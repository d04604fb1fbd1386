NOTEBOOK = "13_attention_variants"
CELL = 'sink_window_keys'
MISTAKE = 'Concatenates the sinks and the window without removing the overlap, so short caches list some keys twice.'
NAMED_IF = r"duplicat|twice|more than once|each (index|key) once|repeat|overlap\w* (kept|counted|listed)|counted double|double"
CODE = '''
def sink_window_keys(Lk, n_sinks, window):
    """The key indices a sink-plus-window cache keeps."""
    sinks = np.arange(min(n_sinks, Lk))
    recent = np.arange(max(Lk - window, 0), Lk)
    return np.sort(np.concatenate([sinks, recent])).astype(int)
'''
