NOTEBOOK = '12_what_attention_learns'
CELL = 'gd_step_prediction'
MISTAKE = 'Reads the number of examples as X.shape[1] (the batch-first habit), which is d for one prompt (N, d).'
NAMED_IF = '\\bN\\b|number of examples|divid|factor|scale|shape\\[1\\]|\\bd\\b'
CODE = '''def gd_step_prediction(X, y, x_query, Gamma):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    N = X.shape[1]
    g = np.einsum("...nd,...n->...d", X, y)
    w = g @ Gamma.T / N
    return (np.asarray(x_query, dtype=float) * w).sum(-1)
'''
