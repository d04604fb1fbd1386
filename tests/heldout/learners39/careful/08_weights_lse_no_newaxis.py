NOTEBOOK = "08_efficient_attention"
CELL = "weights_from_logsumexp"
MISTAKE = "Subtracts logsumexp without adding a key axis, so it broadcasts along the keys (lse_j instead of lse_i) and only runs when Lq == Lk."
NAMED_IF = r"broadcast|\[\.\.\., ?None\]|new ?axis|keepdims|per query|axis|transpos"
CODE = '''
def weights_from_logsumexp(Q, K, logsumexp):
    """Recompute attention weights from each query's log-sum-exp."""
    Q = np.asarray(Q, dtype=float)
    K = np.asarray(K, dtype=float)
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return np.exp(s - np.asarray(logsumexp))
'''
