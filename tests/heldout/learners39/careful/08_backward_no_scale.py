NOTEBOOK = "08_efficient_attention"
CELL = "tiled_attention_backward"
MISTAKE = "dQ and dK omit the 1/sqrt(Dk) factor of the scores in the chain rule."
NAMED_IF = r"sqrt|√|scal"
CODE = '''
def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    """The gradients of attention, a tile at a time, from the saved log-sum-exp."""
    Q = np.asarray(Q, dtype=float)
    K = np.asarray(K, dtype=float)
    V = np.asarray(V, dtype=float)
    dO = np.asarray(grad_output, dtype=float)
    Lq, Dk = Q.shape[-2], Q.shape[-1]
    Lk = K.shape[-2]
    scale = 1.0 / np.sqrt(Dk)
    Di = np.sum(dO * output, axis=-1)                       # (..., Lq)
    dQ = np.zeros(np.broadcast_shapes(Q.shape, dO.shape[:-1] + (Dk,)))
    dK = np.zeros(np.broadcast_shapes(K.shape, Q.shape[:-2] + K.shape[-2:]))
    dV = np.zeros(np.broadcast_shapes(V.shape, Q.shape[:-2] + V.shape[-2:]))
    for q0 in range(0, Lq, tile_size):
        q1 = min(q0 + tile_size, Lq)
        Qt, dOt = Q[..., q0:q1, :], dO[..., q0:q1, :]
        lt, Dt = logsumexp[..., q0:q1, None], Di[..., q0:q1, None]
        for k0 in range(0, Lk, tile_size):
            if causal and k0 > q1 - 1:
                break
            k1 = min(k0 + tile_size, Lk, q1) if causal else min(k0 + tile_size, Lk)
            Kt, Vt = K[..., k0:k1, :], V[..., k0:k1, :]
            P = np.exp(Qt @ np.swapaxes(Kt, -1, -2) * scale - lt)
            if causal and k1 - 1 > q0:
                allowed = np.arange(k0, k1)[None, :] <= np.arange(q0, q1)[:, None]
                P = np.where(allowed, P, 0.0)
            dV[..., k0:k1, :] += np.swapaxes(P, -1, -2) @ dOt
            dP = dOt @ np.swapaxes(Vt, -1, -2)
            dS = P * (dP - Dt)
            dQ[..., q0:q1, :] += dS @ Kt
            dK[..., k0:k1, :] += np.swapaxes(dS, -1, -2) @ Qt
    return dQ, dK, dV
'''
