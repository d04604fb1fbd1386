NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = 'Writes the attention by hand and divides the per-head scores in place by sqrt(D) instead of sqrt(Dh).'
NAMED_IF = r"sqrt\(?\s*D\b|√ ?D\b(?!h)|D_?h|head width|(wrong|incorrect) scal|sqrt\(D ?/ ?H\)|model width"
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    S = Q @ np.swapaxes(K, -1, -2)
    S /= np.sqrt(X_q.shape[-1])
    A = attnlab.masked_softmax(S, np.ones(S.shape, dtype=bool) if mask is None else mask)
    return attnlab.merge_heads(A @ V) @ W_o, A
'''
