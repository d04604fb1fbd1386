"""sliding_window_mask (notebook 11): the boolean (Lq, Lk) mask of a decoder's sliding window,
query row i at absolute position ``i + offset`` seeing key j when ``0 <= (i + offset) - j < window``."""
from __future__ import annotations

from .. import modern as _ref
from ..checks._core import Case, Mistake
from ._card import Card, Contract

_BOTH = ("test_sliding_window_mask", "test_sliding_window_mask_offset")
_OFFSET = ("test_sliding_window_mask_offset",)

CARD = Card(
    "sliding_window_mask", "11_modern_attention",
    summary="query row i (at position i + offset) sees key j when 0 <= (i + offset) - j < window",
    contract=Contract(
        args=("Lq", "Lk", "window", "offset"), reference=_ref.sliding_window_mask,
        shapes="Lq, Lk, window positive integers; offset (default 0: query row 0 at key 0, as causal_mask) "
               "the absolute position of query row 0, Lk - Lq for the newest rows of a cache",
        returns="a boolean array (Lq, Lk), True = may attend"),
    mistakes=[
        Mistake(
            "a window off by one: the token sees itself and `window` tokens before it",
            principle="A window of w holds w tokens: the query's own position and the w - 1 before it.",
            fix="keep `(i + offset) - j < window`, strictly: the window counts the token itself.",
            fails=_BOTH, code='''
                def sliding_window_mask(Lq, Lk, window, offset=0):
                    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
                    return (d >= 0) & (d <= window)
                '''),
        Mistake(
            "a window off by one: the token sees only `window - 1` tokens in all",
            principle="A window of w holds w tokens: the query's own position and the w - 1 before it.",
            fix="keep `(i + offset) - j < window`, not `<= window - 1` less one.",
            fails=_BOTH, code='''
                def sliding_window_mask(Lq, Lk, window, offset=0):
                    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
                    return (d >= 0) & (d < window - 1)
                '''),
        Mistake(
            "the token does not see itself (`0 < (i + offset) - j`)",
            principle="The difference of positions may be 0: a token attends to itself.",
            fix="the lower bound is `0 <=`.",
            fails=_BOTH, code='''
                def sliding_window_mask(Lq, Lk, window, offset=0):
                    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
                    return (d > 0) & (d < window)
                '''),
        Mistake(
            "the offset ignored: cached queries treated as if they started at position 0",
            principle="When the queries are the newest rows of a cache, row i stands at absolute position "
                      "i + offset.",
            fix="query row i is the token at position `i + offset`.",
            fails=_OFFSET, code='''
                def sliding_window_mask(Lq, Lk, window, offset=0):
                    d = np.arange(Lq)[:, None] - np.arange(Lk)[None, :]
                    return (d >= 0) & (d < window)
                '''),
        Mistake(
            "the offset taken as Lk - Lq instead of the `offset` argument",
            principle="`offset` is the absolute position of query row 0. Lk - Lq is its value only when the "
                      "queries are the newest rows of a cache; by default (0) query row 0 stands at key 0, "
                      "as in causal_mask.",
            fix="use the `offset` argument: query row i is at position `i + offset`.",
            fails=_BOTH, code='''
                def sliding_window_mask(Lq, Lk, window, offset=0):
                    d = (np.arange(Lq)[:, None] + (Lk - Lq)) - np.arange(Lk)[None, :]
                    return (d >= 0) & (d < window)
                '''),
        Mistake(
            "the offset subtracted instead of added",
            principle="The offset moves the queries later, towards the newest keys.",
            fix="query row i is at position `i + offset`.",
            fails=_OFFSET, code='''
                def sliding_window_mask(Lq, Lk, window, offset=0):
                    d = (np.arange(Lq)[:, None] - offset) - np.arange(Lk)[None, :]
                    return (d >= 0) & (d < window)
                '''),
        Mistake(
            "a symmetric window (|i - j| < window): future tokens visible",
            principle="A decoder's window looks back only: a query never sees a later position.",
            fix="keep the difference non-negative: `0 <= (i + offset) - j`.",
            fails=_BOTH, code='''
                def sliding_window_mask(Lq, Lk, window, offset=0):
                    d = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]
                    return np.abs(d) < window
                '''),
    ],
)


def cases(hidden: bool, with_offset: bool = False) -> list[Case]:
    if with_offset:
        specs = [(2, 7, 3, 5), (3, 9, 4, 6), (1, 5, 2, 4), (2, 7, 3, 2)] if hidden else [(2, 6, 3, 4), (3, 8, 2, 5), (1, 6, 4, 5), (4, 9, 3, 7)]
        return [Case((Lq, Lk, w), {"offset": o}, why=f"Lq={Lq}, Lk={Lk}, window={w}, offset={o}"
                     + ("" if o == Lk - Lq else f" (not Lk - Lq = {Lk - Lq}: queries that are not the newest rows)"))
                for Lq, Lk, w, o in specs]
    specs = [(6, 6, 2), (5, 7, 3), (3, 3, 3)] if hidden else [(5, 5, 2), (6, 8, 3), (4, 4, 4), (7, 7, 1)]
    return [Case((Lq, Lk, w), why=f"Lq={Lq}, Lk={Lk}, window={w}" + (" (= the length: causal)" if w == Lq == Lk else "")
                 + (" (the default offset 0: query row 0 at key 0)" if Lq != Lk else ""))
            for Lq, Lk, w in specs]


def check_sliding_window_mask(sliding_window_mask, hidden: bool = False) -> None:
    """Check ``sliding_window_mask(Lq, Lk, window)`` with no offset."""
    CARD.check(sliding_window_mask, cases(hidden, False), hidden=hidden,
               passed="each token sees itself and the window - 1 tokens before it")


def check_sliding_window_mask_offset(sliding_window_mask, hidden: bool = False) -> None:
    """Check ``sliding_window_mask(Lq, Lk, window, offset)`` for the newest rows of a cache."""
    CARD.check(sliding_window_mask, cases(hidden, True), hidden=hidden,
               passed="query row i stands at absolute position i + offset")
