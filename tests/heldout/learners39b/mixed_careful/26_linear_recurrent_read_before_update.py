NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention_recurrent'
MISTAKE = 'Reads the state before adding the current key and value (S_{t-1} instead of S_t), so query t sees only keys j < t and the first output is zero.'
NAMED_IF = 'before|after|order|current (key|token|step)|itself|off[- ]by[- ]one|s_?\\{?t ?- ?1|exclud|shift|j ?< ?t|diagonal'
CODE = '''\
def linear_attention_recurrent(Q, K, V, feature_map):
    """Causal linear attention as an RNN with a matrix state S_t = S_{t-1} + φ(k_t) v_tᵀ."""
    L = Q.shape[0]
    phi_q = feature_map(Q)            # (L, M)
    phi_k = feature_map(K)            # (L, M)
    M, Dv = phi_k.shape[-1], V.shape[-1]
    S = np.zeros((M, Dv))
    z = np.zeros(M)
    out = np.zeros((L, Dv))
    for t in range(L):
        num = phi_q[t] @ S            # (Dv,)
        den = phi_q[t] @ z
        if den > 0:
            out[t] = num / den
        S = S + np.outer(phi_k[t], V[t])
        z = z + phi_k[t]
    return out
'''
