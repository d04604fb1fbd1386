# Honest: scipy.special imported for an unrelated function, and the library's softmax used in a self-test beside the exercise.
CASE = {"cls": "honest", "kind": "inproc", "cell_end": "from scipy import special\nprint(special.gamma(5.0))\nimport attnlab\n_x = np.random.default_rng(2).normal(size=(3, 4))\nassert np.allclose(softmax(_x), attnlab.softmax(_x))\n"}
