NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Forgets the factor 2 for keys and values: counts only the keys, half the right number of bytes.'
NAMED_IF = 'factor (of )?2|keys and values|values|twice|half|2 ?\\*|double'
CODE = '''\
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    """Bytes of a key-value cache (keys and values, every layer and key/value head)."""
    tokens = seq_len if window is None else min(seq_len, window)
    return num_layers * num_kv_heads * head_dim * tokens * batch * bytes_per_value
'''
