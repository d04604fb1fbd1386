"""Notebook 01: wrong implementations the catalogue does not list."""
from uncatalogued import U

WRONG = [
    U("weighted_average", '''
import torch
def weighted_average(values, weights):
    values = torch.as_tensor(values, dtype=torch.float64)
    weights = torch.as_tensor(weights, dtype=torch.float64)
    if weights.ndim != 1 or values.ndim != 2 or len(weights) != len(values):
        raise ValueError("values (N, D) and weights (N,)")
    if bool((weights < 0).any()) or abs(float(weights.sum()) - 1.0) > 1e-6:
        raise ValueError("weights off the simplex")
    return weights @ values
''', "test_weighted_average", "returns a torch tensor", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("weighted_average", '''
def weighted_average(values, weights):
    values = np.asarray(values)
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 1 or values.ndim != 2 or len(weights) != len(values):
        raise ValueError("values (N, D) and weights (N,)")
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError("weights off the simplex")
    return (weights @ values).astype(values.dtype)
''', "test_weighted_average", "cast back to the input's dtype (ints for int values)",
      words=("int", "float", "dtype", "type"), kind="types"),
    U("weighted_average", '''
def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 1 or values.ndim != 2 or len(weights) != len(values):
        raise ValueError("values (N, D) and weights (N,)")
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 0.05:
        raise ValueError("weights off the simplex")
    return weights @ values
''', "test_weighted_average_rejects", "a simplex tolerance of 0.05", words=("simplex", "sum"), kind="tolerance"),
    U("weighted_average", '''
def weighted_average(values, weights):
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError("weights off the simplex")
    values *= weights[:, None]
    return values.sum(axis=0)
''', "test_weighted_average", "weights the values in place", words=("in place",), kind="in place"),
    U("weighted_average", '''
def weighted_average(values, weights):
    if np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-6:
        raise ValueError("weights off the simplex")
    return weights[1:] @ values[1:]
''', "test_weighted_average", "skips the first row", kind="off-by-one"),
    U("weighted_average", '''
def weighted_average(values, weights):
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if np.any(weights < 0):
        raise ValueError("negative weights")
    return weights @ values
''', "test_weighted_average_rejects", "checks the sign but not the sum", words=("simplex", "sum"), kind="contract"),

    U("softmax", '''
def softmax(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
''', "test_softmax", "shifts x in place", words=("in place",), kind="in place"),
    U("softmax", '''
import torch
def softmax(x, axis=-1):
    return torch.softmax(torch.as_tensor(x, dtype=torch.float64), dim=axis)
''', "test_softmax", "torch.softmax, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("softmax", '''
def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=0, keepdims=True)
''', ("test_softmax", "test_softmax_stable"), "axis 0 and no max subtraction", words=("axis", "max subtraction"),
      kind="two at once"),
    U("softmax", '''
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
''', "test_softmax", "assumes a 2-D input (axis=1)", words=("axis 1", "`axis` argument", "leading axes", "rank"), kind="fixed-rank"),
    U("softmax", '''
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / (np.sum(e, axis=axis, keepdims=True) + 1e-3)
''', "test_softmax", "an epsilon of 1e-3 in the normaliser", kind="tolerance"),
    U("softmax", '''
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    shifted = x - np.min(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)
''', "test_softmax_stable", "shifts by the minimum", needs_layer=False, words=("max subtraction", "maximum", "overflow", "stable"), kind="range"),

    U("mix_tokens", '''
def mix_tokens(X):
    S = np.einsum("ld,md->lm", X, X)
    return attnlab.softmax(S, axis=-1) @ X
''', "test_mix_tokens_batched", "einsum for one sequence only", words=("batch axis", "leading axes", "leading axis"), kind="fixed-rank"),
    U("mix_tokens", '''
def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    L = X.shape[-2]
    scores = X @ np.swapaxes(X, -1, -2) / np.sqrt(L)
    return attnlab.softmax(scores, axis=-1) @ X
''', "test_mix_tokens", "scores scaled by sqrt(L)", needs_layer=True, words=("scal", "sqrt", "factor"),
      kind="constant"),
    U("mix_tokens", '''
import torch
def mix_tokens(X):
    X = torch.as_tensor(X, dtype=torch.float64)
    return torch.softmax(X @ X.transpose(-1, -2), dim=-1) @ X
''', "test_mix_tokens", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("mix_tokens", '''
def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    A = attnlab.softmax(X @ np.swapaxes(X, -1, -2), axis=-1)
    return np.swapaxes(A, -1, -2) @ X
''', "test_mix_tokens", "A transposed before mixing (Aᵀ X)", words=("transpose", "column", "axis"),
      kind="transpose"),
]
