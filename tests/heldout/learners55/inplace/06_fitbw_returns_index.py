NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Returns the position of the best width (np.argmin) instead of the width itself.'
NAMED_IF = r"index|position|argmin|not (its |the )?(position|index)|candidate (value|itself)|the width itself"
CODE = '''def fit_bandwidth(x, y, candidates):
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    keep = ~np.eye(len(x), dtype=bool)
    errors = []
    for s in np.asarray(candidates, dtype=float):
        scores = -(x[:, None] - x[None, :]) ** 2 / (2 * s ** 2)
        A = attnlab.masked_softmax(scores, keep)
        errors.append(np.mean((y - A @ y) ** 2))
    return int(np.argmin(errors))
'''
