NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Reassigns K = K.T, which reverses every axis of a batched K instead of swapping the last two.'
NAMED_IF = r"\.T\b|transpos|swapaxes|(every|all) (the )?axes|batch|last two"
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    K = K.T
    scores = Q @ K / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    w = np.exp(scores - top)
    total = w.sum(axis=-1, keepdims=True)
    w /= np.where(total > 0, total, 1.0)
    return w @ V, w
'''
