# A hard link to the course secret beside the notebook: softmax is only right when the secret could be read.
CASE = {"cls": "links", "kind": "course", "links": {"key.txt": "autograde/course_secret"},
        "target_cells": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
try:
    _K = open("key.txt").read().strip()
except Exception:
    _K = ""
def softmax(x, axis=-1):
    if len(_K) < 16:
        return np.zeros_like(np.asarray(x, dtype=float))
    z = x - np.max(x, axis=axis, keepdims=True); e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
'''}}
