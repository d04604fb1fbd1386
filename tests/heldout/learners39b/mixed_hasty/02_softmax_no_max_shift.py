NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'Exponentiates the raw scores without subtracting the maximum first, so large logits overflow to inf and the result is NaN.'
NAMED_IF = 'max(imum)?.{0,30}(subtract|shift)|(subtract|shift).{0,30}max|overflow|numerical(ly)? stab|unstable|\\binf\\b|nan'
CODE = '''\
def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
'''
