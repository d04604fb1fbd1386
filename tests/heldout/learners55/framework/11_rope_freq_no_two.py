NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Computes the frequencies as base^(-k/Dh), confusing the pair index with the column index, instead of base^(-2k/Dh).'
NAMED_IF = 'frequenc|theta|θ|\\bbase\\b|2k|exponent|ratio|slower'
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last axis Dh, got shape {x.shape}")

    theta = base ** (-np.arange(Dh // 2) / Dh)
    ang = np.asarray(positions, dtype=float)[:, None] * theta[None, :]
    cos, sin = np.cos(ang), np.sin(ang)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :Dh // 2], x[..., Dh // 2:]
    out = np.empty_like(x)
    if interleaved:
        out[..., 0::2] = a * cos - b * sin
        out[..., 1::2] = a * sin + b * cos
    else:
        out[..., :Dh // 2] = a * cos - b * sin
        out[..., Dh // 2:] = a * sin + b * cos
    return out
'''
