NOTEBOOK = "13_attention_variants"
CELL = 'topk_attention'
MISTAKE = 'Sorts ascending and keeps the first k, i.e. the k lowest-scoring keys.'
NAMED_IF = r"lowest|smallest|worst|ascending|least|bottom|`scores` where `-scores` belongs"
CODE = '''
def topk_attention(Q, K, V, k):
    """Top-k attention: softmax over each query's k highest-scoring keys only."""
    Dh = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    order = np.argsort(scores, axis=-1, kind="stable")
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, order[..., :k], True, axis=-1)
    w = attnlab.softmax(np.where(keep, scores, -np.inf), axis=-1)
    return w @ V, w
'''
