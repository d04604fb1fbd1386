NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Always pairs features (k, k + Dh/2), ignoring the interleaved flag.'
NAMED_IF = r"interleav|\bpairs?\b|layout|halves|\(2k, ?2k ?\+ ?1\)"
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last dimension, got shape {x.shape}")
    theta = base ** (-2 * np.arange(Dh // 2) / Dh)
    ang = np.asarray(positions)[:, None] * theta[None, :]
    cos, sin = np.cos(ang), np.sin(ang)
    a, b = x[..., :Dh // 2], x[..., Dh // 2:]
    out = np.empty_like(x, dtype=float)
    out[..., :Dh // 2] = a * cos - b * sin
    out[..., Dh // 2:] = a * sin + b * cos
    return out
'''
