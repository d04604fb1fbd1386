"""prefix_matching_score (notebook 12): how much a head attends to the token after the previous
occurrence of the current one (one period back), averaged over the positions t >= period."""
from __future__ import annotations

from .. import learned as _ref
from ..checks._core import Case, Mistake, case_rng
from ..checks.what_attention_learns import softmax_rows
from ._card import Card, Contract

_FAILS = ("test_prefix_matching_score",)

CARD = Card(
    "prefix_matching_score", "12_what_attention_learns",
    summary="an induction head's score: the mean weight on the token after the previous occurrence",
    contract=Contract(
        args=("weights", "period"), reference=_ref.prefix_matching_score,
        shapes="weights (..., L, L): one head's attention weights; the sequence repeats with "
               "period 1 <= period < L",
        returns="a float: the weight on the token after the previous occurrence of the current "
                "one (one period back), averaged over the positions t >= period and the leading axes"),
    mistakes=[
        Mistake(
            "the period off by one: weights[t, t-period] (the previous occurrence itself, not the token after it)",
            principle="An induction head copies what came next last time: the token after the previous "
                      "occurrence, one column to the right of it.",
            fix="the induction head attends to the token that followed the previous occurrence: column "
                "t − period + 1.",
            fails=_FAILS, code='''
                def prefix_matching_score(weights, period):
                    t = np.arange(period, weights.shape[-1])
                    return float(weights[..., t, t - period].mean())
                '''),
        Mistake(
            "the period off by one: weights[t, t-period+2]",
            principle="The previous occurrence of token t is at t − period; the token after it at t − period + 1.",
            fix="the token after the previous occurrence is column t − period + 1.",
            fails=_FAILS, code='''
                def prefix_matching_score(weights, period):
                    t = np.arange(period, weights.shape[-1])
                    return float(weights[..., t, t - period + 2].mean())
                '''),
        Mistake(
            "the mean started at t = period-1 instead of t = period (a position of the first copy included)",
            principle="Only tokens of the second copy have a previous occurrence: start at t = period.",
            fix="average over t = period .. L−1 only: the positions of the repeat.",
            fails=_FAILS, code='''
                def prefix_matching_score(weights, period):
                    t = np.arange(period - 1, weights.shape[-1])
                    return float(weights[..., t, t - period + 1].mean())
                '''),
        Mistake(
            "a sum instead of a mean",
            principle="A score between 0 and 1: average the weights.",
            fix="average over the positions t = period .. L−1 (and the leading axes).",
            fails=_FAILS, code='''
                def prefix_matching_score(weights, period):
                    t = np.arange(period, weights.shape[-1])
                    return float(weights[..., t, t - period + 1].sum())
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(125, hidden)
    specs = [((8, 8), 4), ((2, 7, 7), 3), ((3, 2, 6, 6), 2), ((5, 5), 4)] if hidden else \
        [((8, 8), 4), ((3, 9, 9), 4), ((2, 3, 6, 6), 3), ((5, 5), 2), ((4, 4), 3)]
    return [Case((softmax_rows(rng, s), p), why=f"softmax rows {s}, period {p}") for s, p in specs]


def check_prefix_matching_score(prefix_matching_score, hidden: bool = False) -> None:
    """Check ``prefix_matching_score(weights, period)``: the mean weight on the token after the
    previous occurrence of the current one."""
    CARD.check(prefix_matching_score, cases(hidden), hidden=hidden,
               passed="the mean weight on the token after the previous occurrence, over the repeat")
