NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Compares the indices the wrong way round (j >= i), giving the upper triangle: each query sees the future instead of the past.'
NAMED_IF = 'upper|lower|future|transpos|j ?>=? ?i|past|i ?<=? ?j|direction|wrong side|the other way'
CODE = '''def causal_mask(Lq, Lk):
    i = np.arange(Lq)[:, None]
    j = np.arange(Lk)[None, :]
    return j >= i
'''
