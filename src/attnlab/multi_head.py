"""Multi-head attention (numpy reference): split, attend per head, merge, project.

Shape letters: ``B`` batch, ``H`` heads, ``Lq`` query length, ``Lk`` key/value length, ``D``
model width, ``Dh = D / H`` head width. Head ``h`` owns the columns ``h*Dh:(h+1)*Dh`` of the
projected queries, keys and values, the same columns of ``W_q, W_k, W_v`` and the same rows of
``W_o`` (the layout of ``torch.nn.MultiheadAttention``).
"""
from __future__ import annotations

import numpy as np

from ._validate import fmt, require_int, require_ndim
from .attention import scaled_dot_product_attention


def _head_width(D: int, num_heads: int, name: str = "num_heads") -> int:
    """``Dh = D // num_heads``, with a ValueError when ``num_heads`` does not divide ``D``."""
    num_heads = require_int(num_heads, name, minimum=1)
    if D % num_heads:
        raise ValueError(f"{name}: expected a divisor of the width D={D}, got {num_heads}")
    return D // num_heads


def split_heads(X: np.ndarray, num_heads: int) -> np.ndarray:
    """Cut the features of every token into ``num_heads`` heads.

    Args:
        X: ``(B, L, D)`` with ``D = H * Dh``.
        num_heads: ``H``, a divisor of ``D``.

    Returns:
        ``(B, H, L, Dh)``; head ``h`` holds the columns ``h*Dh:(h+1)*Dh`` of ``X``, for every
        token: ``split_heads(X, H)[b, h, i] == X[b, i, h*Dh:(h+1)*Dh]``. This is the head
        layout of ``torch.nn.MultiheadAttention``; heads made of interleaved columns, or of
        consecutive *tokens*, would not be.
    """
    X = np.asarray(X)
    require_ndim(X, "X", ("B", "L", "D"), batch=False)
    B, L, D = X.shape
    Dh = _head_width(D, num_heads)
    H = D // Dh
    return X.reshape(B, L, H, Dh).transpose(0, 2, 1, 3)  # (B, L, H, Dh) -> (B, H, L, Dh)


def merge_heads(X: np.ndarray) -> np.ndarray:
    """Put the heads side by side again: the inverse of :func:`split_heads`.

    Args:
        X: ``(B, H, L, Dh)``.

    Returns:
        ``(B, L, H * Dh)``; head ``h`` fills the columns ``h*Dh:(h+1)*Dh``.
    """
    X = np.asarray(X)
    require_ndim(X, "X", ("B", "H", "L", "Dh"), batch=False)
    B, H, L, Dh = X.shape
    return X.transpose(0, 2, 1, 3).reshape(B, L, H * Dh)  # (B, L, H, Dh) -> (B, L, H*Dh)


def _check_mha_inputs(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads):
    require_ndim(X_q, "X_q", ("B", "Lq", "D"), batch=False)
    require_ndim(X_kv, "X_kv", ("B", "Lk", "D"), batch=False)
    B, Lq, D = X_q.shape
    if X_kv.shape[0] != B or X_kv.shape[2] != D:
        raise ValueError(f"X_kv: expected shape (B={B}, Lk, D={D}) to match X_q {fmt(X_q.shape)}, "
                         f"got {fmt(X_kv.shape)}")
    for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v), ("W_o", W_o)):
        if tuple(W.shape) != (D, D):
            raise ValueError(f"{name}: expected shape (D, D) = {fmt((D, D))}, got {fmt(W.shape)}")
    return _head_width(D, num_heads)


def _check_mha_mask(mask) -> None:
    """Refuse a 3-D mask: ``(B, Lq, Lk)`` would silently line its batch axis up with the heads."""
    if mask is not None and len(mask.shape) == 3:
        raise ValueError(
            f"mask: expected (Lq, Lk) or 4-D (B, H, Lq, Lk) with 1 for shared axes, got the "
            f"ambiguous 3-D shape {fmt(mask.shape)}: use mask[:, None] for one mask per sequence "
            "(B, Lq, Lk), or mask[None] for one mask per head (H, Lq, Lk)")


