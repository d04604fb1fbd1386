NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'casts the scores to float32, so results lose precision (and dtype) compared with float64'
NAMED_IF = 'float32|dtype|precision|single|float64'
FAIR = 'docs/contract.md (Types) says a numpy exercise returns floats, "float64, or float32, which is a fair route", and its Fair checks section passes float32 code; this stable max-subtracted softmax stays finite for logits of +-1e4.'
CODE = '''def softmax(x, axis=-1):
    """Numerically stable softmax of `x` along `axis`."""
    x = np.asarray(x, dtype=np.float32)
    z = x - np.max(x, axis=axis, keepdims=True)
    log_norm = np.log(np.sum(np.exp(z), axis=axis, keepdims=True))
    return np.exp(z - log_norm)
'''
