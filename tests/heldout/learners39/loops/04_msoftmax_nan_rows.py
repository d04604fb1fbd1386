NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Fills blocked scores with -inf and calls a plain softmax, so a fully masked row gives NaN instead of zeros.'
NAMED_IF = r'nan|inf ?- ?inf|0 ?/ ?0|not a number'
CODE = '''def masked_softmax(scores, mask):
    """Softmax over the last axis, restricted to the keys where mask is True."""
    s = np.where(mask, scores, -np.inf)
    return attnlab.softmax(s, axis=-1)
'''
