NOTEBOOK = "13_attention_variants"
CELL = 'topk_attention'
MISTAKE = 'Takes the full softmax and zeroes all but the top k weights without renormalising them.'
NAMED_IF = r"renormali|sum to one|sums? to (less|one|1)|zero\w* (the )?(rest|others|other weights)|full softmax|do not sum|not renormal"
CODE = '''
def topk_attention(Q, K, V, k):
    """Top-k attention: softmax over each query's k highest-scoring keys only."""
    Dh = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    weights = attnlab.softmax(scores, axis=-1)
    order = np.argsort(-scores, axis=-1, kind="stable")
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, order[..., :k], True, axis=-1)
    weights = np.where(keep, weights, 0.0)
    return weights @ V, weights
'''
