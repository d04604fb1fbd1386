"""Checks of notebook 10, attention_on_images: what its cards (:mod:`attnlab.cards`) share, and the
machinery of the ChannelAttention card: the check's own exceptions about the learner's class, how
the class is built with known weights (``invoke_channel_attention``), and the numpy variants its
mistakes compute."""
from __future__ import annotations

import numpy as np

from .. import images as _ref
from ..averages import softmax as _softmax
from ._core import CheckRaised, seed_torch
from ._modules import in_out, materialise, run_eval


class NotAModule(CheckRaised, TypeError):
    """The learner's class does not build an ``nn.Module``."""


class LayerMissing(CheckRaised, AttributeError):
    """``fc1`` or ``fc2`` is missing or not an ``nn.Linear``."""


class LayerShape(CheckRaised, ValueError):
    """``fc1`` or ``fc2`` maps the wrong number of features."""


def invoke_channel_attention(cls, X, W_1, b_1, W_2, b_2, reduction):
    """Build ``cls(C, reduction)``, copy the known weights into its ``fc1`` and ``fc2``
    (``nn.Linear``) and return ``forward(X)`` in float64."""
    import torch
    from torch import nn

    C, Cr = W_1.shape
    call = f"ChannelAttention({C}, reduction={reduction})"
    seed_torch(0)
    module = cls(C, reduction)
    if not isinstance(module, nn.Module):
        raise NotAModule(f"{call} is a {type(module).__name__}, not an nn.Module")
    X_t = torch.from_numpy(X)
    for name in ("fc1", "fc2"):
        layer = getattr(module, name, None)
        if not isinstance(layer, nn.Linear):
            raise LayerMissing(f"{call} has no nn.Linear attribute `self.{name}` (found "
                               f"{type(layer).__name__ if layer is not None else 'nothing'})")
    materialise(module, lambda m: m(X_t.float()))
    for name, want in (("fc1", (C, Cr)), ("fc2", (Cr, C))):
        layer = getattr(module, name)
        got = in_out(layer)
        if got != want or layer.bias is None:
            raise LayerShape(f"in {call}, `self.{name}` maps {got[0]} -> {got[1]} "
                             f"features{'' if layer.bias is not None else ' without a bias'}, expected "
                             f"{want[0]} -> {want[1]} with a bias (Cr = max(1, {C} // {reduction}) = {Cr})")
    module = module.double()
    with torch.no_grad():
        for name, W, b in (("fc1", W_1, b_1), ("fc2", W_2, b_2)):
            layer = getattr(module, name)
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(W.T)))  # nn.Linear: (out, in)
            layer.bias.copy_(torch.from_numpy(b))
    return run_eval(module, lambda m: m(X_t), "ChannelAttention")


def _ca_reference(X, W_1, b_1, W_2, b_2, reduction):
    return _ref.channel_attention(X, W_1, b_1, W_2, b_2)


def _ca_variant(X, W_1, b_1, W_2, b_2, reduction, *, squeeze="mean", relu=True, gate="sigmoid",
                scale=True):
    if squeeze == "channels":
        z = X.mean(axis=(1, 2))  # (B, C, H, W): over C and H, leaving W
    elif squeeze == "front":
        z = X.mean(axis=(2, 3))  # right for (B, C, H, W), out of range for (C, H, W)
    elif squeeze == "max":
        z = X.max(axis=(-2, -1))
    elif squeeze == "sum":
        z = X.sum(axis=(-2, -1))
    else:
        z = X.mean(axis=(-2, -1))
    h = z @ W_1 + b_1
    if relu:
        h = np.maximum(h, 0.0)
    e = h @ W_2 + b_2
    s = {"sigmoid": _ref._sigmoid(e), "none": e, "softmax": _softmax(e, axis=-1)}[gate]
    return (X * s[..., :, None, None] if scale else X), s


def _raises(exc_type):
    def impl(*args, **kwargs):
        raise exc_type("a known structural mistake")
    return impl


def _ca(**flags):
    return lambda *args: _ca_variant(*args, **flags)


def _ca_swapped(*args):
    Y, s = _ca_reference(*args)
    return s, Y


__all__ = ["invoke_channel_attention"]
