NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention_backward'
MISTAKE = 'computes D = sum(grad_output * output) over the whole array (one number) instead of one per query row'
NAMED_IF = 'per (row|query)|\\bD_?i\\b|\\bD\\b|axis|sum|row|rowsum|delta'
CODE = '''def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    """The gradients of attention, a tile at a time, from the saved log-sum-exp."""
    Q = np.asarray(Q, dtype=float); K = np.asarray(K, dtype=float); V = np.asarray(V, dtype=float)
    Lq, Dk = Q.shape[-2:]; Lk = K.shape[-2]
    scale = 1.0 / np.sqrt(Dk)
    dQ = np.zeros(Q.shape); dK = np.zeros(K.shape); dV = np.zeros(V.shape)
    Drow = np.broadcast_to((grad_output * output).sum(), output.shape[:-1])
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        q = Q[..., i0:i1, :]; do = grad_output[..., i0:i1, :]
        lse = logsumexp[..., i0:i1, None]; Di = Drow[..., i0:i1, None]
        for j0 in range(0, Lk, tile_size):
            j1 = min(j0 + tile_size, Lk)
            if causal and j0 >= i1:
                continue
            k = K[..., j0:j1, :]; v = V[..., j0:j1, :]
            s = q @ np.swapaxes(k, -1, -2) * scale
            if causal and j1 - 1 > i0:
                s = np.where(np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None], s, -np.inf)
            P = np.exp(s - lse)
            dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ do
            dP = do @ np.swapaxes(v, -1, -2)
            dS = P * (dP - Di)
            dQ[..., i0:i1, :] += dS @ k * scale
            dK[..., j0:j1, :] += np.swapaxes(dS, -1, -2) @ q * scale
    return dQ, dK, dV
'''
