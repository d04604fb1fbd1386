NOTEBOOK = "08_efficient_attention"
CELL = "tiled_attention"
MISTAKE = "Returns log(l) as the log-sum-exp, dropping the running max m (the log-sum-exp is m + log l)."
NAMED_IF = r"logsumexp|log-sum-exp|lse|m ?\+ ?log|running max"
CODE = '''
def tiled_attention(Q, K, V, tile_size, causal=False):
    """Scaled dot-product attention a tile at a time, never forming the (Lq, Lk) weights."""
    Q = np.asarray(Q, dtype=float)
    K = np.asarray(K, dtype=float)
    V = np.asarray(V, dtype=float)
    Lq, Dk = Q.shape[-2], Q.shape[-1]
    Lk, Dv = K.shape[-2], V.shape[-1]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    scale = 1.0 / np.sqrt(Dk)
    out = np.empty(batch + (Lq, Dv))
    lse = np.empty(batch + (Lq,))
    for q0 in range(0, Lq, tile_size):
        q1 = min(q0 + tile_size, Lq)
        Qt = Q[..., q0:q1, :]
        m = np.full(batch + (q1 - q0,), -np.inf)
        l = np.zeros(batch + (q1 - q0,))
        acc = np.zeros(batch + (q1 - q0, Dv))
        for k0 in range(0, Lk, tile_size):
            if causal and k0 > q1 - 1:
                break
            k1 = min(k0 + tile_size, Lk, q1) if causal else min(k0 + tile_size, Lk)
            s = Qt @ np.swapaxes(K[..., k0:k1, :], -1, -2) * scale
            if causal and k1 - 1 > q0:
                allowed = np.arange(k0, k1)[None, :] <= np.arange(q0, q1)[:, None]
                s = np.where(allowed, s, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, s, V[..., k0:k1, :])
        out[..., q0:q1, :] = acc / l[..., None]
        lse[..., q0:q1] = np.log(l)
    return out, lse
'''
