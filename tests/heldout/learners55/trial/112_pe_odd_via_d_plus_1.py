NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'For odd D computes the encoding of width D+1 and drops the last column (patch after the odd-width check failed on shapes), so the frequencies use D+1 instead of D.'
NAMED_IF = 'odd|D ?\\+ ?1|frequenc|exponent|width|denominator|10000'
CODE = '''def sinusoidal_positional_encoding(L, D):
    if D % 2 == 1:
        return sinusoidal_positional_encoding(L, D + 1)[:, :D]
    p = np.arange(L)[:, None]
    theta = 1.0 / 10000 ** (np.arange(0, D, 2) / D)
    pe = np.zeros((L, D))
    pe[:, 0::2] = np.sin(p * theta)
    pe[:, 1::2] = np.cos(p * theta)
    return pe
'''
