NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Returns np.tril of a float array of ones: 0/1 floats, not booleans.'
NAMED_IF = r"bool|dtype|float|0/1|numbers|0 and 1"
CODE = '''def causal_mask(Lq, Lk):
    m = np.ones((Lq, Lk))
    m[:] = np.tril(m)
    return m
'''
