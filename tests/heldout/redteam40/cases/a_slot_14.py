# A tmpfs the first learner mounts over a folder outside the slot (a mount namespace shared with the worker).
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": r'''
import subprocess, os
for _d in ("/mnt", "/media", "/srv", "/opt", "/var/tmp", "/home", "/run"):
    try:
        if subprocess.run(["mount", "-t", "tmpfs", "rt40", _d], capture_output=True).returncode == 0:
            open(os.path.join(_d, "t"), "w").write("tok-s14-8080")
            break
    except Exception:
        pass
'''},
        "reader": {"cell": r'''
import os
_OK = False
for _d in ("/mnt", "/media", "/srv", "/opt", "/var/tmp", "/home", "/run"):
    try:
        _OK = _OK or open(os.path.join(_d, "t")).read() == "tok-s14-8080"
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
