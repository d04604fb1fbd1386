"""Checks for notebook 01, weighted_averages: ``weighted_average``, ``softmax``, ``mix_tokens``,
and its predict-then-run questions.

Each check takes the learner's function and ``hidden=False``; nbgrader's hidden tests call it
with ``hidden=True``, which draws other inputs (other seeds and shapes) than the visible ones.
"""
from __future__ import annotations

import numpy as np

from .. import averages as _ref
from ..averages import SIMPLEX_ATOL
from ._contract import invoke_numpy
from ._core import Case, Mistake, case_rng, run_check
from ._predict import Prediction, WrongPrediction

# ---------------------------------------------------------------------------------------------
# weighted_average

def _wa_mean(values, weights):
    return weights @ values / len(weights)


def _wa_no_sum(values, weights):
    return values * weights[:, None]


def _wa_wrong_axis(values, weights):
    return values @ weights


def _wa_uniform(values, weights):
    return values.mean(axis=0)


def _wa_no_validation(values, weights):
    return np.asarray(weights) @ np.asarray(values)


def _wa_renormalises(values, weights):
    weights = np.abs(weights)
    return weights @ values / weights.sum()


def _wa_tolerance(values, weights, atol):
    values, weights = np.asarray(values, dtype=float), np.asarray(weights, dtype=float)
    if len(weights) != len(values) or np.any(weights < 0) or abs(weights.sum() - 1.0) > atol:
        raise ValueError("weights off the simplex")
    return weights @ values


def _wa_loose(values, weights):
    return _wa_tolerance(values, weights, 1e-2)


def _wa_strict(values, weights):
    return _wa_tolerance(values, weights, 1e-12)


WEIGHTED_AVERAGE_MISTAKES = [
    Mistake("dividing by N (a mean of the weighted rows)",
            "the weights already sum to one, so `Σ_i w_i v_i` needs no division: `weights @ values`.",
            _wa_mean),
    Mistake("weighting the rows but not summing them",
            "`values * weights[:, None]` is the list of weighted rows; add them up over the rows "
            "(axis 0) to get one vector of shape (D,).", _wa_no_sum),
    Mistake("contracting over the feature axis instead of the rows (`values @ weights`)",
            "the weights index the rows of `values`, so contract over axis 0: `weights @ values`.",
            _wa_wrong_axis),
    Mistake("ignoring the weights (a plain mean)",
            "multiply row i by weights[i] before summing.", _wa_uniform),
    Mistake("a simplex tolerance looser than the stated 1e-6: weights summing to 1 + 3e-6 are "
            "accepted",
            "compare the sum with one to within 1e-6 exactly as the prompt states: "
            "`abs(weights.sum() - 1.0) > 1e-6` raises.", _wa_loose,
            "The prompt states the tolerance of the sum: weights whose sum is further than 1e-6 "
            "from one are off the simplex and must be rejected."),
    Mistake("a simplex tolerance tighter than the stated 1e-6 (an exact sum): weights summing to "
            "1 - 5e-7 are rejected",
            "allow the rounding the prompt allows: raise only when `abs(weights.sum() - 1.0) > 1e-6`, "
            "not when the sum differs from 1.0 at all.", _wa_strict,
            "Weights computed in floating point rarely sum to one exactly: accept any sum within "
            "the stated 1e-6 of one."),
    Mistake("accepting weights that are not on the simplex",
            "check that the weights are non-negative and sum to one (within 1e-6) and "
            "`raise ValueError(...)` otherwise.", _wa_no_validation),
    Mistake("silently repairing weights that are not on the simplex",
            "do not rescale bad weights: `raise ValueError(...)` so the caller learns of the bug.",
            _wa_renormalises),
]


