NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'Renormalises the weights in place (weights /= weights.sum(), clips negatives) instead of raising ValueError for weights off the simplex.'
NAMED_IF = r"repair|renormali|normali[sz]\w* (the )?weights|rescal|clip|(did not|didn't|does not|doesn't|no|never) (raise|reject)|should raise|expected (a )?ValueError|ValueError"
CODE = '''def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1 or len(weights) != len(values):
        raise ValueError(f"weights: expected shape ({len(values)},), got {weights.shape}")
    np.clip(weights, 0.0, None, out=weights)
    weights /= weights.sum()
    return weights @ values
'''
