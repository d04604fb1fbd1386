NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = 'ignores the log-sum-exp and takes a softmax over the given keys: wrong for one tile of the keys'
NAMED_IF = 'logsumexp|log.?sum.?exp|tile|renormali|softmax|sum to (1|one)|ignor'
CODE = '''def weights_from_logsumexp(Q, K, logsumexp):
    """Recompute attention weights from each query's log-sum-exp."""
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    S = S - S.max(axis=-1, keepdims=True)
    E = np.exp(S)
    return E / E.sum(axis=-1, keepdims=True)
'''
