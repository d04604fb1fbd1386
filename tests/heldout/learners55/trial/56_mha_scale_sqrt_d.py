NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = 'Writes its own per-head attention but scales by sqrt(D) instead of sqrt(D/H).'
NAMED_IF = 'sqrt|√|D_?h|D ?/ ?H|scal|temperature'
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    D = X_q.shape[-1]
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(D)
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    m = S.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(S - m)
    t = e.sum(axis=-1, keepdims=True)
    A = e / np.where(t > 0, t, 1.0)
    return attnlab.merge_heads(A @ V) @ W_o, A
'''
