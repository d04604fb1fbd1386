NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'checks the sum of the weights with exact equality (no 1e-6 tolerance): rejects valid weights whose float sum is 0.9999999999999999'
NAMED_IF = 'toleran|exact|1e-6|too strict|rounding|floating|rejects? (a )?valid|valid weights|raised .*valid|should not raise|own (input )?check|its input check'
CODE = '''def weighted_average(values, weights):
    """Weighted average of the rows of `values`."""
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    n = values.shape[0]
    if weights.ndim != 1 or weights.shape[0] != n:
        raise ValueError("length mismatch")
    s = 0.0
    for i in range(n):
        if weights[i] < 0:
            raise ValueError(f"negative weight at {i}")
        s += weights[i]
    if s != 1.0:
        raise ValueError(f"weights sum to {s}")
    out = np.zeros(values.shape[1])
    for i in range(n):
        out += weights[i] * values[i]
    return out
'''
