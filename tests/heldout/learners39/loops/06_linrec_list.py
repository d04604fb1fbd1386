NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention_recurrent'
MISTAKE = 'Returns the Python list of (Dv,) rows instead of stacking them into an (L, Dv) array.'
NAMED_IF = r'list|ndarray|type'
CODE = '''def linear_attention_recurrent(Q, K, V, feature_map):
    """Causal linear attention as an RNN with a matrix state S_t = S_{t-1} + φ(k_t) v_tᵀ."""
    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    S = np.zeros((phi_k.shape[1], V.shape[1]))
    z = np.zeros(phi_k.shape[1])
    outs = []
    for t in range(len(Q)):
        S = S + np.outer(phi_k[t], V[t])
        z = z + phi_k[t]
        outs.append(phi_q[t] @ S / (phi_q[t] @ z))
    return outs
'''
