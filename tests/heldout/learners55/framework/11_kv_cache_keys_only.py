NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Counts only the keys (one tensor per layer), forgetting that the values are cached too.'
NAMED_IF = 'values|keys and values|factor (of )?(2|two)|twice|\\b2 ?[·x×*]|half'
CODE = '''def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    tokens = seq_len if window is None else min(seq_len, window)
    return int(num_layers * num_kv_heads * head_dim * tokens * batch * bytes_per_value)
'''
