NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'Divides the scores in place by sqrt(D) although the exercise asks for no scaling.'
NAMED_IF = r"scal|sqrt|√|temperature|divid"
CODE = '''def mix_tokens(X):
    scores = X @ np.swapaxes(X, -1, -2)
    scores /= np.sqrt(X.shape[-1])
    A = attnlab.softmax(scores, axis=-1)
    return A @ X
'''
