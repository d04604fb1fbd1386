NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Never raises for an odd Dh; the last coordinate is passed through unrotated.'
NAMED_IF = 'odd|ValueError|raise|even'
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
    half = Dh // 2
    theta = base ** (-(2 * np.arange(half) / Dh))
    ang = np.asarray(positions)[:, None] * theta[None, :]
    c, s = np.cos(ang), np.sin(ang)
    if interleaved:
        ia, ib = np.arange(0, 2 * half, 2), np.arange(1, 2 * half, 2)
    else:
        ia, ib = np.arange(half), np.arange(half, 2 * half)
    a, b = x[..., ia], x[..., ib]
    out = x.copy()
    out[..., ia] = a * c - b * s
    out[..., ib] = a * s + b * c
    return out
'''
