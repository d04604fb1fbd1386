# Honest: mix_tokens with einsum and the library's softmax (an earlier building block, allowed).
CASE = {"cls": "borrow", "kind": "inproc", "honest": True,
        "replace": {"mix_tokens": r'''
def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    scores = np.einsum("...id,...jd->...ij", X, X)
    return np.einsum("...ij,...jd->...id", attnlab.softmax(scores, axis=-1), X)
'''}}
