NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'Appends a row of ones (a new token, along the length axis) instead of a column of ones (a new feature).'
NAMED_IF = '\\brows?\\b|token|axis|L ?\\+ ?1|wrong (axis|dimension)|length'
CODE = '''def append_ones(X):
    X = np.asarray(X, dtype=float)
    return np.concatenate([X, np.ones_like(X[..., :1, :])], axis=-2)
'''
