NOTEBOOK = "02_query_key_value"
CELL = "scaled_dot_product_attention"
MISTAKE = "Applies the mask by zeroing weights after the softmax without renormalising, so the remaining weights of a partly masked row do not sum to one."
NAMED_IF = r"renormali|sum to (one|1)|after the softmax|before the softmax|multipl.{0,30}mask"
CODE = '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(Q Kᵀ / √Dk) V for one sequence or a batch, with an optional mask."""
    Q = np.asarray(Q, dtype=float)
    K = np.asarray(K, dtype=float)
    V = np.asarray(V, dtype=float)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
    weights = attnlab.softmax(scores, axis=-1)
    if mask is not None:
        weights = weights * np.asarray(mask, dtype=bool)
    return weights @ V, weights
'''
