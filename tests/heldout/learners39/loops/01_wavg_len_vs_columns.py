NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'Checks the number of weights against values.shape[1] (the width D) instead of the number of rows N, so valid inputs with N != D are rejected.'
NAMED_IF = r'shape\[1\]|columns|\bD\b|features|second axis|width'
CODE = '''def weighted_average(values, weights):
    """Weighted average of the rows of `values`."""
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if len(weights) != values.shape[1]:
        raise ValueError(f"expected {values.shape[1]} weights, got {len(weights)}")
    for i in range(len(weights)):
        if weights[i] < 0:
            raise ValueError(f"weight {i} is negative: {weights[i]}")
    if abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError(f"weights sum to {weights.sum()}, not 1")
    result = np.zeros(values.shape[1])
    for i in range(values.shape[0]):
        result += weights[i] * values[i]
    return result
'''
