# Honest: softmax row by row with the math module (math.exp, math.fsum) through np.apply_along_axis.
CASE = {"cls": "borrow", "kind": "inproc", "honest": True,
        "replace": {"softmax": r'''
import math
def _row(r):
    m = max(r) if len(r) else 0.0
    e = [math.exp(v - m) for v in r]
    s = math.fsum(e)
    return np.array([v / s for v in e], dtype=float)
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    if x.ndim == 0 or x.size == 0:
        return np.exp(x - x) if x.size else x.copy()
    return np.apply_along_axis(_row, axis, x)
'''}}
