"""Torch twins of ``attnlab.self_attention`` and the ``SelfAttention`` module of notebook 03.

Same names, signatures, semantics and errors as the numpy references. Weights are ``(in, out)``
and multiply as ``X @ W``; note that ``nn.Linear`` stores its weight the other way round,
``(out, in)``, so ``module.W_q.weight.T`` is the ``W_q`` of the functions.
"""
from __future__ import annotations

import math

import torch
from torch import nn

from .._validate import fmt, require_equal, require_int, require_ndim
from .functional import _float, masked_softmax, softmax


def _check_projections(X, W_q, W_k, W_v):
    X, W_q, W_k, W_v = (_float(a) for a in (X, W_q, W_k, W_v))
    require_ndim(X, "X", ("L", "D"))
    require_ndim(W_q, "W_q", ("D", "Dk"), batch=False)
    require_ndim(W_k, "W_k", ("D", "Dk"), batch=False)
    require_ndim(W_v, "W_v", ("D", "Dv"), batch=False)
    for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)):
        require_equal(X.shape[-1], W.shape[0], "input width D", "X", X.shape, name, W.shape)
    require_equal(W_q.shape[1], W_k.shape[1], "output width Dk", "W_q", W_q.shape, "W_k", W_k.shape)
    return X, W_q, W_k, W_v


def self_attention(
    X: torch.Tensor, W_q: torch.Tensor, W_k: torch.Tensor, W_v: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Single-head self-attention: ``softmax((X W_q)(X W_k)^T / sqrt(Dk)) (X W_v)``.

    Args:
        X: ``(..., L, D)``; W_q: ``(D, Dk)``; W_k: ``(D, Dk)``; W_v: ``(D, Dv)``.

    Returns:
        ``(Z (..., L, Dv), A (..., L, L))``: the outputs and the attention weights, row ``i`` of
        ``A`` holding the weights token ``i`` gives to every token (each row sums to one).

    Every token is both a query and a key/value: token ``i`` scores every token ``j`` by the
    scaled dot product of its query with ``j``'s key, and its output is the weighted average
    of the values.
    """
    X, W_q, W_k, W_v = _check_projections(X, W_q, W_k, W_v)
    Q = X @ W_q  # (..., L, D) x (D, Dk) -> (..., L, Dk)
    K = X @ W_k  # (..., L, D) x (D, Dk) -> (..., L, Dk)
    V = X @ W_v  # (..., L, D) x (D, Dv) -> (..., L, Dv)
    scores = Q @ K.transpose(-1, -2) / math.sqrt(W_q.shape[1])  # (..., L, Dk) x (..., Dk, L) -> (..., L, L)
    A = softmax(scores, axis=-1)  # (..., L, L)
    return A @ V, A  # (..., L, L) x (..., L, Dv) -> (..., L, Dv)


def append_ones(X: torch.Tensor) -> torch.Tensor:
    """Append a column of ones to every token: ``(..., L, D) -> (..., L, D + 1)``."""
    X = _float(X)
    require_ndim(X, "X", ("L", "D"))
    ones = X.new_ones(X.shape[:-1] + (1,))  # (..., L, 1)
    return torch.cat([X, ones], dim=-1)  # (..., L, D + 1)


def absorb_bias(W: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Stack the bias under the weights: ``W (D, M)``, ``b (M,)`` -> ``(D + 1, M)``, ``b`` last."""
    W, b = _float(W), _float(b)
    require_ndim(W, "W", ("D", "M"), batch=False)
    require_ndim(b, "b", ("M",), batch=False)
    require_equal(W.shape[1], b.shape[0], "output width M", "W", W.shape, "b", b.shape)
    return torch.cat([W, b.to(W.dtype)[None, :]], dim=0)  # (D, M) + (1, M) -> (D + 1, M)


class SelfAttention(nn.Module):
    """Single-head self-attention with three learned projections of the same input.

    ``SelfAttention(d_in, d_k, d_v, bias=False)`` holds

    * ``W_q = nn.Linear(d_in, d_k, bias=bias)``: queries, what each token looks for;
    * ``W_k = nn.Linear(d_in, d_k, bias=bias)``: keys, what each token offers;
    * ``W_v = nn.Linear(d_in, d_v, bias=bias)``: values, what each token passes on.

    ``forward(X, mask=None)`` takes ``X (..., L, d_in)`` and an optional boolean ``mask``
    broadcastable to ``(..., L, L)`` (``True`` = may attend; a fully masked row gets zero
    weights and a zero output) and returns ``(Z (..., L, d_v), A (..., L, L))`` with
    ``A = softmax(Q K^T / sqrt(d_k))`` and ``Z = A V``, where ``Q``, ``K`` and ``V`` are the
    three projections of ``X``.
    """

    def __init__(self, d_in: int, d_k: int, d_v: int, bias: bool = False) -> None:
        super().__init__()
        self.d_in = require_int(d_in, "d_in", minimum=1)
        self.d_k = require_int(d_k, "d_k", minimum=1)
        self.d_v = require_int(d_v, "d_v", minimum=1)
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)

    def forward(self, X: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        require_ndim(X, "X", ("L", "d_in"))
        if X.shape[-1] != self.d_in:
            raise ValueError(f"X: expected shape (..., L, d_in={self.d_in}), got {fmt(X.shape)}")
        Q = self.W_q(X)  # (..., L, d_in) -> (..., L, d_k)
        K = self.W_k(X)  # (..., L, d_in) -> (..., L, d_k)
        V = self.W_v(X)  # (..., L, d_in) -> (..., L, d_v)
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)  # (..., L, d_k) x (..., d_k, L) -> (..., L, L)
        A = masked_softmax(scores, mask)  # (..., L, L)
        return A @ V, A  # (..., L, L) x (..., L, d_v) -> (..., L, d_v)

    def extra_repr(self) -> str:
        return f"d_in={self.d_in}, d_k={self.d_k}, d_v={self.d_v}, bias={self.W_q.bias is not None}"
