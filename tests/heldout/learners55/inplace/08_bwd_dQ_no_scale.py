NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention_backward'
MISTAKE = 'Accumulates dS K into dQ without the 1/sqrt(Dk) factor.'
NAMED_IF = r"scal|sqrt|√|\bdQ\b"
CODE = '''def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk = K.shape[-2]
    sc = 1.0 / np.sqrt(Dk)
    D = (grad_output * output).sum(axis=-1)
    dQ = np.zeros(Q.shape); dK = np.zeros(K.shape); dV = np.zeros(V.shape)
    T = tile_size
    for i0 in range(0, Lq, T):
        i1 = min(i0 + T, Lq)
        Qi = Q[..., i0:i1, :]; dOi = grad_output[..., i0:i1, :]
        for j0 in range(0, min(Lk, i1) if causal else Lk, T):
            j1 = min(j0 + T, Lk)
            Kj = K[..., j0:j1, :]; Vj = V[..., j0:j1, :]
            S = Qi @ np.swapaxes(Kj, -1, -2) * sc
            if causal and j1 > i0:
                S = np.where(np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None], S, -np.inf)
            P = np.exp(S - logsumexp[..., i0:i1, None])
            dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ dOi
            dP = dOi @ np.swapaxes(Vj, -1, -2)
            dS = P * (dP - D[..., i0:i1, None])
            dQ[..., i0:i1, :] += dS @ Kj
            dK[..., j0:j1, :] += np.swapaxes(dS, -1, -2) @ Qi * sc
    return dQ, dK, dV
'''
