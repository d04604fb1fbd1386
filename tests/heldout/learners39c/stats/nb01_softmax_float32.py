NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'casts the scores to float32, so results lose precision (and dtype) compared with float64'
NAMED_IF = 'float32|dtype|precision|single|float64'
CODE = '''def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.asarray(x, dtype=np.float32)
    z = x - np.max(x, axis=axis, keepdims=True)
    log_norm = np.log(np.sum(np.exp(z), axis=axis, keepdims=True))
    return np.exp(z - log_norm)
'''
