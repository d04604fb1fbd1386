NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = "Scales every head's scores by sqrt(D), the model width, instead of sqrt(D / H), the head width."
NAMED_IF = '√ ?d\\b(?! ?/)|sqrt\\(? ?d ?\\)?(?! ?/)|model width|full width|d_model|head (width|dim)|\\bdh\\b|d ?/ ?h|per[- ]head'
CODE = '''\
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    """Multi-head attention: split into heads, attend in each, merge, project."""
    B, Lq, D = X_q.shape
    Lk = X_kv.shape[1]
    H = num_heads
    Dh = D // H
    Q = (X_q @ W_q).reshape(B, Lq, H, Dh).transpose(0, 2, 1, 3)    # (B, H, Lq, Dh)
    K = (X_kv @ W_k).reshape(B, Lk, H, Dh).transpose(0, 2, 1, 3)   # (B, H, Lk, Dh)
    V = (X_kv @ W_v).reshape(B, Lk, H, Dh).transpose(0, 2, 1, 3)   # (B, H, Lk, Dh)
    scores = Q @ K.transpose(0, 1, 3, 2) / np.sqrt(D)              # (B, H, Lq, Lk)
    if mask is None:
        scores = scores - scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights = weights / weights.sum(axis=-1, keepdims=True)
    else:
        weights = attnlab.masked_softmax(scores, mask)
    heads = weights @ V                                             # (B, H, Lq, Dh)
    merged = heads.transpose(0, 2, 1, 3).reshape(B, Lq, D)          # (B, Lq, D)
    return merged @ W_o, weights
'''
