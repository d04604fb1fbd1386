NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Rotates each pair clockwise (the sign of the sine flipped) instead of counter-clockwise.'
NAMED_IF = 'sense|clockwise|direction|sign|counter|\\(1, ?0\\)|towards the second'
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last axis Dh, got shape {x.shape}")
    half = Dh // 2
    theta = base ** (-(2 * np.arange(half) / Dh))
    ang = np.asarray(positions)[:, None] * theta[None, :]
    c, s = np.cos(ang), np.sin(ang)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    o1 = a * c + b * s
    o2 = -a * s + b * c
    out = np.empty_like(x, dtype=float)
    if interleaved:
        out[..., 0::2], out[..., 1::2] = o1, o2
    else:
        out[..., :half], out[..., half:] = o1, o2
    return out
'''
