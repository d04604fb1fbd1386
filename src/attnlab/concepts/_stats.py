"""The figures of a concept check: Hake's normalised gain and the item statistics.

Plain functions of plain data (shares in [0, 1], 0/1 item scores), so that the notebook, the
class report and the tests compute them one way.

* Hake's normalised gain of one learner or one class: ``g = (post - pre) / (1 - pre)``, the share
  of what could still be learned that was learned (Hake, 1998). Undefined (None) at ``pre = 1``.
  The class's g is computed from the class's average pre and post scores (Hake's "g of the
  averages"), over the learners who took both checks; its spread is that of the learners' own g,
  over those with ``pre < 1``.
* Item difficulty: the share of learners right on a question (higher is easier).
* Item discrimination: the item-rest correlation, the Pearson correlation between the question's
  0/1 score and the learner's score on the other questions of the check; None where either is
  constant. A negative value means the learners who do best on the rest get this one wrong.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

TOO_EASY_BEFORE = 0.8   # a question more than 80% of the class gets right before the notebook measures little


def hake_gain(pre: float, post: float) -> float | None:
    """``(post - pre) / (1 - pre)`` for shares in [0, 1]; None where ``pre`` is 1 (nothing left to learn)."""
    for name, x in (("pre", pre), ("post", post)):
        if not 0.0 <= float(x) <= 1.0:
            raise ValueError(f"{name}: expected a share in [0, 1], got {x!r}")
    if pre >= 1.0:
        return None
    return (post - pre) / (1.0 - pre)


def mean(xs: Sequence[float]) -> float | None:
    """The mean, None for no values."""
    return sum(xs) / len(xs) if xs else None


def quantile(xs: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile with linear interpolation between order statistics (numpy's default)."""
    if not xs:
        return None
    s = sorted(xs)
    pos = q * (len(s) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def class_gain(pairs: Sequence[tuple[float, float]]) -> dict:
    """The class's gain from ``(pre, post)`` shares, one pair per learner who took both checks.

    Returns ``{"n", "pre", "post", "g", "spread"}``: the class's average pre and post, ``g`` of
    those averages (None without learners, or where the average pre is 1), and ``spread``: the
    learners' own g over those with ``pre < 1``, as ``{"n", "mean", "sd", "q1", "median", "q3",
    "min", "max"}`` (``sd`` the sample standard deviation, None below two learners)."""
    pre = mean([p for p, _ in pairs])
    post = mean([q for _, q in pairs])
    g = hake_gain(pre, post) if pre is not None else None
    own = [hake_gain(p, q) for p, q in pairs if p < 1.0]
    m = mean(own)
    sd = math.sqrt(sum((x - m) ** 2 for x in own) / (len(own) - 1)) if len(own) > 1 else None
    spread = {"n": len(own), "mean": m, "sd": sd, "q1": quantile(own, 0.25), "median": quantile(own, 0.5),
              "q3": quantile(own, 0.75), "min": min(own) if own else None, "max": max(own) if own else None}
    return {"n": len(pairs), "pre": pre, "post": post, "g": g, "spread": spread}


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation of two equally long sequences; None where either is constant."""
    if len(xs) != len(ys):
        raise ValueError(f"expected two sequences of one length, got {len(xs)} and {len(ys)}")
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-15 or syy <= 1e-15:
        return None
    return sxy / math.sqrt(sxx * syy)


def item_statistics(scores: Sequence[Mapping[str, int]], items: Sequence[str]) -> dict[str, dict]:
    """Difficulty and discrimination of every item, from one 0/1 mapping per learner
    (``{question id: 1 if right else 0}``; a question missing from a mapping counts 0).

    Returns ``{item: {"n", "difficulty", "discrimination"}}``: the share right, and the
    item-rest correlation (None where the item or the rest score is constant, or for one learner)."""
    rows = [[int(bool(s.get(i, 0))) for i in items] for s in scores]
    totals = [sum(r) for r in rows]
    out = {}
    for k, item in enumerate(items):
        x = [r[k] for r in rows]
        rest = [t - xi for t, xi in zip(totals, x)]
        out[item] = {"n": len(rows), "difficulty": mean(x),
                     "discrimination": correlation(x, rest) if len(rows) > 1 else None}
    return out


def flags(pre: Mapping | None, post: Mapping | None) -> list[str]:
    """What an item's statistics before (``pre``) and after (``post``) say is wrong with it:
    ``"too easy before"`` (more than ``TOO_EASY_BEFORE`` right before the notebook) and
    ``"the best learners get it wrong"`` (a negative item-rest correlation, before or after)."""
    out = []
    if pre and pre.get("difficulty") is not None and pre["difficulty"] > TOO_EASY_BEFORE:
        out.append("too easy before")
    if any(s and s.get("discrimination") is not None and s["discrimination"] < 0 for s in (pre, post)):
        out.append("the best learners get it wrong")
    return out
