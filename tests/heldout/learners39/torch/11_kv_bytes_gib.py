NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Returns the size in GiB (divided by 2**30, a float) instead of the number of bytes as an int.'
NAMED_IF = r"GiB|\bGB\b|2 ?\*\* ?30|unit|bytes, not|1e9|10 ?\*\* ?9|gibibyte"
CODE = '''def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    kept = min(seq_len, window) if window is not None else seq_len
    n_bytes = 2 * num_layers * num_kv_heads * head_dim * kept * batch * bytes_per_value
    return n_bytes / 2**30
'''
