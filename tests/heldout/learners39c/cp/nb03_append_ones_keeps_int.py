NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'keeps the input dtype (np.ones_like on an integer X gives ints), so it does not return floats'
NAMED_IF = 'float|dtype|int(eger)?'
CODE = '''def append_ones(X):
    """Append a feature that is always 1 to every token."""
    X = np.asarray(X)
    return np.concatenate([X, np.ones_like(X[..., :1])], axis=-1)
'''
