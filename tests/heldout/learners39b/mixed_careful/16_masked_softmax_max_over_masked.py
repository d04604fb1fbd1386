NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = "Subtracts the row maximum over all keys, masked ones included, before exponentiating; when a masked key holds the row's largest score (e.g. +1e4) the allowed keys underflow to 0 and the row comes out all zero."
NAMED_IF = 'masked key|max(imum)?.{0,40}(masked|all keys|including|disallowed)|underflow|largest score|stab|extreme'
CODE = '''\
def masked_softmax(scores, mask):
    """Softmax over the last axis, restricted to the keys where mask is True."""
    mask = np.broadcast_to(mask, scores.shape)
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted) * mask
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)
'''
