NOTEBOOK = "03_self_attention"
CELL = "absorb_bias"
MISTAKE = "Inserts the bias as the first row of the stacked matrix instead of the last row."
NAMED_IF = r"first row|last row|row 0|top|order|insert"
CODE = '''
def absorb_bias(W, b):
    """Fold a bias into the weights of a linear map."""
    W = np.asarray(W, dtype=float)
    b = np.asarray(b, dtype=float)
    return np.insert(W, 0, b, axis=0)
'''
