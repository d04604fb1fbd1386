"""Torch twins of ``attnlab.linearised_attention``: same names, signatures, semantics and errors."""
from __future__ import annotations

import math
from typing import Callable

import torch

from .._validate import fmt, require_equal, require_ndim, require_qkv

FeatureMap = Callable[[torch.Tensor], torch.Tensor]


def _float(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def elu_feature_map(X: torch.Tensor) -> torch.Tensor:
    """``elu(x) + 1``, elementwise: ``(..., Dk) -> (..., Dk)``, positive."""
    return torch.nn.functional.elu(_float(X)) + 1.0


def positive_random_features(X: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    """Performer's positive random features ``exp(W^T x - |x|^2 / 2) / sqrt(M)``.

    Args:
        X: ``(..., L, Dk)``; W: ``(Dk, M)`` with ``N(0, 1)`` entries.

    Returns:
        ``(..., L, M)`` with ``E[phi(q) . phi(k)] = exp(q . k)``.
    """
    X, W = _float(X), _float(W)
    require_ndim(X, "X", ("L", "Dk"))
    require_ndim(W, "W", ("Dk", "M"), batch=False)
    require_equal(X.shape[-1], W.shape[0], "width Dk", "X", X.shape, "W", W.shape)
    projections = X @ W.to(X.dtype)  # (..., L, Dk) x (Dk, M) -> (..., L, M)
    half_norm = 0.5 * (X**2).sum(dim=-1, keepdim=True)  # (..., L, 1)
    return torch.exp(projections - half_norm) / math.sqrt(W.shape[1])  # (..., L, M)


def _features(Q, K, V, feature_map):
    Q, K, V = _float(Q), _float(K), _float(V)
    require_qkv(Q, K, V)
    if not callable(feature_map):
        raise ValueError(f"feature_map: expected a function (..., Dk) -> (..., M), "
                         f"got {type(feature_map).__name__}")
    phi_Q, phi_K = _float(feature_map(Q)), _float(feature_map(K))  # (..., Lq, M), (..., Lk, M)
    if phi_Q.shape[:-1] != Q.shape[:-1] or phi_K.shape[:-1] != K.shape[:-1] or phi_Q.shape[-1] != phi_K.shape[-1]:
        raise ValueError("feature_map: expected (..., L, Dk) -> (..., L, M), got phi(Q) "
                         f"{fmt(phi_Q.shape)} and phi(K) {fmt(phi_K.shape)} for Q {fmt(Q.shape)}, K {fmt(K.shape)}")
    return phi_Q, phi_K, V.to(phi_K.dtype)


def linear_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, feature_map: FeatureMap,
                     causal: bool = False) -> torch.Tensor:
    """Attention with the kernel ``phi(q) . phi(k)``, in linear time.

    ``out_i = phi(q_i)^T (sum_j phi(k_j) v_j^T) / phi(q_i)^T sum_j phi(k_j)``, sums over all keys,
    or over ``j <= i`` (prefix sums) when ``causal`` (needs ``Lq == Lk``).

    Args:
        Q: ``(..., Lq, Dk)``; K: ``(..., Lk, Dk)``; V: ``(..., Lk, Dv)``;
        feature_map: ``(..., L, Dk) -> (..., L, M)``, positive; causal: bool.

    Returns:
        ``(..., Lq, Dv)``.
    """
    phi_Q, phi_K, V = _features(Q, K, V, feature_map)
    if not causal:
        S = phi_K.transpose(-1, -2) @ V  # (..., M, Lk) x (..., Lk, Dv) -> (..., M, Dv)
        z = phi_K.sum(dim=-2)  # (..., M)
        denominator = (phi_Q * z.unsqueeze(-2)).sum(dim=-1, keepdim=True)  # (..., Lq, 1)
        return phi_Q @ S / denominator  # (..., Lq, Dv)
    require_equal(phi_Q.shape[-2], phi_K.shape[-2], "length L (causal attention)",
                  "Q", tuple(Q.shape), "K", tuple(K.shape))
    S = torch.cumsum(phi_K.unsqueeze(-1) * V.unsqueeze(-2), dim=-3)  # (..., L, M, Dv)
    z = torch.cumsum(phi_K, dim=-2)  # (..., L, M)
    numerator = torch.einsum("...lm,...lmv->...lv", phi_Q, S)  # (..., L, Dv)
    return numerator / (phi_Q * z).sum(dim=-1, keepdim=True)  # (..., L, Dv)


def linear_attention_recurrent(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor,
                               feature_map: FeatureMap) -> torch.Tensor:
    """Causal linear attention as an RNN with a matrix state ``S_t = S_{t-1} + phi(k_t) v_t^T``.

    Args:
        Q: ``(L, Dk)``; K: ``(L, Dk)``; V: ``(L, Dv)``; feature_map: as in :func:`linear_attention`.

    Returns:
        ``(L, Dv)``, equal to ``linear_attention(Q, K, V, feature_map, causal=True)``.
    """
    for name, arr, spec in (("Q", Q, ("L", "Dk")), ("K", K, ("L", "Dk")), ("V", V, ("L", "Dv"))):
        require_ndim(_float(arr), name, spec, batch=False)
    require_equal(Q.shape[0], K.shape[0], "length L", "Q", tuple(Q.shape), "K", tuple(K.shape))
    phi_Q, phi_K, V = _features(Q, K, V, feature_map)  # (L, M), (L, M), (L, Dv)
    L, M = phi_K.shape
    S = phi_K.new_zeros(M, V.shape[-1])  # (M, Dv)
    z = phi_K.new_zeros(M)  # (M,)
    outputs = []
    for t in range(L):
        S = S + torch.outer(phi_K[t], V[t])  # write: (M, Dv)
        z = z + phi_K[t]  # (M,)
        outputs.append(phi_Q[t] @ S / (phi_Q[t] @ z))  # read: (Dv,)
    return torch.stack(outputs)  # (L, Dv)


__all__ = ["elu_feature_map", "linear_attention", "linear_attention_recurrent", "positive_random_features"]
