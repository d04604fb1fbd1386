NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Subtracts the maximum over all keys, masked ones included, then zeroes the masked exponentials; when a masked score is far larger the allowed ones underflow and the nan was patched with nan_to_num to zeros.'
NAMED_IF = 'max(imum)? (over|of|includes?) (the )?(allowed|unmasked|all|masked)|masked (score|key|entr)\\w* .*max|underflow|allowed keys|large masked|blocked (score|key)'
CODE = '''def masked_softmax(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
    w = e / e.sum(axis=-1, keepdims=True)
    return np.nan_to_num(w)
'''
