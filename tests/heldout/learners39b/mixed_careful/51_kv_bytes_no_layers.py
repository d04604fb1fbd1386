NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Leaves out the number of layers: returns the cache of one layer.'
NAMED_IF = 'layer'
CODE = '''\
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    """Bytes of a key-value cache (keys and values, every layer and key/value head)."""
    tokens = seq_len if window is None else min(seq_len, window)
    per_token = 2 * num_kv_heads * head_dim * bytes_per_value     # keys and values
    return int(per_token * tokens * batch)
'''
