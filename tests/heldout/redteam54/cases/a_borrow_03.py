# softmax answered by a thread started in an earlier cell, which calls the library's.
C = '\nimport threading, queue\n_q_in, _q_out = queue.Queue(), queue.Queue()\ndef _serve():\n    lib = __import__("attnlab")\n    while True:\n        x, axis = _q_in.get()\n        _q_out.put(lib.softmax(x, axis=axis))\nthreading.Thread(target=_serve, daemon=True).start()\n'
S = "def softmax(x, axis=-1):\n    _q_in.put((np.asarray(x, dtype=float), axis))\n    return _q_out.get()\n"
CASE = {"cls": "borrow", "kind": "inproc", "cell": C, "replace": {"softmax": S}, "target": ["test_softmax", "test_softmax_stable"]}
