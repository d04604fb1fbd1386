NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = "Multiplies the caller's `values` array in place by the weights (values *= weights[:, None]) and sums it: the caller's values are overwritten, and integer values cannot take float weights in place."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|integer|int(eger)? values|dtype|cast"
CODE = '''def weighted_average(values, weights):
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1 or len(weights) != values.shape[0]:
        raise ValueError(f"weights: expected shape ({values.shape[0]},), got {weights.shape}")
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError(f"weights must be on the simplex, got sum {weights.sum()}")
    values *= weights[:, None]
    return values.sum(axis=0)
'''
