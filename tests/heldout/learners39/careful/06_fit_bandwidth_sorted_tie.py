NOTEBOOK = "06_attention_as_kernel_machine"
CELL = "fit_bandwidth"
MISTAKE = "Sorts the candidates before the search, so on a tie it returns the smallest tied width instead of the first one in the given order."
NAMED_IF = r"\btie|first (such )?candidate|order|sort"
CODE = '''
def fit_bandwidth(x, y, candidates):
    """The candidate width with the lowest leave-one-out squared error."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    candidates = np.sort(np.asarray(candidates, dtype=float))
    mask = ~np.eye(len(x), dtype=bool)
    errors = np.empty(len(candidates))
    for c, sigma in enumerate(candidates):
        scores = -(x[:, None] - x[None, :]) ** 2 / (2 * sigma ** 2)
        A = attnlab.masked_softmax(scores, mask)
        errors[c] = np.mean((y - A @ y) ** 2)
    return float(candidates[np.argmin(errors)])
'''
