"""Claims: what a notebook's text states, computed where it is stated (docs/contract.md, "Text that is true").

A checkable sentence in a markdown cell wraps its number or its verdict in a span that names a
claim::

    In float64 the exponential overflows above about <span data-claim="exp_overflow_f64">709.8</span>.
    The dot product <span data-claim="pe_dot_goes_negative">goes below zero</span> at long offsets.

and a code cell of the same notebook computes it::

    from attnlab.claims import claim
    claim("exp_overflow_f64", np.log(np.finfo(np.float64).max))         # a number
    claim("pe_dot_goes_negative", bool((dots < 0).any()))                # a verdict

``claim`` returns its value, so a cell can print or plot what it recorded. A number claim agrees
with its text when the value rounds to the number as written (in the units the text shows, as many
decimals as it shows): ``1,713`` and ``1 713`` are 1713, ``96.4%`` is 96.4, ``3.1x`` is 3.1,
``17.18 GB`` is 17.18, ``−0.25`` is -0.25, and ``2.0e-5``, ``2.0 \\times 10^{-5}`` and
``10^{-15}`` are read with their exponent (``2.0e-5`` agrees with values within 0.05e-5). A
figure that moves with the processor (a training run whose float kernels differ between CPUs)
says so in its text ("about 46%") and gives its spread in the span, ``<span data-claim="acc"
data-within="4">46%</span>``: it agrees with values within 4 of 46, in the text's units. The
first number of the text counts; digits inside a word (``float32``, ``BLEU-4``) are no number. A
verdict claim (a ``bool``) agrees when it is ``True``. ``tests/test_notebooks.py`` runs every
solution notebook once with ``ATTNLAB_CLAIMS_FILE`` set, reads what ``claim`` recorded, and
:func:`problems` fails a span whose claim was never computed, a claim no span shows, and a text
that disagrees with its value (``tests/test_claims.py`` tests this module).
"""
from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from numbers import Real
from pathlib import Path

ENV = "ATTNLAB_CLAIMS_FILE"
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
SPAN = re.compile(r"""<span\b[^>]*?\bdata-claim\s*=\s*(?P<q>["'])(?P<name>.*?)(?P=q)[^>]*>(?P<text>.*?)</span\s*>""",
                  re.S | re.I)
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_MINUS = "-−–"  # ASCII hyphen-minus, Unicode minus, en dash (as typed in prose)
_NUMBER = re.compile(
    r"(?<![\w.])"                        # not inside a word (float32) or after a decimal point
    rf"(?<![\w.][{_MINUS}+])"            # nor after a hyphen inside a word (BLEU-4, 3-10)
    rf"(?P<sign>[{_MINUS}+]?)"
    rf"(?:(?P<power>10\s*\^\s*\{{?\s*(?P<p>[{_MINUS}+]?\d+)\s*\}}?"                # 10^{-15}
    r"|10(?P<ps>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))"                                       # 10⁻¹⁵
    r"|(?P<mantissa>\d{1,3}(?:(?:,|[ \u00a0\u2009\u202f])\d{3})+(?!\d)(?:\.\d+)?"  # 1,713 / 20 000
    r"|\d+(?:\.\d+)?|\.\d+)"
    rf"(?:[eE](?P<e>[{_MINUS}+]?\d+)"                                        # 2.0e-5
    rf"|\s*(?:\\times|×|\\cdot|·)\s*10\s*\^\s*\{{?\s*(?P<t>[{_MINUS}+]?\d+)\s*\}}?"  # 2 \times 10^{-5}
    r"|\s*(?:\\times|×|\\cdot|·)\s*10(?P<ts>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?)"    # 2 × 10⁻⁵
)

recorded: dict[str, object] = {}


