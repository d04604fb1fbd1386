NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention'
MISTAKE = 'Masks j > i in every tile but visits all key tiles, reading the keys above the diagonal (NaN there poisons the output).'
NAMED_IF = 'skip|above the diagonal|never read|\\bNaN|visit|read'
CODE = '''def tiled_attention(Q, K, V, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = K.shape[-2], V.shape[-1]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    out = np.zeros(batch + (Lq, Dv))
    lse_all = np.zeros(batch + (Lq,))
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        m = np.full(batch + (i1 - i0,), -np.inf)
        l = np.zeros(batch + (i1 - i0,))
        acc = np.zeros(batch + (i1 - i0, Dv))
        kend = Lk
        for j0 in range(0, kend, tile_size):
            j1 = min(j0 + tile_size, kend)
            S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) / np.sqrt(Dk)
            if causal:
                S = np.where(np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None], S, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])
        out[..., i0:i1, :] = acc / l[..., None]
        lse_all[..., i0:i1] = m + np.log(l)
    return out, lse_all
'''
