# Honest: softmax from the learner's own helper module beside the notebook (an ordinary file), and a data
# file the notebook reads.
CASE = {"cls": "links", "kind": "course", "honest": True,
        "files": {"my_ops.py": "import numpy as np\n\ndef stable_softmax(x, axis=-1):\n"
                               "    x = np.asarray(x, dtype=float)\n    e = np.exp(x - x.max(axis=axis, keepdims=True))\n"
                               "    return e / e.sum(axis=axis, keepdims=True)\n",
                  "scores.csv": "1,2,3\n4,5,6\n"},
        "cell": "_demo = np.loadtxt('scores.csv', delimiter=',')\n",
        "replace": {"softmax": "from my_ops import stable_softmax\n\ndef softmax(x, axis=-1):\n    return stable_softmax(x, axis=axis)\n"}}
