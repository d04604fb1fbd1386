NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'Puts the column of ones first instead of last.'
NAMED_IF = 'first|last|prepend|front|beginning|position|order|column 0|start'
CODE = '''def append_ones(X):
    X = np.asarray(X, dtype=float)
    ones = np.ones(X.shape[:-1] + (1,))
    return np.concatenate([ones, X], axis=-1)
'''
