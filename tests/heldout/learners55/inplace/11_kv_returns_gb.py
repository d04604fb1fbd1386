NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Divides by 1e9 and returns GB as a float instead of the exact number of bytes as an int.'
NAMED_IF = r"\bbytes|\bGB\b|\bint\b|float|divid|10 ?\*\* ?9|1e9|units?"
CODE = '''def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    tokens = seq_len if window is None else min(seq_len, window)
    total = 2 * num_layers * num_kv_heads * head_dim * tokens * batch * bytes_per_value
    total /= 1e9
    return total
'''
