"""Attention as a kernel smoother, and the kernel machines beside it (numpy reference).

Nadaraya-Watson regression is attention with a Gaussian kernel: the training inputs are the
keys, the training targets the values, a test input the query, and the weights are
``softmax_k(-(x_q - x_k)^2 / (2 sigma^2))``. Kernel ridge regression uses the same kernel
*unnormalised* and learns one coefficient per stored key instead of averaging.

Shape letters: ``Lq`` queries, ``Lk`` keys (stored training inputs), ``N`` training points,
``C`` candidate bandwidths. Inputs here are scalars, so every sequence is 1-D.
"""
from __future__ import annotations

import numbers

import numpy as np

from ._validate import fmt, require_equal, require_ndim
from .averages import softmax
from .masks import masked_softmax


def check_bandwidth(bandwidth, name: str = "bandwidth") -> float:
    """Check that ``bandwidth`` is one finite number > 0 and return it as a float."""
    value = bandwidth
    if hasattr(value, "shape") and tuple(value.shape) == ():
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name}: expected a number > 0, got {type(bandwidth).__name__} {bandwidth!r}")
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name}: expected a number > 0, got {value!r}")
    return float(value)


def check_reg(reg, name: str = "reg") -> float:
    """Check that the ridge ``reg`` is one finite number >= 0 and return it as a float."""
    value = reg.item() if hasattr(reg, "shape") and tuple(reg.shape) == () else reg
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value) or value < 0:
        raise ValueError(f"{name}: expected a number >= 0, got {reg!r}")
    return float(value)


def _vector(x, name: str, letter: str) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    require_ndim(x, name, (letter,), batch=False)
    return x


def _gaussian_scores(x_query: np.ndarray, x_keys: np.ndarray, bandwidth: float) -> np.ndarray:
    diff = x_query[:, None] - x_keys[None, :]  # (Lq, 1) - (1, Lk) -> (Lq, Lk)
    return -diff**2 / (2.0 * bandwidth**2)  # (Lq, Lk), the log of the Gaussian kernel


def gaussian_kernel(x1: np.ndarray, x2: np.ndarray, bandwidth: float) -> np.ndarray:
    """The Gaussian (RBF) kernel matrix ``exp(-(x1_i - x2_j)^2 / (2 sigma^2))``, unnormalised.

    Args:
        x1: ``(N1,)`` inputs; x2: ``(N2,)`` inputs; bandwidth: ``sigma > 0``.

    Returns:
        ``(N1, N2)``. Matches ``sklearn.metrics.pairwise.rbf_kernel(x1[:, None], x2[:, None],
        gamma=1 / (2 sigma^2))``.
    """
    x1, x2 = _vector(x1, "x1", "N1"), _vector(x2, "x2", "N2")
    bandwidth = check_bandwidth(bandwidth)
    return np.exp(_gaussian_scores(x1, x2, bandwidth))  # (N1, N2)


def gaussian_attention_weights(x_query: np.ndarray, x_keys: np.ndarray, bandwidth: float) -> np.ndarray:
    """Nadaraya-Watson weights: ``softmax`` over the keys of ``-(x_q - x_k)^2 / (2 sigma^2)``.

    Args:
        x_query: ``(Lq,)`` query inputs.
        x_keys: ``(Lk,)`` key inputs (the stored training inputs).
        bandwidth: the kernel width ``sigma > 0``.

    Returns:
        ``(Lq, Lk)``: row ``i`` is on the simplex and weights the keys near ``x_query[i]``.
        Stable for queries far from every key (the softmax subtracts each row's maximum).
    """
    x_query = _vector(x_query, "x_query", "Lq")
    x_keys = _vector(x_keys, "x_keys", "Lk")
    bandwidth = check_bandwidth(bandwidth)
    return softmax(_gaussian_scores(x_query, x_keys, bandwidth), axis=-1)  # (Lq, Lk)


def nadaraya_watson(x_query: np.ndarray, x_keys: np.ndarray, y_values: np.ndarray,
                    bandwidth: float) -> np.ndarray:
    """Nadaraya-Watson kernel regression, i.e. attention pooling of the training targets.

    ``f(x_q) = sum_k softmax_k(-(x_q - x_k)^2 / (2 sigma^2)) y_k``.

    Args:
        x_query: ``(Lq,)`` test inputs (queries).
        x_keys: ``(Lk,)`` training inputs (keys).
        y_values: ``(Lk,)`` training targets (values).
        bandwidth: ``sigma > 0``.

    Returns:
        ``(Lq,)`` predictions.
    """
    x_keys = _vector(x_keys, "x_keys", "Lk")
    y_values = _vector(y_values, "y_values", "Lk")
    require_equal(len(x_keys), len(y_values), "length Lk", "x_keys", x_keys.shape, "y_values", y_values.shape)
    weights = gaussian_attention_weights(x_query, x_keys, bandwidth)  # (Lq, Lk)
    return weights @ y_values  # (Lq, Lk) x (Lk,) -> (Lq,)


