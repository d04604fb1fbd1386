NOTEBOOK = '13_attention_variants'
CELL = 'sink_window_keys'
MISTAKE = 'Returns a boolean keep-mask over the Lk keys (the mask habit) instead of the sorted integer indices.'
NAMED_IF = 'bool|mask|indices|int(eger)?|dtype|type'
CODE = '''def sink_window_keys(Lk, n_sinks, window):
    idx = np.arange(Lk)
    return (idx < n_sinks) | (idx >= Lk - window)
'''
