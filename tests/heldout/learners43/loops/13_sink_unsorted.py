NOTEBOOK = "13_attention_variants"
CELL = 'sink_window_keys'
MISTAKE = 'Lists the window first and then the sinks (each once), so the array is not sorted.'
NAMED_IF = r"sort|order|ascending|increasing"
CODE = '''
def sink_window_keys(Lk, n_sinks, window):
    """The key indices a sink-plus-window cache keeps."""
    keep = []
    for i in range(max(Lk - window, 0), Lk):
        keep.append(i)
    for i in range(min(n_sinks, Lk)):
        if i not in keep:
            keep.append(i)
    return np.array(keep, dtype=int)
'''
