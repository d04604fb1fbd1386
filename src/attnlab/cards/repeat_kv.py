"""repeat_kv (notebook 11): each key/value head repeated ``n_rep`` times in a row,
``(B, Hkv, L, D) -> (B, Hkv*n_rep, L, D)``, head h of the result from head ``h // n_rep``."""
from __future__ import annotations

from .. import modern as _ref
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example

_FAILS = ("test_repeat_kv",)

CARD = Card(
    "repeat_kv", "11_modern_attention",
    summary="repeat each key/value head n_rep times in a row: head h of the result is head h // n_rep",
    contract=Contract(
        args=("X", "n_rep"), reference=_ref.repeat_kv,
        shapes="X (B, Hkv, L, D), n_rep a positive integer",
        returns="an array (B, Hkv * n_rep, L, D) whose head h is head h // n_rep of X"),
    mistakes=[
        Mistake(
            "`repeat` (tile) order instead of `repeat_interleave` (head h % Hkv where h // n_rep is right)",
            principle="Each key/value head is repeated n_rep times in a row, so that a group of consecutive "
                      "query heads shares one head: query head h reads head h // n_rep.",
            fix="`np.repeat(X, n_rep, axis=1)` (torch: `X.repeat_interleave(n_rep, dim=1)`), not "
                "`np.tile` or `X.repeat(1, n_rep, 1, 1)`.",
            fails=_FAILS, code='''
                def repeat_kv(X, n_rep):
                    return np.tile(X, (1, n_rep, 1, 1))
                '''),
        Mistake(
            "repeated along the length axis instead of the head axis",
            principle="The heads are the second axis of (B, Hkv, L, D); the length stays as it is.",
            fix="repeat along axis 1, the heads of (B, Hkv, L, D).",
            fails=_FAILS, code='''
                def repeat_kv(X, n_rep):
                    return np.repeat(X, n_rep, axis=2)
                '''),
        Mistake(
            "repeated along the batch axis instead of the head axis",
            principle="The heads are the second axis of (B, Hkv, L, D); the batch stays as it is.",
            fix="repeat along axis 1, the heads of (B, Hkv, L, D).",
            fails=_FAILS, code='''
                def repeat_kv(X, n_rep):
                    return np.repeat(X, n_rep, axis=0)
                '''),
        Mistake(
            "the array flattened (a repeat with no axis)",
            principle="Repeat along one axis only, the heads, and keep the four dimensions.",
            fix="give the axis: `axis=1`.",
            fails=_FAILS, code='''
                def repeat_kv(X, n_rep):
                    return np.repeat(X, n_rep)
                '''),
    ],
    examples=[
        Example('''
            def repeat_kv(X, n_rep):
                return np.concatenate([X] * n_rep, axis=1)
            ''', _FAILS, "`repeat` (tile) order", label="concatenate"),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(113, hidden)
    specs = [((2, 3, 4, 5), 2), ((1, 2, 3, 2), 3), ((3, 1, 2, 4), 4)] if hidden else \
        [((2, 3, 4, 5), 2), ((1, 2, 5, 3), 4), ((2, 4, 3, 2), 1), ((3, 1, 2, 6), 3)]
    return [Case((rng.normal(size=s), n), why=f"X {s}, n_rep={n}") for s, n in specs]


def check_repeat_kv(repeat_kv, hidden: bool = False) -> None:
    """Check ``repeat_kv(X, n_rep)``: ``(B, Hkv, L, D) -> (B, Hkv*n_rep, L, D)``, head h from h // n_rep."""
    CARD.check(repeat_kv, cases(hidden), hidden=hidden, passed="each key/value head repeated n_rep times in a row")
