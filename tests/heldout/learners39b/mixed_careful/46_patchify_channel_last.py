NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = 'Orders the features inside a token as (row, column, channel) instead of channel first, then row and column within the patch.'
NAMED_IF = 'order|channel.{0,20}(first|last)|within (the|a) patch|inside (the|a) token|feature order|transpos|permut|axes'
CODE = '''\
def patchify(X, patch):
    """Cut feature maps into non-overlapping P x P patches, one token per patch."""
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: {P} must divide H = {H} and W = {W}")
    lead = X.shape[:-3]
    n = len(lead)
    Y = X.reshape(*lead, C, H // P, P, W // P, P)      # (..., C, H/P, P, W/P, P)
    Y = np.moveaxis(Y, n, -1)                          # (..., H/P, P, W/P, P, C)
    Y = np.swapaxes(Y, n + 1, n + 2)                   # (..., H/P, W/P, P, P, C)
    return Y.reshape(*lead, (H // P) * (W // P), P * P * C)
'''
