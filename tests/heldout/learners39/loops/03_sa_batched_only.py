NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Transposes the keys with K.transpose(0, 2, 1), which assumes a 3-D batch and fails on a single (L, D) sequence (and on other ranks).'
NAMED_IF = r'transpose\(0, ?2, ?1\)|2-D|one sequence|unbatched|single sequence|rank|ndim'
CODE = '''def self_attention(X, W_q, W_k, W_v):
    """Single-head self-attention softmax((X W_q)(X W_k)ᵀ / √Dk) (X W_v)."""
    Q = X @ W_q
    K = X @ W_k
    V = X @ W_v
    scores = Q @ K.transpose(0, 2, 1) / np.sqrt(W_q.shape[1])
    A = attnlab.softmax(scores, axis=-1)
    Z = A @ V
    return Z, A
'''
