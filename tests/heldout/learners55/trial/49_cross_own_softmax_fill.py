NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = 'Writes its own attention with a -1e9 fill; a query with nothing to attend to gets a uniform average instead of a zero output.'
NAMED_IF = 'fully masked|nothing|empty|zero (output|weights)|uniform|no key|1e-?9'
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q = X_q @ W_q
    K = X_kv @ W_k
    V = X_kv @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        S = np.where(mask, S, -1e9)
    A = attnlab.softmax(S, axis=-1)
    return A @ V, A
'''
