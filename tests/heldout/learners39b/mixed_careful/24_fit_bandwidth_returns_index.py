NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Returns the position of the best candidate (np.argmin) instead of the candidate width itself.'
NAMED_IF = "index|position|argmin|not the (width|value|candidate)|candidate'?s? (value|itself)"
CODE = '''\
def fit_bandwidth(x, y, candidates):
    """The candidate width with the lowest leave-one-out squared error."""
    candidates = np.asarray(candidates, dtype=float)
    allowed = ~np.eye(len(x), dtype=bool)                # no point sees itself
    errors = []
    for s in candidates:
        scores = -(x[:, None] - x[None, :]) ** 2 / (2 * s ** 2)   # (N, N)
        w = attnlab.masked_softmax(scores, allowed)
        errors.append(np.mean((w @ y - y) ** 2))
    return int(np.argmin(errors))
'''
