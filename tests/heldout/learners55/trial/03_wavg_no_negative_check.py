NOTEBOOK = "01_weighted_averages"
CELL = "weighted_average"
MISTAKE = "Only checks that the weights sum to one; negative weights that still sum to one are accepted."
NAMED_IF = r"negative|non-?negative|< ?0|below zero|>= ?0"
CODE = '''def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if weights.shape[0] != values.shape[0]:
        raise ValueError(f"weights of length {weights.shape[0]} for {values.shape[0]} rows")
    if abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError(f"weights must sum to 1, got {weights.sum()}")
    return weights @ values
'''
