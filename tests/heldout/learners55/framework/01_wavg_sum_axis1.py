NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'Broadcasts the weights as a column and sums over axis=1 (the features) by habit, instead of over the rows, so it returns one number per row.'
NAMED_IF = 'axis|rows?|features|sum(s|med)? over|shape|\\(N,\\)'
CODE = '''def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1 or weights.shape[0] != values.shape[0]:
        raise ValueError(f"weights: expected shape ({values.shape[0]},), got {weights.shape}")
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError(f"weights: not on the simplex, sum {weights.sum()}")
    return np.sum(weights[:, None] * values, axis=1)
'''
