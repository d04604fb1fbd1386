NOTEBOOK = "02_query_key_value"
CELL = "scaled_dot_product_attention"
MISTAKE = "Fills masked scores with -1e9 before the softmax, so a fully masked row gets uniform weights and the mean of V instead of zeros."
NAMED_IF = r"fully masked|no key|all[- ]masked|uniform|all-zero|zero output|1e9|-1e9|nothing to attend"
CODE = '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(Q Kᵀ / √Dk) V for one sequence or a batch, with an optional mask."""
    Q = np.asarray(Q, dtype=float)
    K = np.asarray(K, dtype=float)
    V = np.asarray(V, dtype=float)
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    weights = attnlab.softmax(scores, axis=-1)
    return weights @ V, weights
'''
