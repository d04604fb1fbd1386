NOTEBOOK = "01_weighted_averages"
CELL = "mix_tokens"
MISTAKE = "Divides the scores by sqrt(D) although the exercise asks for no scaling."
NAMED_IF = r"scal|sqrt|√|temperature|divid"
CODE = '''def mix_tokens(X):
    D = X.shape[-1]
    S = X @ np.swapaxes(X, -1, -2) / np.sqrt(D)
    return attnlab.softmax(S, axis=-1) @ X
'''
