NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = 'Scores every width by the plain training error (each point attends to itself), not leave-one-out.'
NAMED_IF = r"diagonal|leave.one.out|itself|own (target|key|point|value)|\bself\b|exclud|training error"
CODE = '''def fit_bandwidth(x, y, candidates):
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    candidates = np.asarray(candidates, dtype=float)
    errors = np.empty(len(candidates))
    for i, s in enumerate(candidates):
        A = attnlab.gaussian_attention_weights(x, x, s)
        errors[i] = np.mean((y - A @ y) ** 2)
    return float(candidates[np.argmin(errors)])
'''
