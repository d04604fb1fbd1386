NOTEBOOK = '13_attention_variants'
CELL = 'topk_attention'
MISTAKE = 'Keeps every key whose score is at least the k-th largest (the torch.topk values threshold habit), so ties keep more than k keys.'
NAMED_IF = 'ties?|equal scores|lower (key )?index|more than k|threshold|k-th'
CODE = '''def topk_attention(Q, K, V, k):
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    kth = np.sort(s, axis=-1)[..., -k][..., None]
    keep = s >= kth
    w = attnlab.masked_softmax(s, keep)
    return w @ V, w
'''
