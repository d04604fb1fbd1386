"""merge_heads (notebook 05): the heads put side by side again, ``(B, H, L, Dh) -> (B, L, H*Dh)``,
the inverse of ``split_heads``."""
from __future__ import annotations

from .. import multi_head as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_FAILS = ("test_merge_heads",)

CARD = Card(
    "merge_heads", "05_multi_head_attention",
    summary="(B, H, L, Dh) -> (B, L, H*Dh): head h fills the columns h*Dh:(h+1)*Dh (the inverse of "
            "split_heads)",
    contract=Contract(
        args=("X",), reference=_ref.merge_heads, invoke=invoke_numpy,
        shapes="X (B, H, L, Dh)",
        returns="an array (B, L, H*Dh) whose columns h*Dh:(h+1)*Dh are head h"),
    mistakes=[
        Mistake(
            "a reshape straight to (B, L, H*Dh), without transposing back",
            principle="Move the head axis back behind the sequence before joining the heads' features.",
            fix="move the head axis next to the head width first: "
                "`X.transpose(0, 2, 1, 3).reshape(B, L, H * Dh)`.",
            fails=_FAILS, code='''
                def merge_heads(X):
                    B, H, L, Dh = X.shape
                    return X.reshape(B, L, H * Dh)
                '''),
        Mistake(
            "interleaved heads (head h's features land in columns h, h+H, ...)",
            principle="Head h's features go back to its contiguous block of columns.",
            fix="transpose to (B, L, H, Dh), not (B, L, Dh, H), before the reshape: head h must fill "
                "the contiguous columns h*Dh:(h+1)*Dh.",
            fails=_FAILS, code='''
                def merge_heads(X):
                    B, H, L, Dh = X.shape
                    return X.transpose(0, 2, 3, 1).reshape(B, L, H * Dh)
                '''),
        Mistake(
            "summing the heads instead of concatenating them",
            principle="Heads sit side by side in the features: concatenate, the width becomes H·Dh.",
            fix="concatenate the heads side by side (shape (B, L, H*Dh)); the output projection W_o "
                "mixes them afterwards.",
            fails=_FAILS, code='''
                def merge_heads(X):
                    return X.sum(axis=1)
                '''),
        Mistake(
            "averaging the heads instead of concatenating them",
            principle="Heads sit side by side in the features: concatenate, the width becomes H·Dh.",
            fix="concatenate the heads side by side (shape (B, L, H*Dh)).",
            fails=_FAILS, code='''
                def merge_heads(X):
                    return np.mean(X, axis=1)  # one (B, L, Dh) answer from all the heads
                '''),
        Mistake(
            "the heads concatenated along the sequence axis (shape (B, H*L, Dh))",
            principle="Join the heads along the feature axis, not the sequence axis.",
            fix="concatenate along the features: `np.concatenate([X[:, h] for h in range(H)], axis=-1)`.",
            fails=_FAILS, code='''
                def merge_heads(X):
                    return np.concatenate([X[:, h] for h in range(X.shape[1])], axis=1)
                '''),
        Mistake(
            "transposed back but not reshaped (shape (B, L, H, Dh))",
            principle="After moving the heads back, fuse the head and feature axes into one.",
            fix="finish with `.reshape(B, L, H * Dh)` to glue the heads together.",
            fails=_FAILS, code='''
                def merge_heads(X):
                    return np.swapaxes(X, 1, 2)
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(152 if hidden else 52, hidden)
    shapes = ([(2, 2, 5, 6), (1, 4, 3, 2), (3, 3, 2, 3)] if hidden
              else [(2, 2, 3, 4), (1, 4, 5, 3), (3, 3, 4, 2), (1, 2, 1, 3)])
    return [Case((rng.normal(size=s),), why=f"{s[1]} heads of width {s[3]}"
                 + (", B=1, one token" if s[0] == s[2] == 1 else "")) for s in shapes]


def check_merge_heads(merge_heads, hidden: bool = False) -> None:
    """Check that ``merge_heads(X)`` maps ``(B, H, L, Dh)`` back to ``(B, L, H*Dh)``."""
    CARD.check(merge_heads, cases(hidden), hidden=hidden, passed="the inverse of split_heads")
