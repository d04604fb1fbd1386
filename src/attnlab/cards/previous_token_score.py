"""previous_token_score (notebook 12): how much a head attends to the previous token, averaged
over the positions that have one and over the leading axes."""
from __future__ import annotations

from .. import learned as _ref
from ..checks._core import Case, Mistake, case_rng
from ..checks.what_attention_learns import softmax_rows
from ._card import Card, Contract

_FAILS = ("test_previous_token_score",)

CARD = Card(
    "previous_token_score", "12_what_attention_learns",
    summary="the mean weight a position gives to the position just before it, over the positions and the batch",
    contract=Contract(
        args=("weights",), reference=_ref.previous_token_score,
        shapes="weights (..., L, L): one head's attention weights (rows sum to one), L >= 2",
        returns="a float: the weight each position gives to the position just before it, averaged "
                "over every position that has one and over the leading axes"),
    mistakes=[
        Mistake(
            "the score read one diagonal off: weights[t, t+1] (the next token) instead of weights[t, t-1]",
            principle="Row t holds what token t attends to; the previous token is column t−1, the "
                      "diagonal just below the main one.",
            fix="`np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)`: below the main diagonal.",
            fails=_FAILS, code='''
                def previous_token_score(weights):
                    return float(np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean())
                '''),
        Mistake(
            "the score read one diagonal off: weights[t, t] (the token itself)",
            principle="Attention to itself is the main diagonal; the previous token is one column to the left.",
            fix="take the diagonal below the main one: offset −1.",
            fails=_FAILS, code='''
                def previous_token_score(weights):
                    return float(np.diagonal(weights, axis1=-2, axis2=-1).mean())
                '''),
        Mistake(
            "the score read one diagonal off: weights[t, t-2]",
            principle="The previous token is one step back, not two.",
            fix="the previous token is column t−1: offset −1.",
            fails=_FAILS, code='''
                def previous_token_score(weights):
                    return float(np.diagonal(weights, offset=-2, axis1=-2, axis2=-1).mean())
                '''),
        Mistake(
            "a sum instead of a mean",
            principle="A score between 0 and 1 that does not grow with L: average the weights.",
            fix="average over the L−1 positions (and the leading axes).",
            fails=_FAILS, code='''
                def previous_token_score(weights):
                    return float(np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum())
                '''),
        Mistake(
            "only the first matrix of a batch used",
            principle="The score averages over the whole batch (and heads) as well as over positions.",
            fix="average over every leading axis too.",
            fails=_FAILS, code='''
                def previous_token_score(weights):
                    W = weights.reshape(-1, *weights.shape[-2:])[0]
                    return float(np.diagonal(W, offset=-1).mean())
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(124, hidden)
    shapes = [(6, 6), (2, 5, 5), (3, 2, 4, 4), (2, 2)] if hidden else [(5, 5), (3, 7, 7), (2, 3, 6, 6), (2, 2)]
    return [Case((softmax_rows(rng, s),), why=f"softmax rows {s}" + (", one previous token only" if s[-1] == 2 else ""))
            for s in shapes]


def check_previous_token_score(previous_token_score, hidden: bool = False) -> None:
    """Check ``previous_token_score(weights)``: the mean weight on the previous position."""
    CARD.check(previous_token_score, cases(hidden), hidden=hidden,
               passed="the mean weight on the previous token, over positions and batch")
