NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'With a window, counts window tokens even when fewer than window tokens have been seen (no min with seq_len).'
NAMED_IF = '\\bmin\\b|shorter|fewer|seq_len ?<|(window|it) (is )?(larger|longer)|not yet|than the window'
CODE = '''def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    n = seq_len if window is None else window
    return int(2 * num_layers * num_kv_heads * head_dim * n * batch * bytes_per_value)
'''
