"""Attention for an RNN decoder: one query (the decoder state) against the encoder's outputs.

Two families of score functions (notebook 07):

* **additive** (Bahdanau et al., 2014): ``score(q, k) = vᵀ tanh(W_q q + W_k k)``, a one-hidden-
  layer network on the pair; ``q`` and ``k`` may have different widths;
* **multiplicative** (Luong et al., 2015): ``dot`` ``score(q, k) = qᵀ k`` (same widths, no
  parameters) and ``general`` ``score(q, k) = qᵀ W k``.

Both modules have the same ``forward(query (B, Dq), keys (B, Lk, Dk), mask=None (B, Lk))`` and
return ``(context (B, Dk), weights (B, Lk))``: the weights are a masked softmax of the scores over
the keys (``True`` = may attend, a fully masked row gets zero weights and a zero context) and the
context is the weighted average of the keys. Each also splits ``forward`` in two,
``project_keys(keys)`` (the part that depends only on the keys, computed once per sentence) and
``attend(query, projected, keys, mask)``, which also takes all the decoder's queries at once,
``(B, Lq, Dq) -> (B, Lq, Dk), (B, Lq, Lk)`` (teacher forcing).
"""
from __future__ import annotations

import torch
from torch import nn

from .._validate import require_equal, require_ndim
from .._validate import fmt
from .functional import masked_softmax

KINDS = ("dot", "general")


def _check_inputs(query: torch.Tensor, keys: torch.Tensor, mask: torch.Tensor | None,
                  query_dim: int, key_dim: int) -> None:
    require_ndim(query, "query", ("B", "Dq"), batch=False)
    require_ndim(keys, "keys", ("B", "Lk", "Dk"), batch=False)
    require_equal(query.shape[0], keys.shape[0], "batch size B", "query", query.shape, "keys", keys.shape)
    if query.shape[1] != query_dim:
        raise ValueError(f"query: expected shape (B, Dq={query_dim}), got {fmt(query.shape)}")
    if keys.shape[2] != key_dim:
        raise ValueError(f"keys: expected shape (B, Lk, Dk={key_dim}), got {fmt(keys.shape)}")
    if mask is not None:
        if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
            raise ValueError("mask: expected a boolean tensor (True = may attend), got "
                             f"{getattr(mask, 'dtype', type(mask).__name__)}")
        if tuple(mask.shape) != tuple(keys.shape[:2]):
            raise ValueError(f"mask: expected shape (B, Lk) = {fmt(keys.shape[:2])}, got {fmt(mask.shape)}")


def _as_queries(query: torch.Tensor) -> tuple[torch.Tensor, bool]:
    """``(B, Dq)`` -> ``(B, 1, Dq)``; ``(B, Lq, Dq)`` stays. Also says whether to squeeze back."""
    return (query.unsqueeze(1), True) if query.dim() == 2 else (query, False)


def _softmax_and_context(scores: torch.Tensor, keys: torch.Tensor, mask: torch.Tensor | None,
                         single: bool) -> tuple[torch.Tensor, torch.Tensor]:
    if mask is not None:
        mask = mask.unsqueeze(1)  # (B, 1, Lk): the same keys for every query
    weights = masked_softmax(scores, mask)  # (B, Lq, Lk), over the keys
    context = weights @ keys  # (B, Lq, Lk) x (B, Lk, Dk) -> (B, Lq, Dk)
    if single:
        return context.squeeze(1), weights.squeeze(1)  # (B, Dk), (B, Lk)
    return context, weights


