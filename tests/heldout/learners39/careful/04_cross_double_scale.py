NOTEBOOK = "04_masks_and_cross_attention"
CELL = "cross_attention"
MISTAKE = "Pre-scales the queries by 1/sqrt(dk) and then calls scaled_dot_product_attention, which scales again, so the scores are divided by dk."
NAMED_IF = r"sqrt|√|scal|twice|double"
CODE = '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    """Attention of the tokens of X_q over the tokens of X_kv."""
    X_q = np.asarray(X_q, dtype=float)
    X_kv = np.asarray(X_kv, dtype=float)
    Q = X_q @ W_q / np.sqrt(W_q.shape[-1])
    K = X_kv @ W_k
    V = X_kv @ W_v
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
'''
