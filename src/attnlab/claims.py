"""Claims: what a notebook's text states, computed where it is stated (COURSE.md, "Text that is true").

A checkable sentence in a markdown cell wraps its number or its verdict in a span that names a
claim::

    In float64 the exponential overflows above about <span data-claim="exp_overflow_f64">709.8</span>.
    The dot product <span data-claim="pe_dot_goes_negative">goes below zero</span> at long offsets.

and a code cell of the same notebook computes it::

    from attnlab.claims import claim
    claim("exp_overflow_f64", np.log(np.finfo(np.float64).max))         # a number
    claim("pe_dot_goes_negative", bool((dots < 0).any()))                # a verdict

``claim`` returns its value, so a cell can print or plot what it recorded. A number claim agrees
with its text when the value rounds to the number as written (in the units the text shows, as many decimals as it shows;
``1,713``, ``96.4%``, ``3.1x``, ``17.18 GB`` are read as 1713, 96.4, 3.1, 17.18). A verdict claim
(a ``bool``) agrees when it is ``True``. ``tests/test_claims.py`` runs every solution notebook with
``ATTNLAB_CLAIMS_FILE`` set, reads what ``claim`` recorded, and fails on a span whose claim was never
computed, on a claim no span shows, and on a text that disagrees with its value.
"""
from __future__ import annotations

import json
import math
import os
import re
from numbers import Real

ENV = "ATTNLAB_CLAIMS_FILE"
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
SPAN = re.compile(r'<span\s+data-claim="([^"]+)"\s*>(.*?)</span>', re.S)
_NUMBER = re.compile(r"[-−+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?")

recorded: dict[str, object] = {}


def claim(name: str, value):
    """Record ``value`` (a real number or a bool) as the computed form of the claim ``name``."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"claim name: expected lower_case_with_underscores, got {name!r}")
    if hasattr(value, "item") and getattr(value, "size", 1) == 1:  # numpy / torch scalars
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


def spans(markdown: str) -> list[tuple[str, str]]:
    """The ``(claim name, text)`` pairs of a markdown source."""
    return [(m.group(1), re.sub(r"<[^>]+>", "", m.group(2)).strip()) for m in SPAN.finditer(markdown)]


def number_in(text: str) -> tuple[float, int] | None:
    """The number a span's text shows and its count of decimals (``None`` for a verdict)."""
    m = _NUMBER.search(text)
    if m is None:
        return None
    digits = m.group(0).replace(",", "").replace("−", "-")
    decimals = len(digits.split(".", 1)[1]) if "." in digits and "e" not in digits.lower() else 0
    return float(digits), decimals


def disagreement(text: str, value) -> str | None:
    """Why ``text`` does not say ``value`` (``None`` when it does)."""
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
    if abs(value - number) <= tolerance:
        return None
    return f"the text says {text!r}, but the notebook computed {value:.{max(decimals, 1) + 2}f}"
