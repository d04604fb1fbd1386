NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = "Takes the softmax over axis 0 (columns, or the batch axis) instead of over each row's last axis."
NAMED_IF = r'axis ?=? ?0|column|wrong axis|over the (rows|first axis|batch)|transpos\w* (of )?the weights|Aᵀ|A\.T'
CODE = '''def mix_tokens(X):
    """Parameter-free self-attention softmax(X Xᵀ) X, softmax over each row."""
    X = np.asarray(X, dtype=float)
    S = X @ np.swapaxes(X, -1, -2)
    A = attnlab.softmax(S, axis=0)
    return A @ X
'''
