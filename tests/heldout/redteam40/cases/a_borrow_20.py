# The reference as a weakref.finalize callback that fills the returned buffer in place when its
# guard object is collected (after the call returned).
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import weakref, gc
class _Guard:
    pass
_keep = []
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    out = np.zeros_like(x)
    g = _Guard()
    weakref.finalize(g, lambda: out.__setitem__(Ellipsis, attnlab.softmax(x, axis=axis)))
    _keep.append(out)
    del g
    return out
'''}}
