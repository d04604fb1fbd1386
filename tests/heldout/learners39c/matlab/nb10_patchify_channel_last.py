NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'orders the values inside a token row, column, then channel (channel last) instead of channel first'
NAMED_IF = 'channel (first|last)|order|inside|within|layout|unfold|C ?\\* ?P'
CODE = '''def patchify(X, patch):
    """Cut feature maps into non-overlapping P x P patches, one token per patch."""
    X = np.asarray(X)
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch {P} does not divide {H}x{W}")
    g = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    g = np.moveaxis(g, (-5, -4, -3, -2, -1), (-1, -5, -3, -4, -2))   # grid row, grid col, in-row, in-col, C
    return g.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
'''
