NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Gives every column its own frequency 10000^(c/D) (c the column index), so the sine and cosine of a pair are not of the same angle.'
NAMED_IF = 'same angle|2i|pair|frequenc|exponent|column index'
CODE = '''def sinusoidal_positional_encoding(L, D):
    p = np.arange(L)[:, None]
    c = np.arange(D)[None, :]
    ang = p / 10000 ** (c / D)
    return np.where(c % 2 == 0, np.sin(ang), np.cos(ang))
'''
