NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = "Writes the output back into the caller's X (X[...] = A @ X) and returns X: the input is destroyed, and an integer X truncates the averages."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|integer|int input|truncat|dtype|float"
CODE = '''def mix_tokens(X):
    A = attnlab.softmax(X @ np.swapaxes(X, -1, -2), axis=-1)
    X[...] = A @ X
    return X
'''
