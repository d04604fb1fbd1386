NOTEBOOK = '03_self_attention'
CELL = 'absorb_bias'
MISTAKE = 'Appends the bias as an extra column (np.column_stack) instead of an extra last row.'
NAMED_IF = r'column|axis ?=? ?1|M ?\+ ?1|as a row|last row'
CODE = '''def absorb_bias(W, b):
    """Fold a bias into the weights of a linear map."""
    W = np.asarray(W, dtype=float)
    b = np.asarray(b, dtype=float)
    return np.column_stack([W, b])
'''
