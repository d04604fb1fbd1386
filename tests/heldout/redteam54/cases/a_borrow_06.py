# The profile switched off from C (PyEval_SetProfile through a run-time ctypes), then the library's softmax.
S = "_c = __import__('c' + 'types')\n_set = _c.pythonapi.PyEval_SetProfile\n_set.argtypes = [_c.c_void_p, _c.c_void_p]\n_lib = __import__('attnlab')\ndef softmax(x, axis=-1):\n    _set(None, None)\n    return getattr(_lib, 'soft' + 'max')(x, axis)\n"
CASE = {"cls": "borrow", "kind": "inproc", "replace": {"softmax": S}, "target": ["test_softmax", "test_softmax_stable"]}
