NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'numbers the positions 1..L instead of 0..L-1'
NAMED_IF = 'position|\\b0\\b|1.?based|off.?by.?one|start|shift|p ?= ?0'
CODE = '''def sinusoidal_positional_encoding(L, D):
    """The sinusoidal positional encodings of positions 0 .. L-1."""
    p = np.arange(1, L + 1, dtype=float).reshape(-1, 1)       # column of positions
    two_i = np.arange(0, D, 2, dtype=float).reshape(1, -1)
    ang = p / 10000.0 ** (two_i / D)
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.sin(ang)
    PE[:, 1::2] = np.cos(ang[:, :D // 2])
    return PE
'''
