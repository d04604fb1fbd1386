NOTEBOOK = "11_modern_attention"
CELL = "kv_cache_bytes"
MISTAKE = "With a window it counts window tokens even when the sequence is shorter, instead of min(seq_len, window)."
NAMED_IF = r"min\(|shorter|seq_len ?<|window.{0,40}(longer|exceed|larger|greater)"
CODE = '''
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    """Bytes of a key-value cache (keys and values, every layer and key/value head)."""
    tokens = seq_len if window is None else window
    return int(2 * num_layers * num_kv_heads * head_dim * tokens * batch * bytes_per_value)
'''
