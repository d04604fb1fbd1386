NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'Orders the values inside a patch row, column, channel (channel last) instead of channel first.'
NAMED_IF = 'channel (first|last)|order|inside|within|unfold|C ?, ?P ?, ?P'
CODE = '''def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch {P} does not divide {H}x{W}")
    g = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    g = np.moveaxis(g, (-5, -4, -3, -2, -1), (-1, -5, -3, -4, -2))
    return g.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
'''
