NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Sorts the candidates (after the candidates-in-any-order check failed for an index bug) and picks the last minimum with <=, so on a tie it does not return the first candidate in the given order.'
NAMED_IF = 'tie|first|order|sort'
CODE = '''def fit_bandwidth(x, y, candidates):
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    cands = np.sort(np.asarray(candidates, dtype=float))
    mask = ~np.eye(len(x), dtype=bool)
    best, best_err = None, np.inf
    for s in cands:
        S = -(x[:, None] - x[None, :]) ** 2 / (2 * s ** 2)
        A = attnlab.masked_softmax(S, mask)
        err = np.mean((y - A @ y) ** 2)
        if err <= best_err:
            best, best_err = s, err
    return float(best)
'''
