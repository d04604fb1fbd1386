NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Fills masked scores with -1e9 and uses a plain stable softmax, so a fully masked row comes out uniform instead of zero.'
NAMED_IF = 'fully masked|no (allowed )?key|empty|uniform|all-?zero|zero (weights|row)|nothing to attend|1e-?9'
CODE = '''def masked_softmax(scores, mask):
    s = np.where(mask, scores, -1e9)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''
