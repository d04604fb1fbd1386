"""Checks that the notebooks' grade cells call.

``check_x(learner_fn)`` runs the learner's function on fixed and random inputs against the
reference; when it is wrong it raises :class:`CheckFailure` (an ``AssertionError``) whose
message names the input, the difference, the known mistake the answer looks like, and the fix.
``hidden=True`` runs the inputs that nbgrader's hidden tests use. ``check_prediction_x(value)``
grades a predict-then-run answer (see :mod:`attnlab.checks._predict`).

The layers, each importing only those above it: :mod:`._core` (values, comparison, the
catalogue's matching), the diagnosis layers (:mod:`._contract`, :mod:`._relations`,
:mod:`._generated`, :mod:`._divergence`), :mod:`._run` (a check, start to end), then each
notebook's shared inputs (``checks/<notebook>.py``) and the cards (:mod:`attnlab.cards`), which
define the ``check_*`` functions. This package finds a check in its card when it is first asked
for (``from attnlab.checks import check_softmax``), so the cards can import the machinery here.
"""
from __future__ import annotations

import importlib

from ._core import Case, CheckFailure, CheckRaised, Mistake, Outcome, feedback_level
from ._explain import explain
from ._predict import Prediction, WrongPrediction
from ._run import CheckSpec, SpecRecorded, SpecRecorder, run_check

_MACHINERY = [
    "Case", "CheckFailure", "CheckRaised", "CheckSpec", "Mistake", "Outcome", "SpecRecorded", "SpecRecorder",
    "explain", "feedback_level", "run_check", "Prediction", "WrongPrediction",
]
_CHECKS: dict[str, str] | None = None  # check name -> the card module that defines it


def _checks() -> dict[str, str]:
    global _CHECKS
    if _CHECKS is None:
        # (imported on first use: the cards import this package's machinery)
        from .. import cards

        found = {}
        for module in cards.modules():
            for name, value in vars(module).items():
                if name.startswith("check_") and callable(value):
                    found.setdefault(name, module.__name__)
        _CHECKS = found
    return _CHECKS


def __getattr__(name: str):
    if name == "__all__":
        return _MACHINERY + sorted(_checks())
    where = _checks().get(name) if name.startswith("check_") else None
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MACHINERY) | set(_checks()))
