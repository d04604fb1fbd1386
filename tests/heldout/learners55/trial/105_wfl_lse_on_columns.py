NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = 'Subtracts logsumexp without a new last axis, so it broadcasts along the keys (per column) instead of per row; runs only when Lq == Lk.'
NAMED_IF = '\\[\\.\\.\\., ?None\\]|new (last )?axis|row|column|broadcast|per query|transpos'
CODE = '''def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return np.exp(S - logsumexp)
'''
