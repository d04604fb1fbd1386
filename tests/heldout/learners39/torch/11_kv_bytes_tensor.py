NOTEBOOK = '11_modern_attention'
CELL = 'kv_cache_bytes'
MISTAKE = 'Multiplies the factors with torch.prod and returns a 0-d int64 tensor instead of a Python int.'
NAMED_IF = r"tensor|torch|python int|\bint\b|integer|type"
CODE = '''def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    L = seq_len if window is None else min(seq_len, window)
    factors = torch.tensor([2, num_layers, num_kv_heads, head_dim, L, batch, bytes_per_value])
    return torch.prod(factors)
'''
