NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'Reshapes (..., C, H, W) straight to (..., (H/P)*(W/P), C*P*P) without splitting and moving the axes, so a token is not a patch.'
NAMED_IF = 'reshape|transpos|move|order|scrambl|not a patch|contiguous'
CODE = '''def patchify(X, patch):
    X = np.asarray(X)
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: {P} must divide H={H} and W={W}")
    return X.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
'''
