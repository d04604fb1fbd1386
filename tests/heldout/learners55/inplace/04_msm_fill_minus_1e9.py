NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Fills blocked scores with -1e9 instead of -inf, so a fully masked row becomes uniform weights instead of zeros.'
NAMED_IF = r"uniform|1e9|1e\+?09|large negative|finite (fill|number|value)|fully masked|all.zero|empty row|nothing to attend|no (allowed|true)"
CODE = '''def masked_softmax(scores, mask):
    s = np.where(mask, scores, -1e9)
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s
'''
