NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention'
MISTAKE = 'masks the crossing tiles with j < i (strict), so a query never sees its own key (query 0 sees nothing)'
NAMED_IF = 'diagonal|j ?<=? ?i|itself|own key|strict|causal|nan|query 0'
CODE = '''def tiled_attention(Q, K, V, tile_size, causal=False):
    """Scaled dot-product attention a tile at a time, never forming the (Lq, Lk) weights."""
    Q = np.asarray(Q, dtype=float); K = np.asarray(K, dtype=float); V = np.asarray(V, dtype=float)
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    Lq, Dk = Q.shape[-2:]; Lk = K.shape[-2]; Dv = V.shape[-1]
    out = np.zeros(batch + (Lq, Dv)); lse = np.zeros(batch + (Lq,))
    scale = 1.0 / np.sqrt(Dk)
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        q = Q[..., i0:i1, :]
        m = np.full(batch + (i1 - i0,), -np.inf); l = np.zeros(batch + (i1 - i0,))
        acc = np.zeros(batch + (i1 - i0, Dv))
        for j0 in range(0, Lk, tile_size):
            j1 = min(j0 + tile_size, Lk)
            if causal and j0 > i1 - 1:
                break
            s = q @ np.swapaxes(K[..., j0:j1, :], -1, -2) * scale
            if causal and j1 - 1 > i0:
                s = np.where(np.arange(j0, j1)[None, :] < np.arange(i0, i1)[:, None], s, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, s, V[..., j0:j1, :])
        out[..., i0:i1, :] = acc / l[..., None]
        lse[..., i0:i1] = m + np.log(l)
    return out, lse
'''
