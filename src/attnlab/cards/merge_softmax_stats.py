"""merge_softmax_stats (notebook 08): the softmax statistics ``(m, l, acc)`` of two parts of the
keys merged into those of all the keys, exactly.

The cases hold rows whose max is in part a and rows whose max is in part b, batches, and parts
that have seen no key yet (``m = -inf``, ``l = 0``, ``acc = 0``), for one part or for both.
"""
from __future__ import annotations

import numpy as np

from .. import efficient as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ..checks.efficient_attention import STATS, stats_of
from ._card import Card, Contract

_MERGE = ("test_merge_softmax_stats",)
_EMPTY = ("test_merge_softmax_stats_empty",)

CARD = Card(
    "merge_softmax_stats", "08_efficient_attention",
    summary="the running max, normaliser and accumulator of two parts of the keys, rescaled to their "
            "common max and added: the statistics of all the keys",
    contract=Contract(
        args=("m_a", "l_a", "acc_a", "m_b", "l_b", "acc_b"), reference=_ref.merge_softmax_stats,
        invoke=invoke_numpy, outputs=STATS,
        shapes="m and l (..., Lq), acc (..., Lq, Dv), for each part; a part that has seen no key "
               "has m = -inf, l = 0, acc = 0",
        returns="(m, l, acc) of all the keys: m = max(m_a, m_b) per query, l and acc the two parts' "
                "rescaled to m and added; no NaN where both parts are empty"),
    mistakes=[
        Mistake(
            "`np.max(m_a, m_b)` instead of `np.maximum(m_a, m_b)`",
            principle="The common max is the elementwise maximum of two arrays, not a reduction.",
            fix="`np.max(x, 1)` reads its second argument as an axis; the elementwise maximum of two "
                "arrays is `np.maximum(m_a, m_b)`.",
            fails=_MERGE + _EMPTY, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    m = np.max(m_a, m_b)
                    a, b = np.exp(m_a - m), np.exp(m_b - m)
                    return m, a * l_a + b * l_b, a[..., None] * acc_a + b[..., None] * acc_b
                '''),
        Mistake(
            "NaN when both parts have seen no key (exp(-inf - (-inf)))",
            principle="When both maxima are -inf, the rescaling factors must be 0, not NaN.",
            fix="where the common max `m` is -inf, rescale with 0 instead: e.g. "
                "`m_safe = np.where(m == -np.inf, 0.0, m)` and `np.exp(m_a - m_safe)`; "
                "exp(-inf - 0) = 0 contributes nothing.",
            fails=_EMPTY, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    m = np.maximum(m_a, m_b)
                    a, b = np.exp(m_a - m), np.exp(m_b - m)
                    return m, a * l_a + b * l_b, a[..., None] * acc_a + b[..., None] * acc_b
                '''),
        Mistake(
            "adding the two parts without rescaling them to a common max",
            principle="Both parts are relative to their own max: rescale each to the common max before "
                      "adding.",
            fix="l_a and l_b are sums of exp(s - m_a) and exp(s - m_b): bring both to m = max(m_a, m_b) "
                "by multiplying with exp(m_a - m) and exp(m_b - m) before adding.",
            fails=_MERGE + _EMPTY, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    return np.maximum(m_a, m_b), l_a + l_b, acc_a + acc_b
                '''),
        Mistake(
            "rescaling only part a (part b is left relative to its own max)",
            principle="Both parts must be rescaled to the common max.",
            fix="multiply part b by exp(m_b - m) as well.",
            fails=_MERGE + _EMPTY, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    m = np.maximum(m_a, m_b)
                    alpha = np.exp(m_a - m)
                    return m, alpha * l_a + l_b, alpha[..., None] * acc_a + acc_b
                '''),
        Mistake(
            "keeping m_a as the max instead of max(m_a, m_b)",
            principle="The merged max is the larger of the two.",
            fix="the merged max is the elementwise `np.maximum(m_a, m_b)`; rescale both parts to it.",
            fails=_MERGE, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    beta = np.exp(m_b - m_a)
                    return m_a, l_a + beta * l_b, acc_a + beta[..., None] * acc_b
                '''),
        Mistake(
            "rescaling with exp(m - m_a) instead of exp(m_a - m)",
            principle="The rescaling factor is ≤ 1: the old max minus the new max, exponentiated.",
            fix="a part whose max is below the common max shrinks: its factor is exp(m_a - m) <= 1.",
            fails=_MERGE + _EMPTY, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    m = np.maximum(m_a, m_b)
                    a, b = np.exp(m - m_a), np.exp(m - m_b)
                    return m, a * l_a + b * l_b, a[..., None] * acc_a + b[..., None] * acc_b
                '''),
        Mistake(
            "rescaling l but not acc",
            principle="The sum and the accumulator are rescaled by the same factor.",
            fix="acc is summed with the same exp(s - m) weights as l: rescale it with the same factors "
                "(`scale_a[..., None] * acc_a`).",
            fails=_MERGE + _EMPTY, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    m = np.maximum(m_a, m_b)
                    l = np.exp(m_a - m) * l_a + np.exp(m_b - m) * l_b
                    return m, l, acc_a + acc_b
                '''),
        Mistake(
            "averaging the two parts' outputs with equal weights",
            principle="Each part counts in proportion to its (rescaled) sum of exponentials.",
            fix="the parts do not count equally: their weights are exp(m_a - m) l_a and exp(m_b - m) l_b; "
                "merge the unnormalised acc and l, not the outputs.",
            fails=_MERGE + _EMPTY, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    m = np.maximum(m_a, m_b)
                    l = np.exp(m_a - m) * l_a + np.exp(m_b - m) * l_b
                    out_a, out_b = acc_a / l_a[..., None], acc_b / l_b[..., None]
                    return m, l, (out_a + out_b) / 2 * l[..., None]
                '''),
        Mistake(
            "one global max over all queries instead of one per query",
            principle="Every query has its own running max.",
            fix="take the max per query, elementwise: `np.maximum(m_a, m_b)` of shape (..., Lq).",
            fails=_MERGE + _EMPTY, code='''
                def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
                    m = np.full(m_a.shape, max(np.max(m_a), np.max(m_b)))
                    a, b = np.exp(m_a - m), np.exp(m_b - m)
                    return m, a * l_a + b * l_b, a[..., None] * acc_a + b[..., None] * acc_b
                '''),
    ],
)


