NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Gives every column its own frequency 10000^(c/D) from its column index c, so the cosine column 2i+1 does not share the angle of the sine column 2i.'
NAMED_IF = 'same angle|(different|own|wrong) (angle|frequenc)|2i ?\\+ ?1|frequenc|pair|exponent'
CODE = '''def sinusoidal_positional_encoding(L, D):
    pos = np.arange(L, dtype=float)[:, None]
    angles = pos / 10000.0 ** (np.arange(D)[None, :] / D)
    pe = np.empty((L, D))
    pe[:, 0::2] = np.sin(angles[:, 0::2])
    pe[:, 1::2] = np.cos(angles[:, 1::2])
    return pe
'''
