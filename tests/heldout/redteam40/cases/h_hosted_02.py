# Honest (PrairieLearn): a helper module and a data file uploaded beside the notebook.
CASE = {"cls": "hosted", "kind": "hosted", "engine": "prairielearn", "honest": True,
        "files": {"helpers.py": "import numpy as np\n\ndef softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
                                "    e = np.exp(x - x.max(axis=axis, keepdims=True))\n    return e / e.sum(axis=axis, keepdims=True)\n",
                  "toy.csv": "0.1,0.2\n0.3,0.4\n"},
        "cell": "_toy = np.loadtxt('toy.csv', delimiter=',')\n",
        "replace": {"softmax": "from helpers import softmax\n"}}
