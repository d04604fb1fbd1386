# Honest: bad input raises the learner's own ValueError subclass, whose message names the shapes.
CASE = {"cls": "names", "kind": "inproc", "honest": True,
        "replace": {"weighted_average": r'''
class WeightsError(ValueError):
    """Bad weights for weighted_average."""
def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 1 or values.ndim != 2 or len(weights) != len(values):
        raise WeightsError(f"values (N, D) and weights (N,) expected, got {values.shape} and {weights.shape}")
    if np.any(weights < 0) or abs(weights.sum() - 1) > 1e-6:
        raise WeightsError(f"weights {weights.shape} must be non-negative and sum to 1")
    return weights @ values
'''}}
