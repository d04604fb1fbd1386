"""sinusoidal_positional_encoding (notebook 09): the (L, D) table whose column 2i is
sin(p / 10000^(2i/D)) and column 2i+1 the cosine of the same angle, for positions p = 0 .. L-1."""
from __future__ import annotations

from functools import partial

import numpy as np

from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake
from ..positional import sinusoidal_positional_encoding as _pe_reference
from ._card import Card, Contract

_BOTH = ("test_positional_encoding", "test_positional_encoding_odd")
_EVEN = ("test_positional_encoding",)
_ODD = ("test_positional_encoding_odd",)


def _pe_variant(L, D, *, swap=False, layout="interleaved", exponent="2i", start=0, sign=-1, transpose=False):
    """The table with its known slips as flags (the checks combine two of them)."""
    positions = np.arange(start, start + L, dtype=float)[:, None]  # (L, 1)
    pairs = np.arange((D + 1) // 2, dtype=float)  # i = 0 .. ceil(D/2) - 1
    if exponent == "2i":
        power = 2 * pairs / D
    elif exponent == "i":  # the 2 forgotten
        power = pairs / D
    elif exponent == "4i":  # the 2 applied twice (arange(0, D, 2) and a 2 again)
        power = 4 * pairs / D
    else:
        raise ValueError(exponent)
    f1, f2 = (np.cos, np.sin) if swap else (np.sin, np.cos)
    angles = positions * 10000.0 ** (sign * power)[None, :]  # (L, ceil(D/2))
    PE = np.empty((L, D))
    if layout == "interleaved":
        PE[:, 0::2] = f1(angles)
        PE[:, 1::2] = f2(angles[:, : D // 2])
    elif layout == "halves":  # [sin | cos]: the pairs not interleaved
        h = (D + 1) // 2
        PE[:, :h] = f1(angles)
        PE[:, h:] = f2(angles[:, : D - h])
    return PE.T if transpose else PE


def _cell(body: str) -> str:
    return "def sinusoidal_positional_encoding(L, D):\n" + body


_ANGLES = "    angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, D, 2) / D)\n"


def _table(angles: str = _ANGLES, even: str = "np.sin(angles)", odd: str = "np.cos(angles[:, : D // 2])") -> str:
    return _cell(angles + f'''    PE = np.zeros((L, D))
    PE[:, 0::2] = {even}
    PE[:, 1::2] = {odd}
    return PE
''')


CARD = Card(
    "sinusoidal_positional_encoding", "09_transformer",
    summary="one row per position p: sin and cos of p / 10000^(2i/D), interleaved pair by pair",
    contract=Contract(
        args=("L", "D"), reference=_pe_reference, invoke=invoke_numpy, rtol=1e-5, atol=1e-5,
        shapes="L >= 0 positions (0 .. L-1), D >= 1 columns (even or odd)",
        returns="a float array of shape (L, D): column 2i is sin(p / 10000^(2i/D)), column 2i+1 the "
                "cosine of the same angle; for an odd D the last column is a sine; L = 0 gives an "
                "empty (0, D) table"),
    mistakes=[
        Mistake(
            "sin and cos swapped (cosine in the even columns, sine in the odd ones)",
            principle="Even columns hold the sines, odd columns the cosines.",
            fix="column 2i is the sine, column 2i+1 the cosine of the same angle: at position 0 the "
                "row reads 0, 1, 0, 1, ...",
            fails=_BOTH, impl=partial(_pe_variant, swap=True),
            code=_table(even="np.cos(angles)", odd="np.sin(angles[:, : D // 2])")),
        Mistake(
            "sin and cos not interleaved: all the sines first, then all the cosines",
            principle="Sines and cosines alternate column by column: each pair shares one frequency.",
            fix="the sine and the cosine of one frequency sit side by side, in columns 2i and 2i+1 "
                "(even columns, then odd columns), not in two halves.",
            fails=_BOTH, impl=partial(_pe_variant, layout="halves"), code=_cell(_ANGLES + '''\
    return np.concatenate([np.sin(angles), np.cos(angles[:, : D // 2])], axis=1)
''')),
        Mistake(
            "cos and sin swapped and not interleaved",
            principle="Sines in the even columns, cosines in the odd ones, alternating pair by pair.",
            fix="column 2i is the sine, 2i+1 the cosine of the same angle.",
            fails=_BOTH, impl=partial(_pe_variant, layout="halves", swap=True), code=_cell(_ANGLES + '''\
    return np.concatenate([np.cos(angles), np.sin(angles[:, : D // 2])], axis=1)
''')),
        Mistake(
            "the frequency exponent off by a factor of 2: 10000^(i/D) instead of 10000^(2i/D)",
            principle="Pair i's frequency uses the exponent 2i/D, with i the pair index.",
            fix="with i the index of the pair (column 2i), the exponent is 2i/D, so that the last pair's "
                "wavelength reaches 2π·10000^((D-2)/D), close to 2π·10000.",
            fails=_BOTH, impl=partial(_pe_variant, exponent="i"), code=_table('''\
    i = np.arange((D + 1) // 2)
    angles = np.arange(L)[:, None] / 10000 ** (i / D)
''')),
        Mistake(
            "the frequency exponent off by a factor of 2: 10000^(4i/D) (the 2 applied twice)",
            principle="Pair i's frequency uses the exponent 2i/D, with i the pair index, counted once.",
            fix="if your exponents already run over the even column numbers 0, 2, 4, ... (that is 2i), "
                "divide them by D without another factor 2.",
            fails=_BOTH, impl=partial(_pe_variant, exponent="4i"), code=_table('''\
    two_i = np.arange(0, D, 2)
    angles = np.arange(L)[:, None] / 10000 ** (2 * two_i / D)
''')),
        Mistake(
            "every column its own frequency 10000^(j/D) (j the column), so a cosine does not share "
            "its sine's angle",
            principle="A sine and its cosine share one angle: the frequency depends on the pair, not the column.",
            fix="columns 2i and 2i+1 share one angle p / 10000^(2i/D): compute the angles once per pair.",
            fails=_BOTH, code=_cell('''\
    angles = np.arange(L)[:, None] / 10000 ** (np.arange(D) / D)
    PE = np.cos(angles)
    PE[:, 0::2] = np.sin(angles[:, 0::2])
    return PE
''')),
        Mistake(
            "positions multiplied by 10000^(2i/D) instead of divided by it",
            principle="Higher pairs turn more slowly: the position is divided by the growing power.",
            fix="the angle is p / 10000^(2i/D): frequencies fall from 1 to about 1/10000.",
            fails=_BOTH, impl=partial(_pe_variant, sign=1), code=_table('''\
    angles = np.arange(L)[:, None] * 10000 ** (np.arange(0, D, 2) / D)
''')),
        Mistake(
            "positions counted from 1 instead of 0",
            principle="The first position is 0.",
            fix="the first position is p = 0, whose row is 0, 1, 0, 1, ...",
            fails=_BOTH, impl=partial(_pe_variant, start=1), code=_table('''\
    angles = np.arange(1, L + 1)[:, None] / 10000 ** (np.arange(0, D, 2) / D)
''')),
        Mistake(
            "the result transposed: (D, L) instead of (L, D)",
            principle="One row per position: shape (L, D).",
            fix="one row per position: return shape (L, D).",
            fails=_BOTH, impl=partial(_pe_variant, transpose=True), code=_cell('''\
    angles = np.arange(L)[None, :] / 10000 ** (np.arange(0, D, 2)[:, None] / D)
    PE = np.zeros((D, L))
    PE[0::2] = np.sin(angles)
    PE[1::2] = np.cos(angles[: D // 2])
    return PE
''')),
        Mistake(
            "an odd D not handled (the cosine column of the last pair does not exist)",
            principle="With an odd width the last pair has a sine but no cosine column.",
            fix="for an odd D the last column is a sine with no cosine: fill the odd columns with the "
                "cosines of the first D // 2 angles only.",
            fails=_ODD, code=_table(odd="np.cos(angles)")),
        Mistake(
            "L = 0 not handled: `np.stack` of an empty list of rows raises",
            principle="An empty sequence has an empty (0, D) table: build the table with array "
                      "operations, not a list of rows.",
            fix="for L = 0 return an empty (0, D) array: build the whole table at once from "
                "`np.arange(L)` (or `np.zeros((L, D))`), which works for every L.",
            fails=_EVEN, code=_cell('''\
    rows = []
    for p in range(L):
        row = np.zeros(D)
        for col in range(D):
            angle = p / 10000 ** (2 * (col // 2) / D)
            row[col] = np.sin(angle) if col % 2 == 0 else np.cos(angle)
        rows.append(row)
    return np.stack(rows)
''')),
    ],
)


def cases(hidden: bool) -> list[Case]:
    shapes = [(7, 10, "L=7, D=10"), (40, 16, "40 positions, D=16"), (3, 2, "D=2: one pair")] if hidden else \
        [(6, 8, "L=6, D=8"), (50, 12, "50 positions, D=12: the slow pairs matter"), (1, 4, "one position")]
    shapes.append((0, 10 if hidden else 6, "L = 0: no positions, an empty (0, D) table"))
    return [Case((L, D), why=why) for L, D, why in shapes]


def odd_cases(hidden: bool) -> list[Case]:
    shapes = [(4, 9, "odd D=9"), (12, 1, "D=1: one sine column")] if hidden else \
        [(5, 7, "odd D=7: the last column is a sine"), (20, 3, "odd D=3, 20 positions")]
    return [Case((L, D), why=why) for L, D, why in shapes]


def check_sinusoidal_positional_encoding(sinusoidal_positional_encoding, hidden: bool = False) -> None:
    """Check ``sinusoidal_positional_encoding(L, D)`` for even ``D``."""
    CARD.check(sinusoidal_positional_encoding, cases(hidden), hidden=hidden,
               passed="sin in column 2i, cos in column 2i+1, angle p / 10000^(2i/D)")


def check_sinusoidal_positional_encoding_odd(sinusoidal_positional_encoding, hidden: bool = False) -> None:
    """Check ``sinusoidal_positional_encoding(L, D)`` for odd ``D``."""
    CARD.check(sinusoidal_positional_encoding, odd_cases(hidden), hidden=hidden,
               passed="an odd D ends with a sine column")
