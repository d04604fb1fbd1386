NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'Takes the softmax over axis=1 by habit: right for one (L, L) score matrix, but for a batch (B, L, L) it normalises over the queries (columns).'
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum|columns|over (the )?queries'
CODE = '''def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    S = X @ np.swapaxes(X, -1, -2)
    A = attnlab.softmax(S, axis=1)
    return A @ X
'''
