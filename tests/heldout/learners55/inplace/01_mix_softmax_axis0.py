NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'Reuses `scores` for the weights but takes the softmax over axis 0 (the queries) instead of over each row.'
NAMED_IF = r"axis|column|transpos|over (the )?(first|quer|rows? axis)|rows? (do not|don't|does not) sum|each row"
CODE = '''def mix_tokens(X):
    scores = X @ np.swapaxes(X, -1, -2)
    scores = attnlab.softmax(scores, axis=0)
    return scores @ X
'''
