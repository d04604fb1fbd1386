NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Reads the boolean mask as nn.MultiheadAttention does (True = blocked), so it blocks exactly the keys that may be attended to.'
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(total > 0, total, 1.0)
    return w @ V, w
'''
