"""causal_mask (notebook 04): the boolean ``(Lq, Lk)`` mask ``j <= i``, top-left aligned."""
from __future__ import annotations

from .. import masks as _masks
from ..checks._contract import NUMBERS_FOR_MASK
from ..checks._core import Case, Mistake
from ..checks.masks_and_cross_attention import invoke_mask
from ._card import Card, Contract, Example

_FAILS = ("test_causal_mask",)
_SHAPE = "the shape (Lk, Lq) instead of (Lq, Lk)"

CARD = Card(
    "causal_mask", "04_masks_and_cross_attention",
    summary="query i may attend to keys 0..i: True where j <= i, top-left aligned",
    contract=Contract(
        args=("Lq", "Lk"), reference=_masks.causal_mask, invoke=invoke_mask,
        shapes="Lq queries (rows) and Lk keys (columns), Lq and Lk may differ",
        returns="a boolean numpy array of shape (Lq, Lk), True where j <= i (as SDPA's is_causal)"),
    mistakes=[
        Mistake(
            "a strict mask j < i: each query may not see its own position (the diagonal is masked)",
            principle="A query may attend to its own position: the diagonal is allowed.",
            fix="use `j <= i` (`np.tril` with `k=0`): token i may attend to itself and to every "
                "earlier token.",
            fails=_FAILS, code='''
                def causal_mask(Lq, Lk):
                    return np.tril(np.ones((Lq, Lk), dtype=bool), k=-1)
                '''),
        Mistake(
            "the transposed mask (the upper triangle: each query sees the future, not the past)",
            principle="Query i may see keys j <= i: the lower triangle, not the upper.",
            fix="query i (row) may see key j (column) when j <= i: the lower triangle, `np.tril`.",
            fails=_FAILS, code='''
                def causal_mask(Lq, Lk):
                    return np.triu(np.ones((Lq, Lk), dtype=bool))
                '''),
        Mistake(
            "the opposite convention, True = blocked (as nn.MultiheadAttention's attn_mask)",
            principle="The course's convention: True means \"may attend\".",
            fix="in this course True means *may attend*: negate your mask (`~mask`), i.e. True on and "
                "below the diagonal.",
            fails=_FAILS, code='''
                def causal_mask(Lq, Lk):
                    return np.triu(np.ones((Lq, Lk), dtype=bool), k=1)
                '''),
        Mistake(
            "a bottom-right aligned mask (the last query sees every key) when Lq != Lk",
            principle="The mask is top-left aligned: query i sees keys 0..i, whatever Lk is.",
            fix="align the mask at the top left, as SDPA's `is_causal`: True where j <= i, whatever "
                "Lq and Lk are (`np.tril(np.ones((Lq, Lk), dtype=bool))`, no offset).",
            fails=_FAILS, code='''
                def causal_mask(Lq, Lk):
                    return np.tril(np.ones((Lq, Lk), dtype=bool), k=Lk - Lq)
                '''),
        Mistake(
            _SHAPE,
            principle="Rows are queries, columns are keys: shape (Lq, Lk).",
            fix="rows are queries and columns are keys: build the mask with shape (Lq, Lk), from a "
                "column of query indices `(Lq, 1)` and a row of key indices `(1, Lk)`.",
            fails=_FAILS, code='''
                def causal_mask(Lq, Lk):
                    i = np.arange(Lq)[None, :]
                    j = np.arange(Lk)[:, None]
                    return j <= i
                '''),
        Mistake(
            _SHAPE + ", the lower triangle of an (Lk, Lq) array",
            principle="Rows are queries, columns are keys: shape (Lq, Lk).",
            fix="rows are queries and columns are keys: `np.ones((Lq, Lk), dtype=bool)`, in that order.",
            fails=_FAILS, code='''
                def causal_mask(Lq, Lk):
                    return np.tril(np.ones((Lk, Lq), dtype=bool))
                '''),
        Mistake(
            "a square (Lq, Lq) mask that ignores Lk",
            principle="The mask has one column per key: its width is Lk, not Lq.",
            fix="the mask needs one column per key: shape (Lq, Lk).",
            fails=_FAILS, code='''
                def causal_mask(Lq, Lk):
                    return np.tril(np.ones((Lq, Lq), dtype=bool))
                '''),
    ],
    examples=[
        Example('''
            def causal_mask(Lq, Lk):
                return np.tril(np.ones((Lq, Lk)))
            ''', _FAILS, NUMBERS_FOR_MASK.name, label="float tril"),
    ],
)


def cases(hidden: bool) -> list[Case]:
    shapes = [(2, 5), (6, 6), (5, 2), (1, 3)] if hidden else [(3, 5), (4, 4), (5, 3)]
    why = {True: "a square mask", False: "Lq != Lk"}
    return [Case((Lq, Lk), why=why[Lq == Lk] + (", fewer queries than keys" if Lq < Lk else
                                                 ", more queries than keys" if Lq > Lk else ""))
            for Lq, Lk in shapes]


def check_causal_mask(causal_mask, hidden: bool = False) -> None:
    """Check that ``causal_mask(Lq, Lk)`` is the boolean ``(Lq, Lk)`` mask ``j <= i``."""
    CARD.check(causal_mask, cases(hidden), hidden=hidden, passed="True where j <= i, top-left aligned")
