NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Rotates clockwise: (a cos + b sin, -a sin + b cos) instead of counter-clockwise.'
NAMED_IF = r"clockwise|\bsense\b|\bsign|direction|negative angle|opposite"
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last dimension, got shape {x.shape}")
    theta = base ** (-2 * np.arange(Dh // 2) / Dh)
    ang = np.asarray(positions)[:, None] * theta[None, :]
    cos, sin = np.cos(ang), np.sin(ang)
    out = np.empty_like(x, dtype=float)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        sl1, sl2 = (Ellipsis, slice(0, None, 2)), (Ellipsis, slice(1, None, 2))
    else:
        a, b = x[..., :Dh // 2], x[..., Dh // 2:]
        sl1, sl2 = (Ellipsis, slice(0, Dh // 2)), (Ellipsis, slice(Dh // 2, None))
    out[sl1] = a * cos + b * sin
    out[sl2] = -a * sin + b * cos
    return out
'''
