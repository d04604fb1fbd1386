"""Notebook 02: wrong implementations the catalogue does not list."""
from uncatalogued import U

WRONG = [
    U("attend", '''
def attend(q, K, V):
    scores = K @ q / np.sqrt(K.shape[0])
    weights = attnlab.softmax(scores)
    return weights @ V, weights
''', "test_attend", "scaled by sqrt(Lk)", words=("scal", "sqrt"), kind="constant"),
    U("attend", '''
def attend(q, K, V):
    scores = K @ q / np.sqrt(q.shape[-1])
    weights = attnlab.softmax(scores)
    return (weights[:, None] * V).mean(axis=0), weights
''', "test_attend", "mean instead of sum of the weighted values", words=("factor", "mean", "sum"),
      needs_layer=False, kind="constant"),
    U("attend", '''
def attend(q, K, V):
    scores = K @ q / (np.linalg.norm(K, axis=-1) * np.linalg.norm(q))
    weights = attnlab.softmax(scores)
    return weights @ V, weights
''', "test_attend", "cosine scores", needs_layer=True, words=("cosine", "scal"), kind="score"),
    U("attend", '''
import torch
def attend(q, K, V):
    q, K, V = (torch.as_tensor(a, dtype=torch.float64) for a in (q, K, V))
    weights = torch.softmax(K @ q / q.shape[-1] ** 0.5, dim=-1)
    return weights @ V, weights
''', "test_attend", "in torch, tensors back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("attend", '''
def attend(q, K, V):
    e = np.exp(K @ q)
    weights = e / e.sum()
    return weights @ V, weights
''', ("test_attend", "test_attend_sharp"), "no scaling and no max subtraction", needs_layer=True, words=("scal", "max subtraction"),
      kind="two at once"),

    U("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal(d_k)
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(k @ q))
''', "test_score_variance", "one query against every key (dependent samples)", needs_layer=False,
      words=("independent", "dependent", "pair"), kind="statistics"),
    U("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples - 1, d_k))
    return float(np.var(np.sum(q[1:] * k, axis=-1)))
''', ("test_score_variance", "test_score_variance_rng"), "one sample short", kind="off-by-one"),
    U("score_variance", '''
import torch
def score_variance(d_k, n_samples, rng):
    q = torch.from_numpy(rng.standard_normal((n_samples, d_k)))
    k = torch.from_numpy(rng.standard_normal((n_samples, d_k)))
    return torch.var((q * k).sum(-1), unbiased=False)
''', "test_score_variance", "a 0-d tensor instead of a float", words=("float", "tensor"), kind="torch/numpy"),
    U("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    scores = np.sum(q * np.roll(q, 1, axis=0), axis=-1)
    return float(np.var(scores))
''', "test_score_variance_rng", "keys are the queries rolled by one (dependent samples)",
      words=("independent", "dependent", "rng", "draw"), kind="statistics"),

    U("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    e = np.exp(scores)
    if mask is not None:
        e = e * mask
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1.0)
    return weights @ V, weights
''', "test_sdpa", "masked softmax without max subtraction", words=("max subtraction", "maximum", "overflow", "stable", "large scores"),
      kind="range"),
    U("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    if mask is not None:
        e = np.where(mask, e, 0.0)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1.0)
    return weights @ V, weights
''', "test_sdpa_mask", "shifted by a maximum over the masked keys too", needs_layer=True, words=("masked keys", "maximum"), kind="range"),
    U("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    weights = attnlab.masked_softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]),
                                     True if mask is None else mask)
    return np.swapaxes(weights, -1, -2) @ V, weights
''', "test_sdpa", "Z = Aᵀ V", needs_layer=True, words=("transpose",), kind="transpose"),
    U("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = K @ np.swapaxes(Q, -1, -2) / np.sqrt(Q.shape[-1])
    weights = attnlab.masked_softmax(scores, True if mask is None else mask)
    return weights @ V, weights
''', "test_sdpa", "K Qᵀ instead of Q Kᵀ", needs_layer=True, words=("transpose", "swap", "K Q"), kind="transpose"),
    U("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    weights = attnlab.masked_softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]),
                                     True if mask is None else mask)
    return weights @ V, np.swapaxes(weights, -1, -2)
''', "test_sdpa", "the weights returned transposed", words=("transpose",), kind="transpose"),
    U("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = np.einsum("qd,kd->qk", Q, K) / np.sqrt(Q.shape[-1])
    weights = attnlab.masked_softmax(scores, True if mask is None else mask)
    return np.einsum("qk,kv->qv", weights, V), weights
''', "test_sdpa_batched", "einsum for one sequence only", words=("batch axis", "leading axes", "leading axis"), kind="fixed-rank"),
    U("scaled_dot_product_attention", '''
import torch
import torch.nn.functional as F
def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = (torch.as_tensor(a, dtype=torch.float64) for a in (Q, K, V))
    scores = Q @ K.transpose(-1, -2) / Q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~torch.as_tensor(mask), float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    return weights @ V, weights
''', "test_sdpa", "in torch, tensors back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-2])
    weights = attnlab.masked_softmax(scores, True if mask is None else mask)
    return weights @ V, weights
''', "test_sdpa", "scaled by sqrt(Lk)", words=("scal", "sqrt"), kind="constant"),
    U("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(np.swapaxes(mask, -1, -2), scores, -np.inf)
    weights = attnlab.masked_softmax(scores, np.isfinite(scores))
    return weights @ V, weights
''', "test_sdpa_mask", "the mask transposed (on the query axis)", needs_layer=True, words=("query axis", "along the queries", "wrong axis", "transposed mask", "mask transposed"), kind="mask axis"),
]