def _split_stats(rng, batch, Lq, Lk, Dv, scale, cut):
    """Stats of keys ``:cut`` and ``cut:`` of one random problem, with rows of varied scale."""
    offsets = rng.normal(size=(*batch, Lq, 1)) * scale  # (..., Lq, 1)
    scores = rng.normal(size=(*batch, Lq, Lk)) * scale + offsets  # (..., Lq, Lk)
    V = rng.normal(size=(*batch, Lk, Dv))  # (..., Lk, Dv)
    scores[..., 0::2, :cut] += 2 * scale  # even queries: the max is in part a, odd ones: in part b
    scores[..., 1::2, cut:] += 2 * scale
    return (*stats_of(scores[..., :cut], V[..., :cut, :]), *stats_of(scores[..., cut:], V[..., cut:, :]))


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(801 if hidden else 81, hidden)
    shapes = ([((), 5, 9, 2, 3.0, 4), ((3,), 4, 7, 3, 2.0, 5), ((), 3, 6, 4, 6.0, 1)] if hidden else
              [((), 4, 7, 3, 2.0, 3), ((2,), 3, 8, 2, 4.0, 5), ((), 6, 5, 1, 1.0, 2)])
    return [Case(_split_stats(rng, *s), why="two parts of the keys; the max is in part a for some "
                 "queries, in part b for others") for s in shapes]


def empty_cases(hidden: bool) -> list[Case]:
    rng = case_rng(802 if hidden else 82, hidden)
    out = []
    for batch, Lq, Lk, Dv, cut in ([((), 5, 6, 2, 3), ((2,), 3, 5, 4, 2)] if hidden else
                                   [((), 4, 5, 3, 2), ((2,), 3, 6, 2, 4)]):
        m_a, l_a, acc_a, m_b, l_b, acc_b = _split_stats(rng, batch, Lq, Lk, Dv, 2.0, cut)
        m_a[..., 0], l_a[..., 0], acc_a[..., 0, :] = -np.inf, 0.0, 0.0  # query 0: part a saw nothing
        m_b[..., 1], l_b[..., 1], acc_b[..., 1, :] = -np.inf, 0.0, 0.0  # query 1: part b saw nothing
        for s in (m_a, m_b):
            s[..., -1] = -np.inf  # the last query: neither part saw a key
        for s in (l_a, l_b):
            s[..., -1] = 0.0
        for s in (acc_a, acc_b):
            s[..., -1, :] = 0.0
        out.append(Case((m_a, l_a, acc_a, m_b, l_b, acc_b),
                        why="parts that have seen no key (m = -inf, l = 0, acc = 0), and a query "
                        "that no part has seen a key for"))
    return out


def check_merge_softmax_stats(merge_softmax_stats, hidden: bool = False) -> None:
    """Check that ``merge_softmax_stats`` merges two parts exactly (the stats of all the keys)."""
    CARD.check(merge_softmax_stats, cases(hidden), hidden=hidden,
               passed="two parts merge into the statistics of all the keys")


def check_merge_softmax_stats_empty(merge_softmax_stats, hidden: bool = False) -> None:
    """Check that a part that has seen no key (``m = -inf``) merges without NaN."""
    CARD.check(merge_softmax_stats, empty_cases(hidden), hidden=hidden,
               passed="empty parts (m = -inf) merge without NaN")
