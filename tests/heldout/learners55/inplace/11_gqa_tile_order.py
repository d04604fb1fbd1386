NOTEBOOK = '11_modern_attention'
CELL = 'grouped_query_attention'
MISTAKE = 'Groups the query heads in tile order (reshape to (B, n_rep, Hkv, ...)), so heads h, h+Hkv, ... share a key/value head instead of neighbours.'
NAMED_IF = r"tile order|group(s|ing|ed)?|consecutive|neighbou?r|h ?\+ ?Hkv|interleav|which (query )?heads|repeat_interleave"
CODE = '''def grouped_query_attention(Q, K, V, mask=None):
    B, Hq, Lq, Dh = Q.shape
    Hkv, Lk = K.shape[1], K.shape[2]
    if Hq % Hkv:
        raise ValueError(f"K: expected a number of heads dividing {Hq}, got shape {K.shape}")
    n_rep = Hq // Hkv
    Qg = Q.reshape(B, n_rep, Hkv, Lq, Dh)
    S = Qg @ np.swapaxes(K, -1, -2)[:, None] / np.sqrt(Dh)
    m = None if mask is None else np.broadcast_to(mask, (B, Hq, Lq, Lk)).reshape(B, n_rep, Hkv, Lq, Lk)
    A = attnlab.masked_softmax(S, np.ones(S.shape, dtype=bool) if m is None else m)
    out = A @ V[:, None]
    return out.reshape(B, Hq, Lq, V.shape[-1]), A.reshape(B, Hq, Lq, Lk)
'''
