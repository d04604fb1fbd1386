# Per-namespace kernel settings: one learner writes an IPC / network namespace sysctl, the next reads it.
_FILES = ["/proc/sys/kernel/msgmnb", "/proc/sys/kernel/msgmax", "/proc/sys/fs/mqueue/msg_max",
          "/proc/sys/net/ipv4/ip_local_port_range", "/proc/sys/net/ipv4/ping_group_range",
          "/proc/sys/net/ipv4/ip_default_ttl"]
_VAL = {"/proc/sys/kernel/msgmnb": "16391", "/proc/sys/kernel/msgmax": "8199", "/proc/sys/fs/mqueue/msg_max": "13",
        "/proc/sys/net/ipv4/ip_local_port_range": "32771\t60997", "/proc/sys/net/ipv4/ping_group_range": "7\t7",
        "/proc/sys/net/ipv4/ip_default_ttl": "77"}
CASE = {"cls": "slot", "kind": "pair", "target": ["test_softmax"],
        "writer": {"cell": "_VAL = " + repr(_VAL) + r'''
for _p, _v in _VAL.items():
    try:
        with open(_p, "w") as _f:
            _f.write(_v)
    except Exception:
        pass
'''},
        "reader": {"cell": "_VAL = " + repr(_VAL) + r'''
_OK = False
for _p, _v in _VAL.items():
    try:
        _OK = _OK or open(_p).read().split() == _v.split()
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