def _xy(x, y) -> tuple[np.ndarray, np.ndarray]:
    x, y = _vector(x, "x", "N"), _vector(y, "y", "N")
    require_equal(len(x), len(y), "length N", "x", x.shape, "y", y.shape)
    return x, y


def leave_one_out_predictions(x: np.ndarray, y: np.ndarray, bandwidth: float) -> np.ndarray:
    """Each training point predicted by Nadaraya-Watson from all the *other* points.

    The diagonal of the score matrix is masked before the softmax, so a point's own target gets
    weight 0 and the other weights are renormalised to sum to one.

    Args:
        x: ``(N,)`` inputs, ``N >= 2``; y: ``(N,)`` targets; bandwidth: ``sigma > 0``.

    Returns:
        ``(N,)`` predictions.
    """
    x, y = _xy(x, y)
    if len(x) < 2:
        raise ValueError(f"x: leave-one-out needs at least 2 points, got shape {fmt(x.shape)}")
    bandwidth = check_bandwidth(bandwidth)
    N = len(x)
    others = ~np.eye(N, dtype=bool)  # (N, N), True = may attend: everyone but yourself
    weights = masked_softmax(_gaussian_scores(x, x, bandwidth), others)  # (N, N)
    return weights @ y  # (N, N) x (N,) -> (N,)


def leave_one_out_error(x: np.ndarray, y: np.ndarray, bandwidth: float) -> float:
    """Mean squared leave-one-out error of Nadaraya-Watson with width ``bandwidth``."""
    x, y = _xy(x, y)
    return float(np.mean((leave_one_out_predictions(x, y, bandwidth) - y) ** 2))


def fit_bandwidth(x: np.ndarray, y: np.ndarray, candidates: np.ndarray) -> float:
    """The candidate width with the lowest leave-one-out squared error.

    Args:
        x: ``(N,)`` training inputs, ``N >= 2``.
        y: ``(N,)`` training targets.
        candidates: ``(C,)`` widths ``> 0``, in any order.

    Returns:
        The winning candidate (a float taken from ``candidates``; the first one on a tie).
    """
    x, y = _xy(x, y)
    candidates = _vector(candidates, "candidates", "C")
    if len(candidates) == 0:
        raise ValueError("candidates: expected at least one bandwidth, got shape (0,)")
    for c in candidates:
        check_bandwidth(c, "candidates")
    errors = [leave_one_out_error(x, y, c) for c in candidates]  # (C,)
    return float(candidates[int(np.argmin(errors))])


def kernel_ridge_fit(x: np.ndarray, y: np.ndarray, bandwidth: float, reg: float) -> np.ndarray:
    """Kernel ridge regression with the Gaussian kernel: ``alpha = (K + reg I)^-1 y``.

    ``alpha`` minimises ``|y - K alpha|^2 + reg alpha^T K alpha``: the squared error of the fit
    plus ``reg`` times the squared norm of ``f = sum_i alpha_i k(., x_i)`` in the kernel's
    function space (a penalty on the function's roughness, not on ``|alpha|^2``).

    Args:
        x: ``(N,)`` training inputs; y: ``(N,)`` targets.
        bandwidth: ``sigma > 0`` of ``K_ij = exp(-(x_i - x_j)^2 / (2 sigma^2))``.
        reg: the ridge ``>= 0`` (with 0, ``K`` must be invertible).

    Returns:
        ``(N,)`` one coefficient per stored training input. Matches
        ``sklearn.kernel_ridge.KernelRidge(alpha=reg, kernel="rbf", gamma=1 / (2 sigma^2))``'s
        ``dual_coef_``.
    """
    x, y = _xy(x, y)
    bandwidth, reg = check_bandwidth(bandwidth), check_reg(reg)
    K = gaussian_kernel(x, x, bandwidth)  # (N, N)
    return np.linalg.solve(K + reg * np.eye(len(x)), y)  # (N, N) \ (N,) -> (N,)


def kernel_ridge_predict(x_query: np.ndarray, x_train: np.ndarray, alpha: np.ndarray,
                         bandwidth: float) -> np.ndarray:
    """Kernel ridge predictions ``f(x) = sum_i alpha_i k(x, x_i)`` at every query ``x``.

    Args:
        x_query: ``(Lq,)`` test inputs; x_train: ``(N,)`` training inputs;
        alpha: ``(N,)`` from :func:`kernel_ridge_fit`; bandwidth: the same ``sigma``.

    Returns:
        ``(Lq,)`` predictions.
    """
    x_query = _vector(x_query, "x_query", "Lq")
    x_train = _vector(x_train, "x_train", "N")
    alpha = _vector(alpha, "alpha", "N")
    require_equal(len(x_train), len(alpha), "length N", "x_train", x_train.shape, "alpha", alpha.shape)
    return gaussian_kernel(x_query, x_train, bandwidth) @ alpha  # (Lq, N) x (N,) -> (Lq,)


__all__ = [
    "check_bandwidth", "fit_bandwidth", "gaussian_attention_weights", "gaussian_kernel",
    "kernel_ridge_fit", "kernel_ridge_predict", "leave_one_out_error", "leave_one_out_predictions",
    "nadaraya_watson",
]
