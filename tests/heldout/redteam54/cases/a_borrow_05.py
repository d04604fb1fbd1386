# The profile switched off (name built at run time) around a FunctionType copy of the reference.
S = "import types\n_lib = __import__('attnlab')\n_ref = getattr(_lib, 'soft' + 'max')\n_copy = types.FunctionType(_ref.__code__, dict(_ref.__globals__), 'rows', _ref.__defaults__)\n_sys = __import__('sys')\ndef softmax(x, axis=-1):\n    getattr(_sys, 'set' + 'profile')(None)\n    return _copy(x, axis)\n"
CASE = {"cls": "borrow", "kind": "inproc", "replace": {"softmax": S}, "target": ["test_softmax", "test_softmax_stable"]}
