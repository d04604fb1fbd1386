# Any writable place outside the slot's emptied folders: the writer tries many, the reader looks in each.
_WP = r'''
import os
_places = ["/var/tmp", "/dev/shm", "/run", "/run/lock", "/run/user", "/dev/mqueue", "/tmp", "/job", "/var/lock",
           "/dev", "/home", "/root", "/mnt", "/media", "/srv", "/opt", os.path.expanduser("~/.."),
           os.path.dirname(os.path.dirname(os.getcwd()))]
'''
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": _WP + r'''
for _d in _places:
    try:
        with open(os.path.join(_d, ".rt40s10"), "w") as _f:
            _f.write("tok-s10-9902")
    except Exception:
        pass
'''},
        "reader": {"cell": _WP + r'''
_OK = False
for _d in _places:
    try:
        _OK = _OK or open(os.path.join(_d, ".rt40s10")).read() == "tok-s10-9902"
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
