NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention_recurrent'
MISTAKE = 'reads the output before folding in token t (update after read), so out_t misses its own key and out_0 divides 0 by 0'
NAMED_IF = 'before|order|update.{0,30}(then|first|after)|itself|own|nan|read|current token|0 ?/ ?0'
CODE = '''def linear_attention_recurrent(Q, K, V, feature_map):
    """Causal linear attention as an RNN with a matrix state."""
    L, Dv = V.shape
    M = feature_map(K[:1]).shape[-1]
    S = np.zeros((M, Dv)); z = np.zeros(M)
    out = np.zeros((L, Dv))
    for t in range(L):
        q = feature_map(Q[t])
        den = q @ z
        out[t] = (q @ S) / (den if den != 0 else 1.0)
        k = feature_map(K[t])
        S = S + np.outer(k, V[t])
        z = z + k
    return out
'''
