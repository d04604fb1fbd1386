NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Leaves each point out by setting the diagonal scores to 0 (not -inf); the self score is already 0, so each point still sees its own target and the narrowest width wins.'
NAMED_IF = 'leave[- ]one[- ]out|diagonal|itself|own (key|target|point)|self|narrow|-inf|mask'
CODE = '''def fit_bandwidth(x, y, candidates):
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    candidates = np.asarray(candidates, dtype=float)
    errs = []
    for s in candidates:
        S = -(x[:, None] - x[None, :]) ** 2 / (2 * s ** 2)
        np.fill_diagonal(S, 0.0)
        A = attnlab.softmax(S, axis=-1)
        errs.append(np.mean((y - A @ y) ** 2))
    return float(candidates[int(np.argmin(errs))])
'''
