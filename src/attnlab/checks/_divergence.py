"""The first sub-module of a module or model whose output diverges from the reference's.

The general diagnosis layer (:mod:`._relations`) relates a wrong *answer* to the right one; for
modules and models this module goes inside: the learner's module and the reference's module hold
the same weights (both built by the check's own ``invoke``, which copies the known weights), the
same input runs through both with forward (pre-)hooks on every named sub-module, and the calls
are compared in the learner's execution order. The first call that differs is named:

* its output differs while its input matched: that sub-module computes something else
  (``"the first part whose output differs ... is `ffn` (its input matched)"``);
* its input differs while every earlier call agreed: the forward code that feeds it (the
  module's own, or the enclosing sub-module's) differs, e.g. a residual added in the wrong
  place or the feed-forward network reading the stream before the attention's residual;
* every call agrees but the module's output differs: the difference is in the module's own
  forward code between or after its sub-modules.

It claims only what holds exactly. It says nothing (returns None) when the two modules cannot be
paired part by part: a sub-module of the reference that holds weights has no namesake with the
same weights in the learner's module, the learner's code calls a weighted part the reference has
not, calls a part more often or never calls one the reference calls, or a call differs only in
a non-float argument (a mask in another but equivalent form).

:func:`diverge` runs in the learner's process only (it needs the learner's module); the graded
path, which judges outcomes sent back from the sandbox, does without it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import _core


@dataclass
class Divergence:
    """Where the learner's module first diverges: ``kind`` is ``"output"`` (``name``'s output
    differs, its input matched), ``"input"`` (``name`` receives a different input while all
    before agreed; ``parent`` is the sub-module whose forward code feeds it, ``""`` = the module
    itself) or ``"own"`` (every part agrees; ``parts`` are those compared)."""

    kind: str
    name: str = ""
    parent: str = ""
    parts: tuple[str, ...] = ()

    def message(self, what: str = "the module") -> str:
        if self.kind == "output":
            return (f"The first part whose output differs from the reference's under the same weights "
                    f"is `{self.name}` (its input matched): look inside `{self.name}`.")
        if self.kind == "input":
            code = f"`{self.parent}`'s forward code" if self.parent else f"{what}'s own forward code"
            return (f"Every part before `{self.name}` agrees with the reference's under the same weights, "
                    f"but `{self.name}` receives a different input: the difference is in {code} before "
                    f"it calls `{self.name}` (a residual, the order of the steps, what is passed on).")
        names = ", ".join(f"`{p}`" for p in self.parts)
        return (f"Every part ({names}) gets the same input and gives the same output as the reference's "
                f"under the same weights: the difference is in {what}'s own forward code between or "
                "after them (a residual, the order of the steps, what is returned).")


@dataclass
class _Event:
    kind: str  # "in" (before the call) or "out" (after it)
    name: str
    index: int  # the how-many-th call of this name
    values: list
    parent: str  # the innermost sub-module running when it was called ("" = the module itself)


def _flatten(x: Any, out: list) -> list:
    import torch

    if isinstance(x, torch.Tensor):
        out.append(x.detach().clone())
    elif isinstance(x, (tuple, list)):
        for item in x:
            _flatten(item, out)
    elif isinstance(x, dict):
        for key in x:
            _flatten(x[key], out)
    elif x is not None:
        out.append(x if isinstance(x, (bool, int, float, str)) else type(x).__name__)
    return out


def _tensor_close(a: Any, b: Any, rtol: float, atol: float) -> bool:
    import numpy as np

    a_np, b_np = a.detach().cpu().double().numpy(), b.detach().cpu().double().numpy()
    return _core._close(a_np, b_np, rtol, atol)


def _compare(mine: list, theirs: list, rtol: float, atol: float) -> str:
    """``"same"``, ``"float"`` (a floating tensor differs: a real difference) or ``"other"``
    (the structure or a non-float value differs: not comparable)."""
    import torch

    if len(mine) != len(theirs):
        return "other"
    verdict = "same"
    for a, b in zip(mine, theirs):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            if a.is_floating_point() and b.is_floating_point():
                if a.shape != b.shape:
                    return "other"
                if not _tensor_close(a, b, rtol, atol):
                    verdict = "float"
            elif a.is_floating_point() or b.is_floating_point() or not torch.equal(a, b):
                return "other"
        elif isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor) or a != b:
            return "other"
    return verdict


def _state(module: Any) -> dict:
    return {k: v for k, v in module.state_dict().items()}


def _same_weights(a: Any, b: Any) -> bool:
    import torch

    sa, sb = _state(a), _state(b)
    if sa.keys() != sb.keys():
        return False
    for key in sa:
        x, y = sa[key], sb[key]
        if not (isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor)):
            continue
        if x.shape != y.shape or not torch.equal(x.double(), y.double()):
            return False
    return True


def _has_weights(module: Any) -> bool:
    return any(True for _ in module.parameters())


def _record(module: Any, forward: Callable[[Any], Any], names: set[str]) -> tuple[list[_Event], Any]:
    """Run ``forward(module)`` once with hooks on the sub-modules named in ``names``; the events
    in execution order and the module's output."""
    import torch

    events: list[_Event] = []
    counts: dict[tuple[str, str], int] = {}
    stack: list[str] = []
    handles = []

    def add(kind, name, values):
        index = counts.get((kind, name), 0)
        counts[(kind, name)] = index + 1
        events.append(_Event(kind, name, index, values, stack[-1] if stack else ""))

    for name, sub in module.named_modules():
        if not name or name not in names:
            continue

        def pre(m, args, kwargs, name=name):
            add("in", name, _flatten(list(args) + list(kwargs.values()), []))
            stack.append(name)

        def post(m, args, output, name=name):
            if stack and stack[-1] == name:
                stack.pop()
            add("out", name, _flatten(output, []))

        handles.append(sub.register_forward_pre_hook(pre, with_kwargs=True))
        handles.append(sub.register_forward_hook(post))
    try:
        module.eval()
        with torch.no_grad():
            _core.seed_torch(1)
            output = forward(module)
    finally:
        for h in handles:
            h.remove()
    return events, output


