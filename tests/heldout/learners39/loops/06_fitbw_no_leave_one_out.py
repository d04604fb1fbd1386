NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Scores each width by the training error with every point allowed to attend to itself (diagonal not masked), so it always prefers the narrowest kernel.'
NAMED_IF = r'leave.one.out|diagonal|itself|self|training error'
CODE = '''def fit_bandwidth(x, y, candidates):
    """The candidate width with the lowest leave-one-out squared error."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    errors = []
    for sigma in candidates:
        pred = attnlab.nadaraya_watson(x, x, y, sigma)
        errors.append(np.mean((pred - y)**2))
    return float(candidates[int(np.argmin(errors))])
'''
