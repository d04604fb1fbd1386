NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Returns an additive float mask (0 where allowed, -inf where not) as torch and TF use, instead of a boolean mask.'
NAMED_IF = 'bool|additive|float|-?inf|dtype|0/1|numbers'
CODE = '''def causal_mask(Lq, Lk):
    i = np.arange(Lq)[:, None]
    j = np.arange(Lk)[None, :]
    return np.where(j <= i, 0.0, -np.inf)
'''
