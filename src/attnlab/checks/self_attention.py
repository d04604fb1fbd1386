"""Checks of notebook 03, self_attention: what its cards (:mod:`attnlab.cards`) share, and what the cards
share: the inputs of a self-attention layer, and how a check builds and runs a learner's
``SelfAttention`` module (:func:`invoke_module`) to compare it with :func:`module_reference`.

The sizes ``L, D, Dk, Dv`` of the cases all differ, and batches have a size other than ``Dk``, so
that every catalogued mistake gives a different answer from the right one.
"""
from __future__ import annotations

import numpy as np

from ..attention import scaled_dot_product_attention as _sdpa
from ._core import CheckRaised
from ._modules import in_out, materialise, require_gradients, run_eval


def attention_weights(rng, D, M):
    """A (D, M) weight matrix whose products with unit-size tokens are of order 1."""
    return rng.normal(size=(D, M)) / np.sqrt(D)


def attention_args(rng, batch, L, D, Dk, Dv):
    """``(X (*batch, L, D), W_q (D, Dk), W_k (D, Dk), W_v (D, Dv))`` drawn from ``rng``."""
    return (rng.normal(size=(*batch, L, D)), attention_weights(rng, D, Dk), attention_weights(rng, D, Dk),
            attention_weights(rng, D, Dv))


# ---------------------------------------------------------------------------------------------
# SelfAttention (torch): built with known weights, compared with the numpy reference.

_LINEARS = (("W_q", "d_k"), ("W_k", "d_k"), ("W_v", "d_v"))
MODULE_ARGS = ("X", "W_q.weight.T", "W_k.weight.T", "W_v.weight.T")


class NotAModule(CheckRaised, TypeError):
    """The learner's class does not build an ``nn.Module``."""


class ProjectionMissing(CheckRaised, AttributeError):
    """``W_q``, ``W_k`` or ``W_v`` is missing or not an ``nn.Linear``."""


class ProjectionShape(CheckRaised, ValueError):
    """A projection maps the wrong number of features."""


class ProjectionBias(CheckRaised, ValueError):
    """A projection has a bias where it should not, or none where it should."""


def module_reference(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    """What ``SelfAttention(D, Dk, Dv[, bias=True])`` with these weights returns for ``X[, mask]``."""
    zero = (0.0, 0.0, 0.0) if b_q is None else (b_q, b_k, b_v)
    return _sdpa(X @ W_q + zero[0], X @ W_k + zero[1], X @ W_v + zero[2], mask)


def invoke_module(cls, X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    """Build ``cls(d_in, d_k, d_v[, bias=True])``, copy the known weights (and biases) into its
    ``W_q``, ``W_k``, ``W_v`` (``nn.Linear``), and return ``forward(X[, mask])`` in float64."""
    import torch
    from torch import nn

    D, Dk, Dv = W_q.shape[0], W_q.shape[1], W_v.shape[1]
    bias = b_q is not None
    call = f"SelfAttention({D}, {Dk}, {Dv}" + (", bias=True)" if bias else ")")
    module = cls(D, Dk, Dv, bias=True) if bias else cls(D, Dk, Dv)
    if not isinstance(module, nn.Module):
        raise NotAModule(f"{call} is a {type(module).__name__}, not an nn.Module")
    sizes = {"d_k": Dk, "d_v": Dv}
    X_t = torch.from_numpy(X)
    mask_t = None if mask is None else torch.from_numpy(mask)

    def forward(m, X_t=X_t):
        return m(X_t) if mask_t is None else m(X_t, mask_t)

    for name, _ in _LINEARS:
        if not isinstance(getattr(module, name, None), nn.Linear):
            linear = getattr(module, name, None)
            raise ProjectionMissing(f"{call} has no nn.Linear attribute `self.{name}` (found "
                                    f"{type(linear).__name__ if linear is not None else 'nothing'})")
    materialise(module, lambda m: forward(m, X_t.float()))
    for name, out in _LINEARS:
        linear = getattr(module, name)
        in_f, out_f = in_out(linear)
        if (out_f, in_f) != (sizes[out], D):
            raise ProjectionShape(f"in {call}, `self.{name}` maps {in_f} -> {out_f} features, "
                                  f"expected d_in={D} -> {out}={sizes[out]}")
        if bias != (linear.bias is not None):
            raise ProjectionBias(f"in {call}, `self.{name}` has {'a' if linear.bias is not None else 'no'} bias")
    module = module.double()
    with torch.no_grad():
        for (name, _), W, b in zip(_LINEARS, (W_q, W_k, W_v), (b_q, b_k, b_v)):
            linear = getattr(module, name)
            linear.weight.copy_(torch.from_numpy(np.ascontiguousarray(W.T)))  # nn.Linear: (out, in)
            if b is not None:
                linear.bias.copy_(torch.from_numpy(b))
    result = run_eval(module, forward, "SelfAttention")
    if _agrees(result, module_reference(X, W_q, W_k, W_v, b_q, b_k, b_v, mask)):  # else the comparison names it
        # b_k gets no gradient by design (q·b_k is the same for every key of a row: the softmax ignores it)
        require_gradients(module, forward, [f"{name}.weight" for name, _ in _LINEARS], call)
    return result


def _agrees(result, expected) -> bool:
    """Whether a forward pass's ``(Z, A)`` is the reference's (then its gradients are judged)."""
    try:
        return len(result) == len(expected) and all(
            np.allclose(np.asarray(r.detach() if hasattr(r, "detach") else r, dtype=float), e,
                        rtol=1e-6, atol=1e-8, equal_nan=True) for r, e in zip(result, expected))
    except (TypeError, ValueError, RuntimeError):
        return False
