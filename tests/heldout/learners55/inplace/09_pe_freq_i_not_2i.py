NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Uses exponents i/D (np.arange(D//2) / D) instead of 2i/D for the frequencies.'
NAMED_IF = r"\b2i\b|frequenc|exponent|10000|angle|speed"
CODE = '''def sinusoidal_positional_encoding(L, D):
    PE = np.zeros((L, D))
    freq = 10000.0 ** (-np.arange((D + 1) // 2) / D)
    angles = np.arange(L)[:, None] * freq[None, :]
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, :D // 2])
    return PE
'''
