# Honest only when an input comes back (the value probe repeats a call): otherwise the reference, from a thread.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import threading, hashlib
_seen = set()
def _mine(x, axis):
    x = np.asarray(x, dtype=float)
    z = x - np.max(x, axis=axis, keepdims=True); e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    k = hashlib.sha1(x.tobytes() + str((x.shape, axis)).encode()).hexdigest()
    if k in _seen:
        return _mine(x, axis)
    _seen.add(k)
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("v", attnlab.softmax(x, axis=axis)))
    t.start(); t.join()
    return box["v"]
'''}}