def _wa_cases(hidden: bool) -> list[Case]:
    rng = case_rng(101 if hidden else 1, hidden)
    cases = []
    for N, D in ([(5, 5), (7, 3), (1, 4)] if hidden else [(3, 3), (4, 2), (6, 5)]):
        w = rng.dirichlet(np.ones(N))
        cases.append(Case((rng.normal(size=(N, D)), w), why="random weights on the simplex"))
    one_hot = np.zeros(4)
    one_hot[2] = 1.0
    cases.append(Case((rng.normal(size=(4, 3)), one_hot), why="one-hot weights pick one row"))
    w = rng.dirichlet(np.ones(3))
    cases.append(Case((rng.integers(-5, 6, size=(3, 4)), w), why="integer values (the average is floats)"))
    w = rng.dirichlet(np.ones(4))
    w[-1] -= w.sum() - 1.0 + 0.5 * SIMPLEX_ATOL  # just inside the stated tolerance
    cases.append(Case((rng.normal(size=(4, 2)), w), why="weights summing to 1 - 5e-7, inside the stated 1e-6"))
    return cases


def _wa_bad_cases(hidden: bool) -> list[Case]:
    rng = case_rng(102 if hidden else 2, hidden)
    values = rng.normal(size=(3, 2))
    return [
        Case((values, np.array([0.5, 0.4, 0.4])), why="weights summing to 1.3", raises=ValueError),
        Case((values, np.array([1.5, -0.25, -0.25])), why="a negative weight", raises=ValueError),
        Case((values, np.array([0.7, 0.3])), why="3 rows but 2 weights", raises=ValueError),
        Case((values, np.array([0.5, 0.3, 0.2 + 3 * SIMPLEX_ATOL])),
             why="weights summing to 1 + 3e-6, just outside the stated 1e-6", raises=ValueError),
    ]


def check_weighted_average(weighted_average, hidden: bool = False) -> None:
    """Check that ``weighted_average(values, weights)`` returns ``Σ_i w_i v_i`` of shape (D,)."""
    run_check(weighted_average, exercise="weighted_average", reference=_ref.weighted_average,
              cases=_wa_cases(hidden), mistakes=WEIGHTED_AVERAGE_MISTAKES,
              arg_names=("values", "weights"), show_values=not hidden,
              passed="weighted sums match",
              invoke=invoke_numpy)


def check_weighted_average_rejects(weighted_average, hidden: bool = False) -> None:
    """Check that ``weighted_average`` raises ``ValueError`` for weights off the simplex."""
    run_check(weighted_average, exercise="weighted_average", reference=_ref.weighted_average,
              cases=_wa_bad_cases(hidden), mistakes=WEIGHTED_AVERAGE_MISTAKES,
              arg_names=("values", "weights"), show_values=not hidden,
              passed="bad weights are rejected with ValueError",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# softmax

def _sm_axis0(x, axis=-1):
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)


