NOTEBOOK = "01_weighted_averages"
CELL = "weighted_average"
MISTAKE = "After the check complained about weights not summing to one, the learner clips negative weights to 0 and renormalises them instead of raising a ValueError."
NAMED_IF = r"rais|ValueError|repair|renormali|clip|reject|silent|accept(ed|s)? (bad|invalid|off)|off the simplex|not on the simplex"
CODE = '''def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if values.ndim != 2 or weights.ndim != 1 or weights.shape[0] != values.shape[0]:
        raise ValueError(f"weights of shape {weights.shape} do not match values {values.shape}")
    weights = np.clip(weights, 0, None)
    weights = weights / weights.sum()
    return weights @ values
'''
