"""absorb_bias (notebook 03): the bias of a linear map folded into its weights as one more row,
the second half of the bias trick (``append_ones(X) @ absorb_bias(W, b) == X @ W + b``)."""
from __future__ import annotations

from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ..self_attention import absorb_bias as _reference
from ._card import Card, Contract

_FAILS = ("test_absorb_bias",)

CARD = Card(
    "absorb_bias", "03_self_attention",
    summary="W with b stacked under it as a last row, to meet append_ones' column of ones",
    contract=Contract(
        args=("W", "b"), reference=_reference, invoke=invoke_numpy,
        shapes="W (D, M) the weights (in, out), b (M,) the bias",
        returns="a float array of shape (D+1, M): W on top, b as the last row"),
    mistakes=[
        Mistake(
            "b as the first row instead of the last",
            principle="The bias row pairs with the ones column, which is last: b is the last row.",
            fix="append_ones puts the ones in the *last* column, so b must be the *last* row: "
                "`np.vstack([W, b])`.",
            fails=_FAILS, code='''
                def absorb_bias(W, b):
                    return np.vstack([b, W])
                '''),
        Mistake(
            "the result transposed: shape (M, D+1) instead of (D+1, M)",
            principle="Keep W's orientation (in, out): one extra input row, shape (D+1, M).",
            fix="keep W's layout (in, out) = (D, M) and add b as one more row: `np.vstack([W, b])`.",
            fails=_FAILS, code='''
                def absorb_bias(W, b):
                    return np.hstack([W.T, b[:, None]])
                '''),
        Mistake(
            "b added to W instead of stacked under it",
            principle="The bias becomes one extra row of the weights, not an addition to every row.",
            fix="`W + b` adds b to every row; the bias needs a row of its own: `np.vstack([W, b])`.",
            fails=_FAILS, code='''
                def absorb_bias(W, b):
                    return W + b
                '''),
        Mistake(
            "a flat array (`np.append` without an axis)",
            principle="Keep the result two-dimensional: stack b as a row.",
            fix="`np.append` flattens; stack along the rows: `np.vstack([W, b])` or "
                "`np.concatenate([W, b[None, :]], axis=0)`.",
            fails=_FAILS, code='''
                def absorb_bias(W, b):
                    return np.append(W, b)
                '''),
        Mistake(
            "b appended as a column instead of a row",
            principle="The extra input (the ones feature) adds a row to an (in, out) matrix.",
            fix="b has one entry per *output* (M of them): it is a new row under W, `np.vstack([W, b])`.",
            fails=_FAILS, code='''
                def absorb_bias(W, b):
                    return np.column_stack([W, b])
                '''),
        # a row of zeros and a row of ones give different answers: one mistake each (a card names each once)
        Mistake(
            "a row of zeros instead of b",
            principle="The extra row must hold the bias itself.",
            fix="the new last row is the bias itself: `np.vstack([W, b])`.",
            fails=_FAILS, code='''
                def absorb_bias(W, b):
                    return np.vstack([W, np.zeros(W.shape[1])])
                '''),
        Mistake(
            "a row of ones instead of b",
            principle="The extra row must hold the bias itself.",
            fix="the new last row is the bias itself: `np.vstack([W, b])`.",
            fails=_FAILS, code='''
                def absorb_bias(W, b):
                    return np.vstack([W, np.ones(W.shape[1])])
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(321 if hidden else 91, hidden)
    shapes = [(5, 3), (2, 6), (4, 4)] if hidden else [(3, 5), (6, 2), (4, 4)]
    return [Case((rng.normal(size=(D, M)), rng.normal(size=M)), why="weights (D, M) and a bias (M,)")
            for D, M in shapes]


def check_absorb_bias(absorb_bias, hidden: bool = False) -> None:
    """Check that ``absorb_bias(W, b)`` returns ``(D+1, M)`` with ``b`` as the last row."""
    CARD.check(absorb_bias, cases(hidden), hidden=hidden, passed="b is the last row of a (D+1, M) matrix")
