NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'Keeps the dtype of X, so integer input gives an integer array instead of floats.'
NAMED_IF = 'float|\\bint|dtype|type|integer'
CODE = '''def append_ones(X):
    ones = np.ones(X.shape[:-1] + (1,), dtype=X.dtype)
    return np.concatenate([X, ones], axis=-1)
'''
