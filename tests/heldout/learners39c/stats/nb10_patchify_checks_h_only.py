NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'checks only that P divides H; a width W that P does not divide is not rejected'
NAMED_IF = 'raise|ValueError|divid|\\bW\\b|width|did not raise'
CODE = '''def patchify(X, patch):
    """Cut feature maps into non-overlapping P x P patches, one token per patch."""
    X = np.asarray(X)
    if X.ndim < 3:
        raise ValueError("X must be (..., C, H, W)")
    C, H, W = X.shape[-3:]
    P = int(patch)
    if P < 1 or H % P != 0:
        raise ValueError(f"patch size {P} must divide the height {H}")
    nW = W // P
    Xc = X[..., : nW * P]
    g = Xc.reshape(*X.shape[:-3], C, H // P, P, nW, P)
    g = np.moveaxis(g, (-5, -4, -3, -2, -1), (-3, -5, -2, -4, -1))
    return g.reshape(*X.shape[:-3], (H // P) * nW, C * P * P)
'''
