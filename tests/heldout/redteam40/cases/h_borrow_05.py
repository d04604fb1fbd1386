# Honest: softmax whose normaliser is summed with functools.reduce over a deque of slices, with a tiny epsilon.
CASE = {"cls": "borrow", "kind": "inproc", "honest": True,
        "replace": {"softmax": r'''
import functools, operator
from collections import deque
def softmax(x, axis=-1):
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    if e.shape[-1] == 0:
        return np.moveaxis(e, -1, axis)
    parts = deque(e[..., k] for k in range(e.shape[-1]))
    total = functools.reduce(operator.add, parts)
    return np.moveaxis(e / (total[..., None] + 1e-300), -1, axis)
'''}}
