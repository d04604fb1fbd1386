NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention_backward'
MISTAKE = 'Computes D_i = sum(dO * O) over axis=1 by habit: the value axis for one sequence, but the query axis for a batch.'
NAMED_IF = 'D_i|\\bD\\b[^.]{0,40}(axis|sum)|axis|row ?sum|dO ?[·*] ?O'
CODE = '''def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk = K.shape[-2]
    scale = 1.0 / np.sqrt(Dk)
    Dsum = (grad_output * output).sum(axis=1)
    dQ = np.zeros(Q.shape)
    dK = np.zeros(K.shape)
    dV = np.zeros(V.shape)
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        stop = min(Lk, i1) if causal else Lk
        for j0 in range(0, stop, tile_size):
            j1 = min(j0 + tile_size, Lk)
            Qt, Kt, Vt = Q[..., i0:i1, :], K[..., j0:j1, :], V[..., j0:j1, :]
            s = Qt @ np.swapaxes(Kt, -1, -2) * scale
            if causal and j1 - 1 > i0:
                allowed = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]
                s = np.where(allowed, s, -np.inf)
            P = np.exp(s - logsumexp[..., i0:i1, None])
            dO = grad_output[..., i0:i1, :]
            dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ dO
            dP = dO @ np.swapaxes(Vt, -1, -2)
            dS = P * (dP - Dsum[..., i0:i1, None])
            dQ[..., i0:i1, :] += dS @ Kt * scale
            dK[..., j0:j1, :] += np.swapaxes(dS, -1, -2) @ Qt * scale
    return dQ, dK, dV
'''
