NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention_recurrent'
MISTAKE = 'Reads out_t from the state before adding token t (S_{t-1}, z_{t-1}), so a token never sees itself and the first output is zero.'
NAMED_IF = r'before|order|write.{0,30}read|read.{0,30}write|itself|S_\{?t ?- ?1|previous|shift'
CODE = '''def linear_attention_recurrent(Q, K, V, feature_map):
    """Causal linear attention as an RNN with a matrix state S_t = S_{t-1} + φ(k_t) v_tᵀ."""
    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    M = phi_k.shape[1]
    Dv = V.shape[1]
    S = np.zeros((M, Dv))
    z = np.zeros(M)
    outs = []
    for t in range(len(Q)):
        denom = phi_q[t] @ z
        if denom == 0:
            outs.append(np.zeros(Dv))
        else:
            outs.append(phi_q[t] @ S / denom)
        S = S + np.outer(phi_k[t], V[t])
        z = z + phi_k[t]
    return np.array(outs)
'''
