NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = "Writes the attention itself and scales by the square root of the query tokens' width (d_model) instead of sqrt(Dk)."
NAMED_IF = 'scal|sqrt|√|\\bDq\\b|model width'
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q = X_q @ W_q
    K = X_kv @ W_k
    V = X_kv @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X_q.shape[-1])
    if mask is None:
        mask = np.ones(S.shape, dtype=bool)
    A = attnlab.masked_softmax(S, mask)
    return A @ V, A
'''
