NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = "Negates the mask before passing it on (~mask), as nn.MultiheadAttention needs, though the course's SDPA reads True = may attend."
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention'
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q = X_q @ W_q
    K = X_kv @ W_k
    V = X_kv @ W_v
    if mask is not None:
        mask = ~np.asarray(mask, dtype=bool)
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
'''
