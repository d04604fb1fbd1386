NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Always rotates interleaved pairs (2k, 2k+1), the Meta/GPT-J habit, ignoring interleaved=False (halves).'
NAMED_IF = 'interleav|halves|pair(s|ing)|layout|\\(k, ?k ?\\+ ?Dh ?/ ?2\\)'
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last axis Dh, got shape {x.shape}")

    theta = base ** (-2 * np.arange(Dh // 2) / Dh)
    ang = np.asarray(positions, dtype=float)[:, None] * theta[None, :]
    cos, sin = np.cos(ang), np.sin(ang)
    a, b = x[..., 0::2], x[..., 1::2]          # pairs (2k, 2k+1)
    out = np.empty_like(x)
    out[..., 0::2] = a * cos - b * sin
    out[..., 1::2] = a * sin + b * cos
    return out
'''
