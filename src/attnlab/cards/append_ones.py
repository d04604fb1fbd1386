"""append_ones (notebook 03): a feature that is always 1 appended to every token, the first half
of the bias trick (``append_ones(X) @ absorb_bias(W, b) == X @ W + b``)."""
from __future__ import annotations

from ..self_attention import append_ones as _reference
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example

_BOTH = ("test_append_ones", "test_append_ones_batched")

CARD = Card(
    "append_ones", "03_self_attention",
    summary="X with a column of ones as its last column: every token gets a constant feature 1",
    contract=Contract(
        args=("X",), reference=_reference, invoke=invoke_numpy,
        shapes="X (..., L, D): one sequence or a batch",
        returns="a float array of shape (..., L, D+1), X with a last column of ones"),
    mistakes=[
        Mistake(
            "ones prepended (the first column) instead of appended (the last)",
            principle="The column of ones goes after the features, as the last column.",
            fix="put the ones *after* the features: `np.concatenate([X, ones], axis=-1)`; "
                "absorb_bias puts b in the last row to meet them.",
            fails=_BOTH, code='''
                def append_ones(X):
                    return np.concatenate([np.ones(X.shape[:-1] + (1,)), X], axis=-1)
                '''),
        Mistake(
            "`np.hstack` / `axis=1`: right for one sequence (L, D), wrong for a batch (..., L, D)",
            principle="The new column belongs on the feature axis, the last axis, whatever the batch "
                      "dimensions.",
            fix="build the ones with `np.ones(X.shape[:-1] + (1,))` and concatenate along the last "
                "axis, `axis=-1`, which is the feature axis whatever the batch dimensions.",
            fails=("test_append_ones_batched",), code='''
                def append_ones(X):
                    return np.hstack([X, np.ones((X.shape[0], 1))])
                '''),
        Mistake(
            "a row of ones (a new token) instead of a column (a new feature)",
            principle="Ones are a new feature of every token (a column), not a new token (a row).",
            fix="every token gets one more feature: concatenate along the last axis, `axis=-1`, "
                "giving shape (..., L, D+1).",
            fails=_BOTH, code='''
                def append_ones(X):
                    ones = np.ones(X.shape[:-2] + (1, X.shape[-1]))
                    return np.concatenate([X, ones], axis=-2)
                '''),
        Mistake(
            "a column of zeros instead of ones",
            principle="The bias trick needs a constant feature equal to one.",
            fix="use `np.ones`: the bias row of absorb_bias is multiplied by this column.",
            fails=_BOTH, code='''
                def append_ones(X):
                    return np.concatenate([X, np.zeros(X.shape[:-1] + (1,))], axis=-1)
                '''),
        Mistake(
            "adding 1 to every entry instead of appending a column of ones",
            principle="Append a new feature; the existing features stay unchanged.",
            fix="keep X as it is and add a new last column: `np.concatenate([X, ones], axis=-1)`.",
            fails=_BOTH, code='''
                def append_ones(X):
                    return X + 1
                '''),
        Mistake(
            "returning only the column of ones",
            principle="Return the features with the column of ones appended.",
            fix="return X with the ones attached: `np.concatenate([X, ones], axis=-1)`.",
            fails=_BOTH, code='''
                def append_ones(X):
                    ones = np.ones(X.shape[:-1] + (1,))
                    return ones
                '''),
    ],
    examples=[
        Example('''
            def append_ones(X):
                ones = np.ones(X.shape[:-1] + (1,))
                return np.concatenate([X, ones], axis=1)
            ''', ("test_append_ones_batched",), "`np.hstack` / `axis=1`", label="axis=1"),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(311 if hidden else 81, hidden)
    shapes = [(5, 2), (3, 6)] if hidden else [(4, 3), (2, 5)]
    return [Case((rng.normal(size=s),), why="one sequence (L, D)") for s in shapes]


def batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(312 if hidden else 82, hidden)
    shapes = [(3, 4, 2), (2, 2, 3, 5)] if hidden else [(2, 4, 3), (3, 2, 5, 4)]
    return [Case((rng.normal(size=s),), why="a batch of sequences (..., L, D)") for s in shapes]


def check_append_ones(append_ones, hidden: bool = False) -> None:
    """Check that ``append_ones(X)`` appends a column of ones to one sequence ``(L, D)``."""
    CARD.check(append_ones, cases(hidden), hidden=hidden, passed="a column of ones at the end")


def check_append_ones_batched(append_ones, hidden: bool = False) -> None:
    """Check that ``append_ones`` works on a batch ``(..., L, D)``."""
    CARD.check(append_ones, batched_cases(hidden), hidden=hidden, passed="works on batches")
