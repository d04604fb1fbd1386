NOTEBOOK = "01_weighted_averages"
CELL = "mix_tokens"
MISTAKE = "Divides the scores X Xᵀ by sqrt(D) although the exercise asks for no scaling."
NAMED_IF = r"sqrt|√|scal|temperature"
CODE = '''
def mix_tokens(X):
    """Parameter-free self-attention softmax(X Xᵀ) X, softmax over each row."""
    X = np.asarray(X, dtype=float)
    scores = X @ np.swapaxes(X, -1, -2) / np.sqrt(X.shape[-1])
    A = attnlab.softmax(scores, axis=-1)
    return A @ X
'''
