"""Checks that the notebooks' grade cells call.

``check_x(learner_fn)`` runs the learner's function on fixed and random inputs against the
reference; when it is wrong it raises :class:`CheckFailure` (an ``AssertionError``) whose
message names the input, the difference, the known mistake the answer looks like, and the fix.
``hidden=True`` runs the inputs that nbgrader's hidden tests use.
"""
from ._core import Case, CheckFailure, Mistake, run_check
from .weighted_averages import (
    check_mix_tokens, check_mix_tokens_batched, check_softmax, check_softmax_stable,
    check_weighted_average, check_weighted_average_rejects,
)

__all__ = [
    "Case", "CheckFailure", "Mistake", "run_check",
    "check_mix_tokens", "check_mix_tokens_batched", "check_softmax", "check_softmax_stable",
    "check_weighted_average", "check_weighted_average_rejects",
]
