NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention'
MISTAKE = 'Returns m + l as the log-sum-exp instead of m + log(l).'
NAMED_IF = r"log ?\(?l\b|log-?sum-?exp|logsumexp|m ?\+ ?l\b|\blog\b"
CODE = '''def tiled_attention(Q, K, V, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    out = np.zeros(batch + (Lq, Dv))
    lse = np.zeros(batch + (Lq,))
    scale = 1.0 / np.sqrt(Dk)
    T = tile_size
    for i0 in range(0, Lq, T):
        i1 = min(i0 + T, Lq)
        m = np.full(batch + (i1 - i0,), -np.inf)
        l = np.zeros(batch + (i1 - i0,))
        acc = np.zeros(batch + (i1 - i0, Dv))
        for j0 in range(0, min(Lk, i1) if causal else Lk, T):
            j1 = min(j0 + T, Lk)
            S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) * scale
            if causal and j1 > i0:
                keep = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]
                S = np.where(keep, S, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])
        out[..., i0:i1, :] = acc / l[..., None]
        lse[..., i0:i1] = m + l
    return out, lse
'''
