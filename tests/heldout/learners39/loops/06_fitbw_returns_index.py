NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Returns the position of the best candidate (np.argmin) instead of the candidate width itself.'
NAMED_IF = r'index|position|argmin|candidate itself|not (a|the) (value|width)'
CODE = '''def fit_bandwidth(x, y, candidates):
    """The candidate width with the lowest leave-one-out squared error."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    N = len(x)
    allowed = ~np.eye(N, dtype=bool)
    errors = []
    for c in range(len(candidates)):
        sigma = candidates[c]
        scores = -(x[:, None] - x[None, :])**2 / (2 * sigma**2)
        w = attnlab.masked_softmax(scores, allowed)
        errors.append(np.mean((w @ y - y)**2))
    return int(np.argmin(errors))
'''
