NOTEBOOK = "13_attention_variants"
CELL = 'topk_attention'
MISTAKE = 'Sorts ascending (stable) and keeps the last k, so among tied scores the higher key index is kept.'
NAMED_IF = r"ties? (broken|kept|go|to|towards)|higher (key )?index|lower (key )?index|later key"
CODE = '''
def topk_attention(Q, K, V, k):
    """Top-k attention: softmax over each query's k highest-scoring keys only."""
    Dh = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    order = np.argsort(scores, axis=-1, kind="stable")[..., ::-1]     # best first
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, order[..., :k], True, axis=-1)
    masked = np.where(keep, scores, -np.inf)
    e = np.exp(masked - masked.max(-1, keepdims=True))
    w = e / e.sum(-1, keepdims=True)
    return w @ V, w
'''
