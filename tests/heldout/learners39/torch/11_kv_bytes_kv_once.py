NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Counts K and V once: leaves out the factor 2 for keys and values, giving half the bytes.'
NAMED_IF = r"keys? and (the )?values?|K and V|twice|factor (of )?2|\bhalf\b|both keys|2 for|values? too"
CODE = '''def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    tokens = seq_len if window is None else min(seq_len, window)
    return num_layers * num_kv_heads * head_dim * tokens * batch * bytes_per_value
'''
