NOTEBOOK = '13_attention_variants'
CELL = 'topk_attention'
MISTAKE = 'Takes the full softmax and then zeros the weights outside the top k in place, without renormalising the kept ones.'
NAMED_IF = r"renormali|sum to (one|1)|zero\w* (the )?(rest|others)|full softmax|after (the )?softmax|(don't|do not|does not) sum"
CODE = '''def topk_attention(Q, K, V, k):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    order = np.argsort(-S, axis=-1, kind="stable")
    rank = np.argsort(order, axis=-1)
    w = attnlab.softmax(S, axis=-1)
    w[rank >= k] = 0.0
    return w @ V, w
'''
