NOTEBOOK = "11_modern_attention"
CELL = "rope"
MISTAKE = "Rotates each pair by minus the angle, (a cos + b sin, -a sin + b cos), instead of (a cos - b sin, a sin + b cos)."
NAMED_IF = r"sign|direction|negative angle|minus|clockwise|-θ|transpose|a ?sin ?\+ ?b ?cos|a ?cos ?- ?b ?sin"
CODE = '''
def rope(x, positions, base=10000.0, interleaved=False):
    """Rotary position embedding."""
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: the last dimension Dh must be even, got {Dh}")
    half = Dh // 2
    theta = base ** (-2.0 * np.arange(half) / Dh)                       # (Dh/2,)
    ang = np.asarray(positions, dtype=float)[:, None] * theta[None, :]   # (L, Dh/2)
    cos, sin = np.cos(ang), np.sin(ang)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    ra = a * cos + b * sin
    rb = -a * sin + b * cos
    out = np.empty_like(x)
    if interleaved:
        out[..., 0::2], out[..., 1::2] = ra, rb
    else:
        out[..., :half], out[..., half:] = ra, rb
    return out
'''
