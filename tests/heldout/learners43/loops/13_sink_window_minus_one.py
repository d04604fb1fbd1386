NOTEBOOK = "13_attention_variants"
CELL = 'sink_window_keys'
MISTAKE = 'Window off by one: keeps only the last window - 1 tokens (strict > instead of >=).'
NAMED_IF = r"off[- ]by[- ]one|window ?- ?1|one (key |index |token )?(too few|short|less|fewer|missing)|missing (key|index|token)|misses the"
CODE = '''
def sink_window_keys(Lk, n_sinks, window):
    """The key indices a sink-plus-window cache keeps."""
    keep = []
    for i in range(Lk):
        if i < n_sinks or i > Lk - window:
            keep.append(i)
    return np.array(keep, dtype=int)
'''
