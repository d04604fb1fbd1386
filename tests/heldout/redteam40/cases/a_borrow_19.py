# weighted_average through the library's attend: log-weights as the scores of one key dimension.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_weighted_average"],
        "replace": {"weighted_average": r'''
def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 1 or values.ndim != 2 or len(weights) != len(values):
        raise ValueError(f"expected values (N, D) and weights (N,), got {values.shape} and {weights.shape}")
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError("weights must be non-negative and sum to 1")
    with np.errstate(divide="ignore"):
        K = np.log(weights)[:, None]
    out, _ = attnlab.attend(np.ones(1), K, values)
    return out
'''}}
