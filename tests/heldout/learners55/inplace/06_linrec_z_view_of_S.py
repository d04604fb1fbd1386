NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention_recurrent'
MISTAKE = "Makes z a view of S's first column (z = S[:, 0]), so every z += phi(k_t) also changes S, and every S update changes z."
NAMED_IF = r"ali|view|shared|same (memory|array|buffer)|\bz\b[^.]{0,40}\bS\b|\bS\b[^.]{0,40}\bz\b|normali[sz]er|denominator"
CODE = '''def linear_attention_recurrent(Q, K, V, feature_map):
    pQ, pK = feature_map(Q), feature_map(K)
    M, Dv = pK.shape[-1], V.shape[-1]
    S = np.zeros((M, max(Dv, 1)))
    z = S[:, 0]
    out = np.empty((len(Q), Dv))
    for t in range(len(Q)):
        S += np.outer(pK[t], V[t])
        z += pK[t]
        out[t] = pQ[t] @ S / (pQ[t] @ z)
    return out
'''
