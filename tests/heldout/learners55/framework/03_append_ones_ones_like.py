NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = "Builds the ones with ones_like of a slice of X (the torch.ones_like habit), which keeps X's dtype: integer input gives an integer result instead of floats."
NAMED_IF = 'float|int|dtype|type'
CODE = '''def append_ones(X):
    X = np.asarray(X)
    return np.concatenate([X, np.ones_like(X[..., :1])], axis=-1)
'''