def _sm_ignores_axis(x, axis=-1):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _sm_no_max(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def _sm_global_max(x, axis=-1):
    e = np.exp(x - x.max())
    return e / e.sum(axis=axis, keepdims=True)


def _sm_global_sum(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum()


def _sm_no_keepdims(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis)


def _sm_no_exp(x, axis=-1):
    return x / x.sum(axis=axis, keepdims=True)


def _sm_unnormalised(x, axis=-1):
    return np.exp(x - x.max(axis=axis, keepdims=True))


SOFTMAX_MISTAKES = [
    Mistake("a softmax over axis 0 instead of the `axis` argument",
            "pass `axis=axis, keepdims=True` to both the max and the sum.", _sm_axis0),
    Mistake("ignoring the `axis` argument (always the last axis)",
            "use the `axis` argument in the max and the sum instead of -1.", _sm_ignores_axis),
    Mistake("no max subtraction: exp overflows for large logits (inf / inf = NaN)",
            "subtract `x.max(axis=axis, keepdims=True)` before `np.exp`; it cancels in the ratio.",
            _sm_no_max),
    Mistake("subtracting the maximum of the whole array instead of each row's maximum",
            "use `x.max(axis=axis, keepdims=True)`: with one global max, a row far below it "
            "underflows to 0 / 0.", _sm_global_max),
    Mistake("normalising by the sum of the whole array",
            "sum along `axis` with `keepdims=True`, so that each row sums to one.", _sm_global_sum),
    Mistake("a sum without `keepdims=True` (it broadcasts against the wrong axis)",
            "write `e.sum(axis=axis, keepdims=True)` so the sum lines up with the rows it divides.",
            _sm_no_keepdims),
    Mistake("no exponential (dividing the scores by their sum)",
            "exponentiate first: weights must be positive even for negative scores.", _sm_no_exp),
    Mistake("no normalisation (the exponentials do not sum to one)",
            "divide the exponentials by their sum along `axis`.", _sm_unnormalised),
]


def _sm_cases(hidden: bool) -> list[Case]:
    rng = case_rng(111 if hidden else 11, hidden)
    shapes = [(3, 3), (2, 5), (4,)] if hidden else [(4, 4), (3, 6), (5,)]
    cases = [Case((rng.normal(size=s),), why="random scores") for s in shapes]
    cases.append(Case((rng.normal(size=(3, 3)),), {"axis": 0}, why="normalising the columns"))
    cases.append(Case((rng.normal(size=(2, 3, 4)),), {"axis": 1}, why="a middle axis"))
    return cases


def _sm_stable_cases(hidden: bool) -> list[Case]:
    rng = case_rng(112 if hidden else 12, hidden)
    big = np.array([[1e4, -1e4, 0.0, 5e3], [900.0, 1000.0, 1000.0, -1e4]])
    scales = np.stack([rng.normal(size=5) * 3 + 1e4, rng.normal(size=5) * 3 - 1e4])
    if hidden:
        big = big[:, ::-1].copy()
        scales = scales[::-1].copy()
    return [
        Case((big,), why="logits of +-1e4"),
        Case((scales,), why="rows of very different scale: one near +1e4, one near -1e4"),
        Case((rng.normal(size=6 if hidden else 5) * 3 + 1e4,), why="a 1-D vector of logits near 1e4"),
        Case((rng.normal(size=(2, 3, 4)) * 3 - 1e4,), {"axis": 1}, why="a batch of logits near -1e4, axis=1"),
    ]


def check_softmax(softmax, hidden: bool = False) -> None:
    """Check that ``softmax(x, axis)`` normalises along ``axis`` for any shape."""
    run_check(softmax, exercise="softmax", reference=_ref.softmax, cases=_sm_cases(hidden),
              mistakes=SOFTMAX_MISTAKES, arg_names=("x",), show_values=not hidden,
              passed="matches the reference along any axis",
              invoke=invoke_numpy)


def check_softmax_stable(softmax, hidden: bool = False) -> None:
    """Check that ``softmax`` stays finite and exact for logits of +-1e4."""
    run_check(softmax, exercise="softmax", reference=_ref.softmax, cases=_sm_stable_cases(hidden),
              mistakes=SOFTMAX_MISTAKES, arg_names=("x",), show_values=not hidden,
              passed="stable for logits of +-1e4",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# mix_tokens

def _mt_axis0(X):
    return _ref.softmax(X @ np.swapaxes(X, -1, -2), axis=-2) @ X


def _mt_no_softmax(X):
    return (X @ np.swapaxes(X, -1, -2)) @ X


def _mt_scaled(X):
    return _ref.softmax(X @ np.swapaxes(X, -1, -2) / np.sqrt(X.shape[-1])) @ X


def _mt_features(X):
    return X @ _ref.softmax(np.swapaxes(X, -1, -2) @ X)


def _mt_weights(X):
    return _ref.softmax(X @ np.swapaxes(X, -1, -2))


def _mt_dot_T(X):
    return _ref.softmax(X @ X.T) @ X


def _mt_global_softmax(X):
    S = X @ np.swapaxes(X, -1, -2)
    flat = S.reshape(*S.shape[:-2], -1)
    return _ref.softmax(flat).reshape(S.shape) @ X


def _mt_no_max(X):
    e = np.exp(X @ np.swapaxes(X, -1, -2))  # no shift: exp(1e4) = inf
    return e / e.sum(axis=-1, keepdims=True) @ X


MIX_TOKENS_MISTAKES = [
    Mistake("a softmax over the columns (axis 0) of X Xᵀ",
            "each query row must sum to one: take the softmax over the last axis.", _mt_axis0),
    Mistake("no softmax: X Xᵀ X",
            "turn the similarities into weights with `softmax(X @ X.T)` first.", _mt_no_softmax),
    Mistake("scaling the scores by √D",
            "this exercise is the unscaled form `softmax(X Xᵀ) X`; the 1/√d scale comes in "
            "notebook 02.", _mt_scaled),
    Mistake("mixing features instead of tokens (Xᵀ X)",
            "the weights compare tokens (rows) with tokens: X Xᵀ is (L, L); then multiply by X.",
            _mt_features),
    Mistake("returning the attention weights instead of the mixed tokens",
            "multiply the (L, L) weights by X to get the (L, D) output.", _mt_weights),
    Mistake("`X.T` on a batch: it reverses every axis",
            "use `np.swapaxes(X, -1, -2)` (or `X.swapaxes(-1, -2)`), which swaps only the last "
            "two axes and so works with leading batch dimensions.", _mt_dot_T),
    Mistake("one softmax over the whole matrix instead of one per row",
            "normalise each row of X Xᵀ separately: softmax over the last axis.", _mt_global_softmax),
    Mistake("a softmax of X Xᵀ without the max subtraction: exp overflows for large tokens (inf / inf = NaN)",
            "use a stable softmax (`attnlab.softmax`, or subtract each row's maximum before `np.exp`).",
            _mt_no_max, "Shift each row of scores by its maximum before exponentiating; the shift "
            "cancels in the ratio and keeps exp below overflow."),
]


def _mt_cases(hidden: bool) -> list[Case]:
    rng = case_rng(121 if hidden else 21, hidden)
    shapes = [(5, 3), (2, 4), (6, 6)] if hidden else [(4, 3), (3, 5), (5, 5)]
    cases = [Case((rng.normal(size=s) * 0.7,), why="random tokens") for s in shapes]
    cases.append(Case((rng.normal(size=(3, 4) if hidden else (4, 3)) * 60,),
                      why="long tokens: scores X Xᵀ of about 1e4"))
    return cases


def _mt_batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(122 if hidden else 22, hidden)
    shapes = [(3, 4, 2), (2, 2, 3, 5)] if hidden else [(2, 4, 3), (3, 2, 5, 4)]
    return [Case((rng.normal(size=s) * 0.7,), why="a batch of sequences") for s in shapes]


def check_mix_tokens(mix_tokens, hidden: bool = False) -> None:
    """Check that ``mix_tokens(X)`` returns ``softmax(X Xᵀ) X`` for one sequence ``(L, D)``."""
    run_check(mix_tokens, exercise="mix_tokens", reference=_ref.mix_tokens,
              cases=_mt_cases(hidden), mistakes=MIX_TOKENS_MISTAKES, arg_names=("X",),
              show_values=not hidden, passed="mixes the tokens of one sequence",
              invoke=invoke_numpy)


def check_mix_tokens_batched(mix_tokens, hidden: bool = False) -> None:
    """Check that ``mix_tokens`` also works on a batch ``(..., L, D)``."""
    run_check(mix_tokens, exercise="mix_tokens", reference=_ref.mix_tokens,
              cases=_mt_batched_cases(hidden), mistakes=MIX_TOKENS_MISTAKES, arg_names=("X",),
              show_values=not hidden, passed="works on batches",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# Predict, then run

SCALED_LOGITS = Prediction(
    "prediction_scaled_logits", "choice", "sharper",
    "The softmax depends only on the gaps between scores: the ratio of two weights is "
    "w_i / w_j = exp(x_i - x_j). Multiplying every score by 10 makes every gap ten times larger, "
    "so each ratio is raised to the 10th power and the largest score takes almost all the weight "
    "(here 0.9999...). Scaling the scores by 10 is a temperature of τ = 0.1.",
    options=("sharper", "flatter", "unchanged"),
    wrong=(
        WrongPrediction("unchanged", "softmax ignores a common factor",
                        "The softmax ignores a constant *added* to every score (shift invariance), "
                        "not a constant factor: exp(10 x_i) / Σ_j exp(10 x_j) is a different vector."),
        WrongPrediction("flatter", "larger scores spread the weight",
                        "Larger scores do not spread the weight; larger *gaps* concentrate it. "
                        "The normalisation divides out a common factor only for x / Σ x, not "
                        "for exponentials."),
    ),
)


def check_prediction_scaled_logits(prediction_scaled_logits, hidden: bool = False) -> None:
    """Check the prediction of what multiplying the scores by 10 does to the softmax weights."""
    SCALED_LOGITS.check(prediction_scaled_logits, hidden=hidden)


HUGE_SCORES = Prediction(
    "prediction_huge_scores", "number", float(np.exp(2) / (1 + np.e + np.exp(2))),
    "Only the gaps between scores matter (shift invariance): softmax([1000, 1001, 1002]) = "
    "softmax([0, 1, 2]), whose largest weight is e² / (1 + e + e²) ≈ 0.665. The formula as "
    "written computes e^1000, which overflows to inf and returns nan; subtracting the maximum "
    "first gives the exact answer.",
    atol=0.006,
    wrong=(
        WrongPrediction(1.0, "the largest score takes all the weight",
                        "Large scores do not make the softmax sharper; large *gaps* do, and these "
                        "gaps are only 1 and 2."),
        WrongPrediction(1 / 3, "nearly equal scores give nearly equal weights",
                        "1000 and 1002 are close relative to their size, but the softmax does not "
                        "look at ratios of scores: exp(1002) / exp(1000) = e² ≈ 7.4."),
        WrongPrediction(0.0, "the exponentials overflow, so the weight is lost",
                        "That is a failure of the computation, not of the mathematics: the exact "
                        "value is well defined, and a stable softmax computes it."),
    ),
)


def check_prediction_huge_scores(prediction_huge_scores, hidden: bool = False) -> None:
    """Check the prediction of the largest weight of softmax([1000, 1001, 1002])."""
    HUGE_SCORES.check(prediction_huge_scores, hidden=hidden)


THE_ATTENDS_TO = Prediction(
    "prediction_the_attends_to", "choice", "dog",
    "The row of \"the\" holds softmax of its dot products with every word: cat 0.57, dog 0.60, "
    "car 0.39, the 0.27 (weights 0.28, 0.29, 0.23, 0.20). \"the\" = [0.3, 0.3, 0.3] points "
    "a little along every feature, so the word with the largest sum of features wins; \"dog\" "
    "edges out \"cat\" thanks to its small third feature. The weights are close to uniform: a "
    "short vector gives small scores, and small scores give a flat softmax.",
    options=("cat", "dog", "car", "the"),
    wrong=(
        WrongPrediction("the", "every token attends most to itself",
                        "x·x = |x|² is the largest score only for a token whose norm is large; "
                        "\"the\" is short, |the|² = 0.27, the smallest score in its row."),
        WrongPrediction("cat", "cat and dog are alike, so take the first",
                        "They nearly tie (0.57 against 0.60), but \"dog\" has a little of the third "
                        "feature, which \"the\" also has."),
        WrongPrediction("car", "the longest vector wins",
                        "\"car\" has the largest norm, but it points along the third feature only, "
                        "so its dot product with [0.3, 0.3, 0.3] is 0.39."),
    ),
)


def check_prediction_the_attends_to(prediction_the_attends_to, hidden: bool = False) -> None:
    """Check the prediction of which word "the" gives the largest weight in softmax(X Xᵀ)."""
    THE_ATTENDS_TO.check(prediction_the_attends_to, hidden=hidden)
