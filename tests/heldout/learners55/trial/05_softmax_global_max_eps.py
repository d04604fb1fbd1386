NOTEBOOK = "01_weighted_averages"
CELL = "softmax"
MISTAKE = "Subtracts one maximum of the whole array instead of each slice's maximum; a row far below the maximum underflows, and the learner patched the resulting nan with an epsilon in the denominator."
NAMED_IF = r"per[- ]?(slice|row)|each (slice|row)|(whole|entire) (array|input)|global(ly)? max|single (max|constant)|one (constant|max)|underflow|max(imum)? of (the )?(whole|all)"
CODE = '''def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x))
    return e / (np.sum(e, axis=axis, keepdims=True) + 1e-300)
'''
