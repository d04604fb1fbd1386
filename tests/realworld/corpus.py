"""The corpus: correct and buggy implementations, as code in the wild writes them."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

import attnlab
import attnlab.torch as at


@dataclass(frozen=True)
class Impl:
    """One implementation: the checks it is run through, and what it is.

    ``mistake``: None for correct code; otherwise a piece of the mistake's name that every
    failing check must say (a message that names another mistake is a wrong diagnosis).
    """

    label: str
    checks: tuple[str, ...]
    obj: Any
    mistake: str | None = None


CORRECT: list[Impl] = []
BUGGY: list[Impl] = []


def correct(label: str, *checks: str):
    def register(obj):
        CORRECT.append(Impl(label, checks, obj))
        return obj
    return register


def buggy(label: str, mistake: str, *checks: str):
    def register(obj):
        BUGGY.append(Impl(label, checks, obj, mistake))
        return obj
    return register


def _t32(*arrays):
    return [torch.as_tensor(np.asarray(a), dtype=torch.float32) for a in arrays]


def _np(result):
    """The thin wrapper at the end (CONTRIBUTING): a numpy exercise returns numpy arrays, so
    code written in torch ends with `.numpy()` (docs/contract.md: numpy exercises never return tensors)."""
    if isinstance(result, tuple):
        return tuple(_np(r) for r in result)
    return result.detach().numpy() if isinstance(result, torch.Tensor) else result


# =============================================================================================
# 01 weighted averages

SOFTMAX = ("check_softmax", "check_softmax_stable")


@correct("softmax in float32 (numpy)", *SOFTMAX)
def softmax_f32(x, axis=-1):
    x = np.asarray(x, dtype=np.float32)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@correct("softmax with torch.softmax in float32", *SOFTMAX)
def softmax_torch32(x, axis=-1):
    return _np(torch.softmax(torch.as_tensor(x, dtype=torch.float32), dim=axis))


@buggy("softmax in torch, the tensor returned as it is", "a torch tensor returned from a numpy exercise",
       *SOFTMAX)
def softmax_torch_tensor(x, axis=-1):
    return torch.softmax(torch.as_tensor(x), dim=axis)


@correct("softmax with an epsilon of 1e-6 in the denominator", *SOFTMAX)
def softmax_eps(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / (np.sum(e, axis=axis, keepdims=True) + 1e-6)


@correct("softmax through logsumexp", *SOFTMAX)
def softmax_lse(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)


@buggy("softmax: the 1-D branch skips the max subtraction", "no max subtraction", *SOFTMAX)
def softmax_1d_branch(x, axis=-1):
    x = np.asarray(x)
    if x.ndim == 1:
        e = np.exp(x)
        return e / e.sum()
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@buggy("softmax in torch over dim=-1 whatever axis says", "ignoring the `axis` argument", *SOFTMAX)
def softmax_torch_last(x, axis=-1):
    return _np(torch.softmax(torch.as_tensor(x), dim=-1))


@buggy("softmax without keepdims (torch)", "keepdims", *SOFTMAX)
def softmax_torch_no_keepdim(x, axis=-1):
    x = torch.as_tensor(x)
    e = torch.exp(x - x.amax(dim=axis, keepdim=True))
    return _np(e / e.sum(dim=axis))


# correct once; the prompt states the simplex tolerance (1e-6), and 1e-5 accepts what it rejects (issue 27)
@buggy("weighted_average with einsum and a tolerance", "a simplex tolerance looser than the stated 1e-6",
       "check_weighted_average", "check_weighted_average_rejects")
def weighted_average_einsum(values, weights):
    values, weights = np.asarray(values, dtype=np.float32), np.asarray(weights, dtype=np.float32)
    if weights.shape != values.shape[:1] or (weights < 0).any() or abs(weights.sum() - 1) > 1e-5:
        raise ValueError("weights must be a probability vector over the rows")
    return np.einsum("n,nd->d", weights, values)


@buggy("weighted_average in torch without validation", "not on the simplex", "check_weighted_average_rejects")
def weighted_average_torch(values, weights):
    return _np(torch.as_tensor(weights) @ torch.as_tensor(values))


# the same code on integer values: torch will not multiply float64 weights with int64 values
buggy("weighted_average in torch on integer values", "raised RuntimeError", "check_weighted_average")(weighted_average_torch)


MIX = ("check_mix_tokens", "check_mix_tokens_batched")


@correct("mix_tokens in torch float32", *MIX)
def mix_tokens_torch(X):
    (X,) = _t32(X)
    return _np(torch.softmax(X @ X.transpose(-2, -1), dim=-1) @ X)


@correct("mix_tokens with einsum", *MIX)
def mix_tokens_einsum(X):
    S = np.einsum("...id,...jd->...ij", X, X)
    return np.einsum("...ij,...jd->...id", attnlab.softmax(S), X)


@buggy("mix_tokens in torch with X.T", "`X.T` on a batch", *MIX)
def mix_tokens_torch_T(X):
    X = torch.as_tensor(X)
    return _np(torch.softmax(X @ X.T, dim=-1) @ X)


@buggy("mix_tokens scaled like the transformer", "scaling the scores by √D", *MIX)
def mix_tokens_scaled(X):
    return attnlab.softmax(X @ np.swapaxes(X, -1, -2) / math.sqrt(X.shape[-1])) @ X


# =============================================================================================
# 02 query, key, value

ATTEND = ("check_attend", "check_attend_sharp")
SDPA = ("check_sdpa", "check_sdpa_batched", "check_sdpa_mask", "check_sdpa_fully_masked")


@correct("attend in float32", *ATTEND)
def attend_f32(q, K, V):
    q, K, V = (np.asarray(a, dtype=np.float32) for a in (q, K, V))
    s = K @ q / np.float32(math.sqrt(q.shape[-1]))
    w = np.exp(s - s.max())
    w = w / w.sum()
    return w @ V, w


@buggy("attend in float32 without the scale", "no scaling", *ATTEND)
def attend_unscaled(q, K, V):
    q, K, V = (np.asarray(a, dtype=np.float32) for a in (q, K, V))
    w = attnlab.softmax(K @ q)
    return w @ V, w


@buggy("attend returning (weights, output)", "(weights, output) instead of (output, weights)", *ATTEND)
def attend_swapped(q, K, V):
    w = attnlab.softmax(K @ q / np.sqrt(len(q)))
    return w, w @ V


@correct("sdpa with a float32 scale constant", *SDPA)
def sdpa_f32_scale(Q, K, V, mask=None):
    scale = np.float32(1.0) / np.sqrt(np.float32(Q.shape[-1]))
    scores = Q @ np.swapaxes(K, -1, -2) * scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(total > 0, total, 1.0)
    return w @ V, w


@correct("sdpa in torch float32 with masked_fill and nan_to_num", *SDPA)
def sdpa_torch32(Q, K, V, mask=None):
    Q, K, V = _t32(Q, K, V)
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.size(-1))
    if mask is not None:
        scores = scores.masked_fill(~torch.as_tensor(mask), float("-inf"))
    w = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    return _np((w @ V, w))


@correct("sdpa with einsum", *SDPA)
def sdpa_einsum(Q, K, V, mask=None):
    scores = np.einsum("...qd,...kd->...qk", Q, K) / np.sqrt(Q.shape[-1])
    w = attnlab.masked_softmax(scores, mask) if mask is not None else attnlab.softmax(scores)
    return np.einsum("...qk,...kv->...qv", w, V), w


@buggy("sdpa in torch with K.T", "`K.T` on a batch", *SDPA)
def sdpa_torch_T(Q, K, V, mask=None):
    Q, K, V = (torch.as_tensor(a) for a in (Q, K, V))
    scores = Q @ K.T / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~torch.as_tensor(mask), float("-inf"))
    w = torch.nan_to_num(torch.softmax(scores, dim=-1))
    return _np((w @ V, w))


@buggy("sdpa with an additive -1e9 mask", "additive mask", *SDPA)
def sdpa_additive(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores + (1.0 - mask.astype(float)) * -1e9
    w = attnlab.softmax(scores)
    return w @ V, w


@buggy("sdpa with the mask inverted and -inf", "inverted", *SDPA)
def sdpa_inverted_inf(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    w = attnlab.softmax(scores)
    return w @ V, w


@buggy("sdpa scaled by the value width (code assuming Dv == Dk)", "scaling by √Dv", *SDPA)
def sdpa_dv(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(V.shape[-1])
    w = attnlab.masked_softmax(scores, mask) if mask is not None else attnlab.softmax(scores)
    return w @ V, w


# =============================================================================================
# 03 self-attention

SA = ("check_self_attention", "check_self_attention_batched")
MODULE = ("check_self_attention_module", "check_self_attention_module_mask")


@correct("self_attention in float32", *SA)
def self_attention_f32(X, W_q, W_k, W_v):
    X, W_q, W_k, W_v = (np.asarray(a, dtype=np.float32) for a in (X, W_q, W_k, W_v))
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = softmax_f32(Q @ np.swapaxes(K, -1, -2) / np.sqrt(np.float32(W_k.shape[1])))
    return A @ V, A


@correct("self_attention with einsum", *SA)
def self_attention_einsum(X, W_q, W_k, W_v):
    Q, K, V = (np.einsum("...ld,dk->...lk", X, W) for W in (W_q, W_k, W_v))
    A = attnlab.softmax(np.einsum("...ik,...jk->...ij", Q, K) / math.sqrt(Q.shape[-1]))
    return np.einsum("...ij,...jv->...iv", A, V), A


@buggy("self_attention with X @ W.T (torch weight habits)", "transposed weights", *SA)
def self_attention_WT(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q.T, X @ W_k.T, X @ W_v.T
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
    return A @ V, A


class LazySelfAttention(nn.Module):
    """Projections as nn.LazyLinear: the input width is read on the first call."""

    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q, self.W_k = nn.LazyLinear(d_k, bias=bias), nn.LazyLinear(d_k, bias=bias)
        self.W_v = nn.LazyLinear(d_v, bias=bias)

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        return at.scaled_dot_product_attention(Q, K, V, mask)


correct("SelfAttention with nn.LazyLinear", *MODULE)(LazySelfAttention)


class Projection(nn.Linear):
    """An nn.Linear subclass, as libraries define them (custom init)."""

    def reset_parameters(self) -> None:
        nn.init.xavier_uniform_(self.weight)
        if self.bias is not None:
            nn.init.zeros_(self.bias)


class DropoutSelfAttention(nn.Module):
    """An nn.Linear subclass, attention dropout as nn.Dropout, the scale as a float32 tensor."""

    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q, self.W_k = Projection(d_in, d_k, bias=bias), Projection(d_in, d_k, bias=bias)
        self.W_v = Projection(d_in, d_v, bias=bias)
        self.dropout = nn.Dropout(0.1)
        self.register_buffer("scale", torch.tensor(float(d_k), dtype=torch.float32).rsqrt())

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = Q @ K.transpose(-2, -1) * self.scale
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        A = self.dropout(torch.nan_to_num(torch.softmax(scores, dim=-1)))
        return A @ V, A


correct("SelfAttention with an nn.Linear subclass, nn.Dropout and a float32 scale", *MODULE)(DropoutSelfAttention)


class FunctionalDropoutSelfAttention(DropoutSelfAttention):
    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        A = at.masked_softmax(Q @ K.transpose(-2, -1) * self.scale, mask)
        A = F.dropout(A, p=0.1)  # training=True by default: active in eval mode too
        return A @ V, A


buggy("SelfAttention with F.dropout left active", "dropout left active", *MODULE)(FunctionalDropoutSelfAttention)


class WeightSelfAttention(LazySelfAttention):
    def __init__(self, d_in, d_k, d_v, bias=False):
        nn.Module.__init__(self)
        self.d_k = d_k
        self.W_q, self.W_k = nn.Linear(d_in, d_k, bias=bias), nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)

    def forward(self, X, mask=None):
        Q, K, V = X @ self.W_q.weight, X @ self.W_k.weight, X @ self.W_v.weight
        return at.scaled_dot_product_attention(Q, K, V, mask)


buggy("SelfAttention with X @ layer.weight", "`X @ self.W_q.weight`", *MODULE)(WeightSelfAttention)


class UnscaledLazySelfAttention(LazySelfAttention):
    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        A = at.masked_softmax(Q @ K.transpose(-2, -1), mask)
        return A @ V, A


buggy("SelfAttention (lazy layers) without the scale", "no scaling", *MODULE)(UnscaledLazySelfAttention)


class DkValueSelfAttention(WeightSelfAttention):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__(d_in, d_k, d_v, bias)
        self.W_v = nn.Linear(d_in, d_k, bias=bias)  # code that assumes d_v == d_k

    def forward(self, X, mask=None):
        return at.scaled_dot_product_attention(self.W_q(X), self.W_k(X), self.W_v(X), mask)


buggy("SelfAttention whose W_v maps to d_k (assumes d_v == d_k)", "a projection of the wrong size",
      *MODULE)(DkValueSelfAttention)


@correct("append_ones with ones_like", "check_append_ones", "check_append_ones_batched")
def append_ones_like(X):
    return np.concatenate([X, np.ones_like(X[..., :1])], axis=-1)


# =============================================================================================
# 04 masks and cross-attention

@correct("causal_mask with np.tri", "check_causal_mask")
def causal_mask_tri(Lq, Lk):
    return np.tri(Lq, Lk, dtype=bool)


@buggy("causal_mask that is square only", "a square (Lq, Lq) mask", "check_causal_mask")
def causal_mask_square(Lq, Lk):
    return np.tril(np.ones((Lq, Lq), dtype=bool))


# correct once; the contract wants numpy arrays from a numpy exercise (issue 27)
@buggy("padding_mask in torch", "a torch tensor returned from a numpy exercise", "check_padding_mask")
def padding_mask_torch(lengths, Lk):
    return torch.arange(Lk)[None, :] < torch.as_tensor(lengths)[:, None]


@buggy("padding_mask as wide as max(lengths)", "as wide as the longest sequence", "check_padding_mask")
def padding_mask_max(lengths, Lk):
    lengths = torch.as_tensor(lengths)
    return (torch.arange(int(lengths.max()))[None, :] < lengths[:, None]).numpy()  # a numpy array back, too narrow


MS = ("check_masked_softmax", "check_masked_softmax_fully_masked")


@correct("masked_softmax in float32 with a guarded denominator", *MS)
def masked_softmax_f32(scores, mask):
    s = np.where(mask, np.asarray(scores, dtype=np.float32), -np.inf)
    m = s.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(s - np.where(np.isfinite(m), m, 0)), 0)
    total = e.sum(axis=-1, keepdims=True)
    return e / np.maximum(total, np.finfo(np.float32).tiny)


@correct("masked_softmax in torch: masked_fill(-inf), softmax, nan_to_num", *MS)
def masked_softmax_torch(scores, mask):
    s = torch.as_tensor(scores).masked_fill(~torch.as_tensor(mask), float("-inf"))
    return _np(torch.nan_to_num(torch.softmax(s, dim=-1), nan=0.0))


@buggy("masked_softmax with an additive -1e9 mask", "an additive mask", *MS)
def masked_softmax_additive(scores, mask):
    return attnlab.softmax(scores + (1 - np.asarray(mask, dtype=float)) * -1e9)


@buggy("masked_softmax with the mask inverted and -inf", "the mask inverted", *MS)
def masked_softmax_inverted(scores, mask):
    return attnlab.softmax(np.where(mask, -np.inf, scores))


@buggy("masked_softmax in torch without a guard for empty rows", "with -inf", *MS)
def masked_softmax_torch_nan(scores, mask):
    s = torch.as_tensor(scores).masked_fill(~torch.as_tensor(mask), float("-inf"))
    return _np(torch.softmax(s, dim=-1))


CA = ("check_cross_attention", "check_cross_attention_masked")


@correct("cross_attention in torch float32", *CA)
def cross_attention_torch32(X_q, X_kv, W_q, W_k, W_v, mask=None):
    X_q, X_kv, W_q, W_k, W_v = _t32(X_q, X_kv, W_q, W_k, W_v)
    return _np(at.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v,
                                               None if mask is None else torch.as_tensor(mask)))


@buggy("cross_attention with keys and values from X_q", "keys and values taken from X_q", *CA)
def cross_attention_self(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_q @ W_k, X_q @ W_v, mask)


@buggy("cross_attention in torch with K.T", "on a batch", *CA)
def cross_attention_T(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = (torch.as_tensor(a) for a in (X_q @ W_q, X_kv @ W_k, X_kv @ W_v))
    w = at.masked_softmax(Q @ K.T / math.sqrt(K.shape[-1]), None if mask is None else torch.as_tensor(mask))
    return _np((w @ V, w))


@buggy("cross_attention scaled by the width of X_q", "scaling by √Dq", *CA)
def cross_attention_dq(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X_q.shape[-1])
    w = attnlab.masked_softmax(scores, mask) if mask is not None else attnlab.softmax(scores)
    return w @ V, w


# =============================================================================================
# 05 multi-head attention

MHA = ("check_multi_head_attention", "check_multi_head_attention_masked")
MHA_MODULE = ("check_mha_module", "check_mha_module_bias_mask")


@correct("split_heads and merge_heads with view/transpose (torch)", "check_split_heads")
def split_heads_torch(X, num_heads):
    X = torch.as_tensor(X)
    B, L, D = X.shape
    return _np(X.view(B, L, num_heads, D // num_heads).transpose(1, 2))


@buggy("split_heads with a view straight to (B, H, L, Dh)", "without the transpose", "check_split_heads")
def split_heads_view(X, num_heads):
    X = torch.as_tensor(X)
    B, L, D = X.shape
    return _np(X.view(B, num_heads, L, D // num_heads))


@correct("multi_head_attention with einsum", *MHA)
def mha_einsum(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    B, Lq, D = X_q.shape
    Lk, Dh = X_kv.shape[1], D // num_heads
    Q = np.einsum("bld,de->ble", X_q, W_q).reshape(B, Lq, num_heads, Dh)
    K = np.einsum("bld,de->ble", X_kv, W_k).reshape(B, Lk, num_heads, Dh)
    V = np.einsum("bld,de->ble", X_kv, W_v).reshape(B, Lk, num_heads, Dh)
    scores = np.einsum("bqhd,bkhd->bhqk", Q, K) / np.sqrt(Dh)
    w = attnlab.masked_softmax(scores, mask) if mask is not None else attnlab.softmax(scores)
    Z = np.einsum("bhqk,bkhd->bqhd", w, V).reshape(B, Lq, D)
    return Z @ W_o, w


def _mha_base(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None, *, L_kv=None, mask_fn=None,
              scale=True, project=True):
    B, Lq, D = X_q.shape
    Lk = X_kv.shape[1] if L_kv is None else L_kv
    Dh = D // num_heads
    Q = (X_q @ W_q).reshape(B, Lq, num_heads, Dh).transpose(0, 2, 1, 3)
    K = (X_kv @ W_k).reshape(B, Lk, num_heads, Dh).transpose(0, 2, 1, 3)
    V = (X_kv @ W_v).reshape(B, Lk, num_heads, Dh).transpose(0, 2, 1, 3)
    scores = Q @ K.transpose(0, 1, 3, 2) / (np.sqrt(Dh) if scale else 1.0)
    if mask is not None:
        mask = mask_fn(mask) if mask_fn else mask
        scores = np.where(mask, scores, -np.inf)
    w = np.nan_to_num(attnlab.softmax(scores))
    Z = (w @ V).transpose(0, 2, 1, 3).reshape(B, Lq, D)
    return (Z @ W_o if project else Z), w


@buggy("multi_head_attention that reshapes the keys with Lq (assumes Lq == Lk)", "assumes Lq == Lk", *MHA)
def mha_lq(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    return _mha_base(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask, L_kv=X_q.shape[1])


@buggy("multi_head_attention with mask[:, None] for the heads", "an axis added in the wrong place", *MHA)
def mha_mask_axis(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    return _mha_base(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask, mask_fn=lambda m: m[:, None])


@buggy("multi_head_attention without the scale and without W_o", "two known mistakes at once", *MHA)
def mha_two(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    return _mha_base(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask, scale=False, project=False)


class LazyMHA(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.h = num_heads
        self.W_q, self.W_k, self.W_v, self.W_o = (nn.LazyLinear(d_model, bias=bias) for _ in range(4))

    def forward(self, X_q, X_kv, mask=None):
        Q, K, V = (at.split_heads(f(x), self.h) for f, x in ((self.W_q, X_q), (self.W_k, X_kv), (self.W_v, X_kv)))
        Z, w = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(at.merge_heads(Z)), w


correct("MultiHeadAttention with nn.LazyLinear", *MHA_MODULE)(LazyMHA)


class ScaleBufferMHA(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.h = num_heads
        self.W_q, self.W_k, self.W_v, self.W_o = (Projection(d_model, d_model, bias=bias) for _ in range(4))
        self.attn_drop = nn.Dropout(0.1)
        self.register_buffer("scale", torch.tensor((d_model // num_heads) ** -0.5, dtype=torch.float32))

    def forward(self, X_q, X_kv, mask=None):
        Q, K, V = (at.split_heads(f(x), self.h) for f, x in ((self.W_q, X_q), (self.W_k, X_kv), (self.W_v, X_kv)))
        scores = Q @ K.transpose(-2, -1) * self.scale
        w = at.masked_softmax(scores, mask) if mask is not None else torch.softmax(scores, dim=-1)
        w = self.attn_drop(w)
        return self.W_o(at.merge_heads(w @ V)), w


correct("MultiHeadAttention with Linear subclasses, nn.Dropout and a float32 scale", *MHA_MODULE)(ScaleBufferMHA)


class WeightMHA(ScaleBufferMHA):
    def forward(self, X_q, X_kv, mask=None):
        Q, K, V = (at.split_heads(x @ f.weight, self.h) for f, x in ((self.W_q, X_q), (self.W_k, X_kv), (self.W_v, X_kv)))
        w = at.masked_softmax(Q @ K.transpose(-2, -1) * self.scale, mask) if mask is not None else \
            torch.softmax(Q @ K.transpose(-2, -1) * self.scale, dim=-1)
        return at.merge_heads(w @ V) @ self.W_o.weight, w


buggy("MultiHeadAttention with X @ layer.weight", "stores its weight as (out, in)", *MHA_MODULE)(WeightMHA)


class FDropoutMHA(ScaleBufferMHA):
    def forward(self, X_q, X_kv, mask=None):
        out, w = super().forward(X_q, X_kv, mask)
        return out, F.dropout(w, 0.1)


buggy("MultiHeadAttention with F.dropout on the weights", "dropout left active", *MHA_MODULE)(FDropoutMHA)


# =============================================================================================
# 06 attention as a kernel machine

GW = ("check_gaussian_attention_weights", "check_gaussian_attention_weights_stable")
LA = ("check_linear_attention", "check_linear_attention_causal")


@correct("gaussian_attention_weights in float32", *GW)
def gaussian_f32(x_query, x_keys, bandwidth):
    d = np.asarray(x_query, np.float32)[:, None] - np.asarray(x_keys, np.float32)[None, :]
    return softmax_f32(-d ** 2 / np.float32(2 * bandwidth ** 2))


@buggy("gaussian_attention_weights with the bandwidth fixed to 1", "the bandwidth ignored", *GW)
def gaussian_sigma1(x_query, x_keys, bandwidth):
    return attnlab.softmax(-(x_query[:, None] - x_keys[None, :]) ** 2 / 2)


@buggy("gaussian_attention_weights in torch without max subtraction", "no max subtraction", *GW)
def gaussian_torch_nomax(x_query, x_keys, bandwidth):
    d = torch.as_tensor(x_query)[:, None] - torch.as_tensor(x_keys)[None, :]
    k = torch.exp(-d ** 2 / (2 * bandwidth ** 2))
    return _np((k / k.sum(dim=-1, keepdim=True)))


@correct("nadaraya_watson with an epsilon of 1e-6", "check_nadaraya_watson")
def nw_eps(x_query, x_keys, y_values, bandwidth):
    s = -(x_query[:, None] - x_keys[None, :]) ** 2 / (2 * bandwidth ** 2)
    k = np.exp(s - s.max(axis=1, keepdims=True))
    return (k @ y_values) / (k.sum(axis=1) + 1e-6)


@buggy("nadaraya_watson with the bandwidth fixed to 1", "the bandwidth ignored", "check_nadaraya_watson")
def nw_sigma1(x_query, x_keys, y_values, bandwidth):
    return attnlab.gaussian_attention_weights(x_query, x_keys, 1.0) @ y_values


@correct("kernel_ridge_fit with an explicit inverse", "check_kernel_ridge_fit")
def krr_inv(x, y, bandwidth, reg):
    K = np.exp(-(x[:, None] - x[None, :]) ** 2 / (2 * bandwidth ** 2))
    return np.linalg.inv(K + reg * np.eye(len(x))) @ y


@buggy("kernel_ridge_fit without the ridge", "no regularisation", "check_kernel_ridge_fit")
def krr_noreg(x, y, bandwidth, reg):
    K = np.exp(-(x[:, None] - x[None, :]) ** 2 / (2 * bandwidth ** 2))
    return np.linalg.solve(K, y)


@correct("fit_bandwidth with a loop", "check_fit_bandwidth", "check_fit_bandwidth_candidates")
def fit_bandwidth_loop(x, y, candidates):
    best, best_err = None, np.inf
    for s in candidates:
        W = np.exp(-(x[:, None] - x[None, :]) ** 2 / (2 * s ** 2))
        np.fill_diagonal(W, 0.0)
        pred = W @ y / W.sum(axis=1)
        err = np.mean((pred - y) ** 2)
        if err < best_err:
            best, best_err = s, err
    return best


@buggy("fit_bandwidth without leaving one out", "no leave-one-out", "check_fit_bandwidth", "check_fit_bandwidth_candidates")
def fit_bandwidth_no_loo(x, y, candidates):
    errs = [np.mean((attnlab.nadaraya_watson(x, x, y, s) - y) ** 2) for s in candidates]
    return candidates[int(np.argmin(errs))]


@correct("linear_attention with an epsilon of 1e-6 in the normaliser", *LA)
def la_eps(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    if not causal:
        num = phi_Q @ (np.swapaxes(phi_K, -1, -2) @ V)
        den = phi_Q @ phi_K.sum(axis=-2)[..., None]
        return num / (den + 1e-6)
    S = np.cumsum(np.einsum("...lm,...lv->...lmv", phi_K, V), axis=-3)
    z = np.cumsum(phi_K, axis=-2)
    return np.einsum("...lm,...lmv->...lv", phi_Q, S) / (np.sum(phi_Q * z, -1, keepdims=True) + 1e-6)


@correct("linear_attention in torch float32", *LA)
def la_torch32(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = _t32(feature_map(Q), feature_map(K))
    (V,) = _t32(V)
    if causal:
        S = torch.cumsum(phi_K.unsqueeze(-1) * V.unsqueeze(-2), dim=-3)
        z = torch.cumsum(phi_K, dim=-2)
        return _np((torch.einsum("...lm,...lmv->...lv", phi_Q, S) / (phi_Q * z).sum(-1, keepdim=True)))
    return _np((phi_Q @ (phi_K.transpose(-2, -1) @ V)) / (phi_Q @ phi_K.sum(-2).unsqueeze(-1)))


@buggy("linear_attention without the normaliser", "no normaliser", *LA)
def la_no_norm(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    if causal:
        return np.einsum("...lm,...lmv->...lv", phi_Q,
                         np.cumsum(np.einsum("...lm,...lv->...lmv", phi_K, V), axis=-3))
    return phi_Q @ (np.swapaxes(phi_K, -1, -2) @ V)


@correct("linear_attention_recurrent with an epsilon of 1e-6", "check_linear_attention_recurrent")
def lr_eps(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.zeros((phi_K.shape[1], V.shape[1]))
    z = np.zeros(phi_K.shape[1])
    out = []
    for t in range(len(Q)):
        S = S + np.outer(phi_K[t], V[t])
        z = z + phi_K[t]
        out.append(phi_Q[t] @ S / (phi_Q[t] @ z + 1e-6))
    return np.stack(out)


@buggy("linear_attention_recurrent that reads before it writes", "state updated after the readout",
       "check_linear_attention_recurrent")
def lr_read_first(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.zeros((phi_K.shape[1], V.shape[1]))
    z = np.zeros(phi_K.shape[1])
    out = []
    for t in range(len(Q)):
        out.append(phi_Q[t] @ S / (phi_Q[t] @ z))
        S = S + np.outer(phi_K[t], V[t])
        z = z + phi_K[t]
    return np.stack(out)


# =============================================================================================
# 07 and 08

ADD = ("check_additive_attention", "check_additive_attention_mask")


class LazyAdditive(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.LazyLinear(hidden_dim, bias=False)
        self.W_k = nn.LazyLinear(hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        w = at.masked_softmax(scores, mask) if mask is not None else torch.softmax(scores, dim=-1)
        return torch.bmm(w.unsqueeze(1), keys).squeeze(1), w


correct("AdditiveAttention with nn.LazyLinear", *ADD)(LazyAdditive)


class NoTanhAdditive(LazyAdditive):
    def forward(self, query, keys, mask=None):
        scores = self.v(self.W_q(query).unsqueeze(1) + self.W_k(keys)).squeeze(-1)
        w = at.masked_softmax(scores, mask) if mask is not None else torch.softmax(scores, dim=-1)
        return torch.bmm(w.unsqueeze(1), keys).squeeze(1), w


buggy("AdditiveAttention without the tanh", "tanh missing", *ADD)(NoTanhAdditive)


@correct("weights_from_logsumexp in float32", "check_weights_from_logsumexp")
def wl_f32(Q, K, logsumexp):
    Q, K, lse = (np.asarray(a, dtype=np.float32) for a in (Q, K, logsumexp))
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(np.float32(Q.shape[-1]))
    finite = np.isfinite(lse)[..., None]
    return np.where(finite, np.exp(s - np.where(finite, lse[..., None], 0)), 0.0)


@buggy("weights_from_logsumexp as exp(s) / exp(lse)", "overflows", "check_weights_from_logsumexp")
def wl_overflow(Q, K, logsumexp):
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return np.exp(s) / np.exp(logsumexp)[..., None]


TILED = ("check_tiled_attention", "check_tiled_attention_causal", "check_tiled_attention_memory")


@correct("tiled_attention in torch (float32 tiles)", *TILED)
def tiled_torch32(Q, K, V, tile_size, causal=False):
    out, lse = at.tiled_attention(*_t32(Q, K, V), tile_size, causal)
    return _np((out, lse))


@buggy("tiled_attention in torch that forms the whole score matrix", "materialising the full", "check_tiled_attention_memory")
def tiled_torch_untiled(Q, K, V, tile_size, causal=False):
    Q, K, V = (torch.as_tensor(a) for a in (Q, K, V))
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    return torch.softmax(scores, dim=-1) @ V, torch.logsumexp(scores, dim=-1)


BACKWARD = ("check_tiled_attention_backward", "check_tiled_attention_backward_causal",
            "check_tiled_attention_backward_memory")


@correct("tiled_attention_backward in torch (float32 tiles)", *BACKWARD)
def backward_torch32(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    return _np(at.tiled_attention_backward(*_t32(Q, K, V, output, logsumexp, grad_output), tile_size, causal))


@buggy("tiled_attention_backward whose dS forgets the 1/sqrt(Dk)", "the scale forgotten in dS",
       "check_tiled_attention_backward")
def backward_no_scale(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    Q, K, V, O, lse, dO = (torch.as_tensor(a) for a in (Q, K, V, output, logsumexp, grad_output))
    D = (dO * O).sum(-1, keepdim=True)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for i0 in range(0, Q.shape[-2], tile_size):
        i = slice(i0, i0 + tile_size)
        for j0 in range(0, K.shape[-2], tile_size):
            j = slice(j0, j0 + tile_size)
            P = torch.exp(Q[..., i, :] @ K[..., j, :].transpose(-1, -2) / math.sqrt(Q.shape[-1]) - lse[..., i, None])
            dV[..., j, :] += P.transpose(-1, -2) @ dO[..., i, :]
            dS = P * (dO[..., i, :] @ V[..., j, :].transpose(-1, -2) - D[..., i, :])
            dQ[..., i, :] += dS @ K[..., j, :]
            dK[..., j, :] += dS.transpose(-1, -2) @ Q[..., i, :]
    return dQ, dK, dV
