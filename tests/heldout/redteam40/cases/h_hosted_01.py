# Honest (Gradescope): softmax from a helper package uploaded beside the notebook.
CASE = {"cls": "hosted", "kind": "hosted", "engine": "gradescope", "honest": True,
        "files": {"mylib/__init__.py": "from .ops import softmax\n",
                  "mylib/ops.py": "import numpy as np\n\ndef softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
                                  "    e = np.exp(x - x.max(axis=axis, keepdims=True))\n    return e / e.sum(axis=axis, keepdims=True)\n"},
        "replace": {"softmax": "from mylib import softmax\n"}}
