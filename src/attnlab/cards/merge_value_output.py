"""merge_value_output (notebook 05): each head's value and output projections multiplied into one
(D, D) matrix, ``W_v[:, h*Dh:(h+1)*Dh] @ W_o[h*Dh:(h+1)*Dh]``, stacked to (H, D, D)."""
from __future__ import annotations

from .. import multi_head as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_FAILS = ("test_merge_value_output",)

CARD = Card(
    "merge_value_output", "05_multi_head_attention",
    summary="one (D, D) matrix per head: head h's columns of W_v times head h's rows of W_o",
    contract=Contract(
        args=("W_v", "W_o", "num_heads"), reference=_ref.merge_value_output, invoke=invoke_numpy,
        shapes="W_v (D, D), W_o (D, D), num_heads = H a divisor of D",
        returns="an array (H, D, D): W_v[:, h*Dh:(h+1)*Dh] @ W_o[h*Dh:(h+1)*Dh] for each head h"),
    mistakes=[
        Mistake(
            "W_v's rows instead of its columns for head h (`W_v[h*Dh:(h+1)*Dh].T`)",
            principle="Head h's values are a block of columns of X W_v, so take that block of W_v's columns.",
            fix="head h's values are the columns h*Dh:(h+1)*Dh of X @ W_v, so take the columns "
                "`W_v[:, h*Dh:(h+1)*Dh]` (shape (D, Dh)).",
            fails=_FAILS, code='''
                def merge_value_output(W_v, W_o, num_heads):
                    Dh = W_v.shape[0] // num_heads
                    return np.stack([W_v[h * Dh:(h + 1) * Dh].T @ W_o[h * Dh:(h + 1) * Dh] for h in range(num_heads)])
                '''),
        Mistake(
            "W_o's columns instead of its rows for head h",
            principle="Head h's slice of the concatenation meets a block of W_o's rows.",
            fix="head h's slice of the concatenation meets the rows h*Dh:(h+1)*Dh of W_o: "
                "`W_o[h*Dh:(h+1)*Dh]` (shape (Dh, D)).",
            fails=_FAILS, code='''
                def merge_value_output(W_v, W_o, num_heads):
                    Dh = W_v.shape[0] // num_heads
                    return np.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[:, h * Dh:(h + 1) * Dh].T for h in range(num_heads)])
                '''),
        Mistake(
            "the sum over heads, W_v @ W_o, instead of one matrix per head",
            principle="One (D, D) matrix per head, stacked; their sum is W_v W_o.",
            fix="return one (D, D) matrix per head, stacked to (H, D, D); they sum to W_v @ W_o, but "
                "each head multiplies its own attention weights.",
            fails=_FAILS, code='''
                def merge_value_output(W_v, W_o, num_heads):
                    return W_v @ W_o
                '''),
        Mistake(
            "each head's product transposed (W_o[h]ᵀ W_v[:, h]ᵀ)",
            principle="Multiply in the order the data flows: value projection first, then output projection.",
            fix="the product in the order the data flows: `W_v[:, h] @ W_o[h]` (value first, then "
                "output).",
            fails=_FAILS, code='''
                def merge_value_output(W_v, W_o, num_heads):
                    Dh = W_v.shape[0] // num_heads
                    return np.stack([W_o[h * Dh:(h + 1) * Dh].T @ W_v[:, h * Dh:(h + 1) * Dh].T for h in range(num_heads)])
                '''),
        Mistake(
            "interleaved heads (columns h, h+H, ...)",
            principle="Head h owns a contiguous block of Dh columns (and rows).",
            fix="head h owns the contiguous block h*Dh:(h+1)*Dh.",
            fails=_FAILS, code='''
                def merge_value_output(W_v, W_o, num_heads):
                    return np.stack([W_v[:, h::num_heads] @ W_o[h::num_heads] for h in range(num_heads)])
                '''),
        Mistake(
            "the heads stacked on the last axis, shape (D, D, H)",
            principle="The head axis comes first: (H, D, D).",
            fix="stack on a new first axis: `np.stack([...], axis=0)` gives (H, D, D).",
            fails=_FAILS, code='''
                def merge_value_output(W_v, W_o, num_heads):
                    Dh = W_v.shape[0] // num_heads
                    return np.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[h * Dh:(h + 1) * Dh] for h in range(num_heads)], axis=-1)
                '''),
        Mistake(
            "the same matrix for every head (W_v @ W_o / H)",
            principle="Each head has its own block of W_v's columns and W_o's rows.",
            fix="each head has its own block of columns of W_v and rows of W_o.",
            fails=_FAILS, code='''
                def merge_value_output(W_v, W_o, num_heads):
                    M = W_v @ W_o / num_heads  # every head its equal share
                    return np.stack([M for h in range(num_heads)])
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(157 if hidden else 57, hidden)
    sizes = [(12, 3), (8, 2), (6, 6)] if hidden else [(6, 2), (8, 4), (9, 3)]
    return [Case((rng.normal(size=(D, D)), rng.normal(size=(D, D)), H),
                 why=f"D={D}, {H} heads of width {D // H}") for D, H in sizes]


def check_merge_value_output(merge_value_output, hidden: bool = False) -> None:
    """Check that ``merge_value_output(W_v, W_o, num_heads)`` is ``W_v[:, h] @ W_o[h]`` per head."""
    CARD.check(merge_value_output, cases(hidden), hidden=hidden, passed="one (D, D) matrix per head")
