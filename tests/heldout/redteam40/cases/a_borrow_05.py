# softmax as the exponential of scipy's log_softmax.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
def softmax(x, axis=-1):
    from scipy import special
    return np.exp(special.log_softmax(np.asarray(x, dtype=float), axis=axis))
'''}}
