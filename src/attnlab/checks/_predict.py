"""Predict, then run: graded predictions.

Before a cell shows a result, the learner writes what they expect into a variable
(``prediction_scaled_logits = "sharper"``); a grade cell then calls a check built here, which
scores the prediction (a few points) and explains the answer, and, when the prediction is a
common wrong one, why it is tempting and where the reasoning slips.

A :class:`Prediction` is one question: its variable, its kind, the right answer, an explanation
and a catalogue of :class:`WrongPrediction` s. Kinds:

* ``"number"``: a real number, right within ``rtol``/``atol`` (``64`` for the variance of q·k);
* ``"choice"``: one of ``options`` (strings compare case-insensitively, without surrounding
  spaces; ints exactly);
* ``"shape"``: a tuple of ints (``(4, 100)``); a bare int stands for a 1-tuple;
* ``"indices"``: a set of ints, in any order, as a set, list, tuple, range or int array
  (``{2, 3}``; ``set()`` for none).

``None`` means "not answered yet" and scores 0.

Predictions are graded like every exercise, through :func:`attnlab.checks._run.run_check`, so
they work split across the course grader's two processes: the sandbox reads the learner's value
with :func:`read_prediction` (a module-level ``invoke``) into plain numbers, and the trusted
grader judges those numbers.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from ._core import Case, Mistake, Outcome, feedback_level
from ._run import run_check

KINDS = ("number", "choice", "shape", "indices")


class NotAnswered(Exception):
    """The prediction is still ``None``."""


class UnreadablePrediction(ValueError):
    """The prediction is not a value of the question's kind."""


@dataclass(frozen=True)
class WrongPrediction:
    """A tempting wrong answer: ``answer`` (of the question's kind), ``name`` (the slip, a few
    words that a message quotes) and ``why`` (where the reasoning goes wrong)."""

    answer: Any
    name: str
    why: str


def _is_int(x: Any) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))


def _describe(value: Any) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"a {type(value).__name__} ({text})"


def read_prediction(value: Any, kind: str, options: tuple = ()) -> np.ndarray:
    """The learner's prediction as plain numbers: a number, the index of the chosen option, a
    shape as an int array, or sorted distinct indices. Raises :class:`NotAnswered` for ``None``
    and :class:`UnreadablePrediction` (a ``ValueError``) for a value of the wrong kind.

    This runs where the learner's code runs (it is the checks' ``invoke``), so it returns
    arrays only.
    """
    if value is None or value is Ellipsis:
        raise NotAnswered("the prediction is still None")
    if type(value).__module__.startswith("torch") and hasattr(value, "tolist"):
        value = value.tolist()  # a tensor or torch.Size: plain numbers from here on
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if kind == "number":
        if isinstance(value, str):
            raise UnreadablePrediction(f"expected a number, got the string {value!r}: write it without quotes")
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise UnreadablePrediction(f"expected a number, got {_describe(value)}")
        return np.array(float(value))
    if kind == "choice":
        for i, option in enumerate(options):
            if isinstance(option, str) and isinstance(value, str):
                if value.strip().lower() == option.lower():
                    return np.array(i)
            elif _is_int(option) and _is_int(value) and int(value) == option:
                return np.array(i)
        listed = ", ".join(repr(o) for o in options)
        return _refuse(f"expected one of {listed}, got {_describe(value) if not isinstance(value, str) else repr(value)}")
    if kind == "shape":
        if _is_int(value):
            value = (int(value),)
        if isinstance(value, (str, bytes, set, frozenset, dict)) or not hasattr(value, "__iter__"):
            raise UnreadablePrediction(f"expected a shape, a tuple of ints such as (4, 100), got {_describe(value)}")
        items = list(value)
        if not all(_is_int(v) and int(v) >= 0 for v in items):
            raise UnreadablePrediction(f"expected a shape, a tuple of non-negative ints, got {value!r}")
        return np.array([int(v) for v in items], dtype=np.int64)
    if kind == "indices":
        if _is_int(value):
            value = {int(value)}
        if isinstance(value, np.ndarray) and value.dtype == bool:
            raise UnreadablePrediction("expected indices, got a boolean mask: give the positions, e.g. "
                                       "{0, 2}, or np.flatnonzero(mask)")
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            raise UnreadablePrediction(f"expected a set of indices such as {{0, 2}} (set() for none), got {_describe(value)}")
        items = list(value)
        if not all(_is_int(v) for v in items):
            raise UnreadablePrediction(f"expected a set of int indices such as {{0, 2}}, got {value!r}")
        return np.array(sorted({int(v) for v in items}), dtype=np.int64)
    raise ValueError(f"kind: expected one of {KINDS}, got {kind!r}")


