NOTEBOOK = "13_attention_variants"
CELL = 'topk_attention'
MISTAKE = "Ranks the scores down each key's column (over the queries, axis=-2) instead of along each query's row."
NAMED_IF = r"wrong axis|axis -?2 |per key|over the queries|each key'?s (column|scores)|wrong dimension|along the quer|down (each|the) column"
CODE = '''
def topk_attention(Q, K, V, k):
    """Top-k attention: softmax over each query's k highest-scoring keys only."""
    Dh = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    order = np.argsort(-scores, axis=-2, kind="stable")
    rank = np.argsort(order, axis=-2)
    masked = np.where(rank < k, scores, -np.inf)
    m = masked.max(-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(masked - m)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1), 0.0)
    return w @ V, w
'''
