"""Self-attention: queries, keys and values as three linear maps of the same sequence (numpy
reference for notebook 03).

Shape letters: ``L`` sequence length, ``D`` input width, ``Dk`` query/key width, ``Dv`` value
width, ``M`` the output width of a linear map. Weights are ``(in, out)`` and multiply as
``X @ W``. Any leading batch dimensions ``...`` are allowed on ``X``.
"""
from __future__ import annotations

import numpy as np

from ._validate import require_equal, require_ndim
from .averages import softmax


def _check_projections(X, W_q, W_k, W_v):
    X, W_q, W_k, W_v = (np.asarray(a, dtype=float) for a in (X, W_q, W_k, W_v))
    require_ndim(X, "X", ("L", "D"))
    require_ndim(W_q, "W_q", ("D", "Dk"), batch=False)
    require_ndim(W_k, "W_k", ("D", "Dk"), batch=False)
    require_ndim(W_v, "W_v", ("D", "Dv"), batch=False)
    for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)):
        require_equal(X.shape[-1], W.shape[0], "input width D", "X", X.shape, name, W.shape)
    require_equal(W_q.shape[1], W_k.shape[1], "output width Dk", "W_q", W_q.shape, "W_k", W_k.shape)
    return X, W_q, W_k, W_v


def self_attention(
    X: np.ndarray, W_q: np.ndarray, W_k: np.ndarray, W_v: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Single-head self-attention: ``softmax((X W_q)(X W_k)^T / sqrt(Dk)) (X W_v)``.

    Args:
        X: ``(..., L, D)`` one sequence of ``L`` tokens, or a batch of them.
        W_q: ``(D, Dk)`` query projection.
        W_k: ``(D, Dk)`` key projection.
        W_v: ``(D, Dv)`` value projection.

    Returns:
        ``(Z (..., L, Dv), A (..., L, L))``: the outputs and the attention weights, row ``i`` of
        ``A`` holding the weights token ``i`` gives to every token (each row sums to one).

    Every token is both a query and a key/value: token ``i`` scores every token ``j`` by the
    scaled dot product of its query with ``j``'s key, and its output is the weighted average
    of the values.
    """
    X, W_q, W_k, W_v = _check_projections(X, W_q, W_k, W_v)
    Dk = W_q.shape[1]
    Q = X @ W_q  # (..., L, D) x (D, Dk) -> (..., L, Dk)
    K = X @ W_k  # (..., L, D) x (D, Dk) -> (..., L, Dk)
    V = X @ W_v  # (..., L, D) x (D, Dv) -> (..., L, Dv)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dk)  # (..., L, Dk) x (..., Dk, L) -> (..., L, L)
    A = softmax(scores, axis=-1)  # (..., L, L), each row on the simplex
    return A @ V, A  # (..., L, L) x (..., L, Dv) -> (..., L, Dv)


def append_ones(X: np.ndarray) -> np.ndarray:
    """Append a column of ones to every token: ``(..., L, D) -> (..., L, D + 1)``.

    With ``absorb_bias``: ``append_ones(X) @ absorb_bias(W, b) == X @ W + b``.
    """
    X = np.asarray(X, dtype=float)
    require_ndim(X, "X", ("L", "D"))
    ones = np.ones(X.shape[:-1] + (1,))  # (..., L, 1)
    return np.concatenate([X, ones], axis=-1)  # (..., L, D + 1)


def absorb_bias(W: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Stack the bias under the weights: ``W (D, M)``, ``b (M,)`` -> ``(D + 1, M)``, ``b`` last.

    With ``append_ones``: ``append_ones(X) @ absorb_bias(W, b) == X @ W + b``.
    """
    W, b = np.asarray(W, dtype=float), np.asarray(b, dtype=float)
    require_ndim(W, "W", ("D", "M"), batch=False)
    require_ndim(b, "b", ("M",), batch=False)
    require_equal(W.shape[1], b.shape[0], "output width M", "W", W.shape, "b", b.shape)
    return np.concatenate([W, b[None, :]], axis=0)  # (D, M) + (1, M) -> (D + 1, M)