class AdditiveAttention(nn.Module):
    """Bahdanau's additive attention, ``score(q, k) = vᵀ tanh(W_q q + W_k k)``.

    ``AdditiveAttention(query_dim, key_dim, hidden_dim)`` holds

    * ``W_q = nn.Linear(query_dim, hidden_dim, bias=False)``: the query's half of the layer;
    * ``W_k = nn.Linear(key_dim, hidden_dim, bias=False)``: the keys' half;
    * ``v = nn.Linear(hidden_dim, 1, bias=False)``: the output unit.

    ``forward(query (B, Dq), keys (B, Lk, Dk), mask=None (B, Lk) bool)`` returns
    ``(context (B, Dk), weights (B, Lk))``: the weights are the softmax of the scores over the
    real keys (exactly 0 at padding, all 0 for a sentence without a real key), the context is
    the keys' average under those weights.
    """

    def __init__(self, query_dim: int, key_dim: int, hidden_dim: int) -> None:
        super().__init__()
        self.query_dim, self.key_dim, self.hidden_dim = query_dim, key_dim, hidden_dim
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def project_keys(self, keys: torch.Tensor) -> torch.Tensor:
        """``W_k k`` for every key: ``(B, Lk, Dk) -> (B, Lk, Dh)`` (once per sentence)."""
        return self.W_k(keys)

    def attend(self, query: torch.Tensor, projected: torch.Tensor, keys: torch.Tensor,
               mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``forward`` with the keys already projected by :meth:`project_keys`; ``query`` may
        also be ``(B, Lq, Dq)`` (every step of a decoder at once)."""
        query, single = _as_queries(query)  # (B, Lq, Dq)
        q = self.W_q(query).unsqueeze(2)  # (B, Lq, 1, Dh)
        hidden = torch.tanh(q + projected.unsqueeze(1))  # (B, Lq, 1, Dh) + (B, 1, Lk, Dh) -> (B, Lq, Lk, Dh)
        scores = self.v(hidden).squeeze(-1)  # (B, Lq, Lk, Dh) -> (B, Lq, Lk)
        return _softmax_and_context(scores, keys, mask, single)

    def forward(self, query: torch.Tensor, keys: torch.Tensor,
                mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        _check_inputs(query, keys, mask, self.query_dim, self.key_dim)
        return self.attend(query, self.project_keys(keys), keys, mask)


class MultiplicativeAttention(nn.Module):
    """Luong's multiplicative attention: ``dot`` ``qᵀ k`` or ``general`` ``qᵀ W k`` (no scaling).

    ``MultiplicativeAttention(query_dim, key_dim, kind="general")`` holds, for ``general``,
    ``W = nn.Linear(key_dim, query_dim, bias=False)`` (so ``W(k)`` is ``W k``, of width Dq);
    ``dot`` has no parameters and needs ``query_dim == key_dim``.

    ``forward(query (B, Dq), keys (B, Lk, Dk), mask=None (B, Lk) bool)`` returns
    ``(context (B, Dk), weights (B, Lk))`` as :class:`AdditiveAttention` does.
    """

    def __init__(self, query_dim: int, key_dim: int, kind: str = "general") -> None:
        super().__init__()
        if kind not in KINDS:
            raise ValueError(f"kind: expected one of {KINDS}, got {kind!r}")
        if kind == "dot" and query_dim != key_dim:
            raise ValueError(f"kind='dot' needs query_dim == key_dim, got {query_dim} and {key_dim}")
        self.query_dim, self.key_dim, self.kind = query_dim, key_dim, kind
        if kind == "general":
            self.W = nn.Linear(key_dim, query_dim, bias=False)

    def project_keys(self, keys: torch.Tensor) -> torch.Tensor:
        """Nothing to precompute: ``general`` projects the query instead (``qᵀ W k = (Wᵀ q)ᵀ k``)."""
        return keys

    def attend(self, query: torch.Tensor, projected: torch.Tensor, keys: torch.Tensor,
               mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``forward`` given :meth:`project_keys`'s result; ``query`` may also be ``(B, Lq, Dq)``."""
        query, single = _as_queries(query)  # (B, Lq, Dq)
        if self.kind == "general":
            query = query @ self.W.weight  # (B, Lq, Dq) x (Dq, Dk) -> (B, Lq, Dk): Wᵀ q
        scores = query @ projected.transpose(1, 2)  # (B, Lq, Dk) x (B, Dk, Lk) -> (B, Lq, Lk)
        return _softmax_and_context(scores, keys, mask, single)

    def forward(self, query: torch.Tensor, keys: torch.Tensor,
                mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        _check_inputs(query, keys, mask, self.query_dim, self.key_dim)
        return self.attend(query, self.project_keys(keys), keys, mask)

    def extra_repr(self) -> str:
        return f"query_dim={self.query_dim}, key_dim={self.key_dim}, kind={self.kind!r}"
