NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'Silently renormalises the weights (divides by their sum, Keras-style) and clips negatives instead of raising a ValueError for weights off the simplex.'
NAMED_IF = 'raise|ValueError|repair|renormali|normali[sz]e|clip|silent'
CODE = '''def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if weights.shape[0] != values.shape[0]:
        raise ValueError(f"weights: expected {values.shape[0]} weights, got {weights.shape[0]}")
    weights = np.clip(weights, 0.0, None)
    weights = weights / weights.sum()
    return weights @ values
'''
