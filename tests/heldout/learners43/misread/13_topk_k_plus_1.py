NOTEBOOK = "13_attention_variants"
CELL = 'topk_attention'
MISTAKE = 'Off by one: keeps the keys of rank <= k, i.e. k + 1 keys per query.'
NAMED_IF = r"k ?\+ ?1|one (key )?(too )?many|off[- ]by[- ]one|more than k|extra key|one key (too many|extra|more)"
CODE = '''
def topk_attention(Q, K, V, k):
    """Top-k attention: softmax over each query's k highest-scoring keys only."""
    Dh = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    order = np.argsort(-scores, axis=-1, kind="stable")
    rank = np.argsort(order, axis=-1)
    masked = np.where(rank <= k, scores, -np.inf)
    w = attnlab.softmax(masked, axis=-1)
    return w @ V, w
'''
