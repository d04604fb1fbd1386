# Honest: softmax from a helper module beside the notebook that uses the library's own unpacking idiom.
H = 'import numpy as np\n\ndef stable_softmax(x, axis=-1):\n    (x,) = (np.asarray(a, dtype=float) for a in (x,))\n    z = x - np.max(x, axis=axis, keepdims=True)\n    e = np.exp(z)\n    return e / np.sum(e, axis=axis, keepdims=True)\n'
CASE = {"cls": "honest", "kind": "inproc", "files": {"mathutil.py": H}, "replace": {"softmax": "from mathutil import stable_softmax\ndef softmax(x, axis=-1):\n    return stable_softmax(x, axis)\n"}}
