NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'Returns a Python list built with a list comprehension instead of a (D,) numpy array.'
NAMED_IF = r'list|ndarray|type'
CODE = '''def weighted_average(values, weights):
    """Weighted average of the rows of `values`."""
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1 or len(weights) != len(values):
        raise ValueError(f"{len(weights)} weights do not match {len(values)} rows")
    if np.any(weights < 0):
        raise ValueError("a weight is negative")
    if abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError(f"weights sum to {weights.sum()}, not 1")
    N, D = values.shape
    return [sum(weights[i] * values[i][d] for i in range(N)) for d in range(D)]
'''
