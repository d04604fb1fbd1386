NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'Crops the map to a multiple of P instead of raising a ValueError when P does not divide H and W.'
NAMED_IF = 'ValueError|raise|divid|divisib|crop'
CODE = '''def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    H2, W2 = H - H % P, W - W % P
    X = X[..., :H2, :W2]
    g = X.reshape(*X.shape[:-3], C, H2 // P, P, W2 // P, P)
    g = np.moveaxis(g, (-5, -4, -3, -2, -1), (-3, -5, -2, -4, -1))
    return g.reshape(*X.shape[:-3], (H2 // P) * (W2 // P), C * P * P)
'''
