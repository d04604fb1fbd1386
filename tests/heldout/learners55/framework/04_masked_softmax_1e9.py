NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Adds -1e9 at the masked keys (Keras habit) instead of excluding them: a row with no allowed key gets uniform weights, not zeros.'
NAMED_IF = '1e9|1e\\+?09|-?10\\^?9|large negative|finite (fill|value|number|constant)|uniform|instead of -?inf'
CODE = '''def masked_softmax(scores, mask):
    scores = np.asarray(scores, dtype=float)
    s = scores + np.where(mask, 0.0, -1e9)
    return attnlab.softmax(s, axis=-1)
'''
