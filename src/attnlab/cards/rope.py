"""rope (notebook 11): rotary position embedding, pair k of row l turned by
``positions[l] * base^(-2k/Dh)``; pairs ``(k, k + Dh/2)`` or, interleaved, ``(2k, 2k+1)``."""
from __future__ import annotations

import numpy as np

from .. import modern as _ref
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_BOTH = ("test_rope", "test_rope_interleaved")


def _cell(theta="base ** (-2.0 * np.arange(Dh // 2) / Dh)",
          angles="np.asarray(positions)[:, None] * theta[None, :]",
          first="slice(0, None, 2) if interleaved else slice(0, Dh // 2)",
          second="slice(1, None, 2) if interleaved else slice(Dh // 2, Dh)",
          ra="a * cos - b * sin", rb="a * sin + b * cos") -> str:
    """A learner's rope cell, with one piece changed."""
    return f'''def rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even head width, got {{x.shape}}")
    theta = {theta}
    angles = {angles}
    cos, sin = np.cos(angles), np.sin(angles)
    first = {first}
    second = {second}
    a, b = x[..., first], x[..., second]
    out = np.zeros_like(x)
    out[..., first] = {ra}
    out[..., second] = {rb}
    return out
'''


CARD = Card(
    "rope", "11_modern_attention",
    summary="rotate pair k of row l by the angle positions[l] * base^(-2k/Dh); halves (k, k + Dh/2) "
            "or interleaved (2k, 2k+1) pairs",
    contract=Contract(
        args=("x", "positions", "base", "interleaved"), reference=_ref.rope,
        shapes="x (..., L, Dh) with Dh even, positions (L,) integers, base a float, interleaved a bool",
        returns="an array of the shape of x: (a, b) -> (a cos - b sin, a sin + b cos) for every pair",
        raises="ValueError for an odd head width Dh"),
    mistakes=[
        Mistake(
            "the pairs mixed up: halves (k, k + Dh/2) and interleaved (2k, 2k+1) swapped",
            principle="Which two features form pair k depends on the layout: halves pair k with k + Dh/2, "
                      "interleaved pairs 2k with 2k+1.",
            fix="halves pair `x[..., :Dh//2]` with `x[..., Dh//2:]`; interleaved pairs `x[..., 0::2]` "
                "with `x[..., 1::2]`; pick the one `interleaved` asks for.",
            fails=_BOTH, code=_cell(first="slice(0, Dh // 2) if interleaved else slice(0, None, 2)",
                                    second="slice(Dh // 2, Dh) if interleaved else slice(1, None, 2)")),
        Mistake(
            "frequencies base^(-k/Dh) instead of base^(-2k/Dh)",
            principle="Pair k turns at the rate base to the power -2k/Dh: the exponent counts features, "
                      "two per pair.",
            fix="`freqs = base ** (-2 * np.arange(Dh // 2) / Dh)`.",
            fails=_BOTH, code=_cell(theta="base ** (-np.arange(Dh // 2) / Dh)")),
        Mistake(
            "frequencies base^(-2k/(Dh/2)): the exponent divided by the number of pairs",
            principle="The exponent divides by the full head width Dh, not by the number of pairs.",
            fix="the exponent is `-2 * k / Dh` with `Dh` the full head width.",
            fails=_BOTH, code=_cell(theta="1.0 / base ** (np.arange(0, Dh, 2) / (Dh // 2))")),
        Mistake(
            "frequencies growing with k (base^(+2k/Dh)) instead of shrinking",
            principle="Pair 0 turns fastest, by one radian per position; later pairs turn ever more slowly.",
            fix="the exponent is negative: `base ** (-2 * k / Dh)`.",
            fails=_BOTH, code=_cell(theta="base ** (2.0 * np.arange(Dh // 2) / Dh)")),
        Mistake(
            "positions counted from 1 (position p rotated by p + 1)",
            principle="Use the positions you are given as they are: the token at position 0 keeps its vector.",
            fix="rotate row l by `positions[l]` itself; position 0 is not rotated at all.",
            fails=_BOTH, code=_cell(angles="(np.asarray(positions)[:, None] + 1) * theta[None, :]")),
        Mistake(
            "the rotation turned the wrong way ((a cos + b sin, -a sin + b cos))",
            principle="The rotation is counter-clockwise by the angle: the first feature loses b sin, the "
                      "second gains a sin.",
            fix="`(a, b) -> (a*cos - b*sin, a*sin + b*cos)`.",
            fails=_BOTH, code=_cell(ra="a * cos + b * sin", rb="-a * sin + b * cos")),
        Mistake(
            "no error for an odd head width (the last feature left unrotated)",
            principle="An odd width cannot be cut into pairs: reject it with a ValueError that names the "
                      "argument.",
            fix="`if Dh % 2: raise ValueError(...)` naming x and its shape.",
            fails=_BOTH, code='''
                def rope(x, positions, base=10000.0, interleaved=False):
                    x = np.asarray(x, dtype=np.float32)
                    Dh = x.shape[-1] // 2 * 2
                    theta = base ** (-2.0 * np.arange(Dh // 2) / Dh)
                    ang = np.outer(positions, theta)
                    out = x.copy()
                    if interleaved:
                        a, b = x[..., 0:Dh:2], x[..., 1:Dh:2]
                        out[..., 0:Dh:2], out[..., 1:Dh:2] = a * np.cos(ang) - b * np.sin(ang), a * np.sin(ang) + b * np.cos(ang)
                    else:
                        a, b = x[..., :Dh // 2], x[..., Dh // 2:Dh]
                        out[..., :Dh // 2], out[..., Dh // 2:Dh] = a * np.cos(ang) - b * np.sin(ang), a * np.sin(ang) + b * np.cos(ang)
                    return out
                '''),
    ],
)


def cases(hidden: bool, interleaved: bool = False) -> list[Case]:
    rng = case_rng(111 + interleaved, hidden)
    specs = ([((), 5, 6, 10000.0), ((3,), 4, 8, 100.0), ((2, 2), 3, 4, 10.0)] if hidden
             else [((), 4, 8, 10000.0), ((2,), 5, 6, 100.0), ((2, 3), 3, 10, 10.0), ((), 1, 4, 10.0)])
    out = []
    for batch, L, Dh, base in specs:
        pos = rng.permutation(np.arange(L) * 3 + 2)  # (L,) not 0..L-1, not sorted
        out.append(Case((rng.normal(size=(*batch, L, Dh)), pos, base, interleaved),
                        why=f"(..., L={L}, Dh={Dh}), base {base:g}, positions {pos.tolist()}"))
    out.append(Case((rng.normal(size=(3, 5)), np.arange(3), 10000.0, interleaved),
                    why="an odd head width Dh = 5", raises=ValueError))
    return out


def check_rope(rope, hidden: bool = False) -> None:
    """Check ``rope(x, positions, base, interleaved=False)``: pairs ``(k, k + Dh/2)``."""
    CARD.check(rope, cases(hidden, False), hidden=hidden,
               passed="halves pairing, angles positions * base^(-2k/Dh), odd widths rejected")


def check_rope_interleaved(rope, hidden: bool = False) -> None:
    """Check ``rope(x, positions, base, interleaved=True)``: pairs ``(2k, 2k+1)``."""
    CARD.check(rope, cases(hidden, True), hidden=hidden, passed="interleaved pairing (2k, 2k+1)")
