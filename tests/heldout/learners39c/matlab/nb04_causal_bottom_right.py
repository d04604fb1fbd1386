NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'aligns the causal diagonal bottom-right (tril with k = Lk - Lq) instead of top-left'
NAMED_IF = 'align|bottom.?right|top.?left|diagonal|offset|L_?k ?- ?L_?q|j ?<= ?i'
CODE = '''def causal_mask(Lq, Lk):
    """Causal mask: query i may attend to keys 0..i."""
    return np.tril(np.ones((Lq, Lk), dtype=bool), k=Lk - Lq)
'''
