NOTEBOOK = "13_attention_variants"
CELL = 'sink_window_keys'
MISTAKE = 'Returns a boolean mask of length Lk (True = kept) instead of the array of kept indices.'
NAMED_IF = r"boolean|\bbool\b|True ?/ ?False|mask (instead|rather|of length)|not (the )?indices|indices (rather|instead)|dtype"
CODE = '''
def sink_window_keys(Lk, n_sinks, window):
    """The key indices a sink-plus-window cache keeps."""
    idx = np.arange(Lk)
    return (idx < n_sinks) | (idx >= Lk - window)
'''
