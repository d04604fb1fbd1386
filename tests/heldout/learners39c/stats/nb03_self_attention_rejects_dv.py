NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = "validation too strict: raises when W_v's width Dv differs from Dk"
NAMED_IF = 'raise|reject|too strict|input check|own check|D_?v|valid input|ValueError'
CODE = '''def self_attention(X, W_q, W_k, W_v):
    """Single-head self-attention softmax((X W_q)(X W_k)ᵀ / √Dk) (X W_v)."""
    X = np.asarray(X, dtype=float)
    W_q, W_k, W_v = (np.asarray(W, dtype=float) for W in (W_q, W_k, W_v))
    if not (W_q.shape == W_k.shape == W_v.shape):
        raise ValueError(f"projection shapes differ: {W_q.shape}, {W_k.shape}, {W_v.shape}")
    if X.shape[-1] != W_q.shape[0]:
        raise ValueError("X width does not match the weights")
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]), axis=-1)
    return A @ V, A
'''
