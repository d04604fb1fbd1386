NOTEBOOK = '13_attention_variants'
CELL = 'topk_attention'
MISTAKE = 'Keeps every key whose score is at least the k-th largest, so ties keep more than k keys.'
NAMED_IF = 'tie|rank|lower (key )?index|k-?th|more than k|key order'
CODE = '''def topk_attention(Q, K, V, k):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    kth = np.sort(S, axis=-1)[..., -k][..., None]
    w = attnlab.masked_softmax(S, S >= kth)
    return w @ V, w
'''
