NOTEBOOK = "01_weighted_averages"
CELL = "mix_tokens"
MISTAKE = "Takes the softmax over axis 0 (columns) of the score matrix instead of each row."
NAMED_IF = r"axis|column|over (the )?(rows|keys|queries)|row by row|each row|transpos"
CODE = '''def mix_tokens(X):
    S = X @ np.swapaxes(X, -1, -2)
    A = attnlab.softmax(S, axis=0)
    return A @ X
'''
