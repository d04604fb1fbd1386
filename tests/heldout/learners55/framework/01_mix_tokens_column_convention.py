NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'Uses the column-vector convention for the weights: multiplies by the transpose of the row-normalised weight matrix, so every output averages with the columns of A.'
NAMED_IF = 'transpos|swap|columns?|Aᵀ|A\\.T'
CODE = '''def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    A = attnlab.softmax(X @ np.swapaxes(X, -1, -2), axis=-1)
    return np.swapaxes(A, -1, -2) @ X
'''
