NOTEBOOK = '03_self_attention'
CELL = 'absorb_bias'
MISTAKE = 'stacks the bias as the first row instead of the last'
NAMED_IF = 'first row|top|prepend|front|last row|order|position'
CODE = '''def absorb_bias(W, b):
    """Fold a bias into the weights of a linear map."""
    W = np.asarray(W, dtype=float)
    b = np.asarray(b, dtype=float)
    return np.vstack([b, W])
'''
