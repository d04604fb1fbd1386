"""split_heads (notebook 05): the features of every token cut into ``num_heads`` heads,
``(B, L, D) -> (B, H, L, Dh)``, head h holding the columns ``h*Dh:(h+1)*Dh``."""
from __future__ import annotations

from .. import multi_head as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_FAILS = ("test_split_heads",)

CARD = Card(
    "split_heads", "05_multi_head_attention",
    summary="(B, L, D) -> (B, H, L, Dh): head h holds the columns h*Dh:(h+1)*Dh of every token",
    contract=Contract(
        args=("X", "num_heads"), reference=_ref.split_heads, invoke=invoke_numpy,
        shapes="X (B, L, D) with D = H * Dh; num_heads = H, a divisor of D",
        returns="an array (B, H, L, Dh): [b, h, i] is X[b, i, h*Dh:(h+1)*Dh]"),
    mistakes=[
        Mistake(
            "a reshape straight to (B, H, L, Dh), without the transpose",
            principle="A reshape keeps memory order, so cut the features into heads first, then move "
                      "the head axis in front of the sequence.",
            fix="a reshape keeps the memory order, so `X.reshape(B, H, L, Dh)` cuts the *sequence* into "
                "pieces. Reshape to (B, L, H, Dh) first, then swap L and H: "
                "`X.reshape(B, L, H, Dh).transpose(0, 2, 1, 3)`.",
            fails=_FAILS, code='''
                def split_heads(X, num_heads):
                    B, L, D = X.shape
                    return X.reshape(B, num_heads, L, D // num_heads)
                '''),
        Mistake(
            "interleaved heads (a reshape to (B, L, Dh, H)): head h gets columns h, h+H, h+2H, ...",
            principle="Head h owns a contiguous block of Dh columns.",
            fix="head h owns the *contiguous* columns h*Dh:(h+1)*Dh: reshape to (B, L, H, Dh), where the "
                "last axis (the fastest-moving one) is the head's own width.",
            fails=_FAILS, code='''
                def split_heads(X, num_heads):
                    B, L, D = X.shape
                    return X.reshape(B, L, D // num_heads, num_heads).transpose(0, 3, 1, 2)
                '''),
        Mistake(
            "the heads cut but not moved in front of the sequence (shape (B, L, H, Dh))",
            principle="The head axis goes before the sequence axis: (B, H, L, Dh).",
            fix="after `reshape(B, L, H, Dh)`, swap the axes L and H: `.transpose(0, 2, 1, 3)`.",
            fails=_FAILS, code='''
                def split_heads(X, num_heads):
                    B, L, D = X.shape
                    return X.reshape(B, L, num_heads, D // num_heads)
                '''),
        Mistake(
            "the number of heads and the head width swapped (Dh heads of width H)",
            principle="There are num_heads heads, each of width D / num_heads.",
            fix="`num_heads` is H; the head width is Dh = D // H: reshape to (B, L, H, Dh).",
            fails=_FAILS, code='''
                def split_heads(X, num_heads):
                    B, L, D = X.shape
                    Dh = D // num_heads
                    return X.reshape(B, L, Dh, num_heads).transpose(0, 2, 1, 3)
                '''),
        Mistake(
            "the sequence split into H pieces instead of the features",
            principle="Heads split the feature axis; every head sees the whole sequence.",
            fix="split the last axis (the D features), not axis 1 (the L tokens): every head sees every "
                "token, with Dh of its features.",
            fails=_FAILS, code='''
                def split_heads(X, num_heads):
                    return np.stack(np.split(X, num_heads, axis=1), axis=1)
                '''),
        Mistake(
            "a transpose that moves the wrong axes (shape (B, H, Dh, L))",
            principle="Swap only the sequence and head axes: (B, H, L, Dh).",
            fix="from (B, L, H, Dh) only L and H trade places: `.transpose(0, 2, 1, 3)`.",
            fails=_FAILS, code='''
                def split_heads(X, num_heads):
                    B, L, D = X.shape
                    return X.reshape(B, L, num_heads, D // num_heads).transpose(0, 2, 3, 1)
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(151 if hidden else 51, hidden)
    shapes = ([(2, 6, 12, 2), (3, 2, 8, 4), (1, 5, 9, 3)] if hidden
              else [(2, 3, 8, 2), (1, 5, 12, 4), (3, 4, 6, 3), (1, 1, 6, 2), (2, 3, 6, 1), (2, 2, 6, 6)])
    return [Case((rng.normal(size=(B, L, D)), H),
                 why=f"{H} head{'s' if H > 1 else ''} of width {D // H}" + (", B=1, one token" if B == L == 1 else "")
                 + (" (one head: H = 1)" if H == 1 else " (heads of width 1: H = D)" if H == D else ""))
            for B, L, D, H in shapes]


def check_split_heads(split_heads, hidden: bool = False) -> None:
    """Check that ``split_heads(X, num_heads)`` maps ``(B, L, D)`` to ``(B, H, L, Dh)``."""
    CARD.check(split_heads, cases(hidden), hidden=hidden, passed="head h holds the columns h*Dh:(h+1)*Dh")
