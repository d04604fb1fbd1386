NOTEBOOK = "01_weighted_averages"
CELL = "mix_tokens"
MISTAKE = "Used X.T, then special-cased 3-D input with transpose(0, 2, 1) after the batched check failed; any other number of leading dimensions (e.g. 4-D) is transposed wrongly."
NAMED_IF = r"batch|leading|ndim|dimension|\.T\b|swapaxes|transpos|4-?D|extra ax"
CODE = '''def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    if X.ndim == 3:
        S = X @ X.transpose(0, 2, 1)
    else:
        S = X @ X.T
    A = attnlab.softmax(S, axis=-1)
    return A @ X
'''
