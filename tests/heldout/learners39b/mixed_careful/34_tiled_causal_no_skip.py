NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention'
MISTAKE = 'With causal=True masks the keys j > i correctly but still visits (reads) every key tile, including those entirely above the diagonal, instead of skipping them; NaN in the unread keys leaks in through 0 * NaN.'
NAMED_IF = 'skip|never read|above the diagonal|reads? (the )?(key )?tiles|nan|visit|mechanism|every tile'
CODE = '''\
def tiled_attention(Q, K, V, tile_size, causal=False):
    """Scaled dot-product attention a tile at a time, never forming the (Lq, Lk) weights."""
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = K.shape[-2], V.shape[-1]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    output = np.zeros(batch + (Lq, Dv))
    logsumexp = np.zeros(batch + (Lq,))
    scale = 1.0 / np.sqrt(Dk)
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        Q_tile = Q[..., i0:i1, :]                                        # (..., Tq, Dk)
        m = np.full(batch + (i1 - i0,), -np.inf)
        l = np.zeros(batch + (i1 - i0,))
        acc = np.zeros(batch + (i1 - i0, Dv))
        for j0 in range(0, Lk, tile_size):
            j1 = min(j0 + tile_size, Lk)
            S = Q_tile @ np.swapaxes(K[..., j0:j1, :], -1, -2) * scale   # (..., Tq, T)
            if causal:
                keep = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]
                S = np.where(keep, S, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])
        output[..., i0:i1, :] = acc / l[..., None]
        logsumexp[..., i0:i1] = m + np.log(l)
    return output, logsumexp
'''
