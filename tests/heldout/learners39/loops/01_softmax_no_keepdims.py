NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'Reduces the max and the sum without keepdims=True, so the (n,) row statistics broadcast against the last axis instead of the rows.'
NAMED_IF = r'keepdims|broadcast'
CODE = '''def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.array(x, dtype=float)
    m = np.max(x, axis=axis)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis)
'''