def first_divergence(mine: Any, theirs: Any, forward_mine: Callable[[Any], Any],
                     forward_theirs: Callable[[Any], Any] | None = None, *,
                     rtol: float = _core.RTOL, atol: float = _core.ATOL) -> Divergence | None:
    """Where ``mine`` (the learner's module) first diverges from ``theirs`` (the reference's,
    holding the same weights) when ``forward_*(module)`` runs each on the same input; None
    when both agree or when no exact claim can be made (see the module's docstring)."""
    forward_theirs = forward_theirs or forward_mine
    my_modules = dict(mine.named_modules())
    their_modules = dict(theirs.named_modules())
    paired: set[str] = set()
    for name, sub in their_modules.items():
        if not name:
            continue
        other = my_modules.get(name)
        if other is not None and _same_weights(other, sub):
            paired.add(name)
        elif _has_weights(sub):
            return None  # a weighted part of the reference without its namesake: no pairing
    try:
        my_events, my_out = _record(mine, forward_mine, set(my_modules) - {""})
        their_events, their_out = _record(theirs, forward_theirs, paired)
    except Exception:  # the learner's code fails under hooks (or at all): nothing to claim
        return None
    theirs_by_key = {(e.kind, e.name, e.index): e for e in their_events}
    seen = set()
    for event in my_events:
        if event.name not in paired:
            if _has_weights(my_modules[event.name]) and not any(
                    event.name.startswith(p + ".") for p in paired):
                return None  # a weighted part of the learner's own: its effect cannot be paired
            continue
        key = (event.kind, event.name, event.index)
        other = theirs_by_key.get(key)
        if other is None:
            return None  # called more often than in the reference
        seen.add(key)
        verdict = _compare(event.values, other.values, rtol, atol)
        if verdict == "other":
            return None
        if verdict == "float":
            if event.kind == "in":
                return Divergence("input", event.name, event.parent)
            return Divergence("output", event.name)
    if set(theirs_by_key) - seen:
        return None  # a part the reference calls and the learner's code never does
    if _compare(_flatten(my_out, []), _flatten(their_out, []), rtol, atol) == "same":
        return None  # no difference here at all
    parts = []
    for event in my_events:
        if (event.kind == "out" and event.name in paired and "." not in event.name and event.name not in parts
                and _has_weights(my_modules[event.name])):
            parts.append(event.name)
    if not parts:
        return None
    return Divergence("own", parts=tuple(parts))


_captured: list | None = None


def captured() -> list | None:
    """The list that :func:`._modules.run_eval` appends ``(module, forward)`` to, while
    :func:`diverge` builds the modules; None otherwise."""
    return _captured


def _build(invoke: Callable[..., Any], obj: Any, case: _core.Case) -> tuple[Any, Callable[[Any], Any]] | None:
    global _captured
    import copy
    import warnings

    previous, _captured = _captured, []
    try:
        args, kwargs = copy.deepcopy(case.args), copy.deepcopy(case.kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            invoke(obj, *args, **kwargs)
    except Exception:
        return None
    finally:
        got, _captured = _captured, previous
    return got[-1] if got else None


def diverge(fn: Any, invoke: Callable[..., Any], reference_module: Callable[[], Any], case: _core.Case,
            what: str = "the module") -> str | None:
    """The sentence naming where the learner's class ``fn`` first diverges from the reference's
    class (``reference_module()``) on ``case``, both built by ``invoke`` (which loads the same
    known weights into both); None when it cannot say."""
    try:
        mine = _build(invoke, fn, case)
        theirs = _build(invoke, reference_module(), case)
        if mine is None or theirs is None:
            return None
        found = first_divergence(mine[0], theirs[0], mine[1], theirs[1])
    except Exception:
        return None
    return None if found is None else found.message(what)


# The reference classes of the module checks (imported lazily: torch only when a check fails).

def self_attention_class():
    # (imported here: attnlab.torch loads torch, and only a failed check needs the reference class)
    from ..torch.self_attention import SelfAttention

    return SelfAttention


def multi_head_attention_class():
    # (imported here: attnlab.torch loads torch, and only a failed check needs the reference class)
    from ..torch.multi_head import MultiHeadAttention

    return MultiHeadAttention


def encoder_layer_class():
    # (imported here: attnlab.torch loads torch, and only a failed check needs the reference class)
    from ..torch.transformer import TransformerEncoderLayer

    return TransformerEncoderLayer


def decoder_layer_class():
    # (imported here: attnlab.torch loads torch, and only a failed check needs the reference class)
    from ..torch.transformer import TransformerDecoderLayer

    return TransformerDecoderLayer


def channel_attention_class():
    # (imported here: attnlab.torch loads torch, and only a failed check needs the reference class)
    from ..torch.images import ChannelAttention

    return ChannelAttention
