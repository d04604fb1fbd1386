NOTEBOOK = "13_attention_variants"
CELL = 'sink_window_keys'
MISTAKE = "Does not clip the window's start at 0, so a short cache yields negative indices (range(Lk - window, Lk))."
NAMED_IF = r"negative|below 0|below zero|< ?0|clip|max\(|never below|not clamp|clamp"
CODE = '''
def sink_window_keys(Lk, n_sinks, window):
    """The key indices a sink-plus-window cache keeps."""
    sinks = set(range(n_sinks)) & set(range(Lk))
    recent = set(range(Lk - window, Lk))
    return np.array(sorted(sinks | recent), dtype=int)
'''
