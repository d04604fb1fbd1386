NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Uses j < i instead of j <= i, so a query cannot attend to itself (the diagonal is False).'
NAMED_IF = r'diagonal|strict|j ?< ?i|<=|itself|present|off.by.one'
CODE = '''def causal_mask(Lq, Lk):
    """Causal mask: query i may attend to keys 0..i."""
    return np.array([[j < i for j in range(Lk)] for i in range(Lq)], dtype=bool)
'''
