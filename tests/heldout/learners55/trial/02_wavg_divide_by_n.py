NOTEBOOK = "01_weighted_averages"
CELL = "weighted_average"
MISTAKE = "Computes the weighted sum and then divides by N (a mean of w_i v_i) instead of returning the plain weighted sum."
NAMED_IF = r"divid|mean|\bN\b|factor|times|too small|scale|by the number"
CODE = '''def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1 or weights.shape[0] != values.shape[0]:
        raise ValueError(f"weights {weights.shape} do not match values {values.shape}")
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError(f"weights not on the simplex, sum {weights.sum()}")
    return np.mean(weights[:, None] * values, axis=0)
'''
