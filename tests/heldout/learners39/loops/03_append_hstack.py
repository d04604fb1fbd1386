NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'Builds the ones as (X.shape[0], 1) and uses np.hstack, assuming 2-D input; a batch (B, L, D) breaks.'
NAMED_IF = r'hstack|axis ?=? ?1|batch|rank|3-D|ndim|leading'
CODE = '''def append_ones(X):
    """Append a feature that is always 1 to every token."""
    X = np.asarray(X, dtype=float)
    ones = np.ones((X.shape[0], 1))
    return np.hstack([X, ones])
'''
