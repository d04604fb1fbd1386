"""What the module checks share: read a layer's size without touching an uninitialised weight,
materialise lazily initialised layers, and run ``forward`` in eval mode, several times, to catch dropout
that stays active in eval mode.

Every ``nn.Linear`` subclass is accepted (``nn.LazyLinear`` included): sizes come from
``in_features``/``out_features``; a lazy layer (``in_features == 0`` before its first call) is
materialised by one forward pass in float32 on the case's inputs before any weight is read.
"""
from __future__ import annotations

from typing import Any, Callable

from . import _divergence
from ._core import CheckRaised, seed_torch


class DropoutActive(CheckRaised, RuntimeError):
    """Two forward passes in eval mode gave different outputs."""


def has_lazy(module: Any) -> bool:
    from torch.nn.parameter import is_lazy

    return any(is_lazy(p) for p in module.parameters()) or any(
        is_lazy(b) for b in module.buffers())


def materialise(module: Any, forward: Callable[[Any], Any]) -> None:
    """If ``module`` has lazily initialised layers, run ``forward(module)`` once (no grad) so
    that they get their weights; ``forward`` must feed float32 inputs."""
    import torch

    if has_lazy(module):
        with torch.no_grad():
            forward(module)


def in_out(linear: Any) -> tuple[int, int]:
    """``(in_features, out_features)`` of an ``nn.Linear`` (or subclass), read from its
    attributes, never from a weight that may not exist yet."""
    out_f = int(getattr(linear, "out_features", -1))
    in_f = int(getattr(linear, "in_features", -1))
    if in_f <= 0:  # a lazy layer before its first call; or a layer that keeps its own weight
        weight = getattr(linear, "weight", None)
        try:
            in_f = int(weight.shape[1])
        except Exception:  # an uninitialised parameter has no shape yet
            in_f = -1
    return in_f, out_f


def weight_shape(layer: Any) -> tuple[int, ...] | None:
    """A layer's weight shape; for ``nn.Linear`` and its subclasses ``(out, in)`` read from
    ``out_features``/``in_features``."""
    from torch import nn

    if isinstance(layer, nn.Linear):
        in_f, out_f = in_out(layer)
        return (out_f, in_f)
    weight = getattr(layer, "weight", None)
    try:
        return tuple(weight.shape) if weight is not None else None
    except Exception:
        return None


def run_eval(module: Any, forward: Callable[[Any], Any], name: str) -> Any:
    """``forward(module)`` in eval mode and without gradients, run four times with different
    random seeds; different results mean dropout (or other randomness) that stays on in eval mode."""
    import torch

    module.eval()
    if (capture := _divergence.captured()) is not None:  # the divergence finder builds the module
        capture.append((module, forward))
    with torch.no_grad():
        seed_torch(1)
        first = forward(module)
        same = True
        for seed in (2, 3, 4):  # a small dropout can leave one pair of runs equal by chance
            seed_torch(seed)
            same = same and _same(first, forward(module))
    if not same:
        raise DropoutActive(
            f"two calls of {name}'s forward in eval mode gave different results: dropout (or "
            "other randomness) stays active after `.eval()`")
    return first


class NoGradient(CheckRaised, RuntimeError):
    """A backward pass through the module left a parameter without a (finite, non-zero) gradient."""


def require_gradients(module: Any, forward: Callable[[Any], Any], names: Any, name: str) -> None:
    """One backward pass from ``forward(module)``'s first output (weighted by fixed random
    numbers, so that no symmetry cancels a gradient): each parameter in ``names`` (dotted, as
    in ``named_parameters``) must get a finite, non-zero ``.grad``. A computation that leaves
    torch (`.numpy()`, `.detach()`, `torch.no_grad()`) trains nothing before it."""
    import torch

    params = dict(module.named_parameters())
    for p in params.values():
        p.grad = None
    out = forward(module)
    first = out[0] if isinstance(out, (tuple, list)) else out
    try:
        gen = torch.Generator().manual_seed(0)
        weights = torch.randn(first.shape, generator=gen, dtype=first.dtype)
        (first * weights).sum().backward()
    except RuntimeError as exc:  # nothing in the output requires a gradient
        raise NoGradient(f"no gradient flows back through {name}'s forward ({exc}): keep every step "
                         "in torch, with no `.numpy()`, `.detach()` or `torch.no_grad()`") from None
    for pname in names:
        grad = params[pname].grad if pname in params else None
        if grad is None or not bool(torch.isfinite(grad).all()) or not bool(grad.abs().sum() > 0):
            what = "no gradient" if grad is None else "a gradient that is zero or not finite"
            raise NoGradient(f"{name}'s `{pname}` gets {what} from a backward pass through its "
                             "output: keep every step in torch, with no `.numpy()`, `.detach()` "
                             "or `torch.no_grad()`, or training cannot learn it")
    for p in params.values():
        p.grad = None


def _same(a: Any, b: Any) -> bool:
    import torch

    if isinstance(a, (tuple, list)):
        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and bool(torch.equal(a, b) or
                                                                          torch.allclose(a, b, equal_nan=True))
    return True


def _dropout_mistake_impl(*args: Any, **kwargs: Any) -> Any:
    raise DropoutActive("dropout active in eval mode")


DROPOUT_PRINCIPLE = ("randomness belongs to training only: after `.eval()` the forward pass must be "
                     "deterministic.")
DROPOUT_FIX = ("use an `nn.Dropout` layer (which `.eval()` switches off), or pass "
               "`training=self.training` to `F.dropout` (its default is training=True).")
