NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'returns a (1, D) row vector instead of a (D,) vector (weights made into a 1xN matrix)'
NAMED_IF = 'shape|\\(1, ?\\d|\\(1, ?D\\)|extra (axis|dimension)|row vector|2-?D|ndim'
CODE = '''def weighted_average(values, weights):
    """Weighted average of the rows of `values`."""
    V = np.asarray(values, dtype=float)
    w = np.asarray(weights, dtype=float)
    if V.ndim != 2 or w.ndim != 1 or w.shape[0] != V.shape[0]:
        raise ValueError(f"weights of shape {w.shape} do not match values {V.shape}")
    if np.any(w < 0):
        raise ValueError("negative weight")
    if abs(w.sum() - 1.0) > 1e-6:
        raise ValueError(f"weights sum to {w.sum()}, not 1")
    w_row = w.reshape(1, -1)          # 1 x N, like w' in MATLAB
    return w_row @ V                  # 1 x D
'''
