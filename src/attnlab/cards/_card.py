"""The card format: everything the course knows about one exercise, in one file.

A card holds the exercise's contract (its arguments, what it returns, the errors it raises, the
tolerance), the cases its checks run, and its mistakes as data. A mistake is the wrong code a
learner writes (learner-style, the whole solution cell), its name, the principle that fixes it,
the code-level fix, and the grade cells it must fail. From the cards come:

* the checks (``Card.check`` runs :func:`attnlab.checks.run_check` with the card's contract and
  mistakes; the mistake's code, run on the failing input, is what names it);
* :func:`attnlab.checks.explain` in a fresh kernel (what the checks of an exercise can name);
* the catalogue tests (``tests/test_catalogue.py``: each mistake's code loses the points of its
  grade cells, named, and names no other mistake of its card);
* the list of mistakes in the docs (``tools/cards_doc.py``).

Adding a mistake is a change to its card: nothing else lists it.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..checks._core import Case, Mistake
from ..checks._run import run_check


def _standard_namespace() -> dict:
    """What a notebook's first cell imports; the mistakes' code runs with it."""
    import math

    import numpy as np
    import torch
    from torch import nn
    from torch.nn import functional as F

    import attnlab

    return {"np": np, "torch": torch, "nn": nn, "F": F, "math": math, "attnlab": attnlab,
            "__name__": "__card__"}


class _FromCode:
    """The object a mistake's code defines (its exercise's function or class), compiled on first
    use so that importing a card imports neither torch nor anything the code needs."""

    def __init__(self, code: str, defines: str, where: str, uses: Callable[[], dict] | None) -> None:
        self._code, self._defines, self._where, self._uses = code, defines, where, uses
        self._obj: Any = None

    def resolve(self) -> Any:
        if self._obj is None:
            ns = _standard_namespace()
            if self._uses is not None:
                ns.update(self._uses())
            exec(compile(self._code, self._where, "exec"), ns)  # noqa: S102 - the course's own code
            if self._defines not in ns:
                raise LookupError(f"{self._where}: the code defines no {self._defines}")
            self._obj = ns[self._defines]
        return self._obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.resolve(), name)

    def __repr__(self) -> str:
        return f"<code of {self._where}>"


@dataclass(frozen=True)
class Contract:
    """What a right answer is: the arguments' names, what comes back, what is refused.

    ``reference`` computes the right answer; ``invoke`` says how a case calls the learner's
    object (default: ``fn(*args, **kwargs)``); ``rtol``/``atol`` loosen the checks' defaults
    where the exercise allows it (None: the defaults). ``returns``, ``shapes`` and ``raises`` are
    the contract in words, as the docs and ``explain`` show it.
    """

    args: tuple[str, ...]
    reference: Callable[..., Any]
    returns: str = ""
    shapes: str = ""
    raises: str = ""
    outputs: tuple[str, ...] = ()
    invoke: Callable[..., Any] | None = None
    rtol: float | None = None
    atol: float | None = None
    reference_module: Callable[[], Any] | None = None


def swapped(code: str, *swaps: tuple[str, str]) -> str:
    """``code`` (a card's right cell) with each ``old`` text replaced by ``new``: a learner's slip
    written as the lines it changes. An ``old`` that is not in the code is the card's own error."""
    for old, new in swaps:
        if old not in code:
            raise ValueError(f"swapped: {old!r} is not in the code")
        code = code.replace(old, new)
    return code


@dataclass(frozen=True)
class Example:
    """Another learner-style form of a mistake, or a mistake a general rule names (the type
    rule, rank probing, the error contract): its code must lose the points of ``fails`` with a
    message containing ``message``."""

    code: str
    fails: tuple[str, ...]
    message: str
    label: str = ""


@dataclass
class Card:
    """One exercise: ``exercise`` is the function or class the learner writes, ``notebook`` its
    assignment, ``solution`` the grade id of its solution cell (default: the exercise's name).

    ``uses`` returns the names the mistakes' code reads besides the notebook's standard imports
    (e.g. another exercise's reference), as the notebook would hold them.
    """

    exercise: str
    notebook: str
    contract: Contract | None = None
    mistakes: list[Mistake] = field(default_factory=list)
    examples: list[Example] = field(default_factory=list)
    solution: str = ""
    prediction: Any = None          # a checks._predict.Prediction, for predict-then-run cards
    uses: Callable[[], dict] | None = None
    summary: str = ""

    def __post_init__(self) -> None:
        if not self.solution:
            self.solution = (self.exercise.replace("prediction_", "predict_", 1)
                             if self.prediction is not None else self.exercise)
        names = set()
        for m in self.mistakes:
            if m.name in names:
                raise ValueError(f"card {self.exercise}: two mistakes named {m.name!r}")
            names.add(m.name)
            if m.code:
                object.__setattr__(m, "code", textwrap.dedent(m.code).strip("\n") + "\n")
            if m.impl is None and m.code:
                where = f"<card {self.exercise}: {m.name[:60]}>"
                object.__setattr__(m, "impl", _FromCode(m.code, m.defines or self.exercise, where, self.uses))
            object.__setattr__(m, "exercise", self.exercise)
        self.examples = [Example(textwrap.dedent(e.code).strip("\n") + "\n", tuple(e.fails), e.message, e.label)
                         for e in self.examples]

    # -- the checks --------------------------------------------------------------------------
    def check(self, fn: Any, cases: Sequence[Case], *, hidden: bool, passed: str,
              mistakes: Sequence[Mistake] | None = None, **extra: Any) -> None:
        """Run the exercise's check on ``cases`` with the card's contract and mistakes."""
        c = self.contract
        if c is None:
            raise TypeError(f"card {self.exercise} has no contract to check against")
        kwargs: dict[str, Any] = dict(
            exercise=self.exercise, reference=c.reference, cases=cases,
            mistakes=self.mistakes if mistakes is None else mistakes, arg_names=c.args,
            outputs=c.outputs, show_values=not hidden, passed=passed, invoke=c.invoke,
            reference_module=c.reference_module)
        if c.rtol is not None:
            kwargs["rtol"] = c.rtol
        if c.atol is not None:
            kwargs["atol"] = c.atol
        kwargs.update(extra)
        run_check(fn, **kwargs)

    # -- what the catalogue tests and the docs read ------------------------------------------
    def wrong_versions(self) -> list[tuple[str, tuple[str, ...], str, str]]:
        """``(code, fails, message, label)`` for every mistake and example of the card."""
        out = []
        for m in self.mistakes:
            if m.code:
                out.append((m.code, tuple(m.fails), m.message or m.name, m.label))
        if self.prediction is not None:
            for w in self.prediction.wrong:
                out.append((f"{self.prediction.variable} = {w.answer!r}\n", self.prediction_fails, w.name, ""))
        for e in self.examples:
            out.append((e.code, e.fails, e.message, e.label))
        return out

    @property
    def prediction_fails(self) -> tuple[str, ...]:
        return ("test_" + self.solution,)

    def describe(self) -> str:
        """The card in words: the contract, then each mistake the checks name and its principle."""
        lines = [f"{self.exercise} (notebook {self.notebook[:2]})" + (f": {self.summary}" if self.summary else "")]
        c = self.contract
        if c is not None:
            if c.args:
                lines.append(f"  arguments: {', '.join(c.args)}" + (f"; {c.shapes}" if c.shapes else ""))
            if c.returns:
                lines.append(f"  returns: {c.returns}")
            if c.raises:
                lines.append(f"  raises: {c.raises}")
        named = [m for m in self.mistakes if m.principle]
        if self.prediction is not None:
            lines.append("  a predict-then-run question: once you answer, the check names the slip "
                         "behind a tempting wrong answer")
        elif named:
            lines.append("  mistakes the checks name (and what to change):")
            lines += [f"  - {m.name}: {m.principle}" for m in named]
        return "\n".join(lines)
