NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Scales by sqrt(Dv) (the width of V) instead of sqrt(Dk).'
NAMED_IF = 'D_?k|D_?v|width|sqrt|√|scal'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(V.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    tot = e.sum(axis=-1, keepdims=True)
    w = e / np.where(tot > 0, tot, 1.0)
    return w @ V, w
'''
