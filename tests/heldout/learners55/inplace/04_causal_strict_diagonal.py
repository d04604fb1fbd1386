NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Starts from ones and clears the upper triangle including the diagonal (np.triu_indices with k=0), so a query cannot attend to itself (j < i instead of j <= i).'
NAMED_IF = r"diagonal|itself|j ?< ?i|strict|off.by.one|own (position|token|key)|present|j ?<= ?i"
CODE = '''def causal_mask(Lq, Lk):
    m = np.ones((Lq, Lk), dtype=bool)
    m[np.triu_indices(Lq, 0, Lk)] = False
    return m
'''
