# Honest: a long honest computation in a cell (several seconds of numpy).
CASE = {"cls": "honest", "kind": "inproc", "cell": "import time\n_t = time.time()\n_acc = 0.0\n_r = np.random.default_rng(1)\nwhile time.time() - _t < 6:\n    _m = _r.normal(size=(200, 200))\n    _acc += float(np.linalg.norm(_m @ _m.T))\nprint(_acc > 0)\n"}
