NOTEBOOK = '11_modern_attention'
CELL = 'grouped_query_attention'
MISTAKE = 'Negates the mask (~mask) before the softmax, the nn.MultiheadAttention convention, though the mask given means True = may attend.'
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention'
CODE = '''def grouped_query_attention(Q, K, V, mask=None):
    B, Hq, Lq, Dh = Q.shape
    Hkv, Lk = K.shape[1], K.shape[2]
    if Hq % Hkv:
        raise ValueError(f"K: expected a number of heads dividing {Hq}, got {Hkv}")
    n = Hq // Hkv
    Qg = Q.reshape(B, Hkv, n, Lq, Dh)
    S = Qg @ np.swapaxes(K[:, :, None], -1, -2) / np.sqrt(Dh)
    if mask is not None:
        m = np.broadcast_to(mask, (B, Hq, Lq, Lk))
        mask = ~m.reshape(B, Hkv, n, Lq, Lk)
    Wt = attnlab.masked_softmax(S, mask)
    out = Wt @ V[:, :, None]
    return out.reshape(B, Hq, Lq, -1), Wt.reshape(B, Hq, Lq, Lk)
'''
