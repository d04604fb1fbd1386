NOTEBOOK = '13_attention_variants'
CELL = 'topk_attention'
MISTAKE = 'Takes the dense softmax and zeroes the weights outside the top k (multiplying by a keep mask, Keras style) without renormalising.'
NAMED_IF = 'renormali|sum(s)? to (one|1)|do(es)? not sum|after (the )?softmax|before (the )?softmax|dense softmax'
CODE = '''def topk_attention(Q, K, V, k):
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    order = np.argsort(-s, axis=-1, kind="stable")
    rank = np.argsort(order, axis=-1)
    keep = rank < k
    w = attnlab.softmax(s, axis=-1) * keep
    return w @ V, w
'''
