NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'Checks the simplex and the shapes with `assert` statements, so bad weights raise AssertionError instead of the ValueError the exercise asks for (and the checks vanish under python -O).'
NAMED_IF = 'assert|valueerror|raise|exception type|wrong (kind of )?error'
CODE = '''\
def weighted_average(values, weights):
    """Weighted average of the rows of `values`."""
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    assert weights.ndim == 1 and weights.shape[0] == values.shape[0], "one weight per row"
    assert np.all(weights >= 0), "weights must be non-negative"
    assert abs(weights.sum() - 1.0) < 1e-6, "weights must sum to 1"
    return weights @ values   # (N,) @ (N, D) -> (D,)
'''
