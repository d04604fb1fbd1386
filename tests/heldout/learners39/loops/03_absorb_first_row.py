NOTEBOOK = '03_self_attention'
CELL = 'absorb_bias'
MISTAKE = 'Puts the bias as the first row (above W) instead of the last row.'
NAMED_IF = r'first row|top|prepend|front|above|last row|order'
CODE = '''def absorb_bias(W, b):
    """Fold a bias into the weights of a linear map."""
    W = np.asarray(W, dtype=float)
    b = np.asarray(b, dtype=float)
    return np.vstack([b, W])
'''
