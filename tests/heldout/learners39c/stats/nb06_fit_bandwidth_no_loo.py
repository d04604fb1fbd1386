NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'scores each width on the training set without leaving the point out (the diagonal is not masked), so the narrowest width wins'
NAMED_IF = 'leave.?one.?out|itself|diagonal|self|own (point|target)|exclud|narrowest|smallest'
CODE = '''def fit_bandwidth(x, y, candidates):
    """The candidate width with the lowest leave-one-out squared error."""
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    candidates = np.asarray(candidates, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("x and y must be 1-D of equal length")
    errs = []
    for s in candidates:
        A = attnlab.gaussian_attention_weights(x, x, s)
        errs.append(np.mean((A @ y - y) ** 2))
    return float(candidates[int(np.argmin(errs))])
'''
