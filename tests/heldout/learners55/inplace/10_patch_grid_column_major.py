NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'Numbers the patches column by column over the grid instead of row-major.'
NAMED_IF = r"row.major|column.major|\bgrid|\border"
CODE = '''def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: {P} does not divide H={H} and W={W}")
    g = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    g = np.moveaxis(g, (-5, -4, -3, -2, -1), (-3, -4, -2, -5, -1))
    return g.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
'''
