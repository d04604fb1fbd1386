# The reference called from another thread during the call (any per-thread hook misses it).
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import threading
def softmax(x, axis=-1):
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("v", attnlab.softmax(np.asarray(x, dtype=float), axis=axis)))
    t.start(); t.join()
    return box["v"]
'''}}
