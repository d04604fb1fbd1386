# The warm worker's own memory through /proc/<parent>/mem: a fork shares its addresses, so the child writes
# a token into a docstring the worker holds; the next child, forked after, reads it.
_PM = r'''
import os, sys, json as _j
_s = _j.JSONDecodeError.__doc__
_off = id(_s) + sys.getsizeof(_s) - len(_s) - 1
'''
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": _PM + r'''
for _pid in {os.getppid()}:
    try:
        _fd = os.open(f"/proc/{_pid}/mem", os.O_RDWR)
        os.pwrite(_fd, b"tok-s9-4410", _off)
        os.close(_fd)
    except Exception as e:
        print("no", type(e).__name__)
'''},
        "reader": {"cell": _PM + "_OK = _s.startswith('tok-s9-4410')\nif _OK: print('RT40-READ-OK')\n",
                   "replace": {"softmax": r'''
def softmax(x, axis=-1):
    if not _OK:
        return np.zeros_like(np.asarray(x, dtype=float))
    z = x - np.max(x, axis=axis, keepdims=True); e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
'''}}}
