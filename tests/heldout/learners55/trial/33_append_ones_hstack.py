NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'Uses np.hstack with a column of ones of shape (L, 1), which only works for one sequence; on a batch it concatenates along the wrong axis or fails.'
NAMED_IF = 'batch|leading|hstack|ndim|dimension|axis|3-?D'
CODE = '''def append_ones(X):
    X = np.asarray(X, dtype=float)
    return np.hstack([X, np.ones((X.shape[-2], 1))])
'''
