NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Scores each bandwidth by predicting every training point from all points including itself (no leave-one-out), so the smallest bandwidth always wins.'
NAMED_IF = 'leave[- ]one[- ]out|diagonal|itself|own (target|point|value)|self[- ]?(weight|attention|match)|exclud'
CODE = '''\
def fit_bandwidth(x, y, candidates):
    """The candidate width with the lowest leave-one-out squared error."""
    best, best_err = None, np.inf
    for s in candidates:
        diff = x[:, None] - x[None, :]                 # (N, N)
        scores = -diff ** 2 / (2 * s ** 2)
        scores = scores - scores.max(axis=1, keepdims=True)
        w = np.exp(scores)
        w = w / w.sum(axis=1, keepdims=True)
        err = np.mean((w @ y - y) ** 2)
        if err < best_err:
            best, best_err = s, err
    return float(best)
'''
