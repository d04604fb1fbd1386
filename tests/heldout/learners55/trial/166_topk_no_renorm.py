NOTEBOOK = '13_attention_variants'
CELL = 'topk_attention'
MISTAKE = 'Takes the dense softmax and zeroes the keys outside the top k afterwards, without renormalising.'
NAMED_IF = 'renormali|sum to (one|1)|sums? to|over the kept|after the softmax'
CODE = '''def topk_attention(Q, K, V, k):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    order = np.argsort(-S, axis=-1, kind="stable")
    rank = np.argsort(order, axis=-1, kind="stable")
    w = attnlab.softmax(S, axis=-1) * (rank < k)
    return w @ V, w
'''
