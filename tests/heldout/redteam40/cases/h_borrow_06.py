# Honest: a cell that reads the library's documentation (help, inspect.signature), weighted_average by einsum.
CASE = {"cls": "borrow", "kind": "inproc", "honest": True,
        "cell": "import inspect\nprint(inspect.signature(attnlab.softmax))\nhelp(attnlab.weighted_average)\n",
        "replace": {"weighted_average": r'''
def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 1 or values.ndim != 2 or weights.shape[0] != values.shape[0]:
        raise ValueError(f"values must be (N, D) and weights (N,), got {values.shape} and {weights.shape}")
    if (weights < 0).any() or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError("weights must lie on the simplex")
    return np.einsum("n,nd->d", weights, values)
'''}}
