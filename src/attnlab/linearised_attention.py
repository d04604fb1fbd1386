"""Linearised attention: a feature map instead of the softmax (numpy reference).

Softmax attention weighs key ``j`` for query ``i`` by ``exp(q_i . k_j)``. Replace that kernel
by a dot product of features, ``phi(q_i) . phi(k_j)``, and the sum over keys factorises:

    out_i = phi(q_i)^T (sum_j phi(k_j) v_j^T) / phi(q_i)^T (sum_j phi(k_j)),

so the ``(L, L)`` weight matrix is never formed: the cost is linear in ``L``. With a causal
mask the sums become prefix sums, which an RNN carries as a matrix state ``S_t`` (fast weights).

Shape letters: ``L`` sequence length (``Lq``, ``Lk`` where they may differ), ``Dk`` query/key
width, ``Dv`` value width, ``M`` feature width (``phi: (..., Dk) -> (..., M)``).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ._validate import fmt, require_equal, require_ndim, require_qkv

FeatureMap = Callable[[np.ndarray], np.ndarray]


def elu_feature_map(X: np.ndarray) -> np.ndarray:
    """``elu(x) + 1``, elementwise: positive features (Katharopoulos et al., 2020).

    ``(..., Dk) -> (..., Dk)``; equals ``x + 1`` for ``x > 0`` and ``exp(x)`` otherwise.
    """
    X = np.asarray(X, dtype=float)
    return np.where(X > 0, X + 1.0, np.exp(np.minimum(X, 0.0)))


def positive_random_features(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Performer's positive random features of the softmax kernel ``exp(q . k)``.

    ``phi(x) = exp(W^T x - |x|^2 / 2) / sqrt(M)`` with the ``M`` columns of ``W`` drawn from
    ``N(0, I)``, so that ``E[phi(q) . phi(k)] = exp(q . k)`` (Choromanski et al., 2021).

    Args:
        X: ``(..., L, Dk)`` queries or keys (scale them by ``Dk**-0.25`` first to get the kernel
            of *scaled* dot-product attention, ``exp(q . k / sqrt(Dk))``).
        W: ``(Dk, M)`` random directions.

    Returns:
        ``(..., L, M)`` positive features.
    """
    X, W = np.asarray(X, dtype=float), np.asarray(W, dtype=float)
    require_ndim(X, "X", ("L", "Dk"))
    require_ndim(W, "W", ("Dk", "M"), batch=False)
    require_equal(X.shape[-1], W.shape[0], "width Dk", "X", X.shape, "W", W.shape)
    M = W.shape[1]
    projections = X @ W  # (..., L, Dk) x (Dk, M) -> (..., L, M)
    half_norm = 0.5 * np.sum(X**2, axis=-1, keepdims=True)  # (..., L, 1)
    return np.exp(projections - half_norm) / np.sqrt(M)  # (..., L, M)


def _features(Q, K, V, feature_map) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    require_qkv(Q, K, V)
    if not callable(feature_map):
        raise ValueError(f"feature_map: expected a function (..., Dk) -> (..., M), "
                         f"got {type(feature_map).__name__}")
    phi_Q = np.asarray(feature_map(Q), dtype=float)  # (..., Lq, M)
    phi_K = np.asarray(feature_map(K), dtype=float)  # (..., Lk, M)
    if phi_Q.shape[:-1] != Q.shape[:-1] or phi_K.shape[:-1] != K.shape[:-1] or phi_Q.shape[-1] != phi_K.shape[-1]:
        raise ValueError("feature_map: expected (..., L, Dk) -> (..., L, M), got phi(Q) "
                         f"{fmt(phi_Q.shape)} and phi(K) {fmt(phi_K.shape)} for Q {fmt(Q.shape)}, K {fmt(K.shape)}")
    return phi_Q, phi_K, V


