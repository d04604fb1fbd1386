NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'takes the softmax over every key and zeroes the masked ones afterwards, without renormalising'
NAMED_IF = 'renormali|sum to (1|one)|after (the )?softmax|multipl|zero(ed|es)? after|sums? to|normali'
CODE = '''def masked_softmax(scores, mask):
    """Softmax over the last axis, restricted to the keys where mask is True."""
    scores = np.asarray(scores, dtype=float)
    W = attnlab.softmax(scores, axis=-1)
    return W * np.asarray(mask, dtype=float)
'''
