NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'Never checks that P divides H and W, so a bad patch size is not rejected with a ValueError.'
NAMED_IF = r"ValueError|divid|\braise|reject"
CODE = '''def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    g = X[..., :H // P * P, :W // P * P]
    g = g.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    g = np.moveaxis(g, (-5, -4, -3, -2, -1), (-3, -5, -2, -4, -1))
    return g.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
'''
