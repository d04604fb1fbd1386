"""padding_mask (notebook 04): the boolean ``(B, Lk)`` mask ``j < lengths[b]``, True on the real
tokens of each sequence."""
from __future__ import annotations

import numpy as np

from .. import masks as _masks
from ..checks._contract import NUMBERS_FOR_MASK
from ..checks._core import Case, Mistake
from ..checks.masks_and_cross_attention import invoke_mask
from ._card import Card, Contract, Example

_FAILS = ("test_padding_mask",)

CARD = Card(
    "padding_mask", "04_masks_and_cross_attention",
    summary="True on the real (unpadded) tokens: row b is True at positions 0 .. lengths[b] - 1",
    contract=Contract(
        args=("lengths", "Lk"), reference=_masks.padding_mask, invoke=invoke_mask,
        shapes="lengths (B,) integers in [0, Lk], Lk the padded length",
        returns="a boolean numpy array of shape (B, Lk), True where j < lengths[b]"),
    mistakes=[
        Mistake(
            "j <= lengths[b]: one padding position too many is allowed",
            principle="A sequence of length n owns positions 0..n-1 only.",
            fix="positions 0 .. lengths[b] - 1 are real: use a strict `<`.",
            fails=_FAILS, code='''
                def padding_mask(lengths, Lk):
                    mask = np.zeros((len(lengths), Lk), dtype=bool)
                    for b, n in enumerate(lengths):
                        mask[b, :n + 1] = True
                    return mask
                '''),
        Mistake(
            "the inverted mask (True on the padding)",
            principle="True marks the real tokens, which may be attended to; padding is False.",
            fix="True must mean *may attend*, i.e. a real token: `j < lengths[b]`; nn.MultiheadAttention's "
                "key_padding_mask is the one with True on the padding.",
            fails=_FAILS, code='''
                def padding_mask(lengths, Lk):
                    mask = np.zeros((len(lengths), Lk), dtype=bool)
                    for b, n in enumerate(lengths):
                        mask[b, n:] = True
                    return mask
                '''),
        Mistake(
            "the shape (Lk, B) instead of (B, Lk)",
            principle="One row per sequence: shape (B, Lk).",
            fix="one row per sequence: compare `np.arange(Lk)[None, :]` (1, Lk) with "
                "`lengths[:, None]` (B, 1) to get (B, Lk).",
            fails=_FAILS, code='''
                def padding_mask(lengths, Lk):
                    return np.arange(Lk)[:, None] < np.asarray(lengths)[None, :]
                '''),
        Mistake(
            "the same mask for every sequence (using the longest length)",
            principle="Each sequence gets its own row, cut at its own length.",
            fix="each row b has its own length: compare the positions with `lengths[:, None]`.",
            fails=_FAILS, code='''
                def padding_mask(lengths, Lk):
                    return np.tile(np.arange(Lk) < max(lengths), (len(lengths), 1))
                '''),
        Mistake(
            "one flat vector instead of one row per sequence",
            principle="Keep one row per sequence: a 2-D (B, Lk) mask.",
            fix="stack the rows (`np.stack`) or broadcast `(1, Lk) < (B, 1)` to get shape (B, Lk).",
            fails=_FAILS, code='''
                def padding_mask(lengths, Lk):
                    return np.concatenate([np.arange(Lk) < n for n in lengths])
                '''),
        Mistake(
            "a mask as wide as the longest sequence, max(lengths), instead of Lk",
            principle="The mask has one column per key position: its width is Lk, whatever the lengths.",
            fix="the width is the `Lk` argument (the padded length), not `lengths.max()`: "
                "`np.arange(Lk)[None, :] < lengths[:, None]`.",
            fails=_FAILS, code='''
                def padding_mask(lengths, Lk):
                    return np.arange(lengths.max())[None, :] < lengths[:, None]
                '''),
    ],
    examples=[
        Example('''
            def padding_mask(lengths, Lk):
                mask = np.zeros((len(lengths), Lk))
                for b, n in enumerate(lengths):
                    mask[b, :n] = 1
                return mask
            ''', _FAILS, NUMBERS_FOR_MASK.name, label="a float mask of ones"),
    ],
)


def cases(hidden: bool) -> list[Case]:
    if hidden:
        data = [([3, 1, 6, 0], 6), ([2], 2), ([4, 2], 7)]
    else:
        data = [([2, 5, 1], 5), ([0, 3], 3), ([4, 2, 4, 1], 6)]

    def why(lengths, Lk):
        return (f"lengths {lengths}" + (", an empty sequence" if 0 in lengths else "")
                + (", a sequence without padding" if Lk in lengths else ""))

    return [Case((np.array(lengths, dtype=np.int64), Lk), why=why(lengths, Lk))
            for lengths, Lk in data]


def check_padding_mask(padding_mask, hidden: bool = False) -> None:
    """Check that ``padding_mask(lengths, Lk)`` is the boolean ``(B, Lk)`` mask ``j < lengths[b]``."""
    CARD.check(padding_mask, cases(hidden), hidden=hidden, passed="True where j < lengths[b]")
