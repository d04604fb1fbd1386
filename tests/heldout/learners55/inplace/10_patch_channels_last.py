NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'Orders the values inside a token row, column, channel (channels last) instead of channel first.'
NAMED_IF = r"channel (first|last)|\border|inside (a |the )?(token|patch)|unfold|row, ?column"
CODE = '''def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: {P} does not divide H={H} and W={W}")
    g = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    g = np.moveaxis(g, (-5, -4, -3, -2, -1), (-1, -5, -3, -4, -2))
    return g.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
'''
