NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = 'Applies the mask by multiplying the weights after the softmax, without renormalising, so the allowed weights no longer sum to one.'
NAMED_IF = 'after (the )?softmax|renormali|re-normali|sum to (one|1)|before (the )?softmax|post[- ]softmax|multipl.{0,30}mask'
CODE = '''\
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    """Attention of the tokens of X_q over the tokens of X_kv."""
    Q = X_q @ W_q                    # (..., Lq, Dk)
    K = X_kv @ W_k                   # (..., Lk, Dk)
    V = X_kv @ W_v                   # (..., Lk, Dv)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])   # (..., Lq, Lk)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    if mask is not None:
        weights = weights * mask
    return weights @ V, weights
'''
