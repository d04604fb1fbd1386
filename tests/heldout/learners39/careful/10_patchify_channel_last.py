NOTEBOOK = "10_attention_on_images"
CELL = "patchify"
MISTAKE = "Orders the values inside a token as (row, column, channel) instead of channel first, then row, then column."
NAMED_IF = r"channel[- ]first|channel.{0,30}(last|order)|inside a token|unfold|\(C, ?P, ?P\)|order"
CODE = '''
def patchify(X, patch):
    """Cut feature maps into non-overlapping P x P patches, one token per patch."""
    X = np.asarray(X)
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch {P} does not divide the map {H}x{W}")
    lead = X.shape[:-3]
    n = len(lead)
    Y = X.reshape(lead + (C, H // P, P, W // P, P))
    # (..., H/P, W/P, P, P, C)
    Y = Y.transpose(tuple(range(n)) + (n + 1, n + 3, n + 2, n + 4, n))
    return Y.reshape(lead + ((H // P) * (W // P), P * P * C))
'''
