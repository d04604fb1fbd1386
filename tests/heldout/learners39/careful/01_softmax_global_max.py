NOTEBOOK = "01_weighted_averages"
CELL = "softmax"
MISTAKE = "Subtracts the global maximum of the whole array rather than the maximum of each slice along axis, so a row far below the global max underflows to 0/0 = nan."
NAMED_IF = r"global|whole array|each (row|slice)|per[- ](row|slice)|keepdims|max.{0,40}(axis|row|slice)|different scales"
CODE = '''
def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x))
    return e / np.sum(e, axis=axis, keepdims=True)
'''
