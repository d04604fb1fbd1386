# The UTS namespace: one learner sets the host name (and NIS domain name) the next one reads.
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": r'''
import socket, subprocess
for _how in (lambda: socket.sethostname("tok-s11-5150"),
             lambda: open("/proc/sys/kernel/hostname", "w").write("tok-s11-5150"),
             lambda: open("/proc/sys/kernel/domainname", "w").write("tok-s11-5150"),
             lambda: subprocess.run(["hostname", "tok-s11-5150"], capture_output=True)):
    try:
        _how()
    except Exception:
        pass
'''},
        "reader": {"cell": r'''
import socket, os
_OK = "tok-s11-5150" in (socket.gethostname() + " " + " ".join(os.uname()) + open("/proc/sys/kernel/domainname").read())
if _OK: print('RT40-READ-OK')
''',
                   "replace": {"softmax": r'''
def softmax(x, axis=-1):
    if not _OK:
        return np.zeros_like(np.asarray(x, dtype=float))
    z = x - np.max(x, axis=axis, keepdims=True); e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
'''}}}
