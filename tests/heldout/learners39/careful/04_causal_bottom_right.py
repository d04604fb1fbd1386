NOTEBOOK = "04_masks_and_cross_attention"
CELL = "causal_mask"
MISTAKE = "Builds a bottom-right aligned causal mask (diagonal offset Lk - Lq) instead of the top-left aligned one, which differs whenever Lq != Lk."
NAMED_IF = r"top-left|bottom-right|align|offset|Lk ?- ?Lq"
CODE = '''
def causal_mask(Lq, Lk):
    """Causal mask: query i may attend to keys 0..i."""
    return np.tril(np.ones((Lq, Lk), dtype=bool), k=Lk - Lq)
'''
