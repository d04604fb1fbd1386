NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Rotates by the negative angle: (a cos + b sin, -a sin + b cos) instead of (a cos - b sin, a sin + b cos).'
NAMED_IF = 'sign|negative angle|-θ|−θ|opposite (direction|angle|way)|clockwise|inverse rotation|rotat.{0,30}(wrong|other) (way|direction)|transpose of the rotation'
CODE = '''\
def rope(x, positions, base=10000.0, interleaved=False):
    """Rotary position embedding."""
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: the last axis (Dh) must be even, got shape {x.shape}")
    half = Dh // 2
    theta = base ** (-2 * np.arange(half) / Dh)                 # (Dh/2,)
    angles = np.asarray(positions)[:, None] * theta[None, :]    # (L, Dh/2)
    cos, sin = np.cos(angles), np.sin(angles)
    if interleaved:
        first, second = slice(0, None, 2), slice(1, None, 2)
    else:
        first, second = slice(0, half), slice(half, Dh)
    a, b = x[..., first], x[..., second]
    out = np.empty(x.shape, dtype=np.result_type(x, 1.0))
    out[..., first] = a * cos + b * sin
    out[..., second] = -a * sin + b * cos
    return out
'''
