"""Wrong implementations of notebook 11's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

ROPE = ("test_rope", "test_rope_interleaved")
KV = ("test_kv_cache_bytes",)
KVW = ("test_kv_cache_bytes_window",)
REP = ("test_repeat_kv",)
GQA = ("test_grouped_query_attention", "test_grouped_query_attention_masked")
GQA_MASK = ("test_grouped_query_attention_masked",)
SWM = ("test_sliding_window_mask", "test_sliding_window_mask_offset")
SWM_OFFSET = ("test_sliding_window_mask_offset",)


def _rope(theta="base ** (-2.0 * np.arange(Dh // 2) / Dh)", angles="np.asarray(positions)[:, None] * theta[None, :]",
          first="slice(0, None, 2) if interleaved else slice(0, Dh // 2)",
          second="slice(1, None, 2) if interleaved else slice(Dh // 2, Dh)",
          ra="a * cos - b * sin", rb="a * sin + b * cos", odd_check=True) -> str:
    check = ('''    if Dh % 2:
        raise ValueError(f"x: expected an even head width, got {x.shape}")
''' if odd_check else "")
    return f'''
def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
{check}    theta = {theta}
    angles = {angles}
    cos, sin = np.cos(angles), np.sin(angles)
    first = {first}
    second = {second}
    a, b = x[..., first], x[..., second]
    out = np.zeros_like(x)
    out[..., first] = {ra}
    out[..., second] = {rb}
    return out
'''


def _gqa(body: str) -> str:
    return f'''
def grouped_query_attention(Q, K, V, mask=None):
    Hq, Hkv = Q.shape[1], K.shape[1]
    if Hq % Hkv:
        raise ValueError(f"K: Hkv must divide Hq, got {{K.shape}}")
{body}
'''


WRONG = [
    # rope --------------------------------------------------------------------------------------
    Wrong("rope", _rope(first="slice(0, Dh // 2) if interleaved else slice(0, None, 2)",
                        second="slice(Dh // 2, Dh) if interleaved else slice(1, None, 2)"),
          fails=ROPE, message="the pairs mixed up"),
    Wrong("rope", _rope(theta="base ** (-np.arange(Dh // 2) / Dh)"), fails=ROPE,
          message="base^(-k/Dh) instead of base^(-2k/Dh)"),
    Wrong("rope", _rope(angles="(np.asarray(positions)[:, None] + 1) * theta[None, :]"), fails=ROPE,
          message="positions counted from 1"),
    Wrong("rope", _rope(ra="a * cos + b * sin", rb="-a * sin + b * cos"), fails=ROPE,
          message="turned the wrong way"),
    Wrong("rope", _rope(theta="1.0 / base ** (np.arange(0, Dh, 2) / (Dh // 2))"), fails=ROPE,
          message="divided by the number of pairs", label="half-width exponent"),
    Wrong("rope", '''
def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=np.float32)
    Dh = x.shape[-1] // 2 * 2
    theta = base ** (-2.0 * np.arange(Dh // 2) / Dh)
    ang = np.outer(positions, theta)
    out = x.copy()
    if interleaved:
        a, b = x[..., 0:Dh:2], x[..., 1:Dh:2]
        out[..., 0:Dh:2], out[..., 1:Dh:2] = a * np.cos(ang) - b * np.sin(ang), a * np.sin(ang) + b * np.cos(ang)
    else:
        a, b = x[..., :Dh // 2], x[..., Dh // 2:Dh]
        out[..., :Dh // 2], out[..., Dh // 2:Dh] = a * np.cos(ang) - b * np.sin(ang), a * np.sin(ang) + b * np.cos(ang)
    return out
''', fails=ROPE, message="no error for an odd head width"),

    # kv_cache_bytes ----------------------------------------------------------------------------
    Wrong("kv_cache_bytes", '''
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    kept = seq_len if window is None else min(seq_len, window)
    return num_layers * num_kv_heads * head_dim * kept * batch * bytes_per_value
''', fails=KV + KVW, message="K and V counted once"),
    Wrong("kv_cache_bytes", '''
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    kept = seq_len if window is None else min(seq_len, window)
    bits = bytes_per_value * 8
    return 2 * num_layers * num_kv_heads * head_dim * kept * batch * bits
''', fails=KV + KVW, message="bits for bytes"),
    Wrong("kv_cache_bytes", '''
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    return 2 * num_layers * num_kv_heads * head_dim * seq_len * batch * bytes_per_value
''', fails=KVW, message="the window ignored in the calculator"),
    Wrong("kv_cache_bytes", '''
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    kept = window if window else seq_len
    return 2 * num_layers * num_kv_heads * head_dim * kept * batch * bytes_per_value
''', fails=KVW, message="window instead of min(seq_len, window)"),
    Wrong("kv_cache_bytes", '''
def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
    kept = seq_len if window is None else min(seq_len, window)
    return 2 * num_layers * num_kv_heads * head_dim * kept * bytes_per_value
''', fails=KV + KVW, message="the batch ignored"),

    # repeat_kv ---------------------------------------------------------------------------------
    Wrong("repeat_kv", '''
def repeat_kv(X, n_rep):
    return np.tile(X, (1, n_rep, 1, 1))
''', fails=REP, message="`repeat` (tile) order"),
    Wrong("repeat_kv", '''
def repeat_kv(X, n_rep):
    return np.concatenate([X] * n_rep, axis=1)
''', fails=REP, message="`repeat` (tile) order", label="concatenate"),
    Wrong("repeat_kv", '''
def repeat_kv(X, n_rep):
    return np.repeat(X, n_rep, axis=2)
''', fails=REP, message="along the length axis"),
    Wrong("repeat_kv", '''
def repeat_kv(X, n_rep):
    return np.repeat(X, n_rep, axis=0)
''', fails=REP, message="along the batch axis"),
    Wrong("repeat_kv", '''
def repeat_kv(X, n_rep):
    return np.repeat(X, n_rep)
''', fails=REP, message="flattened"),

    # grouped_query_attention --------------------------------------------------------------------
    Wrong("grouped_query_attention", _gqa('''    n = Hq // Hkv
    K, V = np.tile(K, (1, n, 1, 1)), np.tile(V, (1, n, 1, 1))
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)'''),
          fails=GQA, message="`repeat` (tile) order"),
    Wrong("grouped_query_attention", _gqa('''    n = Hq // Hkv
    K, V = np.repeat(K, n, axis=1), np.repeat(V, n, axis=1)
    scores = Q @ np.swapaxes(K, -1, -2)
    weights = attnlab.masked_softmax(scores, mask)
    return weights @ V, weights'''), fails=GQA, message="no scaling"),
    Wrong("grouped_query_attention", _gqa('''    n = Hq // Hkv
    K, V = np.repeat(K, n, axis=1), np.repeat(V, n, axis=1)
    scores = Q @ np.swapaxes(K, -1, -2) / Q.shape[-1]
    weights = attnlab.masked_softmax(scores, mask)
    return weights @ V, weights'''), fails=GQA, message="scaling by Dh instead of √Dh"),
    Wrong("grouped_query_attention", _gqa('''    n = Hq // Hkv
    K, V = np.repeat(K, n, axis=1), np.repeat(V, n, axis=1)
    return attnlab.scaled_dot_product_attention(Q, K, V)'''), fails=GQA_MASK, message="the mask ignored"),
    Wrong("grouped_query_attention", _gqa('''    n = Hq // Hkv
    K, V = np.repeat(K, n, axis=1), np.repeat(V, n, axis=1)
    out, w = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return w, out'''), fails=GQA, message="returning (weights, output)"),

    # sliding_window_mask -----------------------------------------------------------------------
    Wrong("sliding_window_mask", '''
def sliding_window_mask(Lq, Lk, window, offset=0):
    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
    return (d >= 0) & (d <= window)
''', fails=SWM, message="sees itself and `window` tokens before it"),
    Wrong("sliding_window_mask", '''
def sliding_window_mask(Lq, Lk, window, offset=0):
    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
    return (d >= 0) & (d < window - 1)
''', fails=SWM, message="sees only `window - 1` tokens"),
    Wrong("sliding_window_mask", '''
def sliding_window_mask(Lq, Lk, window, offset=0):
    d = np.arange(Lq)[:, None] - np.arange(Lk)[None, :]
    return (d >= 0) & (d < window)
''', fails=SWM_OFFSET, message="the offset ignored"),
    Wrong("sliding_window_mask", '''
def sliding_window_mask(Lq, Lk, window, offset=0):
    d = (np.arange(Lq)[:, None] - offset) - np.arange(Lk)[None, :]
    return (d >= 0) & (d < window)
''', fails=SWM_OFFSET, message="the offset subtracted"),
    Wrong("sliding_window_mask", '''
def sliding_window_mask(Lq, Lk, window, offset=0):
    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
    return np.abs(d) < window
''', fails=SWM, message="a symmetric window"),
    Wrong("sliding_window_mask", '''
def sliding_window_mask(Lq, Lk, window, offset=0):
    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
    return (d > 0) & (d < window)
''', fails=SWM, message="does not see itself"),

    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_shifted_scores", 'prediction_shifted_scores = "every score changes"\n',
          fails=("test_predict_shifted_scores",), message="new positions give new rotations"),
    Wrong("predict_shifted_scores", 'prediction_shifted_scores = "only the diagonal is unchanged"\n',
          fails=("test_predict_shifted_scores",), message="a token against itself has offset 0"),
    Wrong("predict_gqa_cache_gb", "prediction_gqa_cache_gb = 17.18\n",
          fails=("test_predict_gqa_cache_gb",), message="the cache follows the query heads"),
    Wrong("predict_gqa_cache_gb", "prediction_gqa_cache_gb = 2.15\n",
          fails=("test_predict_gqa_cache_gb",), message="K and V counted once"),
    Wrong("predict_gqa_cache_gb", "prediction_gqa_cache_gb = 34.36\n",
          fails=("test_predict_gqa_cache_gb",), message="bits for bytes"),
]
