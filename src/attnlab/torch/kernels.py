"""Torch twins of ``attnlab.kernels``: Nadaraya-Watson as attention, and kernel ridge regression.

Same names, signatures, semantics and errors as the numpy references. ``bandwidth`` may be a
0-dim tensor that requires grad, so the kernel width can be learned by gradient descent.
"""
from __future__ import annotations

import torch

from .._validate import fmt, require_equal, require_ndim
from ..kernels import check_bandwidth, check_reg
from .functional import masked_softmax, softmax


def _float(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def _vector(x, name: str, letter: str) -> torch.Tensor:
    x = _float(x)
    require_ndim(x, name, (letter,), batch=False)
    return x


def _width(bandwidth, name: str = "bandwidth"):
    """Validate ``bandwidth`` (> 0) but keep a tensor as a tensor, so that gradients flow."""
    check_bandwidth(bandwidth.detach() if isinstance(bandwidth, torch.Tensor) else bandwidth, name)
    return bandwidth


def _gaussian_scores(x_query: torch.Tensor, x_keys: torch.Tensor, bandwidth) -> torch.Tensor:
    diff = x_query[:, None] - x_keys[None, :]  # (Lq, 1) - (1, Lk) -> (Lq, Lk)
    return -diff**2 / (2.0 * bandwidth**2)  # (Lq, Lk)


def gaussian_kernel(x1: torch.Tensor, x2: torch.Tensor, bandwidth) -> torch.Tensor:
    """The Gaussian (RBF) kernel matrix ``exp(-(x1_i - x2_j)^2 / (2 sigma^2))`` -> ``(N1, N2)``."""
    x1, x2 = _vector(x1, "x1", "N1"), _vector(x2, "x2", "N2")
    return torch.exp(_gaussian_scores(x1, x2, _width(bandwidth)))  # (N1, N2)


def gaussian_attention_weights(x_query: torch.Tensor, x_keys: torch.Tensor, bandwidth) -> torch.Tensor:
    """Nadaraya-Watson weights: ``softmax`` over the keys of ``-(x_q - x_k)^2 / (2 sigma^2)``.

    Args:
        x_query: ``(Lq,)``; x_keys: ``(Lk,)``; bandwidth: ``sigma > 0`` (a float or a 0-dim tensor).

    Returns:
        ``(Lq, Lk)``, each row on the simplex.
    """
    x_query = _vector(x_query, "x_query", "Lq")
    x_keys = _vector(x_keys, "x_keys", "Lk")
    return softmax(_gaussian_scores(x_query, x_keys, _width(bandwidth)), axis=-1)  # (Lq, Lk)


def nadaraya_watson(x_query: torch.Tensor, x_keys: torch.Tensor, y_values: torch.Tensor,
                    bandwidth) -> torch.Tensor:
    """Nadaraya-Watson regression (attention pooling of the targets): ``(Lq,)`` predictions."""
    x_keys = _vector(x_keys, "x_keys", "Lk")
    y_values = _vector(y_values, "y_values", "Lk")
    require_equal(len(x_keys), len(y_values), "length Lk", "x_keys", x_keys.shape, "y_values", y_values.shape)
    weights = gaussian_attention_weights(x_query, x_keys, bandwidth)  # (Lq, Lk)
    return weights @ y_values.to(weights.dtype)  # (Lq, Lk) x (Lk,) -> (Lq,)


def _xy(x, y):
    x, y = _vector(x, "x", "N"), _vector(y, "y", "N")
    require_equal(len(x), len(y), "length N", "x", x.shape, "y", y.shape)
    return x, y


def leave_one_out_predictions(x: torch.Tensor, y: torch.Tensor, bandwidth) -> torch.Tensor:
    """Each training point predicted from the others (own weight masked, rest renormalised): ``(N,)``."""
    x, y = _xy(x, y)
    if len(x) < 2:
        raise ValueError(f"x: leave-one-out needs at least 2 points, got shape {fmt(x.shape)}")
    others = ~torch.eye(len(x), dtype=torch.bool, device=x.device)  # (N, N)
    weights = masked_softmax(_gaussian_scores(x, x, _width(bandwidth)), others)  # (N, N)
    return weights @ y.to(weights.dtype)  # (N,)


def leave_one_out_error(x: torch.Tensor, y: torch.Tensor, bandwidth) -> torch.Tensor:
    """Mean squared leave-one-out error (a 0-dim tensor, differentiable in ``bandwidth``)."""
    x, y = _xy(x, y)
    return torch.mean((leave_one_out_predictions(x, y, bandwidth) - y) ** 2)


def fit_bandwidth(x: torch.Tensor, y: torch.Tensor, candidates: torch.Tensor) -> float:
    """The candidate width with the lowest leave-one-out squared error (a float; first on a tie)."""
    x, y = _xy(x, y)
    candidates = _vector(candidates, "candidates", "C")
    if len(candidates) == 0:
        raise ValueError("candidates: expected at least one bandwidth, got shape (0,)")
    for c in candidates:
        check_bandwidth(c.detach(), "candidates")
    errors = torch.stack([leave_one_out_error(x, y, c) for c in candidates])  # (C,)
    return float(candidates[int(torch.argmin(errors))])


def kernel_ridge_fit(x: torch.Tensor, y: torch.Tensor, bandwidth, reg: float) -> torch.Tensor:
    """Kernel ridge regression, Gaussian kernel: ``alpha = (K + reg I)^-1 y`` -> ``(N,)``."""
    x, y = _xy(x, y)
    check_reg(reg.detach() if isinstance(reg, torch.Tensor) else reg)
    K = gaussian_kernel(x, x, bandwidth)  # (N, N)
    eye = torch.eye(len(x), dtype=K.dtype, device=K.device)  # (N, N)
    return torch.linalg.solve(K + reg * eye, y.to(K.dtype))  # (N,)


def kernel_ridge_predict(x_query: torch.Tensor, x_train: torch.Tensor, alpha: torch.Tensor,
                         bandwidth) -> torch.Tensor:
    """Kernel ridge predictions ``f(x) = sum_i alpha_i k(x, x_i)`` at every query -> ``(Lq,)``."""
    x_query = _vector(x_query, "x_query", "Lq")
    x_train = _vector(x_train, "x_train", "N")
    alpha = _vector(alpha, "alpha", "N")
    require_equal(len(x_train), len(alpha), "length N", "x_train", x_train.shape, "alpha", alpha.shape)
    K = gaussian_kernel(x_query, x_train, bandwidth)  # (Lq, N)
    return K @ alpha.to(K.dtype)  # (Lq, N) x (N,) -> (Lq,)


__all__ = [
    "fit_bandwidth", "gaussian_attention_weights", "gaussian_kernel", "kernel_ridge_fit",
    "kernel_ridge_predict", "leave_one_out_error", "leave_one_out_predictions", "nadaraya_watson",
]
