NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = "Negates the mask (~mask) as nn.MultiheadAttention needs, though the course's attention reads True = may attend."
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention'
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    if mask is not None:
        mask = ~np.asarray(mask, dtype=bool)
    out, w = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return attnlab.merge_heads(out) @ W_o, w
'''
