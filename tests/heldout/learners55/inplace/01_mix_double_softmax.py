NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'Reassigns `scores` to the weights and then applies the softmax a second time to the weights.'
NAMED_IF = r"twice|double|two softmax|softmax (of|on|applied to) (the )?(weights|softmax|probabilit)|second softmax|already normali"
CODE = '''def mix_tokens(X):
    scores = X @ np.swapaxes(X, -1, -2)
    scores = attnlab.softmax(scores, axis=-1)
    scores = attnlab.softmax(scores, axis=-1)
    return scores @ X
'''
