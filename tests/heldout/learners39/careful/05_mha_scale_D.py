NOTEBOOK = "05_multi_head_attention"
CELL = "multi_head_attention"
MISTAKE = "Each head scales its scores by sqrt(D), the model width, instead of sqrt(D / H), the head width."
NAMED_IF = r"sqrt|√|scal|head width|D ?/ ?H|Dh"
CODE = '''
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    """Multi-head attention: split into heads, attend in each, merge, project."""
    X_q = np.asarray(X_q, dtype=float)
    X_kv = np.asarray(X_kv, dtype=float)
    D = X_q.shape[-1]
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(D)
    if mask is None:
        weights = attnlab.softmax(scores, axis=-1)
    else:
        weights = attnlab.masked_softmax(scores, mask)
    out = attnlab.merge_heads(weights @ V) @ W_o
    return out, weights
'''
