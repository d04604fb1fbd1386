NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Uses K.T, which reverses every axis of a batched K instead of swapping only the last two.'
NAMED_IF = r'\.T\b|transpos|swapaxes|revers'
FAILS = ('test_sdpa', 'test_sdpa_batched', 'test_sdpa_mask', 'test_sdpa_fully_masked')
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(Q Kᵀ / √Dk) V for one sequence or a batch, with an optional mask."""
    d_k = Q.shape[-1]
    scores = Q @ K.T / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    total = np.sum(e, axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1.0)
    return weights @ V, weights
'''
