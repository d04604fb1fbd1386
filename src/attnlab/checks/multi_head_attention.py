"""Checks of notebook 05, multi_head_attention: what its cards (:mod:`attnlab.cards`) share, and what
the module's card shares with the checks: how a check builds and runs a learner's
``MultiHeadAttention`` (:func:`invoke_module`) to compare it with :func:`module_reference`.

The module check builds the learner's ``MultiHeadAttention(d_model, num_heads, bias=...)``,
converts it to float64, copies known weights into its four ``nn.Linear`` attributes ``W_q,
W_k, W_v, W_o`` (``linear.weight = W.T``, since ``nn.Linear`` computes ``X @ weight.T``) and
compares ``forward(X_q, X_kv, mask=mask)`` with the numpy reference.
"""
from __future__ import annotations

import numpy as np

from .. import masks as _masks
from .. import multi_head as _ref
from ._core import CheckRaised, seed_torch
from ._modules import in_out, materialise, run_eval

# ---------------------------------------------------------------------------------------------
# MultiHeadAttention (torch module): built with known weights, compared with the numpy reference


class MissingProjection(CheckRaised, AttributeError):
    """The learner's module has no ``nn.Linear`` attribute of the required name."""


class WrongProjectionShape(CheckRaised, ValueError):
    """A projection's weight is not ``(d_model, d_model)``."""


class UnexpectedBias(CheckRaised, ValueError):
    """``bias=False`` but a projection has a bias."""


class MissingBias(CheckRaised, ValueError):
    """``bias=True`` but a projection has no bias."""


class NotAModule(CheckRaised, TypeError):
    """The learner's class does not build an ``nn.Module``."""


PROJECTIONS = ("W_q", "W_k", "W_v", "W_o")
MODULE_ARGS = ("X_q", "X_kv", "num_heads", "mask")


def invoke_module(cls, X_q, X_kv, num_heads, mask, W_q, W_k, W_v, W_o,
                  b_q=None, b_k=None, b_v=None, b_o=None):
    """Build ``cls(d_model, num_heads, bias=...)``, load the weights, run ``forward``."""
    import torch
    from torch import nn

    D = X_q.shape[-1]
    bias = b_q is not None
    seed_torch(0)
    module = cls(D, num_heads, bias=bias)
    if not isinstance(module, nn.Module):
        raise NotAModule(f"MultiHeadAttention({D}, {num_heads}) is a {type(module).__name__}, "
                         "not an nn.Module: subclass nn.Module and call super().__init__()")
    mask_t = None if mask is None else torch.from_numpy(np.asarray(mask))
    for name in PROJECTIONS:
        linear = getattr(module, name, None)
        if not isinstance(linear, nn.Linear):
            raise MissingProjection(
                f"MultiHeadAttention(d_model={D}, num_heads={num_heads}) needs an attribute "
                f"self.{name} = nn.Linear(d_model, d_model, bias=bias); "
                + ("it has none" if linear is None else f"it is a {type(linear).__name__}"))
    materialise(module, lambda m: m(torch.from_numpy(X_q).float(), torch.from_numpy(X_kv).float(), mask=mask_t))
    for name in PROJECTIONS:
        linear = getattr(module, name)
        in_f, out_f = in_out(linear)
        if (out_f, in_f) != (D, D):
            raise WrongProjectionShape(
                f"self.{name}.weight has shape {(out_f, in_f)}, expected "
                f"(d_model, d_model) = {(D, D)}")
        if bias and linear.bias is None:
            raise MissingBias(f"bias=True but self.{name} has no bias")
        if not bias and linear.bias is not None:
            raise UnexpectedBias(f"bias=False but self.{name} has a bias")
    module = module.double()
    with torch.no_grad():
        for name, W, b in zip(PROJECTIONS, (W_q, W_k, W_v, W_o), (b_q, b_k, b_v, b_o)):
            linear = getattr(module, name)
            linear.weight.copy_(torch.from_numpy(np.ascontiguousarray(W.T)))  # X @ W = X @ weight.T
            if b is not None:
                linear.bias.copy_(torch.from_numpy(b))
    return run_eval(module, lambda m: m(torch.from_numpy(X_q), torch.from_numpy(X_kv), mask=mask_t),
                    "MultiHeadAttention")


def module_reference(X_q, X_kv, num_heads, mask, W_q, W_k, W_v, W_o,
                     b_q=None, b_k=None, b_v=None, b_o=None):
    """What ``MultiHeadAttention(D, num_heads[, bias=True])`` with these weights (and biases)
    returns: the numpy reference, with the biases of ``nn.Linear`` (zero when there are none)."""
    X_q, X_kv = np.asarray(X_q, dtype=float), np.asarray(X_kv, dtype=float)
    b_q, b_k, b_v, b_o = (0.0,) * 4 if b_q is None else (b_q, b_k, b_v, b_o)
    Q = _ref.split_heads(X_q @ W_q + b_q, num_heads)  # (B, H, Lq, Dh)
    K = _ref.split_heads(X_kv @ W_k + b_k, num_heads)  # (B, H, Lk, Dh)
    V = _ref.split_heads(X_kv @ W_v + b_v, num_heads)  # (B, H, Lk, Dh)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])  # (B, H, Lq, Lk)
    allowed = np.ones(scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    weights = _masks.masked_softmax(scores, allowed)
    return _ref.merge_heads(weights @ V) @ W_o + b_o, weights
