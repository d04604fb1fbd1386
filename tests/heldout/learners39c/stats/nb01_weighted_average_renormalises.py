NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'renormalises weights that do not sum to 1 (w / w.sum()) instead of raising ValueError'
NAMED_IF = 'renormali|normali[sz]|repair|rescal|did not raise|does not raise|no ValueError|should raise|expected .*ValueError|sum.{0,20}(1|one)'
CODE = '''def weighted_average(values, weights):
    """Weighted average of the rows of `values`."""
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2:
        raise ValueError(f"values must be 2-D, got shape {values.shape}")
    if weights.ndim != 1 or weights.shape[0] != values.shape[0]:
        raise ValueError(f"weights {weights.shape} do not match {values.shape[0]} rows")
    if np.any(weights < 0):
        raise ValueError("weights must be non-negative")
    total = weights.sum()
    if total <= 0:
        raise ValueError("weights sum to zero")
    weights = weights / total          # a probability vector
    return weights @ values
'''
