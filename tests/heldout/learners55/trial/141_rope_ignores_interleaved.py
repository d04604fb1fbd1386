NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Ignores interleaved=True and always pairs (k, k + Dh/2).'
NAMED_IF = 'interleav|\\(2k|2k ?\\+ ?1|halves|pairing|pairs?'
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last axis Dh, got shape {x.shape}")
    half = Dh // 2
    theta = base ** (-(2 * np.arange(half) / Dh))
    ang = np.asarray(positions)[:, None] * theta[None, :]
    c, s = np.cos(ang), np.sin(ang)
    a, b = x[..., :half], x[..., half:]
    o1 = a * c - b * s
    o2 = a * s + b * c
    return np.concatenate([o1, o2], axis=-1)
'''
