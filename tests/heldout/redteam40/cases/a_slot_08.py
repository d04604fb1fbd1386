# The slot's font list (given to every child in its tmp): one learner adds a key to the JSON, the next reads it.
_FL = r'''
import os, glob, json
_cands = [p for root in {os.environ.get("TMPDIR", ""), os.environ.get("MPLCONFIGDIR", ""), "/tmp", "/job/tmp"} if root
          for p in glob.glob(os.path.join(root, "**", "*.json"), recursive=True)]
'''
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": _FL + r'''
for _p in _cands:
    try:
        _d = json.load(open(_p))
        if isinstance(_d, dict):
            _d["rt40"] = "tok-s8-2219"
            json.dump(_d, open(_p, "w"))
    except Exception:
        pass
'''},
        "reader": {"cell": _FL + r'''
_OK = False
for _p in _cands:
    try:
        _OK = _OK or json.load(open(_p)).get("rt40") == "tok-s8-2219"
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
