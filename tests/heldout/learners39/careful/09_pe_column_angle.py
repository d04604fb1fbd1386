NOTEBOOK = "09_transformer"
CELL = "sinusoidal_positional_encoding"
MISTAKE = "Computes one frequency per column index (10000^(c/D) for column c), so the cosine in column 2i+1 uses a different angle from the sine in column 2i."
NAMED_IF = r"same angle|2i ?/ ?D|pair|cos.{0,40}(angle|frequen)|frequen.{0,40}(column|pair)"
CODE = '''
def sinusoidal_positional_encoding(L, D):
    """The sinusoidal positional encodings of positions 0 .. L-1."""
    p = np.arange(L, dtype=float)[:, None]                 # (L, 1)
    c = np.arange(D, dtype=float)[None, :]                 # (1, D)
    angle = p / 10000.0 ** (c / D)
    return np.where(np.arange(D) % 2 == 0, np.sin(angle), np.cos(angle))
'''
