NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = "Scales every head's scores by sqrt(D) instead of sqrt(D/H), the head width."
NAMED_IF = r'sqrt\(D\)|√D(?![h_/])|√\(?D ?/ ?H|sqrt\(D ?/ ?H\)|head width|D_?h\b|scal'
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    """Multi-head attention: split into heads, attend in each, merge, project."""
    D = X_q.shape[-1]
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(D)
    if mask is not None:
        weights = attnlab.masked_softmax(scores, mask)
    else:
        weights = attnlab.softmax(scores, axis=-1)
    Z = weights @ V
    return attnlab.merge_heads(Z) @ W_o, weights
'''
