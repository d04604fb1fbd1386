NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention_recurrent'
MISTAKE = 'Reads the state before writing token t into it (so a token does not see itself); the 0/0 at t = 0 was patched with an epsilon in the denominator.'
NAMED_IF = 'itself|before|order|write|read|first|self|current token|include'
CODE = '''def linear_attention_recurrent(Q, K, V, feature_map):
    fQ = feature_map(Q)
    fK = feature_map(K)
    M, Dv = fK.shape[-1], V.shape[-1]
    S = np.zeros((M, Dv))
    z = np.zeros(M)
    outs = []
    for t in range(Q.shape[0]):
        outs.append(fQ[t] @ S / (fQ[t] @ z + 1e-9))
        S = S + np.outer(fK[t], V[t])
        z = z + fK[t]
    return np.array(outs)
'''
