NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention'
MISTAKE = 'With causal=True it visits every key tile and only masks j > i, never skipping the tiles above the diagonal, so NaN keys there poison the output (and the work is not saved).'
NAMED_IF = r"skip|above the diagonal|never read|nan|tiles? (entirely )?above"
CODE = '''def tiled_attention(Q, K, V, tile_size, causal=False):
    Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    out = np.zeros(batch + (Lq, Dv))
    lse = np.zeros(batch + (Lq,))
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        m = np.full(batch + (i1 - i0,), -np.inf)
        l = np.zeros(batch + (i1 - i0,))
        acc = np.zeros(batch + (i1 - i0, Dv))
        for j0 in range(0, Lk, tile_size):
            j1 = min(j0 + tile_size, Lk)
            S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) / np.sqrt(Dk)
            if causal:
                keep = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]
                S = np.where(keep, S, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])
        out[..., i0:i1, :] = acc / l[..., None]
        lse[..., i0:i1] = m + np.log(l)
    return out, lse
'''