def _refuse(message: str) -> np.ndarray:
    raise UnreadablePrediction(message)


def _same(kind: str, got: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> bool:
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    if got.shape != expected.shape or not np.isfinite(got).all():
        return False
    if kind == "number":
        return bool(np.allclose(got, expected, rtol=rtol, atol=atol))
    return bool(np.array_equal(got, expected))


@dataclass(frozen=True)
class Prediction:
    """One predict-then-run question. ``check(value)`` grades the learner's value."""

    variable: str
    kind: str
    answer: Any
    explanation: str
    options: tuple = ()
    wrong: tuple[WrongPrediction, ...] = field(default_factory=tuple)
    rtol: float = 0.0
    atol: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind: expected one of {KINDS}, got {self.kind!r}")
        if self.kind == "choice" and len(self.options) < 2:
            raise ValueError(f"{self.variable}: a choice needs at least two options, got {self.options!r}")
        right = self.encode(self.answer)
        for w in self.wrong:
            if _same(self.kind, self.encode(w.answer), right, self.rtol, self.atol):
                raise ValueError(f"{self.variable}: the wrong prediction {w.answer!r} ({w.name}) counts as right")

    def encode(self, value: Any) -> np.ndarray:
        return read_prediction(value, self.kind, tuple(self.options))

    def show(self, encoded: Any) -> str:
        """An encoded prediction as the learner would write it."""
        arr = np.asarray(encoded)
        if self.kind == "number":
            return f"{float(arr):g}"
        if self.kind == "choice":
            return repr(self.options[int(arr)])
        if self.kind == "shape":
            return repr(tuple(int(v) for v in arr.reshape(-1)))
        items = [int(v) for v in arr.reshape(-1)]
        return "{" + ", ".join(map(str, items)) + "}" if items else "set() (no index)"

    def check(self, value: Any, hidden: bool = False) -> None:
        """Grade ``value``; raise :class:`~attnlab.checks.CheckFailure` unless it is right.
        ``hidden`` asks the same question (a prediction has no other inputs)."""
        del hidden  # the same question either way; the grade cells' form asks for the argument
        encoded = {w.name: self.encode(w.answer) for w in self.wrong}
        run_check(
            value, exercise=self.variable, reference=partial(_answer, self),
            cases=[Case((self.kind, tuple(self.options)))],
            mistakes=[Mistake(w.name, w.why, partial(_constant, encoded[w.name])) for w in self.wrong],
            arg_names=("kind", "options"), rtol=self.rtol, atol=self.atol,
            passed=f"right. {self.explanation}", invoke=read_prediction, learner_value=True,
            judge_value=partial(_verdict, self),
        )


def _answer(question: Prediction, kind: str, options: tuple) -> np.ndarray:  # noqa: ARG001
    return question.encode(question.answer)


def _constant(value: np.ndarray, kind: str, options: tuple) -> np.ndarray:  # noqa: ARG001
    return value


def _verdict(question: Prediction, case: Case, got: Outcome) -> str | None:  # noqa: ARG001
    """None if the prediction is right, otherwise what is wrong and why (the trusted side)."""
    var = question.variable
    if got.error == "NotAnswered":
        return (f"{var} is not answered yet: replace None with your prediction, run that cell, "
                "then run this check again (before running the cell that shows the answer).")
    if got.error is not None:
        return f"{var} cannot be read: {got.message or got.error}."
    right = question.encode(question.answer)
    try:
        value = np.asarray(got.value, dtype=float)
    except (TypeError, ValueError):
        return f"{var} cannot be read: expected a {question.kind}."
    if _same(question.kind, value, right, question.rtol, question.atol):
        return None
    try:
        shown = question.show(value)
    except (TypeError, ValueError, IndexError):
        shown = "your value"
    lines = [f"{var} = {shown} is not right."]
    brief = feedback_level() == "mistake-only"  # a graded course: name the slip, not the answer
    for w in question.wrong:
        if _same(question.kind, value, question.encode(w.answer), question.rtol, question.atol):
            lines.append(f"A tempting prediction: {w.name}." + ("" if brief else f" {w.why}"))
            break
    if not brief:
        lines.append(f"The answer is {question.show(right)}. {question.explanation}")
    return "\n".join(lines)
