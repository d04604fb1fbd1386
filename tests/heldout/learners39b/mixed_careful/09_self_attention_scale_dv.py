NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Scales the scores by the square root of the value width Dv instead of the query/key width Dk.'
NAMED_IF = '\\bd_?v\\b|value (width|dim)|width of the values|wrong width|instead of .{0,10}d_?k|√ ?d_?k|sqrt\\(?d_?k'
CODE = '''\
def self_attention(X, W_q, W_k, W_v):
    """Single-head self-attention softmax((X W_q)(X W_k)ᵀ / √Dk) (X W_v)."""
    Q = X @ W_q                      # (..., L, Dk)
    K = X @ W_k                      # (..., L, Dk)
    V = X @ W_v                      # (..., L, Dv)
    d = V.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d)     # (..., L, L)
    scores = scores - scores.max(axis=-1, keepdims=True)
    A = np.exp(scores)
    A = A / A.sum(axis=-1, keepdims=True)
    Z = A @ V                        # (..., L, Dv)
    return Z, A
'''
