NOTEBOOK = "01_weighted_averages"
CELL = "softmax"
MISTAKE = "Subtracts the max along the requested axis but normalises by the sum over the last axis, so any axis other than -1 does not sum to one."
NAMED_IF = r"sum.{0,40}(last axis|axis=-1|wrong axis|other axis)|(last|wrong|other) axis|axis ?= ?0|along axis"
CODE = '''
def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.asarray(x, dtype=float)
    z = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
'''
