NOTEBOOK = "06_attention_as_kernel_machine"
CELL = "linear_attention_recurrent"
MISTAKE = "Reads out_t before adding token t to S and z, so each output uses only keys j < t (and the first one is 0/0)."
NAMED_IF = r"before|then read|order|j ?< ?t|j ?<= ?t|own (key|token)|include|first output|nan"
CODE = '''
def linear_attention_recurrent(Q, K, V, feature_map):
    """Causal linear attention as an RNN with a matrix state S_t = S_{t-1} + φ(k_t) v_tᵀ."""
    Q = np.asarray(Q, dtype=float)
    K = np.asarray(K, dtype=float)
    V = np.asarray(V, dtype=float)
    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    M, Dv = phi_k.shape[-1], V.shape[-1]
    S = np.zeros((M, Dv))
    z = np.zeros(M)
    outs = []
    for t in range(len(Q)):
        with np.errstate(invalid="ignore", divide="ignore"):
            outs.append(phi_q[t] @ S / (phi_q[t] @ z))
        S = S + np.outer(phi_k[t], V[t])
        z = z + phi_k[t]
    return np.stack(outs)
'''
