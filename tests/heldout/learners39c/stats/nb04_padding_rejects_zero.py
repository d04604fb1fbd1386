NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'validation too strict: raises ValueError for a length of 0 (an empty sentence is legal)'
NAMED_IF = 'length.{0,20}\\b0\\b|zero|empty|raise|reject|input check|own check|valid input|ValueError'
CODE = '''def padding_mask(lengths, Lk):
    """Padding mask: True on the real (unpadded) tokens of each sequence."""
    lengths = np.asarray(lengths)
    if lengths.ndim != 1:
        raise ValueError("lengths must be 1-D")
    if np.any(lengths < 1) or np.any(lengths > Lk):
        raise ValueError(f"lengths must lie in [1, {Lk}], got {lengths}")
    return np.arange(Lk)[None, :] < lengths[:, None]
'''
