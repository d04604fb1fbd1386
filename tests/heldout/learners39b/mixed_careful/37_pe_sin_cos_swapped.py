NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Puts the cosines in the even columns and the sines in the odd ones (sin and cos swapped).'
NAMED_IF = 'sin.{0,40}cos|cos.{0,40}sin|swap'
CODE = '''\
def sinusoidal_positional_encoding(L, D):
    """The sinusoidal positional encodings of positions 0 .. L-1."""
    positions = np.arange(L)[:, None]                     # (L, 1)
    freqs = 10000.0 ** (-np.arange(0, D, 2) / D)          # (ceil(D/2),)
    angles = positions * freqs                            # (L, ceil(D/2))
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.cos(angles)
    PE[:, 1::2] = np.sin(angles[:, :D // 2])
    return PE
'''
