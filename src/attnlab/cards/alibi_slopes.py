"""alibi_slopes (notebook 13): ALiBi's head slopes, ``2^(-8h/H)`` for heads ``h = 1..H`` when ``H`` is a
power of two, and the paper's rule for any other ``H`` (the slopes of the largest power of two ``n < H``,
then every other slope of ``2n``'s list)."""
from __future__ import annotations

from .. import variants as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake
from ._card import Card, Contract

_BOTH = ("test_alibi_slopes", "test_alibi_slopes_any_H")
_ANY = ("test_alibi_slopes_any_H",)


def _cell(geometric: str, rest: str) -> str:
    return f'''def alibi_slopes(H):
    def geometric(n):
{geometric}
    n = 1
    while 2 * n <= H:
        n *= 2
{rest}
'''


_GEO = "        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)"
_REST = '''    if n == H:
        return geometric(H)
    return np.concatenate([geometric(n), geometric(2 * n)[0::2][:H - n]])'''

CARD = Card(
    "alibi_slopes", "13_attention_variants",
    summary="ALiBi's slopes: 2^(-8h/H) for heads h = 1..H (H a power of two), the interleaved rule otherwise",
    contract=Contract(
        args=("H",), reference=_ref.alibi_slopes, invoke=invoke_numpy, rtol=1e-12,
        shapes="H a positive integer, the number of heads",
        returns="a float array (H,): for H a power of two 2^(-8h/H), h = 1..H, from 2^(-8/H) down to 2^-8; "
                "otherwise the slopes of the largest power of two n < H followed by the 1st, 3rd, 5th, ... "
                "slopes of 2n's list, H - n of them"),
    mistakes=[
        Mistake(
            "the slopes in the wrong order (the smallest first)",
            principle="Head 1 gets the steepest slope, 2^(-8/H); the slopes shrink towards the last head.",
            fix="take the exponents -8h/H for h = 1..H in increasing h, without reversing.",
            fails=_BOTH, code=_cell(_GEO, _REST.replace("return geometric(H)", "return geometric(H)[::-1]")
                                    .replace("[:H - n]])", "[:H - n]])[::-1]"))),
        Mistake(
            "slopes of the wrong sign (positive exponents)",
            principle="The slopes are 2 to a negative power: numbers between 0 and 1 that shrink with the head.",
            fix="the exponent is -8h/H, not +8h/H.",
            fails=_BOTH, code=_cell("        return 2.0 ** (8.0 * np.arange(1, n + 1) / n)", _REST)),
        Mistake(
            "the head index counted from 0 (the first slope is 1)",
            principle="Heads are counted from 1 in the formula: the first slope is 2^(-8/H), the last 2^-8.",
            fix="use h = 1..H: `np.arange(1, n + 1)`.",
            fails=_BOTH, code=_cell("        return 2.0 ** (-8.0 * np.arange(n) / n)", _REST)),
        Mistake(
            "the power-of-two formula 2^(-8h/H) used for an H that is no power of two",
            principle="For H not a power of two the paper takes the slopes of the largest power of two n below "
                      "H, then every other slope of the list for 2n until there are H.",
            fix="with n the largest power of two <= H: `geometric(n)`, then `geometric(2 * n)[0::2][:H - n]`.",
            fails=_ANY, code=_cell(_GEO, "    return geometric(H)")),
        Mistake(
            "the slopes of the next power of two, cut to H",
            principle="The first n slopes (n the largest power of two below H) are n's own list; only the "
                      "remaining H - n come from 2n's list, every other one.",
            fix="`np.concatenate([geometric(n), geometric(2 * n)[0::2][:H - n]])`, not `geometric(2 * n)[:H]`.",
            fails=_ANY, code=_cell(_GEO, _REST.replace("np.concatenate([geometric(n), geometric(2 * n)[0::2][:H - n]])",
                                                        "geometric(2 * n)[:H]"))),
        Mistake(
            "the extra slopes taken from the end of 2n's list (the last H - n of every other slope)",
            principle="The H - n extra slopes are the first ones of the every-other list of 2n (the 1st, 3rd, "
                      "5th, ... slopes), the steepest, not the last ones.",
            fix="`geometric(2 * n)[0::2][:H - n]`, not `[-(H - n):]`.",
            fails=_ANY, code=_cell(_GEO, _REST.replace("[:H - n]])", "[-(H - n):]])"))),
        Mistake(
            "the 8 left out of the exponent (2^(-h/H))",
            principle="ALiBi's slopes run from 2^(-8/H) down to 2^-8: the exponent is -8h/H, eight times h/H.",
            fix="`2.0 ** (-8.0 * np.arange(1, n + 1) / n)`.",
            fails=_BOTH, code=_cell("        return 2.0 ** (-np.arange(1, n + 1) / n)", _REST)),
        Mistake(
            "a ratio of 1/2 whatever H (2^-h: the last slope reaches 2^-8 only for 8 heads)",
            principle="The ratio depends on H: the first slope equals the ratio r and the last, r^H, must be 2^-8 "
                      "for every H, so r = 2^(-8/H).",
            fix="`r = 2.0 ** (-8.0 / n)`, and head h's slope is `r ** h` for h = 1..n.",
            fails=_BOTH, code=_cell("        return 0.5 ** np.arange(1, n + 1)", _REST)),
        Mistake(
            "the extra heads given slopes n's list already has (the 2nd, 4th, ... of 2n's list): two heads "
            "share a slope",
            principle="Every second slope of 2n's list is already one of n's (r_2n² = r_n): the new slopes are the "
                      "others, the 1st, 3rd, 5th, ..., which fall between the ones already used.",
            fix="`geometric(2 * n)[0::2][:H - n]`, not `[1::2]`.",
            fails=_ANY, code=_cell(_GEO, _REST.replace("[0::2][:H - n]])", "[1::2][:H - n]])"))),
        Mistake(
            "one slope for every head",
            principle="Each head gets its own slope, so that some heads look far and others only near.",
            fix="return H different slopes, one per head.",
            fails=_BOTH, code=_cell(_GEO, "    return np.full(H, 2.0 ** (-8.0 / H))")),
    ],
)


def cases(hidden: bool, any_H: bool = False) -> list[Case]:
    if any_H:
        Hs = (5, 12, 3) if hidden else (6, 20, 3)
    else:
        Hs = (4, 32, 1) if hidden else (8, 16, 2)
    return [Case((H,), why=f"H={H}" + ("" if H & (H - 1) == 0 else " (no power of two)")) for H in Hs]


def check_alibi_slopes(alibi_slopes, hidden: bool = False) -> None:
    """Check ``alibi_slopes(H)`` for H a power of two."""
    CARD.check(alibi_slopes, cases(hidden, False), hidden=hidden, show_values=True,
               passed="a geometric sequence from its ratio 2^(-8/H) down to 2^-8: 2^(-8h/H) for heads h = 1..H")


def check_alibi_slopes_any_H(alibi_slopes, hidden: bool = False) -> None:
    """Check ``alibi_slopes(H)`` for H that is no power of two."""
    CARD.check(alibi_slopes, cases(hidden, True), hidden=hidden, show_values=True,
               passed="the slopes of the largest power of two below H, then every other slope of twice that")
