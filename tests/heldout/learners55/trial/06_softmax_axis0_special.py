NOTEBOOK = "01_weighted_averages"
CELL = "softmax"
MISTAKE = "Always normalises the last axis, special-casing axis=0 by transposing; for a 3-D array with axis=1 (or axis=-2) it normalises the wrong axis."
NAMED_IF = r"axis|axes|wrong (slice|dimension)|along"
CODE = '''def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    if axis == 0 and x.ndim > 1:
        return softmax(x.T).T
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)
'''
