NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Returns the mask as 0/1 integers instead of booleans.'
NAMED_IF = 'bool|dtype|\\bint|0/1|type|integer'
CODE = '''def causal_mask(Lq, Lk):
    i = np.arange(Lq)[:, None]
    j = np.arange(Lk)[None, :]
    return (j <= i).astype(int)
'''
