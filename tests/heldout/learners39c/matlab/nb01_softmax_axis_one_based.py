NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'treats a positive axis as 1-based (MATLAB dim), so axis=1 normalises along axis 0'
NAMED_IF = 'axis|dimension|dim\\b|along the wrong|columns?|rows?|1.?based'
CODE = '''def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.asarray(x, dtype=float)
    if axis > 0:
        axis = axis - 1               # dims count from 1
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)
'''
