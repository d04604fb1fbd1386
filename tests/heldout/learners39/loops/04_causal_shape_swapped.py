NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Builds the mask with shape (Lk, Lq) (rows and columns swapped), which is only right when Lq == Lk.'
NAMED_IF = r'\(Lk, ?Lq\)|swap|argument order|rows and columns|transpos'
CODE = '''def causal_mask(Lq, Lk):
    """Causal mask: query i may attend to keys 0..i."""
    mask = np.zeros((Lk, Lq), dtype=bool)
    for i in range(Lk):
        for j in range(Lq):
            if j <= i:
                mask[i, j] = True
    return mask
'''
