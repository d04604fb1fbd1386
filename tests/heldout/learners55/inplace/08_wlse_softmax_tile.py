NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = "Ignores logsumexp and normalises the tile in place with its own softmax, so a tile's weights sum to one."
NAMED_IF = r"softmax|renormali|sum to (one|1)|logsumexp (is )?(ignored|not used|unused)|\btile\b|normali[sz]"
CODE = '''def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    S -= S.max(axis=-1, keepdims=True)
    np.exp(S, out=S)
    S /= S.sum(axis=-1, keepdims=True)
    return S
'''
