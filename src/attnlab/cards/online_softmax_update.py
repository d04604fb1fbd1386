"""online_softmax_update (notebook 08): one tile of scores and values folded into the running
softmax statistics ``(m, l, acc)``: the new max, and the old sums rescaled to it.

The cases hold rows whose max goes up and rows whose max stays, the first tile (``m = -inf``),
batches, and masked keys (``-inf`` scores): a query that has seen only masked keys, a fully masked
tile, a partly masked one.
"""
from __future__ import annotations

import numpy as np

from .. import efficient as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ..checks.efficient_attention import STATS, stats_of
from ._card import Card, Contract

_UPDATE = ("test_online_softmax_update",)
_MASKED = ("test_online_softmax_update_masked",)

CARD = Card(
    "online_softmax_update", "08_efficient_attention",
    summary="m' = max(m, tile max); l and acc rescaled by exp(m - m') and the tile's exp(s - m') "
            "terms added",
    contract=Contract(
        args=("m", "l", "acc", "scores", "V_tile"), reference=_ref.online_softmax_update,
        invoke=invoke_numpy, outputs=STATS,
        shapes="m and l (..., Lq), acc (..., Lq, Dv), scores (..., Lq, T), V_tile (..., T, Dv); "
               "masked keys have score -inf",
        returns="the new (m, l, acc): acc stays unnormalised; masked keys get weight 0 and no NaN "
                "appears, even for a query that has seen only masked keys"),
    mistakes=[
        Mistake(
            "NaN for a query whose scores so far are all -inf (exp(-inf - (-inf)))",
            principle="While a query has seen no allowed key, its rescaling must give 0, not NaN.",
            fix="while the running max is still -inf, rescale with 0: e.g. "
                "`m_safe = np.where(m_new == -np.inf, 0.0, m_new)`, then `np.exp(m - m_safe)` and "
                "`np.exp(scores - m_safe[..., None])`.",
            fails=_MASKED, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m_new = np.maximum(m, scores.max(axis=-1))
                    alpha = np.exp(m - m_new)
                    p = np.exp(scores - m_new[..., None])
                    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
                '''),
        Mistake(
            "NaN for a tile whose scores are all -inf (the tile's own max is -inf)",
            principle="A fully masked tile contributes nothing; guard the -inf max.",
            fix="a fully masked tile has max -inf, and exp(-inf - (-inf)) is NaN: replace an infinite "
                "max by 0 before subtracting it (`np.where(m_tile == -np.inf, 0.0, m_tile)`), so that "
                "the tile contributes l = 0 and acc = 0.",
            fails=_MASKED, label="merge of raw tile stats", code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m_t = scores.max(axis=-1)
                    p = np.exp(scores - m_t[..., None])
                    return attnlab.merge_softmax_stats(m, l, acc, m_t, p.sum(axis=-1), p @ V_tile)
                '''),
        Mistake(
            "not rescaling the accumulator when the max changes",
            principle="When the running max rises, scale the accumulator down by the same factor as l.",
            fix="acc holds sums of exp(s - m) v; when the max rises to m', multiply the old acc by "
                "exp(m - m') before adding the tile's `p @ V_tile`.",
            fails=_UPDATE, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m_new = np.maximum(m, scores.max(axis=-1))
                    m_safe = np.where(m_new == -np.inf, 0.0, m_new)
                    p = np.exp(scores - m_safe[..., None])
                    return m_new, np.exp(m - m_safe) * l + p.sum(axis=-1), acc + p @ V_tile
                '''),
        Mistake(
            "not rescaling l when the max changes",
            principle="When the running max rises, scale l down by the same factor as the accumulator.",
            fix="l is a sum of exp(s - m); when the max rises to m', multiply the old l by exp(m - m') "
                "before adding the tile's `p.sum(axis=-1)`.",
            fails=_UPDATE, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m_new = np.maximum(m, scores.max(axis=-1))
                    m_safe = np.where(m_new == -np.inf, 0.0, m_new)
                    alpha = np.exp(m - m_safe)
                    p = np.exp(scores - m_safe[..., None])
                    return m_new, l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
                '''),
        Mistake(
            "not rescaling l or acc when the max changes",
            principle="When the running max rises, scale both l and the accumulator down.",
            fix="both running sums are relative to the old max m: multiply them by exp(m - m') with "
                "m' = max(m, tile max) before adding the tile's terms.",
            fails=_UPDATE, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m = np.maximum(m, scores.max(axis=-1))       # m is overwritten before the rescale factor
                    m_safe = np.where(m == -np.inf, 0.0, m)
                    alpha = np.exp(m - m_safe)
                    p = np.exp(scores - m_safe[..., None])
                    return m, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
                '''),
        Mistake(
            "using the tile's max instead of the new running max for the tile's exponentials",
            principle="The tile's exponentials are taken relative to the new running max.",
            fix="compute the tile's terms relative to the same max as everything else: "
                "`p = np.exp(scores - m_new[..., None])` with `m_new = np.maximum(m, scores.max(-1))`.",
            fails=_UPDATE + _MASKED, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m_tile = scores.max(axis=-1)
                    m_new = np.maximum(m, m_tile)
                    alpha = np.exp(m - m_new)
                    p = np.exp(scores - m_tile[..., None])
                    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
                '''),
        Mistake(
            "taking the tile's max as the new max (forgetting the running max)",
            principle="The new max is the larger of the running max and the tile's max.",
            fix="the new max is `np.maximum(m, scores.max(axis=-1))`: a tile whose scores are all "
                "below the running max must not lower it.",
            fails=_UPDATE + _MASKED, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m_new = scores.max(axis=-1)
                    alpha = np.exp(m - m_new)
                    p = np.exp(scores - m_new[..., None])
                    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
                '''),
        Mistake(
            "rescaling with exp(m' - m) instead of exp(m - m')",
            principle="The rescaling factor is ≤ 1: the old max minus the new max, exponentiated.",
            fix="when the max goes up from m to m', the old sums shrink: their factor is "
                "exp(m - m') <= 1.",
            fails=_UPDATE + _MASKED, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m_new = np.maximum(m, scores.max(axis=-1))
                    alpha = np.exp(m_new - m)
                    p = np.exp(scores - m_new[..., None])
                    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
                '''),
        Mistake(
            "normalising the accumulator inside the update (dividing by l)",
            principle="The update keeps the unnormalised accumulator; divide by l only at the end.",
            fix="keep acc unnormalised; divide by l only once, after the last tile.",
            fails=_UPDATE + _MASKED, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    m_new = np.maximum(m, scores.max(axis=-1))
                    m_safe = np.where(m_new == -np.inf, 0.0, m_new)
                    alpha = np.exp(m - m_safe)
                    p = np.exp(scores - m_safe[..., None])
                    l_new = alpha * l + p.sum(axis=-1)
                    return m_new, l_new, (alpha[..., None] * acc + p @ V_tile) / l_new[..., None]
                '''),
        Mistake(
            "no running max at all (exp of the raw scores)",
            principle="Exponentials are taken relative to a running max, or they overflow.",
            fix="subtract the running max: exp(s) overflows or underflows for large scores; keep "
                "m' = max(m, tile max) and use exp(s - m').",
            fails=_UPDATE + _MASKED, code='''
                def online_softmax_update(m, l, acc, scores, V_tile):
                    p = np.exp(scores)  # no max: the sums are of the raw exponentials
                    return np.zeros_like(m), l + p.sum(axis=-1), acc + p @ V_tile
                '''),
    ],
)


def _running_state(rng, batch, Lq, Dv, n_seen, scale):
    """Statistics after ``n_seen`` keys (``n_seen = 0``: the empty start)."""
    if n_seen == 0:
        return _ref.empty_softmax_stats(batch, Lq, Dv)
    scores = rng.normal(size=(*batch, Lq, n_seen)) * scale
    return stats_of(scores, rng.normal(size=(*batch, n_seen, Dv)))


def _tile(rng, batch, Lq, T, Dv, scale):
    scores = rng.normal(size=(*batch, Lq, T)) * scale  # (..., Lq, T)
    scores[..., 0::2, :] += 2.5 * scale  # even queries: the max goes up; odd ones: it stays
    scores[..., 1::2, :] -= 2.5 * scale
    return scores, rng.normal(size=(*batch, T, Dv))


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(811 if hidden else 91, hidden)
    specs = ([((), 5, 4, 3, 2, 2.0), ((2,), 4, 2, 5, 3, 3.0), ((), 3, 6, 1, 4, 1.5), ((), 4, 3, 2, 0, 2.0)]
             if hidden else
             [((), 4, 3, 2, 5, 2.0), ((2,), 3, 4, 3, 2, 3.0), ((), 5, 2, 4, 3, 1.0), ((), 3, 4, 2, 0, 2.0)])
    out = []
    for batch, Lq, T, Dv, n_seen, scale in specs:
        m, l, acc = _running_state(rng, batch, Lq, Dv, n_seen, scale)
        scores, V_tile = _tile(rng, batch, Lq, T, Dv, scale)
        why = ("the first tile (m = -inf, l = 0, acc = 0)" if n_seen == 0 else
               f"after {n_seen} keys; the max goes up for even queries and stays for odd ones")
        out.append(Case((m, l, acc, scores, V_tile), why=why))
    return out


def masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(812 if hidden else 92, hidden)
    out = []
    for batch, Lq, T, Dv, n_seen in ([((), 4, 3, 2, 3), ((2,), 3, 5, 3, 2)] if hidden else
                                     [((), 4, 5, 3, 2), ((3,), 3, 2, 2, 4)]):
        m, l, acc = _running_state(rng, batch, Lq, Dv, n_seen, 2.0)
        m[..., 0], l[..., 0], acc[..., 0, :] = -np.inf, 0.0, 0.0  # query 0 has seen only masked keys
        m[..., 1], l[..., 1], acc[..., 1, :] = -np.inf, 0.0, 0.0  # so has query 1
        scores, V_tile = _tile(rng, batch, Lq, T, Dv, 2.0)
        scores[..., 0, :] = -np.inf  # query 0: this tile is masked too
        scores[..., 2, :] = -np.inf  # query 2: masked tile, but it has seen keys before
        scores[..., -1, ::2] = -np.inf  # the last query: some masked keys
        out.append(Case((m, l, acc, scores, V_tile),
                        why="masked keys (-inf scores): a query that has seen only masked keys, "
                        "a fully masked tile, a partly masked one"))
    return out


def check_online_softmax_update(online_softmax_update, hidden: bool = False) -> None:
    """Check that ``online_softmax_update`` folds a tile into the running statistics exactly."""
    CARD.check(online_softmax_update, cases(hidden), hidden=hidden,
               passed="the running max, normaliser and accumulator are updated exactly")


def check_online_softmax_update_masked(online_softmax_update, hidden: bool = False) -> None:
    """Check that masked keys (``-inf`` scores) get weight 0 and never produce NaN."""
    CARD.check(online_softmax_update, masked_cases(hidden), hidden=hidden,
               passed="masked keys get weight 0, without NaN")
