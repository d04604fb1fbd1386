NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention_recurrent'
MISTAKE = "overwrites the state with the current token's outer product at every step instead of accumulating it"
NAMED_IF = 'accumul|reset|overwr|state|sum|prefix|previous|S_?\\{?t ?- ?1|add'
CODE = '''def linear_attention_recurrent(Q, K, V, feature_map):
    """Causal linear attention as an RNN with a matrix state."""
    Q = np.asarray(Q, dtype=float); K = np.asarray(K, dtype=float); V = np.asarray(V, dtype=float)
    L = Q.shape[0]
    out = []
    for t in range(L):
        phik = feature_map(K[t])
        S = np.outer(phik, V[t])
        z = phik
        phiq = feature_map(Q[t])
        out.append(phiq @ S / (phiq @ z))
    return np.array(out)
'''
