NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'validation too strict: raises ValueError for an odd D (legal)'
NAMED_IF = 'odd|raise|reject|too strict|input check|own check|valid input|ValueError'
CODE = '''def sinusoidal_positional_encoding(L, D):
    """The sinusoidal positional encodings of positions 0 .. L-1."""
    if L < 0 or D < 1:
        raise ValueError(f"need L >= 0 and D >= 1, got {L}, {D}")
    if D % 2:
        raise ValueError(f"D must be even to pair sines with cosines, got {D}")
    ang = np.arange(L)[:, None] / 10000.0 ** (np.arange(0, D, 2)[None, :] / D)
    PE = np.empty((L, D))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang)
    return PE
'''
