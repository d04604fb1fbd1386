NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = "Computes the heads' scores by hand and scales them by sqrt(d_model) instead of sqrt(D/H), the width of one head."
NAMED_IF = 'scal|sqrt|√|\\bDh\\b|D ?/ ?H|head width|width of (one|a|each) head'
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    D = X_q.shape[-1]
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(D)
    if mask is None:
        mask = np.ones(S.shape, dtype=bool)
    w = attnlab.masked_softmax(S, mask)
    return attnlab.merge_heads(w @ V) @ W_o, w
'''
