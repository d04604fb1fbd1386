NOTEBOOK = '11_modern_attention'
CELL = 'grouped_query_attention'
MISTAKE = "Cuts the mask by taking every n_rep-th head (mask[:, ::n_rep, None]), so all the query heads of a group use the first head's mask instead of their own."
NAMED_IF = r"mask[^.]{0,60}(head|group|split|cut|reshap)|(head|group)[^.]{0,60}mask|first head"
CODE = '''def grouped_query_attention(Q, K, V, mask=None):
    B, Hq, Lq, Dh = Q.shape
    Hkv, Lk = K.shape[1], K.shape[2]
    if Hq % Hkv:
        raise ValueError(f"K: expected a number of heads dividing {Hq}, got shape {K.shape}")
    n_rep = Hq // Hkv
    Qg = Q.reshape(B, Hkv, n_rep, Lq, Dh)
    S = Qg @ np.swapaxes(K, -1, -2)[:, :, None] / np.sqrt(Dh)
    m = np.ones((B, Hq, Lq, Lk), dtype=bool) if mask is None else np.broadcast_to(mask, (B, Hq, Lq, Lk))
    m = m[:, ::n_rep, None]
    A = attnlab.masked_softmax(S, m)
    out = A @ V[:, :, None]
    return out.reshape(B, Hq, Lq, V.shape[-1]), A.reshape(B, Hq, Lq, Lk)
'''
