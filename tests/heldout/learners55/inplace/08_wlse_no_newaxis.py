NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = 'Subtracts logsumexp without giving it a new last axis, so it broadcasts along the keys instead of per query row.'
NAMED_IF = r"\[\.\.\., ?None\]|axis|broadcast|\brow|column|per query|transpos|keys instead"
CODE = '''def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2)
    S /= np.sqrt(Q.shape[-1])
    S -= logsumexp
    np.exp(S, out=S)
    return S
'''
