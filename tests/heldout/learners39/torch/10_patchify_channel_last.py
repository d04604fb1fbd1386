NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = "Orders the values inside a patch token as (row, column, channel), the einops/timm 'p1 p2 c' layout, instead of channel first (C, P, P)."
NAMED_IF = r"channel.{0,20}(first|last)|inside (a|the|each) (token|patch)|order (inside|within)|\(C, ?P, ?P\)|unfold|p1 p2 c|within (a|the|each) (token|patch)"
CODE = '''def patchify(X, patch):
    X = np.asarray(X)
    *lead, C, H, W = X.shape
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch {P} does not divide the map size {H} x {W}")
    g = X.reshape(*lead, C, H // P, P, W // P, P)
    g = np.moveaxis(g, (-5, -4, -3, -2, -1), (-1, -5, -3, -4, -2))   # (..., H/P, W/P, P, P, C)
    return g.reshape(*lead, (H // P) * (W // P), P * P * C)
'''
