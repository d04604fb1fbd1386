NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Returns the position of the best candidate (argmin) instead of the candidate itself.'
NAMED_IF = 'index|position|argmin|candidate itself|number from|not (its|the) position'
CODE = '''def fit_bandwidth(x, y, candidates):
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    mask = ~np.eye(len(x), dtype=bool)
    errs = []
    for s in candidates:
        S = -(x[:, None] - x[None, :]) ** 2 / (2 * s ** 2)
        A = attnlab.masked_softmax(S, mask)
        errs.append(np.mean((y - A @ y) ** 2))
    return int(np.argmin(errs))
'''