def linear_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, feature_map: FeatureMap,
                     causal: bool = False) -> np.ndarray:
    """Attention with the kernel ``phi(q) . phi(k)`` instead of ``exp(q . k)``, in linear time.

    ``out_i = phi(q_i)^T (sum_j phi(k_j) v_j^T) / phi(q_i)^T sum_j phi(k_j)``, where the sums run
    over all keys, or over ``j <= i`` (prefix sums) when ``causal``.

    Args:
        Q: ``(..., Lq, Dk)`` queries.
        K: ``(..., Lk, Dk)`` keys.
        V: ``(..., Lk, Dv)`` values.
        feature_map: ``phi``, a function ``(..., L, Dk) -> (..., L, M)`` with positive outputs
            (e.g. :func:`elu_feature_map`).
        causal: query ``i`` sees keys ``j <= i`` only (needs ``Lq == Lk``).

    Returns:
        ``(..., Lq, Dv)``. Equal to ``A V`` with ``A_ij = phi(q_i).phi(k_j) / sum_j' phi(q_i).phi(k_j')``
        (masked to ``j <= i`` when causal), without ever forming ``A``: the two sums over the
        keys do not depend on the query, so they are computed once (as running sums when
        causal), and the cost grows linearly with the length.
    """
    phi_Q, phi_K, V = _features(Q, K, V, feature_map)  # (..., Lq, M), (..., Lk, M), (..., Lk, Dv)
    if not causal:
        S = np.swapaxes(phi_K, -1, -2) @ V  # (..., M, Lk) x (..., Lk, Dv) -> (..., M, Dv)
        z = phi_K.sum(axis=-2)  # (..., M)
        numerator = phi_Q @ S  # (..., Lq, M) x (..., M, Dv) -> (..., Lq, Dv)
        denominator = np.sum(phi_Q * z[..., None, :], axis=-1, keepdims=True)  # (..., Lq, 1)
        return numerator / denominator
    require_equal(phi_Q.shape[-2], phi_K.shape[-2], "length L (causal attention)",
                  "Q", np.shape(Q), "K", np.shape(K))
    # Prefix sums over the sequence: S_i = sum_{j<=i} phi(k_j) v_j^T, z_i = sum_{j<=i} phi(k_j).
    S = np.cumsum(phi_K[..., :, :, None] * V[..., :, None, :], axis=-3)  # (..., L, M, Dv)
    z = np.cumsum(phi_K, axis=-2)  # (..., L, M)
    numerator = np.einsum("...lm,...lmv->...lv", phi_Q, S)  # (..., L, Dv)
    denominator = np.sum(phi_Q * z, axis=-1, keepdims=True)  # (..., L, 1)
    return numerator / denominator


def linear_attention_recurrent(Q: np.ndarray, K: np.ndarray, V: np.ndarray,
                               feature_map: FeatureMap) -> np.ndarray:
    """Causal linear attention as an RNN whose state is a matrix (fast weights).

    For ``t = 0 .. L-1``: ``S_t = S_{t-1} + phi(k_t) v_t^T``, ``z_t = z_{t-1} + phi(k_t)``, then
    ``out_t = phi(q_t)^T S_t / phi(q_t)^T z_t``: the state is written first, then read, so token
    ``t`` sees itself. Equal to ``linear_attention(Q, K, V, feature_map, causal=True)``.

    Args:
        Q: ``(L, Dk)``; K: ``(L, Dk)``; V: ``(L, Dv)``; feature_map: as in :func:`linear_attention`.

    Returns:
        ``(L, Dv)``.
    """
    for name, arr, spec in (("Q", Q, ("L", "Dk")), ("K", K, ("L", "Dk")), ("V", V, ("L", "Dv"))):
        require_ndim(np.asarray(arr), name, spec, batch=False)
    require_equal(np.shape(Q)[0], np.shape(K)[0], "length L", "Q", np.shape(Q), "K", np.shape(K))
    phi_Q, phi_K, V = _features(Q, K, V, feature_map)  # (L, M), (L, M), (L, Dv)
    L, M = phi_K.shape
    S = np.zeros((M, V.shape[-1]))  # (M, Dv): the fast weights
    z = np.zeros(M)  # (M,): the running normaliser
    out = np.empty((L, V.shape[-1]))  # (L, Dv)
    for t in range(L):
        S = S + np.outer(phi_K[t], V[t])  # write: (M,) x (Dv,) -> (M, Dv)
        z = z + phi_K[t]  # (M,)
        out[t] = phi_Q[t] @ S / (phi_Q[t] @ z)  # read: (M,) x (M, Dv) -> (Dv,)
    return out


__all__ = ["elu_feature_map", "linear_attention", "linear_attention_recurrent", "positive_random_features"]
