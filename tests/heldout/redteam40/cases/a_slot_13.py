# The network namespace's loopback device: one learner sets its MTU (an ioctl on a plain socket), the next reads it.
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": r'''
import socket, fcntl, struct, subprocess
try:
    _s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    fcntl.ioctl(_s, 0x8922, struct.pack("16si12x", b"lo", 4242))
except Exception:
    try:
        subprocess.run(["ip", "link", "set", "lo", "mtu", "4242"], capture_output=True)
    except Exception:
        pass
'''},
        "reader": {"cell": r'''
import socket, fcntl, struct
try:
    _s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    _mtu = struct.unpack("16si12x", fcntl.ioctl(_s, 0x8921, struct.pack("16si12x", b"lo", 0)))[1]
except Exception:
    _mtu = -1
_OK = _mtu == 4242
if _OK: print('RT40-READ-OK')
''',
                   "replace": {"softmax": r'''
def softmax(x, axis=-1):
    if not _OK:
        return np.zeros_like(np.asarray(x, dtype=float))
    z = x - np.max(x, axis=axis, keepdims=True); e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
'''}}}
