# Honest: mix_tokens computing its rows in a thread pool with the learner's own softmax.
CASE = {"cls": "borrow", "kind": "inproc", "honest": True,
        "replace": {"mix_tokens": r'''
from concurrent.futures import ThreadPoolExecutor
def _row_softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    flat = X.reshape(-1, *X.shape[-2:])
    with ThreadPoolExecutor(2) as pool:
        outs = list(pool.map(lambda x: _row_softmax(x @ x.T) @ x, flat))
    return np.stack(outs).reshape(X.shape) if outs else X.copy()
'''}}
