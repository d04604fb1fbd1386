NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = "Ignores the log-sum-exp and takes a softmax over the given keys, so a tile's weights wrongly sum to one."
NAMED_IF = 'softmax|renormali|sum to one|sums? to 1|tile|logsumexp|log-sum-exp'
CODE = '''def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return attnlab.softmax(S, axis=-1)
'''
