NOTEBOOK = "03_self_attention"
CELL = "self_attention"
MISTAKE = "Scales the scores by sqrt(D), the width of the input tokens, instead of sqrt(Dk), the width of the queries and keys."
NAMED_IF = r"sqrt|√|scal"
CODE = '''
def self_attention(X, W_q, W_k, W_v):
    """Single-head self-attention softmax((X W_q)(X W_k)ᵀ / √Dk) (X W_v)."""
    X = np.asarray(X, dtype=float)
    Q = X @ W_q
    K = X @ W_k
    V = X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X.shape[-1])
    A = attnlab.softmax(scores, axis=-1)
    return A @ V, A
'''
