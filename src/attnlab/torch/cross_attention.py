"""Cross-attention (torch twin of ``attnlab.cross_attention``): same names, shapes and errors."""
from __future__ import annotations

import torch

from .._validate import require_equal, require_ndim
from .functional import _float, scaled_dot_product_attention


def cross_attention(
    X_q: torch.Tensor,
    X_kv: torch.Tensor,
    W_q: torch.Tensor,
    W_k: torch.Tensor,
    W_v: torch.Tensor,
    mask: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Attention of the tokens of ``X_q`` over the tokens of ``X_kv``.

    ``Q = X_q W_q``, ``K = X_kv W_k``, ``V = X_kv W_v``, then ``softmax(Q K^T / sqrt(Dk)) V``.
    Self-attention is the special case ``X_q is X_kv``.

    Args:
        X_q: ``(..., Lq, Dq)`` the tokens that ask (e.g. the decoder's).
        X_kv: ``(..., Lk, Dkv)`` the tokens that answer (e.g. the encoder's).
        W_q: ``(Dq, Dk)``; W_k: ``(Dkv, Dk)``; W_v: ``(Dkv, Dv)``.
        mask: boolean, broadcastable to ``(..., Lq, Lk)``, ``True`` = may attend; a query with
            no key to attend to gets all-zero weights and a zero output.

    Returns:
        ``(output (..., Lq, Dv), weights (..., Lq, Lk))``.

    The output has one row per query token and the width of the values; the weights of query
    ``i`` are a distribution over the key tokens it may attend to.
    """
    X_q, X_kv, W_q, W_k, W_v = (_float(a) for a in (X_q, X_kv, W_q, W_k, W_v))
    require_ndim(X_q, "X_q", ("Lq", "Dq"))
    require_ndim(X_kv, "X_kv", ("Lk", "Dkv"))
    require_ndim(W_q, "W_q", ("Dq", "Dk"), batch=False)
    require_ndim(W_k, "W_k", ("Dkv", "Dk"), batch=False)
    require_ndim(W_v, "W_v", ("Dkv", "Dv"), batch=False)
    require_equal(X_q.shape[-1], W_q.shape[0], "width Dq", "X_q", X_q.shape, "W_q", W_q.shape)
    require_equal(X_kv.shape[-1], W_k.shape[0], "width Dkv", "X_kv", X_kv.shape, "W_k", W_k.shape)
    require_equal(X_kv.shape[-1], W_v.shape[0], "width Dkv", "X_kv", X_kv.shape, "W_v", W_v.shape)
    require_equal(W_q.shape[1], W_k.shape[1], "width Dk", "W_q", W_q.shape, "W_k", W_k.shape)
    Q = X_q @ W_q  # (..., Lq, Dq) x (Dq, Dk) -> (..., Lq, Dk)
    K = X_kv @ W_k  # (..., Lk, Dkv) x (Dkv, Dk) -> (..., Lk, Dk)
    V = X_kv @ W_v  # (..., Lk, Dkv) x (Dkv, Dv) -> (..., Lk, Dv)
    return scaled_dot_product_attention(Q, K, V, mask)  # (..., Lq, Dv), (..., Lq, Lk)


__all__ = ["cross_attention"]
