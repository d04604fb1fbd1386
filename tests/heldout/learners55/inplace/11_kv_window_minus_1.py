NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Keeps window - 1 tokens under a window (forgets that the window counts the token itself).'
NAMED_IF = r"window|off.by.one|itself|w ?- ?1|one (token )?(too )?(few|less)"
CODE = '''def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    tokens = seq_len
    if window is not None:
        tokens = min(seq_len, window - 1)
    return 2 * num_layers * num_kv_heads * head_dim * tokens * batch * bytes_per_value
'''
