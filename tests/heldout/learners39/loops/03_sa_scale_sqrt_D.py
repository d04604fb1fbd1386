NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Scales the scores by sqrt(D), the input width X.shape[-1], instead of sqrt(Dk).'
NAMED_IF = r'√D(?![kv_])|sqrt\(D\)|input width|embedding width|W_q\.shape\[0\]|X\.shape\[-1\]|\bD\b instead'
CODE = '''def self_attention(X, W_q, W_k, W_v):
    """Single-head self-attention softmax((X W_q)(X W_k)ᵀ / √Dk) (X W_v)."""
    Q = X @ W_q
    K = X @ W_k
    V = X @ W_v
    D = X.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(D)
    A = attnlab.softmax(scores, axis=-1)
    return A @ V, A
'''
