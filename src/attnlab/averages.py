"""Weighted averages and the softmax: notebook 01's building blocks (numpy reference).

Attention is a weighted average whose weights depend on the input; the softmax maps arbitrary
scores onto the simplex of valid weights.
"""
from __future__ import annotations

import numpy as np

from ._validate import fmt, require_equal, require_ndim

SIMPLEX_ATOL = 1e-6  # how far from a sum of one the weights of `weighted_average` may be


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax along ``axis``: ``exp(x_i) / sum_j exp(x_j)``, computed stably.

    Exact and finite for logits of +-1e4, and for slices of very different scale in one array
    (notebook 01 shows why the formula as written overflows, and how to avoid it).

    Args:
        x: scores of any shape.
        axis: the axis whose entries are normalised to sum to one.

    Returns:
        An array of the shape of ``x``, non-negative, summing to one along ``axis``.

    Matches ``torch.softmax(x, dim=axis)``.
    """
    x = np.asarray(x)
    if x.dtype.kind in "iub":  # integer logits: compute in float
        x = x.astype(float)
    if x.ndim == 0:
        raise ValueError(f"x: expected an array with at least one dimension, got shape {fmt(x.shape)}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis: expected an axis of x {fmt(x.shape)}, got {axis}")
    shifted = x - x.max(axis=axis, keepdims=True)  # every exponent <= 0
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def weighted_average(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``sum_i w_i v_i``: the average of the rows of ``values`` under ``weights``.

    Args:
        values: ``(N, D)``, one value vector per row.
        weights: ``(N,)``, on the simplex (non-negative, summing to one).

    Returns:
        ``(D,)``.

    Raises:
        ValueError: on shapes that do not fit or weights off the simplex.
    """
    values, weights = np.asarray(values), np.asarray(weights)
    require_ndim(values, "values", ("N", "D"), batch=False)
    require_ndim(weights, "weights", ("N",), batch=False)
    require_equal(values.shape[0], weights.shape[0], "N (number of rows)",
                  "values", values.shape, "weights", weights.shape)
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise ValueError("weights: expected non-negative finite weights (on the simplex), "
                         f"got min {np.min(weights)!r}")
    total = float(np.sum(weights))
    if abs(total - 1.0) > SIMPLEX_ATOL:
        raise ValueError(f"weights: expected weights summing to 1 (on the simplex), got sum {total!r}")
    return weights @ values  # (N,) @ (N, D) -> (D,)


def mix_tokens(X: np.ndarray) -> np.ndarray:
    """Parameter-free self-attention ``softmax(X X^T) X`` (unscaled, softmax over each row).

    Each output row is a weighted average of the rows of ``X``, with weights from the similarity
    of that row with every row: the weights now depend on the input.

    Args:
        X: ``(..., L, D)``.

    Returns:
        ``(..., L, D)``.
    """
    X = np.asarray(X, dtype=float)
    require_ndim(X, "X", ("L", "D"))
    scores = X @ np.swapaxes(X, -1, -2)  # (..., L, D) x (..., D, L) -> (..., L, L)
    return softmax(scores, axis=-1) @ X  # (..., L, L) x (..., L, D) -> (..., L, D)
