NOTEBOOK = '13_attention_variants'
CELL = 'sink_window_keys'
MISTAKE = 'Keeps range(n_sinks) even when the cache has seen fewer than n_sinks tokens, returning indices that do not exist.'
NAMED_IF = r"beyond|past the end|>= ?Lk|more than (there are|Lk)|out of range|clip|(don't|do not) exist|than there are tokens|\bshort|fewer"
CODE = '''def sink_window_keys(Lk, n_sinks, window):
    keep = set(range(n_sinks))
    keep |= set(range(max(Lk - window, 0), Lk))
    return np.array(sorted(keep), dtype=int)
'''