def multi_head_attention(
    X_q: np.ndarray,
    X_kv: np.ndarray,
    W_q: np.ndarray,
    W_k: np.ndarray,
    W_v: np.ndarray,
    W_o: np.ndarray,
    num_heads: int,
    mask: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``Concat(head_1, ..., head_H) W_o`` with ``head_h = Attention(X_q W_q^h, X_kv W_k^h, X_kv W_v^h)``.

    Args:
        X_q: ``(B, Lq, D)`` queries' tokens; X_kv: ``(B, Lk, D)`` keys' and values' tokens.
        W_q, W_k, W_v, W_o: ``(D, D)`` each (``X @ W``); head ``h`` uses the columns
            ``h*Dh:(h+1)*Dh`` of ``W_q, W_k, W_v`` and the same rows of ``W_o``.
        num_heads: ``H``, a divisor of ``D``; every head scales its scores by ``sqrt(D / H)``.
        mask: boolean, broadcastable to ``(B, H, Lq, Lk)``, ``True`` = may attend (the same for
            every head: pass ``(Lq, Lk)``, ``(B, 1, Lq, Lk)`` or ``(B, 1, 1, Lk)``); a 3-D mask
            is refused as ambiguous.

    Returns:
        ``(output (B, Lq, D), weights (B, H, Lq, Lk))``.

    Matches ``torch.nn.MultiheadAttention(D, H, bias=False, batch_first=True)`` with
    ``in_proj_weight = cat([W_q.T, W_k.T, W_v.T])``, ``out_proj.weight = W_o.T`` and
    ``attn_mask = ~mask`` (its weights are averaged over the heads).
    """
    X_q, X_kv, W_q, W_k, W_v, W_o = (np.asarray(a, dtype=float) for a in (X_q, X_kv, W_q, W_k, W_v, W_o))
    _check_mha_inputs(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads)
    _check_mha_mask(mask)
    Q = split_heads(X_q @ W_q, num_heads)  # (B, Lq, D) -> (B, H, Lq, Dh)
    K = split_heads(X_kv @ W_k, num_heads)  # (B, Lk, D) -> (B, H, Lk, Dh)
    V = split_heads(X_kv @ W_v, num_heads)  # (B, Lk, D) -> (B, H, Lk, Dh)
    Z, weights = scaled_dot_product_attention(Q, K, V, mask)  # (B, H, Lq, Dh), (B, H, Lq, Lk)
    return merge_heads(Z) @ W_o, weights  # (B, Lq, D) x (D, D) -> (B, Lq, D)


def merge_value_output(W_v: np.ndarray, W_o: np.ndarray, num_heads: int) -> np.ndarray:
    """Each head's value and output projections multiplied into one ``(D, D)`` matrix.

    Head ``h`` computes ``A_h (X_kv W_v[:, h]) W_o[h]``, where ``W_v[:, h]`` are the columns
    ``h*Dh:(h+1)*Dh`` of ``W_v`` and ``W_o[h]`` the same rows of ``W_o``: the output depends on
    the two only through their product, a ``(D, D)`` matrix of rank ``<= Dh``.

    Args:
        W_v: ``(D, D)``; W_o: ``(D, D)``; num_heads: ``H``, a divisor of ``D``.

    Returns:
        ``(H, D, D)``: for each head ``h``, its value columns times its output rows,
        ``W^V_h W^O_h``; the ``H`` matrices add up to ``W_v W_o``.
    """
    W_v, W_o = np.asarray(W_v, dtype=float), np.asarray(W_o, dtype=float)
    require_ndim(W_v, "W_v", ("D", "D"), batch=False)
    D = W_v.shape[0]
    for name, W in (("W_v", W_v), ("W_o", W_o)):
        if tuple(W.shape) != (D, D):
            raise ValueError(f"{name}: expected shape (D, D) = {fmt((D, D))}, got {fmt(W.shape)}")
    Dh = _head_width(D, num_heads)
    H = D // Dh
    V_heads = W_v.reshape(D, H, Dh).transpose(1, 0, 2)  # (D, H, Dh) -> (H, D, Dh): columns of head h
    O_heads = W_o.reshape(H, Dh, D)  # (H, Dh, D): rows of head h
    return V_heads @ O_heads  # (H, D, Dh) x (H, Dh, D) -> (H, D, D)


__all__ = ["split_heads", "merge_heads", "multi_head_attention", "merge_value_output"]
