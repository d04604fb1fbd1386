"""Score functions: how well each query matches each key (numpy reference).

Every function takes queries ``Q (..., Lq, Dq)`` and keys ``K (..., Lk, Dk)`` and returns the
score matrix ``(..., Lq, Lk)``; a softmax over its last axis turns it into attention weights.
"""
from __future__ import annotations

import numpy as np

from ._validate import require_equal, require_ndim


def _qk(Q, K, same_width: bool = True):
    Q, K = np.asarray(Q, dtype=float), np.asarray(K, dtype=float)
    require_ndim(Q, "Q", ("Lq", "Dk"))
    require_ndim(K, "K", ("Lk", "Dk"))
    if same_width:
        require_equal(Q.shape[-1], K.shape[-1], "last dimension Dk", "Q", Q.shape, "K", K.shape)
    return Q, K


def dot_score(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """``Q K^T``: ``(..., Lq, Dk), (..., Lk, Dk) -> (..., Lq, Lk)``."""
    Q, K = _qk(Q, K)
    return Q @ np.swapaxes(K, -1, -2)  # (..., Lq, Dk) x (..., Dk, Lk) -> (..., Lq, Lk)


def scaled_dot_score(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """``Q K^T / sqrt(Dk)``: keeps the score variance near 1 whatever ``Dk`` is."""
    Q, K = _qk(Q, K)
    return dot_score(Q, K) / np.sqrt(Q.shape[-1])


def cosine_score(Q: np.ndarray, K: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    """``q.k / (|q| |k|)``: the dot product of unit vectors, in ``[-1, 1]``.

    The dot product is its numerator; ``eps`` keeps a zero vector from dividing by zero.
    """
    Q, K = _qk(Q, K)
    Qn = Q / np.maximum(np.linalg.norm(Q, axis=-1, keepdims=True), eps)  # (..., Lq, Dk)
    Kn = K / np.maximum(np.linalg.norm(K, axis=-1, keepdims=True), eps)  # (..., Lk, Dk)
    return Qn @ np.swapaxes(Kn, -1, -2)  # (..., Lq, Lk)


def general_score(Q: np.ndarray, K: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Luong's "general" score ``Q W K^T``, with ``W (Dq, Dk)``."""
    Q, K = _qk(Q, K, same_width=False)
    W = np.asarray(W, dtype=float)
    require_ndim(W, "W", ("Dq", "Dk"), batch=False)
    require_equal(Q.shape[-1], W.shape[0], "width Dq", "Q", Q.shape, "W", W.shape)
    require_equal(K.shape[-1], W.shape[1], "width Dk", "K", K.shape, "W", W.shape)
    return (Q @ W) @ np.swapaxes(K, -1, -2)  # (..., Lq, Dk) x (..., Dk, Lk) -> (..., Lq, Lk)


def additive_score(
    Q: np.ndarray, K: np.ndarray, W_q: np.ndarray, W_k: np.ndarray, v: np.ndarray
) -> np.ndarray:
    """Bahdanau's additive score ``v^T tanh(q W_q + k W_k)`` for every query-key pair.

    Args:
        Q: ``(..., Lq, Dq)``; K: ``(..., Lk, Dk)``; W_q: ``(Dq, Dh)``; W_k: ``(Dk, Dh)``;
        v: ``(Dh,)``.

    Returns:
        ``(..., Lq, Lk)``.
    """
    Q, K = _qk(Q, K, same_width=False)
    W_q, W_k, v = (np.asarray(a, dtype=float) for a in (W_q, W_k, v))
    require_ndim(W_q, "W_q", ("Dq", "Dh"), batch=False)
    require_ndim(W_k, "W_k", ("Dk", "Dh"), batch=False)
    require_ndim(v, "v", ("Dh",), batch=False)
    require_equal(Q.shape[-1], W_q.shape[0], "width Dq", "Q", Q.shape, "W_q", W_q.shape)
    require_equal(K.shape[-1], W_k.shape[0], "width Dk", "K", K.shape, "W_k", W_k.shape)
    require_equal(W_q.shape[1], W_k.shape[1], "hidden width Dh", "W_q", W_q.shape, "W_k", W_k.shape)
    require_equal(W_q.shape[1], v.shape[0], "hidden width Dh", "W_q", W_q.shape, "v", v.shape)
    q = (Q @ W_q)[..., :, None, :]  # (..., Lq, 1, Dh)
    k = (K @ W_k)[..., None, :, :]  # (..., 1, Lk, Dh)
    return np.tanh(q + k) @ v  # (..., Lq, Lk, Dh) x (Dh,) -> (..., Lq, Lk)
