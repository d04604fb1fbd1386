NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention_recurrent'
MISTAKE = 'Reads out_t from the state before adding token t to it (read, then write).'
NAMED_IF = r"before (the )?updat|then read|order|current token|own (key|token)|read (first|before)|off.by.one|previous state|itself|nan"
CODE = '''def linear_attention_recurrent(Q, K, V, feature_map):
    pQ, pK = feature_map(Q), feature_map(K)
    S = np.zeros((pK.shape[-1], V.shape[-1]))
    z = np.zeros(pK.shape[-1])
    out = []
    for t in range(len(Q)):
        out.append(pQ[t] @ S / (pQ[t] @ z))
        S += np.outer(pK[t], V[t])
        z += pK[t]
    return np.array(out)
'''
