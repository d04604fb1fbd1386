NOTEBOOK = "13_attention_variants"
CELL = 'sink_window_keys'
MISTAKE = 'Window off by one: keeps the last window + 1 tokens.'
NAMED_IF = r"off[- ]by[- ]one|window ?\+ ?1|one (key |index |token )?(too many|extra|more)|extra (key|index|token)|window of \w+ \+ 1"
CODE = '''
def sink_window_keys(Lk, n_sinks, window):
    """The key indices a sink-plus-window cache keeps."""
    keep = []
    for i in range(Lk):
        if i < n_sinks or i >= Lk - window - 1:
            keep.append(i)
    return np.array(keep, dtype=int)
'''
