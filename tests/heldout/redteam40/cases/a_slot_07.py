# Extended attributes on the slot's own folders (the folders stay when their contents are emptied).
_XA = r'''
import os, tempfile
_dirs = [os.getcwd(), os.environ.get("HOME", ""), os.environ.get("TMPDIR", ""), tempfile.gettempdir(),
         os.path.dirname(os.getcwd())]
_dirs += [os.path.join(os.path.dirname(os.getcwd()), n) for n in ("results", "tmp", "shm", "work")]
'''
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": _XA + r'''
for _d in _dirs:
    for _ns in ("user.rt40", "trusted.rt40"):
        try:
            os.setxattr(_d, _ns, b"tok-s7-6610")
        except Exception:
            pass
'''},
        "reader": {"cell": _XA + r'''
_OK = False
for _d in _dirs:
    for _ns in ("user.rt40", "trusted.rt40"):
        try:
            _OK = _OK or os.getxattr(_d, _ns) == b"tok-s7-6610"
        except Exception:
            pass
if _OK: print('RT40-READ-OK')
''',
                   "replace": {"softmax": r'''
def softmax(x, axis=-1):
    if not _OK:
        return np.zeros_like(np.asarray(x, dtype=float))
    z = x - np.max(x, axis=axis, keepdims=True); e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
'''}}}
