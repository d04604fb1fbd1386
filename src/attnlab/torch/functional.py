"""Torch twins of the numpy references: same names, signatures, semantics and errors.

They differ from the numpy versions only in taking and returning ``torch.Tensor``, so that they
run on a GPU and carry gradients. The tests check each against its numpy twin and against the
fused torch call it matches.
"""
from __future__ import annotations

import math

import torch

from .._validate import fmt, require_broadcastable, require_equal, require_int, require_ndim, require_qkv
from ..averages import SIMPLEX_ATOL


def _float(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def softmax(x: torch.Tensor, axis: int = -1) -> torch.Tensor:
    """Softmax along ``axis``: ``exp(x_i) / sum_j exp(x_j)``, exact and finite for logits of +-1e4.

    Matches ``torch.softmax(x, dim=axis)``.
    """
    x = _float(x)
    if x.dim() == 0:
        raise ValueError(f"x: expected a tensor with at least one dimension, got shape {fmt(x.shape)}")
    if not -x.dim() <= axis < x.dim():
        raise ValueError(f"axis: expected an axis of x {fmt(x.shape)}, got {axis}")
    e = torch.exp(x - x.amax(dim=axis, keepdim=True))  # every exponent <= 0
    return e / e.sum(dim=axis, keepdim=True)


def weighted_average(values: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """``sum_i w_i v_i`` for ``values (N, D)`` and ``weights (N,)`` on the simplex -> ``(D,)``."""
    values, weights = _float(values), _float(weights)
    require_ndim(values, "values", ("N", "D"), batch=False)
    require_ndim(weights, "weights", ("N",), batch=False)
    require_equal(values.shape[0], weights.shape[0], "N (number of rows)",
                  "values", values.shape, "weights", weights.shape)
    if not bool(torch.isfinite(weights).all()) or bool((weights < 0).any()):
        raise ValueError("weights: expected non-negative finite weights (on the simplex), "
                         f"got min {float(weights.min())!r}")
    total = float(weights.sum())
    if abs(total - 1.0) > SIMPLEX_ATOL:
        raise ValueError(f"weights: expected weights summing to 1 (on the simplex), got sum {total!r}")
    return weights.to(values.dtype) @ values  # (N,) @ (N, D) -> (D,)


def mix_tokens(X: torch.Tensor) -> torch.Tensor:
    """Parameter-free self-attention ``softmax(X X^T) X``: ``(..., L, D) -> (..., L, D)``."""
    X = _float(X)
    require_ndim(X, "X", ("L", "D"))
    scores = X @ X.transpose(-1, -2)  # (..., L, D) x (..., D, L) -> (..., L, L)
    return softmax(scores, axis=-1) @ X  # (..., L, L) x (..., L, D) -> (..., L, D)


def _qk(Q, K, same_width: bool = True):
    Q, K = _float(Q), _float(K)
    require_ndim(Q, "Q", ("Lq", "Dk"))
    require_ndim(K, "K", ("Lk", "Dk"))
    if same_width:
        require_equal(Q.shape[-1], K.shape[-1], "last dimension Dk", "Q", Q.shape, "K", K.shape)
    return Q, K


def dot_score(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """``Q K^T``: ``(..., Lq, Dk), (..., Lk, Dk) -> (..., Lq, Lk)``."""
    Q, K = _qk(Q, K)
    return Q @ K.transpose(-1, -2)  # (..., Lq, Dk) x (..., Dk, Lk) -> (..., Lq, Lk)


def scaled_dot_score(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """``Q K^T / sqrt(Dk)``."""
    Q, K = _qk(Q, K)
    return dot_score(Q, K) / math.sqrt(Q.shape[-1])


def cosine_score(Q: torch.Tensor, K: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    """``q.k / (|q| |k|)`` for every query-key pair."""
    Q, K = _qk(Q, K)
    Qn = Q / Q.norm(dim=-1, keepdim=True).clamp_min(eps)  # (..., Lq, Dk)
    Kn = K / K.norm(dim=-1, keepdim=True).clamp_min(eps)  # (..., Lk, Dk)
    return Qn @ Kn.transpose(-1, -2)  # (..., Lq, Lk)


def general_score(Q: torch.Tensor, K: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    """Luong's "general" score ``Q W K^T``, with ``W (Dq, Dk)``."""
    Q, K = _qk(Q, K, same_width=False)
    W = _float(W)
    require_ndim(W, "W", ("Dq", "Dk"), batch=False)
    require_equal(Q.shape[-1], W.shape[0], "width Dq", "Q", Q.shape, "W", W.shape)
    require_equal(K.shape[-1], W.shape[1], "width Dk", "K", K.shape, "W", W.shape)
    return (Q @ W) @ K.transpose(-1, -2)  # (..., Lq, Dk) x (..., Dk, Lk) -> (..., Lq, Lk)


def additive_score(Q, K, W_q, W_k, v) -> torch.Tensor:
    """Bahdanau's additive score ``v^T tanh(q W_q + k W_k)`` -> ``(..., Lq, Lk)``."""
    Q, K = _qk(Q, K, same_width=False)
    W_q, W_k, v = _float(W_q), _float(W_k), _float(v)
    require_ndim(W_q, "W_q", ("Dq", "Dh"), batch=False)
    require_ndim(W_k, "W_k", ("Dk", "Dh"), batch=False)
    require_ndim(v, "v", ("Dh",), batch=False)
    require_equal(Q.shape[-1], W_q.shape[0], "width Dq", "Q", Q.shape, "W_q", W_q.shape)
    require_equal(K.shape[-1], W_k.shape[0], "width Dk", "K", K.shape, "W_k", W_k.shape)
    require_equal(W_q.shape[1], W_k.shape[1], "hidden width Dh", "W_q", W_q.shape, "W_k", W_k.shape)
    require_equal(W_q.shape[1], v.shape[0], "hidden width Dh", "W_q", W_q.shape, "v", v.shape)
    q = (Q @ W_q).unsqueeze(-2)  # (..., Lq, 1, Dh)
    k = (K @ W_k).unsqueeze(-3)  # (..., 1, Lk, Dh)
    return torch.tanh(q + k) @ v  # (..., Lq, Lk, Dh) x (Dh,) -> (..., Lq, Lk)


def causal_mask(Lq: int, Lk: int) -> torch.Tensor:
    """``(Lq, Lk)`` bool, ``True`` where ``j <= i`` (top-left aligned, as SDPA's ``is_causal``)."""
    Lq, Lk = require_int(Lq, "Lq"), require_int(Lk, "Lk")
    return torch.arange(Lk)[None, :] <= torch.arange(Lq)[:, None]  # (Lq, Lk)


def padding_mask(lengths: torch.Tensor, Lk: int) -> torch.Tensor:
    """``(B, Lk)`` bool, ``True`` where ``j < lengths[b]``."""
    Lk = require_int(Lk, "Lk")
    lengths = torch.as_tensor(lengths)
    require_ndim(lengths, "lengths", ("B",), batch=False)
    if lengths.is_floating_point() or lengths.dtype == torch.bool:
        raise ValueError(f"lengths: expected integers, got dtype {lengths.dtype}")
    if bool((lengths < 0).any()) or bool((lengths > Lk).any()):
        raise ValueError(f"lengths: expected values in [0, Lk={Lk}], got {lengths.tolist()}")
    return torch.arange(Lk, device=lengths.device)[None, :] < lengths[:, None]  # (B, Lk)


def _check_mask(mask, target_shape) -> None:
    if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
        raise ValueError("mask: expected a boolean tensor (True = may attend), got "
                         f"{getattr(mask, 'dtype', type(mask).__name__)}")
    require_broadcastable(mask.shape, target_shape, "mask", "the scores (..., Lq, Lk)")


def masked_softmax(scores: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """Softmax over the last axis where ``mask`` is ``True``; masked weights exactly 0, a fully
    masked row all 0 (never NaN), with finite gradients everywhere."""
    scores = _float(scores)
    require_ndim(scores, "scores", ("Lq", "Lk"))
    if mask is None:  # the same numbers as softmax(scores, axis=-1), fused: 4x faster on CPU
        return torch.softmax(scores, dim=-1)
    _check_mask(mask, scores.shape)
    mask = mask.expand(scores.shape)
    blocked = scores.masked_fill(~mask, float("-inf"))
    row_max = blocked.amax(dim=-1, keepdim=True).detach()  # (..., Lq, 1)
    row_max = torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))
    e = torch.exp(blocked - row_max).masked_fill(~mask, 0.0)  # masked -> exactly 0
    total = e.sum(dim=-1, keepdim=True)  # (..., Lq, 1)
    return e / torch.where(total > 0, total, torch.ones_like(total))


def scaled_dot_product_attention(Q, K, V, mask=None) -> tuple[torch.Tensor, torch.Tensor]:
    """``softmax(Q K^T / sqrt(Dk)) V`` -> ``(output (..., Lq, Dv), weights (..., Lq, Lk))``.

    Same as ``F.scaled_dot_product_attention(Q, K, V, attn_mask=mask)`` except that it also
    returns the weights; a fully masked row gets zero weights and a zero output (never NaN, as
    ``nn.MultiheadAttention`` and older torch versions give).
    """
    Q, K, V = _float(Q), _float(K), _float(V)
    require_qkv(Q, K, V)
    # Scale Q rather than the scores: the same numbers, one pass over (Lq, Dk) instead of (Lq, Lk).
    scores = (Q / math.sqrt(Q.shape[-1])) @ K.transpose(-1, -2)  # (..., Lq, Dk) x (..., Dk, Lk) -> (..., Lq, Lk)
    weights = masked_softmax(scores, mask)  # (..., Lq, Lk)
    return weights @ V, weights  # (..., Lq, Dv)


def attend(q, K, V) -> tuple[torch.Tensor, torch.Tensor]:
    """One query ``(Dk,)`` against ``K (Lk, Dk)``, ``V (Lk, Dv)`` -> ``((Dv,), (Lk,))``."""
    q, K, V = _float(q), _float(K), _float(V)
    require_ndim(q, "q", ("Dk",), batch=False)
    require_ndim(K, "K", ("Lk", "Dk"), batch=False)
    require_ndim(V, "V", ("Lk", "Dv"), batch=False)
    out, w = scaled_dot_product_attention(q[None, :], K, V)  # (1, Dv), (1, Lk)
    return out[0], w[0]
