# mix_tokens through the library's self_attention with projections that cancel its scaling.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_mix_tokens", "test_mix_tokens_batched"],
        "replace": {"mix_tokens": r'''
def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    D = X.shape[-1]
    W = np.eye(D) * D ** 0.25
    Z, _ = attnlab.self_attention(X, W, W, np.eye(D))
    return Z
'''}}
