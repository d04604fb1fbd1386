NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'Subtracts the maximum of the whole array instead of the maximum of each slice along axis, so a row far below the global max underflows to 0/0.'
NAMED_IF = r'global|whole array|per.?(slice|row)|one constant|single (constant|max)|each (row|slice)|entire array'
CODE = '''def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x))
    return e / np.sum(e, axis=axis, keepdims=True)
'''
