NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Returns the size in GB (a float, divided by 1e9) instead of an int number of bytes.'
NAMED_IF = '\\bgb\\b|giga|10 ?\\*\\* ?9|1e9|10\\^9|units?\\b|divided by|float|not (an )?int'
CODE = '''\
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    """Bytes of a key-value cache (keys and values, every layer and key/value head)."""
    tokens = seq_len if window is None else min(seq_len, window)
    total = 2 * num_layers * num_kv_heads * head_dim * tokens * batch * bytes_per_value
    return total / 1e9      # GB
'''
