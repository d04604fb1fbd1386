NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = "Orders the values inside a patch channels-last, (row, column, channel) as in the einops pattern '(p1 p2 c)' of JAX ViT code, instead of channel first."
NAMED_IF = 'channels?[- ]?(first|last)|order|\\(p1 p2 c\\)|inside (a|the) (patch|token)|within (a|the) patch|unfold'
CODE = '''def patchify(X, patch):
    X = np.asarray(X)
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: {P} must divide H={H} and W={W}")
    n = X.ndim - 3
    g = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    perm = list(range(n)) + [n + 1, n + 3, n + 2, n + 4, n]
    g = g.transpose(perm)
    return g.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
'''
