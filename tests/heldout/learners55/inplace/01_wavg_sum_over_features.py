NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'Reuses the name `values` for the weighted rows and then sums over the feature axis instead of the rows, returning one number per row (shape (N,)) instead of the (D,) average.'
NAMED_IF = r"axis|shape|\(N,\)|over (the )?(features|columns)|wrong (axis|dimension)|rows? instead|per row"
CODE = '''def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1 or len(weights) != values.shape[0]:
        raise ValueError(f"weights: expected shape ({values.shape[0]},), got {weights.shape}")
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError(f"weights must be on the simplex, got sum {weights.sum()}")
    values = values * weights[:, None]
    values = values.sum(axis=-1)
    return values
'''
