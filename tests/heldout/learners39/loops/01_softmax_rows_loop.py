NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'Ignores the axis argument and loops over x.shape[0] as if x were always 2-D, so 1-D input, axis=0 and higher ranks are wrong.'
NAMED_IF = r'ignor\w* .{0,20}axis|axis (argument|parameter)|1-D|one-dimensional|rank|ndim|2-D only|only (the )?rows'
CODE = '''def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.array(x, dtype=float)
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        row = x[i]
        e = np.exp(row - np.max(row))
        out[i] = e / np.sum(e)
    return out
'''
