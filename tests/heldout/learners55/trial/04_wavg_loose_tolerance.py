NOTEBOOK = "01_weighted_averages"
CELL = "weighted_average"
MISTAKE = "The simplex check uses a tolerance of 1e-2 (loosened after a rounding complaint) so weights summing to 1.005 are accepted."
NAMED_IF = r"toleran|1e-6|sum(s|med)? to|sum of|differs? from 1|does not sum|don'?t sum|not sum"
CODE = '''def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1 or weights.shape[0] != values.shape[0]:
        raise ValueError(f"weights {weights.shape} do not match values {values.shape}")
    if np.any(weights < 0):
        raise ValueError("negative weight")
    if abs(weights.sum() - 1.0) > 1e-2:
        raise ValueError(f"weights must sum to 1, got {weights.sum()}")
    return weights @ values
'''
