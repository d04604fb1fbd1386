NOTEBOOK = '11_modern_attention'
CELL = 'grouped_query_attention'
MISTAKE = 'Groups the query heads in tile order (reshape to (B, n_rep, Hkv, ...), the jnp.tile / repeat habit), so head h reads key/value head h % Hkv instead of h // n_rep.'
NAMED_IF = 'tile|interleav|h ?% ?Hkv|modulo|neighbou?r|consecutive|repeat_interleave|group(s|ing)? (order|of)|which (query )?heads'
CODE = '''def grouped_query_attention(Q, K, V, mask=None):
    B, Hq, Lq, Dh = Q.shape
    Hkv, Lk = K.shape[1], K.shape[2]
    if Hq % Hkv:
        raise ValueError(f"K: expected a number of heads dividing {Hq}, got {Hkv}")
    n = Hq // Hkv
    Qg = Q.reshape(B, n, Hkv, Lq, Dh).transpose(0, 2, 1, 3, 4)
    S = Qg @ np.swapaxes(K[:, :, None], -1, -2) / np.sqrt(Dh)
    if mask is not None:
        m = np.broadcast_to(mask, (B, Hq, Lq, Lk))
        mask = m.reshape(B, n, Hkv, Lq, Lk).transpose(0, 2, 1, 3, 4)
    Wt = attnlab.masked_softmax(S, mask)
    out = Wt @ V[:, :, None]
    return out.transpose(0, 2, 1, 3, 4).reshape(B, Hq, Lq, -1), Wt.transpose(0, 2, 1, 3, 4).reshape(B, Hq, Lq, Lk)
'''
