NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'Allocates an array of ones and writes X into its last D columns (out[..., 1:] = X), so the ones end up as the first column instead of the last.'
NAMED_IF = r"first (column|feature)|(at|in) the (start|front|beginning)|last (column|feature)|wrong (position|place|column|end)|prepend|before X"
CODE = '''def append_ones(X):
    X = np.asarray(X, dtype=float)
    out = np.ones(X.shape[:-1] + (X.shape[-1] + 1,))
    out[..., 1:] = X
    return out
'''
