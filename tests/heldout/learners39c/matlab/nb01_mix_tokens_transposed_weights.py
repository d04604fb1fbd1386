NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'multiplies by the transposed weight matrix (A^T X): columns of A, not its rows, weight each output'
NAMED_IF = 'transpos|A\\s*\\.?T\\b|A\\^?T|A ?ᵀ|columns?|rows?.{0,30}(sum|weights)|wrong axis|axis'
CODE = '''def mix_tokens(X):
    """Parameter-free self-attention softmax(X Xᵀ) X, softmax over each row."""
    X = np.asarray(X, dtype=float)
    S = X @ np.swapaxes(X, -1, -2)                 # (..., L, L), symmetric
    A = attnlab.softmax(S, axis=-1)
    return np.swapaxes(A, -1, -2) @ X              # weights as columns
'''
