"""Multi-head attention (torch twin of ``attnlab.multi_head``), and the ``MultiHeadAttention`` module.

Shape letters: ``B`` batch, ``H`` heads, ``Lq`` query length, ``Lk`` key/value length, ``D``
model width, ``Dh = D / H`` head width. Head ``h`` owns the columns ``h*Dh:(h+1)*Dh`` of the
projected queries, keys and values (the layout of ``torch.nn.MultiheadAttention``).
"""
from __future__ import annotations

import torch
from torch import nn

from .._validate import fmt, require_int, require_ndim
from ..multi_head import _check_mha_inputs, _check_mha_mask, _head_width
from .functional import _float, scaled_dot_product_attention


def split_heads(X: torch.Tensor, num_heads: int) -> torch.Tensor:
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
    X = torch.as_tensor(X)
    require_ndim(X, "X", ("B", "L", "D"), batch=False)
    B, L, D = X.shape
    Dh = _head_width(D, num_heads)
    H = D // Dh
    return X.reshape(B, L, H, Dh).transpose(1, 2)  # (B, L, H, Dh) -> (B, H, L, Dh)


def merge_heads(X: torch.Tensor) -> torch.Tensor:
    """Put the heads side by side again: the inverse of :func:`split_heads`.

    Args:
        X: ``(B, H, L, Dh)``.

    Returns:
        ``(B, L, H * Dh)``; head ``h`` fills the columns ``h*Dh:(h+1)*Dh``.
    """
    X = torch.as_tensor(X)
    require_ndim(X, "X", ("B", "H", "L", "Dh"), batch=False)
    B, H, L, Dh = X.shape
    return X.transpose(1, 2).reshape(B, L, H * Dh)  # (B, L, H, Dh) -> (B, L, H*Dh)


def multi_head_attention(
    X_q: torch.Tensor,
    X_kv: torch.Tensor,
    W_q: torch.Tensor,
    W_k: torch.Tensor,
    W_v: torch.Tensor,
    W_o: torch.Tensor,
    num_heads: int,
    mask: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
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
    X_q, X_kv, W_q, W_k, W_v, W_o = (_float(a) for a in (X_q, X_kv, W_q, W_k, W_v, W_o))
    _check_mha_inputs(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads)
    _check_mha_mask(mask)
    Q = split_heads(X_q @ W_q, num_heads)  # (B, Lq, D) -> (B, H, Lq, Dh)
    K = split_heads(X_kv @ W_k, num_heads)  # (B, Lk, D) -> (B, H, Lk, Dh)
    V = split_heads(X_kv @ W_v, num_heads)  # (B, Lk, D) -> (B, H, Lk, Dh)
    Z, weights = scaled_dot_product_attention(Q, K, V, mask)  # (B, H, Lq, Dh), (B, H, Lq, Lk)
    return merge_heads(Z) @ W_o, weights  # (B, Lq, D) x (D, D) -> (B, Lq, D)


def merge_value_output(W_v: torch.Tensor, W_o: torch.Tensor, num_heads: int) -> torch.Tensor:
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
    W_v, W_o = _float(W_v), _float(W_o)
    require_ndim(W_v, "W_v", ("D", "D"), batch=False)
    D = W_v.shape[0]
    for name, W in (("W_v", W_v), ("W_o", W_o)):
        if tuple(W.shape) != (D, D):
            raise ValueError(f"{name}: expected shape (D, D) = {fmt((D, D))}, got {fmt(W.shape)}")
    Dh = _head_width(D, num_heads)
    H = D // Dh
    V_heads = W_v.reshape(D, H, Dh).permute(1, 0, 2)  # (D, H, Dh) -> (H, D, Dh): columns of head h
    O_heads = W_o.reshape(H, Dh, D)  # (H, Dh, D): rows of head h
    return V_heads @ O_heads  # (H, D, Dh) x (H, Dh, D) -> (H, D, D)


class MultiHeadAttention(nn.Module):
    """Multi-head attention with four ``nn.Linear(d_model, d_model)`` projections.

    Args:
        d_model: ``D``, the width of the tokens in and out.
        num_heads: ``H``, a divisor of ``d_model``; head width ``Dh = D / H``.
        bias: give the four projections a bias (as ``nn.MultiheadAttention(bias=True)``).

    Attributes:
        W_q, W_k, W_v, W_o: ``nn.Linear(d_model, d_model, bias=bias)``. ``nn.Linear`` stores
            its weight as ``(out, in)`` and computes ``X @ weight.T + bias``, so the ``(D, D)``
            matrix ``W`` of ``X @ W`` is ``linear.weight.T``.

    ``forward(X_q (B, Lq, D), X_kv (B, Lk, D), mask=None)`` returns
    ``(output (B, Lq, D), weights (B, H, Lq, Lk))``; ``mask`` is boolean, broadcastable to
    ``(B, H, Lq, Lk)``, ``True`` = may attend. Self-attention is ``module(X, X)``.
    """

    def __init__(self, d_model: int, num_heads: int, bias: bool = False) -> None:
        super().__init__()
        d_model = require_int(d_model, "d_model", minimum=1)
        _head_width(d_model, num_heads)
        self.d_model, self.num_heads = d_model, int(num_heads)
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(
        self, X_q: torch.Tensor, X_kv: torch.Tensor, mask: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``(X_q (B, Lq, D), X_kv (B, Lk, D))`` -> ``(output (B, Lq, D), weights (B, H, Lq, Lk))``."""
        D, H = self.d_model, self.num_heads
        require_ndim(X_q, "X_q", ("B", "Lq", "D"), batch=False)
        require_ndim(X_kv, "X_kv", ("B", "Lk", "D"), batch=False)
        for name, X in (("X_q", X_q), ("X_kv", X_kv)):
            if X.shape[-1] != D:
                raise ValueError(f"{name}: expected last dimension d_model={D}, got shape {fmt(X.shape)}")
        _check_mha_mask(mask)
        Q = split_heads(self.W_q(X_q), H)  # (B, Lq, D) -> (B, H, Lq, Dh)
        K = split_heads(self.W_k(X_kv), H)  # (B, Lk, D) -> (B, H, Lk, Dh)
        V = split_heads(self.W_v(X_kv), H)  # (B, Lk, D) -> (B, H, Lk, Dh)
        Z, weights = scaled_dot_product_attention(Q, K, V, mask)  # (B, H, Lq, Dh), (B, H, Lq, Lk)
        return self.W_o(merge_heads(Z)), weights  # (B, Lq, D) -> (B, Lq, D)


__all__ = ["split_heads", "merge_heads", "multi_head_attention", "merge_value_output",
           "MultiHeadAttention"]
