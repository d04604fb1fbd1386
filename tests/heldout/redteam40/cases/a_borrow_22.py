# scipy's log_softmax reached by a computed attribute name (no `softmax` in the code's names).
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import importlib
_sp = importlib.import_module("scipy." + "spec" + "ial")
_lsm = getattr(_sp, "log_" + "soft" + "max")
def softmax(x, axis=-1):
    return np.exp(_lsm(np.asarray(x, dtype=float), axis=axis))
'''}}
