"""Notebook 04: wrong implementations the catalogue does not list."""
from uncatalogued import U

WRONG = [
    U("causal_mask", '''
def causal_mask(Lq, Lk):
    return np.arange(Lk)[None, :] <= np.arange(Lq)[:, None] + 1
''', "test_causal_mask", "one future key (j <= i + 1)", needs_layer=True, words=("shift", "diagonal", "off by one", "future"),
      kind="off-by-one"),
    U("causal_mask", '''
import torch
def causal_mask(Lq, Lk):
    return torch.tril(torch.ones(Lq, Lk, dtype=torch.bool))
''', "test_causal_mask", "torch.tril, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("causal_mask", '''
def causal_mask(Lq, Lk):
    return np.tril(np.ones((Lq, Lq), dtype=bool))[:, :Lk]
''', "test_causal_mask", "a square mask cut to Lk columns", words=("has shape", "wrong shape", "different order (or shape)"), kind="fixed-rank"),
    U("padding_mask", '''
import torch
def padding_mask(lengths, Lk):
    return torch.arange(Lk)[None, :] < torch.as_tensor(lengths)[:, None]
''', "test_padding_mask", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("padding_mask", '''
def padding_mask(lengths, Lk):
    lengths = np.asarray(lengths)
    return np.arange(Lk)[None, :] < lengths[:, None] - 1
''', "test_padding_mask", "one real token short (j < lengths[b] - 1)", needs_layer=True, words=("shift", "off by one", "length"),
      kind="off-by-one"),
    U("padding_mask", '''
def padding_mask(lengths, Lk):
    lengths = np.asarray(lengths)
    return np.arange(1, Lk + 1)[None, :] < lengths[:, None]
''', "test_padding_mask", "positions counted from 1", needs_layer=True, words=("shift", "off by one", "length"), kind="off-by-one"),
    U("padding_mask", '''
def padding_mask(lengths, Lk):
    mask = np.zeros((len(lengths), max(lengths)), dtype=bool)
    for b, n in enumerate(lengths):
        mask[b, :n] = True
    return mask
''', "test_padding_mask", "as wide as the longest sequence, in a loop", words=("has shape", "wrong shape", "different order (or shape)"), kind="shape"),

    U("masked_softmax", '''
def masked_softmax(scores, mask):
    e = np.exp(np.asarray(scores, dtype=float)) * mask
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total > 0, total, 1.0)
''', "test_masked_softmax", "not stable (no max subtraction)", needs_layer=False, words=("max subtraction", "maximum", "overflow", "stable", "large scores"),
      kind="range"),
    U("masked_softmax", '''
def masked_softmax(scores, mask):
    scores = np.asarray(scores, dtype=float)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total > 0, total, 1.0)
''', "test_masked_softmax", "shifted by a maximum over the masked keys too", needs_layer=True, words=("masked keys", "maximum"),
      kind="range"),
    U("masked_softmax", '''
def masked_softmax(scores, mask):
    scores = np.asarray(scores, dtype=float)
    mask = np.asarray(mask).reshape(scores.shape)
    blocked = np.where(mask, scores, -np.inf)
    m = blocked.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(blocked - np.where(np.isfinite(m), m, 0.0)), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total > 0, total, 1.0)
''', "test_masked_softmax", "reshape instead of broadcast", words=("broadcast", "shape"), kind="fixed-rank"),
    U("masked_softmax", '''
import torch
def masked_softmax(scores, mask):
    scores = torch.as_tensor(scores, dtype=torch.float64)
    mask = torch.as_tensor(mask).expand(scores.shape)
    w = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
    return torch.nan_to_num(w)
''', "test_masked_softmax", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("masked_softmax", '''
def masked_softmax(scores, mask):
    scores = np.asarray(scores, dtype=float)
    blocked = np.where(mask, -np.inf, scores)
    m = blocked.max(axis=-2, keepdims=True)
    e = np.exp(blocked - np.where(np.isfinite(m), m, 0.0))
    total = e.sum(axis=-2, keepdims=True)
    return e / np.where(total > 0, total, 1.0)
''', "test_masked_softmax", "the mask inverted and the softmax over the queries", needs_layer=False, words=("invert", "axis"),
      kind="two at once"),

    U("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ np.swapaxes(K, -1, -2)
    weights = attnlab.masked_softmax(scores, True if mask is None else mask)
    return weights @ V, weights
''', "test_cross_attention", "no 1/sqrt(Dk)", words=("scal", "sqrt"), kind="constant"),
    # (the mask on the query axis is a mistake of the cross_attention card now)
    U("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    output, weights = attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
    return output, np.swapaxes(weights, -1, -2)
''', "test_cross_attention", "the weights returned transposed", words=("transpose",), kind="transpose"),
    U("cross_attention", '''
import torch
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    output, weights = attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
    return torch.from_numpy(output), torch.from_numpy(weights)
''', "test_cross_attention", "tensors back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ K.T / np.sqrt(W_k.shape[1])
    weights = attnlab.masked_softmax(scores, True if mask is None else mask)
    return weights @ V, weights
''', "test_cross_attention", "K.T on a batch, and W_k's width for the scale", words=("batch axis", "leading axes", ".T"),
      kind="fixed-rank"),
]
