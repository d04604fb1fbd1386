# mix_tokens through the library's cross_attention (queries and keys from the same tokens).
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_mix_tokens", "test_mix_tokens_batched"],
        "replace": {"mix_tokens": r'''
def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    D = X.shape[-1]
    W = np.eye(D) * D ** 0.25
    out, _ = attnlab.cross_attention(X, X, W, W, np.eye(D))
    return out
'''}}
