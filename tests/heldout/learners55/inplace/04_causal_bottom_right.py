NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Aligns the diagonal at the bottom right (np.tril with k = Lk - Lq) instead of the top left.'
NAMED_IF = r"bottom.right|top.left|align|offset|Lk ?- ?Lq|shift(ed)? diagonal|diagonal (start|begin)"
CODE = '''def causal_mask(Lq, Lk):
    m = np.ones((Lq, Lk), dtype=bool)
    m &= np.tril(m, k=Lk - Lq)
    return m
'''
