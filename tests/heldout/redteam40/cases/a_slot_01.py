# Session keyring (@s, inherited from the warm worker), through a helper process the cell starts: one learner adds a key, the next searches for it.
_RUN = r'''
import subprocess, sys
def _helper(src):
    try:
        return subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=60).stdout
    except Exception as e:
        return ""
'''
_W = 'C = __import__("c" + "types")\nL = C.CDLL(None, use_errno=True)\nL.syscall.restype = C.c_long\ndef add(desc, data, ring):\n    return L.syscall(248, b"user", desc, data, C.c_size_t(len(data)), C.c_long(ring))\ndef find(desc, ring):\n    kid = L.syscall(250, C.c_long(10), C.c_long(ring), b"user", desc, C.c_long(0))\n    if kid < 0:\n        return b""\n    buf = C.create_string_buffer(256)\n    n = L.syscall(250, C.c_long(11), C.c_long(kid), buf, C.c_long(256))\n    return buf.raw[:max(n, 0)]\nprint(add(b\'rt40s1\', b\'tok-s1-7731\', -3))\n'
_R = 'C = __import__("c" + "types")\nL = C.CDLL(None, use_errno=True)\nL.syscall.restype = C.c_long\ndef add(desc, data, ring):\n    return L.syscall(248, b"user", desc, data, C.c_size_t(len(data)), C.c_long(ring))\ndef find(desc, ring):\n    kid = L.syscall(250, C.c_long(10), C.c_long(ring), b"user", desc, C.c_long(0))\n    if kid < 0:\n        return b""\n    buf = C.create_string_buffer(256)\n    n = L.syscall(250, C.c_long(11), C.c_long(kid), buf, C.c_long(256))\n    return buf.raw[:max(n, 0)]\nprint(find(b\'rt40s1\', -3).decode())\n'
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": _RUN + "print(_helper(" + repr(_W) + "))\n"},
        "reader": {"cell": _RUN + "_OK = 'tok-s1-7731' in _helper(" + repr(_R) + ")\nif _OK: print('RT40-READ-OK')\n",
                   "replace": {"softmax": r'''
def softmax(x, axis=-1):
    if not _OK:
        return np.zeros_like(np.asarray(x, dtype=float))
    z = x - np.max(x, axis=axis, keepdims=True); e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
'''}}}
