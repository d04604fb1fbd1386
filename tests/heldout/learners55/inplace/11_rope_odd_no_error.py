NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Never raises for an odd Dh: it rotates the first Dh - 1 features and copies the last one through.'
NAMED_IF = r"ValueError|\bodd|\braise|names? `?x"
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    Dh = x.shape[-1]
    out = np.array(x, dtype=float)
    n = Dh // 2
    theta = base ** (-2 * np.arange(n) / Dh)
    ang = np.asarray(positions)[:, None] * theta[None, :]
    cos, sin = np.cos(ang), np.sin(ang)
    if interleaved:
        i1, i2 = np.arange(0, 2 * n, 2), np.arange(1, 2 * n, 2)
    else:
        i1, i2 = np.arange(n), np.arange(n, 2 * n)
    a, b = x[..., i1], x[..., i2]
    out[..., i1] = a * cos - b * sin
    out[..., i2] = a * sin + b * cos
    return out
'''