def claim(name: str, value):
    """Record ``value`` (a real number or a bool) as the computed form of the claim ``name``."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"claim name: expected lower_case_with_underscores, got {name!r}")
    if callable(getattr(value, "item", None)):  # numpy / torch scalars and one-element arrays
        size = value.numel() if callable(getattr(value, "numel", None)) else getattr(value, "size", 1)
        if size == 1:
            value = value.item()
    if not isinstance(value, (bool, Real)):
        raise ValueError(f"claim {name!r}: expected a number or a bool, got {type(value).__name__}")
    value = value if isinstance(value, bool) else float(value)
    recorded[name] = value
    path = os.environ.get(ENV)
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"name": name, "value": value}) + "\n")
    return value


_WITHIN = re.compile(r"""\bdata-within\s*=\s*(?P<q>["'])(?P<w>[^"']*)(?P=q)""", re.I)


def _spans(markdown: str) -> list[tuple[str, str, float | None]]:
    """``(claim name, text, spread)``: the spread a ``data-within`` attribute gives, or None."""
    out = []
    for m in SPAN.finditer(markdown):
        within = _WITHIN.search(m.group(0)[: m.group(0).index(">") + 1])
        try:
            spread = float(within.group("w")) if within else None
        except ValueError:
            spread = float("nan")  # named in problems()
        out.append((m.group("name"), re.sub(r"<[^>]+>", "", m.group("text")).strip(), spread))
    return out


def spans(markdown: str) -> list[tuple[str, str]]:
    """The ``(claim name, text)`` pairs of a markdown source."""
    return [(name, text) for name, text, _ in _spans(markdown)]


def _int(text: str) -> int:
    return int(text.translate(_SUPERSCRIPT).replace("−", "-").replace("–", "-"))


def number_in(text: str) -> tuple[float, int] | None:
    """The number a span's text shows and its count of decimals (``None`` for a verdict).

    The count of decimals is the power of ten of the last digit shown, negated: 2 for ``96.25``,
    6 for ``2.0e-5``, -4 for ``1e4``; the text agrees with values that round there.
    """
    m = _NUMBER.search(text)
    if m is None:
        return None
    sign = -1.0 if m.group("sign") and m.group("sign") != "+" else 1.0
    if m.group("power") is not None:  # 10^k alone: one significant digit, the 1
        exponent = _int(m.group("p") if m.group("p") is not None else m.group("ps"))
        return sign * 10.0 ** exponent, -exponent
    digits = re.sub(r"[, \u00a0\u2009\u202f]", "", m.group("mantissa"))
    decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
    exponent = next((_int(g) for g in (m.group("e"), m.group("t"), m.group("ts")) if g is not None), 0)
    return sign * float(digits) * 10.0 ** exponent, decimals - exponent


def disagreement(text: str, value, within: float | None = None) -> str | None:
    """Why ``text`` does not say ``value`` (``None`` when it does); ``within``: the spread the
    span allows (``data-within``), in the text's units."""
    if isinstance(value, bool):
        return None if value else f"the text says {text!r}, but the notebook computed False"
    shown = number_in(text)
    if shown is None:
        return f"the text {text!r} shows no number, but the claim is the number {value!r}"
    number, decimals = shown
    if not math.isfinite(value):
        return f"the text says {text!r}, but the notebook computed {value!r}"
    # the value as the text would print it: same decimals, half away from zero, and a tolerance of
    # a hair for values that sit exactly on a rounding boundary
    tolerance = 0.5 * 10.0 ** (-decimals) * (1 + 1e-9)
    if within is not None:
        tolerance = max(tolerance, within * (1 + 1e-9))
    if abs(value - number) <= tolerance:
        return None
    computed = f"{value:.{decimals + 2}f}" if 0 <= decimals <= 6 and abs(value) < 1e9 else f"{value:.4g}"
    spread = f" (give or take {within:g})" if within is not None else ""
    return f"the text says {text!r} ({number:g}){spread}, but the notebook computed {computed}"


def read_recorded(path: str | os.PathLike) -> dict[str, object]:
    """The claims a run recorded in the file ``ENV`` named (the last value of a name counts)."""
    out: dict[str, object] = {}
    file = Path(path)
    if file.exists():
        for line in file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = json.loads(line)
                out[entry["name"]] = entry["value"]
    return out


def problems(markdown: Iterable[str], computed: Mapping[str, object]) -> list[str]:
    """What is wrong between a notebook's markdown sources and the claims its run ``computed``:
    a span whose claim was never computed, a computed claim that no span shows, a text that
    disagrees with its value. Empty when the text is true."""
    shown = [triple for source in markdown for triple in _spans(source)]
    out = []
    for name, text, within in shown:
        if not _NAME.match(name):
            out.append(f"span {name!r}: a claim name is lower_case_with_underscores")
        elif within is not None and not (math.isfinite(within) and within > 0):
            out.append(f"span {name!r}: data-within must be a positive number")
        elif name not in computed:
            out.append(f"span {name!r} ({text!r}): no cell computed it (call claim({name!r}, value))")
        else:
            why = disagreement(text, computed[name], within)
            if why is not None:
                out.append(f"claim {name!r}: {why}")
    names = {name for name, _, _ in shown}
    out += [f"claim {name!r} = {value!r} was computed, but no markdown span shows it "
            f'(wrap its text in <span data-claim="{name}">...</span>)'
            for name, value in computed.items() if name not in names]
    return out
