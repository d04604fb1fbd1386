NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Zeroes the masked weights after the softmax instead of before, so the remaining weights are not renormalised and rows sum to less than one.'
NAMED_IF = r'after|renormali|sum to (one|1)|multipl'
CODE = '''def masked_softmax(scores, mask):
    """Softmax over the last axis, restricted to the keys where mask is True."""
    w = attnlab.softmax(scores, axis=-1)
    return w * mask
'''
