NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Uses theta_k = base^(-k/Dh) instead of base^(-2k/Dh), so a pair Dh/2 would turn by base^(-1/2), not 1/base.'
NAMED_IF = r"frequenc|\b2k\b|exponent|\bbase\b|1 ?/ ?base|theta|speed"
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last dimension, got shape {x.shape}")
    theta = base ** (-np.arange(Dh // 2) / Dh)
    ang = np.asarray(positions)[:, None] * theta[None, :]
    cos, sin = np.cos(ang), np.sin(ang)
    out = np.empty_like(x, dtype=float)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        sl1, sl2 = (Ellipsis, slice(0, None, 2)), (Ellipsis, slice(1, None, 2))
    else:
        a, b = x[..., :Dh // 2], x[..., Dh // 2:]
        sl1, sl2 = (Ellipsis, slice(0, Dh // 2)), (Ellipsis, slice(Dh // 2, None))
    out[sl1] = a * cos - b * sin
    out[sl2] = a * sin + b * cos
    return out
'''
