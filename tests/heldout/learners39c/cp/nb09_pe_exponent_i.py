NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'uses the exponent i/D (pair index) instead of 2i/D for the frequencies'
NAMED_IF = '2 ?i|exponent|frequenc|10000|2i ?/ ?D|wavelength'
CODE = '''def sinusoidal_positional_encoding(L, D):
    """The sinusoidal positional encodings of positions 0 .. L-1."""
    PE = np.zeros((L, D))
    for p in range(L):
        for c in range(D):
            i = c >> 1
            a = p / 10000.0 ** (i / D)
            PE[p, c] = np.sin(a) if c % 2 == 0 else np.cos(a)
    return PE
'''
