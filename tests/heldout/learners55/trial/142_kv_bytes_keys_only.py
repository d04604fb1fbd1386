NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Counts only the keys: forgets the factor 2 for the values.'
NAMED_IF = '\\bV\\b|values?|keys? and values?|factor (of )?(2|two)|\\btwo\\b|both|half'
CODE = '''def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    n = seq_len if window is None else min(seq_len, window)
    return int(num_layers * num_kv_heads * head_dim * n * batch * bytes_per_value)
'''
