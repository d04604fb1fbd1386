"""Checks of notebook 12, what_attention_learns, from its cards (:mod:`attnlab.cards`).

Exercises: ``icl_prompt``, ``linear_self_attention``, ``gd_step_prediction``,
``previous_token_score``, ``prefix_matching_score``, ``soft_align``, and two predict-then-run
questions. Each card holds its cases, checks and mistakes; this module holds what the two
attention-pattern cards share: the random attention weights of their cases.

Prompts have ``N``, ``d`` and the batch sizes all different, preconditioners and weight matrices
are not symmetric, and attention weights are random rows that sum to one (not causal), so that
every catalogued mistake gives another answer.
"""
from __future__ import annotations

from ..averages import softmax as _softmax


def softmax_rows(rng, shape):
    """Random attention weights of ``shape`` (..., L, L): rows that sum to one, not causal."""
    return _softmax(2.0 * rng.normal(size=shape), axis=-1)


# ---------------------------------------------------------------------------------------------
# The checks, from the cards (imported last: the cards import the machinery above)

from ..cards.gd_step_prediction import check_gd_step_prediction  # noqa: E402
from ..cards.icl_prompt import check_icl_prompt  # noqa: E402
from ..cards.linear_self_attention import check_linear_self_attention  # noqa: E402
from ..cards.prediction_beats_least_squares import check_prediction_beats_least_squares  # noqa: E402
from ..cards.prediction_reversed_hypothesis import check_prediction_reversed_hypothesis  # noqa: E402
from ..cards.prefix_matching_score import check_prefix_matching_score  # noqa: E402
from ..cards.previous_token_score import check_previous_token_score  # noqa: E402
from ..cards.soft_align import check_soft_align  # noqa: E402

__all__ = [
    "check_gd_step_prediction", "check_icl_prompt", "check_linear_self_attention",
    "check_prediction_beats_least_squares", "check_prediction_reversed_hypothesis",
    "check_prefix_matching_score", "check_previous_token_score", "check_soft_align",
]
