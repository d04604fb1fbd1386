"""weighted_average (notebook 01): the weighted sum Σ_i w_i v_i of the rows of ``values``."""
from __future__ import annotations

import numpy as np

from .. import averages as _ref
from ..averages import SIMPLEX_ATOL
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

CARD = Card(
    "weighted_average", "01_weighted_averages",
    summary="the average of the rows of `values`, row i counted with weight w_i",
    contract=Contract(
        args=("values", "weights"), reference=_ref.weighted_average, invoke=invoke_numpy,
        shapes="values (N, D), weights (N,) on the simplex",
        returns="a float array of shape (D,)",
        raises="ValueError when a weight is negative, the weights do not sum to one within 1e-6, "
               "or their number is not the number of rows"),
    mistakes=[
        Mistake(
            "dividing by N (a mean of the weighted rows)",
            principle="Weights on the simplex already sum to one: the weighted sum is the average, "
                      "with no further division.",
            fix="the weights already sum to one, so `Σ_i w_i v_i` needs no division: `weights @ values`.",
            fails=("test_weighted_average",), code='''
                def weighted_average(values, weights):
                    return np.sum(values * weights[:, None], axis=0) / len(weights)
                '''),
        Mistake(
            "weighting the rows but not summing them",
            principle="The answer is one vector of width D: after weighting each row, add the rows up.",
            fix="`values * weights[:, None]` is the list of weighted rows; add them up over the rows "
                "(axis 0) to get one vector of shape (D,).",
            fails=("test_weighted_average",), code='''
                def weighted_average(values, weights):
                    if np.any(weights < 0) or not np.isclose(weights.sum(), 1):
                        raise ValueError("weights off the simplex")
                    return values * weights[:, None]
                '''),
        Mistake(
            "contracting over the feature axis instead of the rows (`values @ weights`)",
            principle="Weight i belongs to row i: contract the weights with the row axis of `values`, "
                      "not the feature axis.",
            fix="the weights index the rows of `values`, so contract over axis 0: `weights @ values`.",
            fails=("test_weighted_average",), code='''
                def weighted_average(values, weights):
                    if np.any(weights < 0) or not np.isclose(weights.sum(), 1):
                        raise ValueError("weights off the simplex")
                    return values @ weights
                '''),
        Mistake(
            "ignoring the weights (a plain mean)",
            principle="Each row must count in proportion to its weight.",
            fix="multiply row i by weights[i] before summing.",
            fails=("test_weighted_average", "test_weighted_average_rejects"), code='''
                def weighted_average(values, weights):
                    return np.mean(values, axis=0)
                '''),
        Mistake(
            "a simplex tolerance looser than the stated 1e-6 (sums just outside it accepted)",
            principle="The prompt states the tolerance of the sum: weights whose sum is further than 1e-6 "
                      "from one are off the simplex and must be rejected.",
            fix="compare the sum with one to within 1e-6 exactly as the prompt states: "
                "`abs(weights.sum() - 1.0) > 1e-6` raises.",
            fails=("test_weighted_average_rejects",), code='''
                def weighted_average(values, weights):
                    values, weights = np.asarray(values, dtype=float), np.asarray(weights, dtype=float)
                    if len(weights) != len(values) or np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-2:
                        raise ValueError("weights off the simplex")
                    return weights @ values
                '''),
        Mistake(
            "a simplex tolerance tighter than the stated 1e-6 (an exact sum required: sums just inside it rejected)",
            principle="Weights computed in floating point rarely sum to one exactly: accept any sum within "
                      "the stated 1e-6 of one.",
            fix="allow the rounding the prompt allows: raise only when `abs(weights.sum() - 1.0) > 1e-6`, "
                "not when the sum differs from 1.0 at all.",
            fails=("test_weighted_average",), code='''
                def weighted_average(values, weights):
                    values, weights = np.asarray(values, dtype=float), np.asarray(weights, dtype=float)
                    if len(weights) != len(values) or np.any(weights < 0) or abs(weights.sum() - 1.0) > 1e-12:
                        raise ValueError("weights off the simplex")
                    return weights @ values
                '''),
        Mistake(
            "accepting weights that are not on the simplex",
            principle="Validate the input: weights must be non-negative and sum to one, else raise ValueError.",
            fix="check that the weights are non-negative and sum to one (within 1e-6) and "
                "`raise ValueError(...)` otherwise.",
            fails=("test_weighted_average_rejects",), code='''
                def weighted_average(values, weights):
                    return weights @ values
                '''),
        Mistake(
            "silently repairing weights that are not on the simplex",
            principle="Bad weights are the caller's bug: reject them with ValueError instead of rescaling.",
            fix="do not rescale bad weights: `raise ValueError(...)` so the caller learns of the bug.",
            fails=("test_weighted_average_rejects",), code='''
                def weighted_average(values, weights):
                    weights = np.abs(weights)
                    return weights @ values / weights.sum()
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(101 if hidden else 1, hidden)
    out = []
    for N, D in ([(5, 5), (7, 3), (1, 4)] if hidden else [(3, 3), (4, 2), (6, 5)]):
        w = rng.dirichlet(np.ones(N))
        out.append(Case((rng.normal(size=(N, D)), w), why="random weights on the simplex"))
    one_hot = np.zeros(4)
    one_hot[2] = 1.0
    out.append(Case((rng.normal(size=(4, 3)), one_hot), why="one-hot weights pick one row"))
    w = rng.dirichlet(np.ones(3))
    out.append(Case((rng.integers(-5, 6, size=(3, 4)), w), why="integer values (the average is floats)"))
    w = rng.dirichlet(np.ones(4))
    w[-1] -= w.sum() - 1.0 + 0.5 * SIMPLEX_ATOL  # just inside the stated tolerance
    out.append(Case((rng.normal(size=(4, 2)), w), why="weights summing to 1 - 5e-7, inside the stated 1e-6"))
    return out


def bad_cases(hidden: bool) -> list[Case]:
    rng = case_rng(102 if hidden else 2, hidden)
    values = rng.normal(size=(3, 4))  # D = 4: a count of weights checked against D is not the rows
    return [
        Case((values, np.array([0.5, 0.4, 0.4])), why="weights summing to 1.3", raises=ValueError),
        Case((values, np.array([1.5, -0.25, -0.25])), why="a negative weight", raises=ValueError),
        Case((values, np.array([0.7, 0.3])), why="3 rows but 2 weights", raises=ValueError),
        Case((values, np.array([0.5, 0.3, 0.2 + 3 * SIMPLEX_ATOL])),
             why="weights summing to 1 + 3e-6, just outside the stated 1e-6", raises=ValueError),
    ]


def check_weighted_average(weighted_average, hidden: bool = False) -> None:
    """Check that ``weighted_average(values, weights)`` returns ``Σ_i w_i v_i`` of shape (D,)."""
    CARD.check(weighted_average, cases(hidden), hidden=hidden, passed="weighted sums match")


def check_weighted_average_rejects(weighted_average, hidden: bool = False) -> None:
    """Check that ``weighted_average`` raises ``ValueError`` for weights off the simplex."""
    CARD.check(weighted_average, bad_cases(hidden), hidden=hidden,
               passed="bad weights are rejected with ValueError")
