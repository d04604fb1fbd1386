NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = "Passes np.eye as the mask meaning 'block the diagonal' (True = blocked habit), so every point predicts itself only and the leave-one-out error is always zero."
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention|diagonal|itself|leave[- ]one[- ]out|own (target|point)'
CODE = '''def fit_bandwidth(x, y, candidates):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    candidates = np.asarray(candidates, dtype=float)
    block = np.eye(len(x), dtype=bool)
    errors = []
    for s in candidates:
        scores = -(x[:, None] - x[None, :]) ** 2 / (2 * s ** 2)
        A = attnlab.masked_softmax(scores, block)
        errors.append(np.mean((A @ y - y) ** 2))
    return float(candidates[int(np.argmin(errors))])
'''
