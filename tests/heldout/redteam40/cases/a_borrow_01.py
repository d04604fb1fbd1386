# softmax as the weights of the library's soft_align (E = x I, beta = softmax_rows(E) I).
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
def softmax(x, axis=-1):
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    flat = x.reshape(-1, x.shape[-1])
    beta, _ = attnlab.soft_align(flat, np.eye(flat.shape[-1]))
    return np.moveaxis(beta.reshape(x.shape), -1, axis)
'''}}
