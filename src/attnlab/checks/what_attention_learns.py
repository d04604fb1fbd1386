"""Checks of notebook 12, what_attention_learns: what its cards (:mod:`attnlab.cards`) share.

Exercises: ``icl_prompt``, ``linear_self_attention``, ``gd_step_prediction``,
``prefix_matching_score``, ``induction_score``, ``soft_align``, and six predict-then-run
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
