NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Masks by filling disallowed scores with -1e9 and then takes an ordinary softmax, so a fully masked query gets uniform weights (and the mean of the values) instead of all-zero weights and a zero output.'
NAMED_IF = 'fully[- ]masked|all[- ]masked|no (allowed )?key|empty row|uniform|zero (output|weights)|every key masked|nothing to attend'
CODE = '''\
def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(Q Kᵀ / √Dk) V for one sequence or a batch, with an optional mask."""
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_k)     # (..., Lq, Lk)
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    output = weights @ V                                    # (..., Lq, Dv)
    return output, weights
'''
