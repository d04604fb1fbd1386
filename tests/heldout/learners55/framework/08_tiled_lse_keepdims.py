NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention'
MISTAKE = 'Returns the log-sum-exp with a trailing axis, (..., Lq, 1), by keepdims habit, instead of (..., Lq).'
NAMED_IF = 'shape|keepdims|extra (axis|dimension)|trailing|\\(\\.\\.\\., ?Lq, ?1\\)|squeeze|logsumexp'
CODE = '''def tiled_attention(Q, K, V, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = K.shape[-2], V.shape[-1]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    out = np.zeros(batch + (Lq, Dv))
    lse = np.zeros(batch + (Lq, 1))
    scale = 1.0 / np.sqrt(Dk)
    shift = 0
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        m = np.full(batch + (i1 - i0,), -np.inf)
        l = np.zeros(batch + (i1 - i0,))
        acc = np.zeros(batch + (i1 - i0, Dv))
        stop = min(Lk, i1 + shift) if causal else Lk
        for j0 in range(0, stop, tile_size):
            j1 = min(j0 + tile_size, Lk)
            s = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) * scale
            if causal and j1 - 1 > i0 + shift:
                allowed = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None] + shift
                s = np.where(allowed, s, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, s, V[..., j0:j1, :])
        out[..., i0:i1, :] = acc / l[..., None]
        lse[..., i0:i1, :] = (m + np.log(l))[..., None]
    return out, lse
'''
