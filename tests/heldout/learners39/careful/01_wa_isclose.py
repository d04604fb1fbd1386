NOTEBOOK = "01_weighted_averages"
CELL = "weighted_average"
MISTAKE = "The simplex sum test uses np.isclose with its default relative/absolute tolerances instead of the spec's 1e-6 bound, so a sum off by a few millionths is accepted."
NAMED_IF = r"1e-6|1e-06|toleran|isclose|sum.{0,40}(1\.0000|close to 1|off by)"
CODE = '''
def weighted_average(values, weights):
    """Weighted average of the rows of `values`."""
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1:
        raise ValueError(f"expected values (N, D) and weights (N,), got {values.shape} and {weights.shape}")
    if weights.shape[0] != values.shape[0]:
        raise ValueError(f"{weights.shape[0]} weights for {values.shape[0]} rows")
    if np.any(weights < 0):
        raise ValueError(f"negative weight: {weights.min()}")
    if not np.isclose(weights.sum(), 1.0):
        raise ValueError(f"weights must sum to 1, got {weights.sum()}")
    return weights @ values
'''
