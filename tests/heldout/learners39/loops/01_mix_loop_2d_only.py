NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'Loops over X.shape[0] as the sequence length, so it only works for one (L, D) sequence and breaks on a batch (..., L, D).'
NAMED_IF = r'batch|leading|\.\.\.|rank|3-D|ndim|shape\[0\]'
CODE = '''def mix_tokens(X):
    """Parameter-free self-attention softmax(X Xᵀ) X, softmax over each row."""
    L = X.shape[0]
    out = []
    for i in range(L):
        scores = X @ X[i]
        w = attnlab.softmax(scores)
        out.append(w @ X)
    return np.array(out)
'''
