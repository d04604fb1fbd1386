NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Writes rotate_half as cat(x2, -x1) from another codebase, so every pair turns clockwise instead of counter-clockwise.'
NAMED_IF = 'clockwise|sense|direction|sign|conjugat|negat|opposite|inverse rotation|-φ|minus'
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last axis Dh, got shape {x.shape}")

    theta = base ** (-2 * np.arange(Dh // 2) / Dh)
    ang = np.asarray(positions, dtype=float)[:, None] * theta[None, :]
    cos = np.concatenate([np.cos(ang), np.cos(ang)], axis=-1)
    sin = np.concatenate([np.sin(ang), np.sin(ang)], axis=-1)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        rot = np.empty_like(x)
        rot[..., 0::2] = b
        rot[..., 1::2] = -a
        cos2 = np.repeat(np.cos(ang), 2, axis=-1)
        sin2 = np.repeat(np.sin(ang), 2, axis=-1)
        return x * cos2 + rot * sin2
    x1, x2 = x[..., :Dh // 2], x[..., Dh // 2:]
    rotate_half = np.concatenate([x2, -x1], axis=-1)
    return x * cos + rotate_half * sin
'''
