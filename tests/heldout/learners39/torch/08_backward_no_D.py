NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention_backward'
MISTAKE = "Computes dS = P * dP without subtracting D_i = dO_i . O_i (the softmax backward's row term), so dQ and dK are wrong."
NAMED_IF = r"\bD_?i\b|\bD =|dO_?i? ?[·.] ?O_?i?|row sum|softmax('s)? (backward|jacobian|derivative)|subtract"
CODE = '''def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    Lq, Dk = Q.shape[-2], Q.shape[-1]
    Lk = K.shape[-2]
    scale = 1.0 / np.sqrt(Dk)
    D = (grad_output * output).sum(axis=-1)
    dQ, dK, dV = np.zeros(Q.shape), np.zeros(K.shape), np.zeros(V.shape)
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        Qi, dOi = Q[..., i0:i1, :], grad_output[..., i0:i1, :]
        lse_i, D_i = logsumexp[..., i0:i1, None], D[..., i0:i1, None]
        j_end = min(Lk, i1) if causal else Lk
        for j0 in range(0, j_end, tile_size):
            j1 = min(j0 + tile_size, j_end)
            Kj, Vj = K[..., j0:j1, :], V[..., j0:j1, :]
            S = Qi @ np.swapaxes(Kj, -1, -2) * scale
            if causal and j1 - 1 > i0:
                S = np.where(np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None], S, -np.inf)
            P = np.exp(S - lse_i)
            dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ dOi
            dP = dOi @ np.swapaxes(Vj, -1, -2)
            dS = P * dP
            dQ[..., i0:i1, :] += dS @ Kj * scale
            dK[..., j0:j1, :] += np.swapaxes(dS, -1, -2) @ Qi * scale
    return dQ, dK, dV
'''
