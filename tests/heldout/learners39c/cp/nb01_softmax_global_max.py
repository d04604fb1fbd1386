NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = "subtracts one global maximum of the whole array instead of each slice's maximum (underflow to 0/0 on low rows)"
NAMED_IF = 'global|whole array|per.?(row|slice)|each (row|slice)|one (constant|max)|overall max|nan|underflow|0 ?/ ?0|max'
CODE = '''def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max())
    return e / e.sum(axis=axis, keepdims=True)
'''
