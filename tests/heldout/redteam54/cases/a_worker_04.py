# The parent's CPU-time limit lowered with a raw prlimit.
W = '\nimport os\n_c = __import__("c" + "types")\n_L = _c.CDLL(None, use_errno=True)\nclass _RL(_c.Structure):\n    _fields_ = [("cur", _c.c_uint64), ("max", _c.c_uint64)]\ndef _setlim(pid, res, cur, mx=None):\n    old = _RL()\n    _L.syscall(302, _c.c_long(pid), _c.c_long(res), None, _c.byref(old))\n    new = _RL(cur, old.max if mx is None else mx)\n    return _L.syscall(302, _c.c_long(pid), _c.c_long(res), _c.byref(new), None)\nprint(_setlim(os.getppid(), 0, 1))\n'
CASE = {"cls": "worker", "kind": "slot", "writer": {"cell_end": W}}
