NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention_backward'
MISTAKE = 'Forgets the 1/sqrt(dk) factor in dK (dQ has it).'
NAMED_IF = 'scale|sqrt|√|\\bdK\\b|factor'
CODE = '''def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk = K.shape[-2]
    scale = 1.0 / np.sqrt(Dk)
    D = (grad_output * output).sum(axis=-1)
    dQ = np.zeros(Q.shape); dK = np.zeros(K.shape); dV = np.zeros(V.shape)
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        kend = min(Lk, i1) if causal else Lk
        for j0 in range(0, kend, tile_size):
            j1 = min(j0 + tile_size, kend)
            Qt, Kt, Vt = Q[..., i0:i1, :], K[..., j0:j1, :], V[..., j0:j1, :]
            S = Qt @ np.swapaxes(Kt, -1, -2) * scale
            if causal and j1 > i0:
                S = np.where(np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None], S, -np.inf)
            P = np.exp(S - logsumexp[..., i0:i1, None])
            dO = grad_output[..., i0:i1, :]
            dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ dO
            dP = dO @ np.swapaxes(Vt, -1, -2)
            dS = P * (dP - D[..., i0:i1, None])
            dQ[..., i0:i1, :] += dS @ Kt * scale
            dK[..., j0:j1, :] += np.swapaxes(dS, -1, -2) @ Qt * 1.0
    return dQ, dK, dV
'''
