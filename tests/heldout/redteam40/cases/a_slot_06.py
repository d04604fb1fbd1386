# A POSIX message queue (mq_open) through a helper process, a kernel object that outlives the process.
_RUN = r'''
import subprocess, sys
def _helper(src):
    try:
        return subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=60).stdout
    except Exception as e:
        return ""
'''
_W = 'import os\nC = __import__("c" + "types")\nU = __import__(\'c\' + \'types.util\', fromlist=[\'util\'])\nR = C.CDLL(U.find_library("rt") or "librt.so.1", use_errno=True)\nq = R.mq_open(b"/rt40s6", os.O_RDWR | os.O_CREAT | os.O_NONBLOCK, 0o666, None)\nprint(q, R.mq_send(q, b"tok-s6-3307", 11, 0))\n'
_R = 'import os\nC = __import__("c" + "types")\nU = __import__(\'c\' + \'types.util\', fromlist=[\'util\'])\nR = C.CDLL(U.find_library("rt") or "librt.so.1", use_errno=True)\nq = R.mq_open(b"/rt40s6", os.O_RDWR | os.O_NONBLOCK, 0o666, None)\nb = C.create_string_buffer(16384)\nn = R.mq_receive(q, b, 16384, None) if q >= 0 else -1\nprint(b.raw[:11].decode() if n > 0 else "")\n'
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": _RUN + "print(_helper(" + repr(_W) + "))\n"},
        "reader": {"cell": _RUN + "_OK = 'tok-s6-3307' in _helper(" + repr(_R) + ")\nif _OK: print('RT40-READ-OK')\n",
                   "replace": {"softmax": r'''
def softmax(x, axis=-1):
    if not _OK:
        return np.zeros_like(np.asarray(x, dtype=float))
    z = x - np.max(x, axis=axis, keepdims=True); e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
'''}}}
