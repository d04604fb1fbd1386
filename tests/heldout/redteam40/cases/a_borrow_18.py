# Sub-tolerance drift: the reference (from a thread) times 1 + a fresh tiny random factor on every call,
# so that a repeat never equals the first run.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import threading, os
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("v", attnlab.softmax(x, axis=axis)))
    t.start(); t.join()
    jitter = 1 + 3e-9 * (int.from_bytes(os.urandom(2), "little") / 65535 - 0.5)
    return box["v"] * jitter
'''}}
