NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'updates the best candidate with <=, so on a tie the last such candidate wins instead of the first'
NAMED_IF = 'tie|first|last|<=|equal'
CODE = '''def fit_bandwidth(x, y, candidates):
    """The candidate width with the lowest leave-one-out squared error."""
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    n = len(x)
    allow = ~np.eye(n, dtype=bool)
    best, best_err = None, np.inf
    for s in candidates:
        A = attnlab.masked_softmax(-(x[:, None] - x[None, :]) ** 2 / (2 * s * s), allow)
        err = np.mean((A @ y - y) ** 2)
        if err <= best_err:
            best, best_err = s, err
    return float(best)
'''
