"""Checks for notebook 08, efficient_attention.

Exercises: ``merge_softmax_stats``, ``online_softmax_update``, ``tiled_attention``,
``weights_from_logsumexp`` and ``tiled_attention_backward``. Each check takes the learner's function and ``hidden=False``;
nbgrader's hidden tests call it with ``hidden=True``, which draws other inputs (other seeds,
lengths and tile sizes) than the visible ones.

The inputs are chosen so that the catalogued mistakes give different answers: rows whose
running max goes up and rows whose max stays, parts and tiles that have seen no key yet
(``m = -inf``), ``Lq != Lk``, ``Dk != Dv``, tile sizes that divide neither length, batches, and
scores around -3000 (where any exponential without the max underflows). Two checks watch *how*
``tiled_attention`` computes, not only what it returns:

* ``check_tiled_attention_memory`` measures the peak memory of the call (numpy and torch alike:
  the peak resident memory of a forked child running only the call) and fails if it reaches a
  quarter of the ``(Lq, Lk)`` score matrix; the course's grader takes that measurement itself,
  outside the learner's process (``invoke_measuring_memory.measured_outside``);
* ``check_tiled_attention_causal`` includes keys that no query may see (``Lq < Lk``), filled
  with NaN: a version that reads the tiles above the diagonal, even to mask them, returns NaN.
"""
from __future__ import annotations

import numpy as np

from .. import efficient as _ref
from ..attention import scaled_dot_product_attention as _sdpa
from ..averages import softmax as _softmax
from ._contract import invoke_numpy
from ._contract import numpy_exercise
from ._core import Case, CheckRaised, Mistake, case_rng, run_check
from ._predict import Prediction, WrongPrediction
from ._memory import peak_of_call

_STATS = ("m", "l", "acc")


def _stats_of(scores: np.ndarray, V: np.ndarray):
    """``(m, l, acc)`` of the keys whose scores are ``scores (..., Lq, T)`` and values ``V``."""
    m, l, acc = _ref.empty_softmax_stats(scores.shape[:-2], scores.shape[-2], V.shape[-1])
    return _ref.online_softmax_update(m, l, acc, scores, V)


# ---------------------------------------------------------------------------------------------
# merge_softmax_stats

def _ms_no_rescale(m_a, l_a, acc_a, m_b, l_b, acc_b):
    return np.maximum(m_a, m_b), l_a + l_b, acc_a + acc_b


def _ms_one_side(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    s_a = np.exp(m_a - m)
    return m, s_a * l_a + l_b, s_a[..., None] * acc_a + acc_b


def _ms_keep_a(m_a, l_a, acc_a, m_b, l_b, acc_b):
    s_b = np.exp(m_b - m_a)
    return m_a, l_a + s_b * l_b, acc_a + s_b[..., None] * acc_b


def _ms_flipped(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    s_a, s_b = np.exp(m - m_a), np.exp(m - m_b)
    return m, s_a * l_a + s_b * l_b, s_a[..., None] * acc_a + s_b[..., None] * acc_b


def _ms_l_only(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    s_a, s_b = np.exp(m_a - m), np.exp(m_b - m)
    return m, s_a * l_a + s_b * l_b, acc_a + acc_b


def _ms_outputs(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    s_a, s_b = np.exp(m_a - m), np.exp(m_b - m)
    l = s_a * l_a + s_b * l_b
    return m, l, (acc_a / l_a[..., None] + acc_b / l_b[..., None]) / 2 * l[..., None]


def _ms_nan(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    s_a, s_b = np.exp(m_a - m), np.exp(m_b - m)  # -inf - (-inf) = NaN when both parts are empty
    return m, s_a * l_a + s_b * l_b, s_a[..., None] * acc_a + s_b[..., None] * acc_b


def _ms_np_max(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.max(m_a, m_b)  # the second argument of np.max is an axis
    return m, l_a + l_b, acc_a + acc_b


def _ms_global_max(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.full(m_a.shape, max(np.max(m_a), np.max(m_b)))
    s_a, s_b = np.exp(m_a - m), np.exp(m_b - m)
    return m, s_a * l_a + s_b * l_b, s_a[..., None] * acc_a + s_b[..., None] * acc_b


MERGE_MISTAKES = [
    Mistake("`np.max(m_a, m_b)` instead of `np.maximum(m_a, m_b)`",
            "`np.max(x, 1)` reads its second argument as an axis; the elementwise maximum of two "
            "arrays is `np.maximum(m_a, m_b)`.", _ms_np_max),
    Mistake("NaN when both parts have seen no key (exp(-inf - (-inf)))",
            "where the common max `m` is -inf, rescale with 0 instead: e.g. "
            "`m_safe = np.where(m == -np.inf, 0.0, m)` and `np.exp(m_a - m_safe)`; "
            "exp(-inf - 0) = 0 contributes nothing.", _ms_nan),
    Mistake("adding the two parts without rescaling them to a common max",
            "l_a and l_b are sums of exp(s - m_a) and exp(s - m_b): bring both to m = max(m_a, m_b) "
            "by multiplying with exp(m_a - m) and exp(m_b - m) before adding.", _ms_no_rescale),
    Mistake("rescaling only part a (part b is left relative to its own max)",
            "multiply part b by exp(m_b - m) as well.", _ms_one_side),
    Mistake("keeping m_a as the max instead of max(m_a, m_b)",
            "the merged max is the elementwise `np.maximum(m_a, m_b)`; rescale both parts to it.",
            _ms_keep_a),
    Mistake("rescaling with exp(m - m_a) instead of exp(m_a - m)",
            "a part whose max is below the common max shrinks: its factor is exp(m_a - m) <= 1.",
            _ms_flipped),
    Mistake("rescaling l but not acc",
            "acc is summed with the same exp(s - m) weights as l: rescale it with the same factors "
            "(`scale_a[..., None] * acc_a`).", _ms_l_only),
    Mistake("averaging the two parts' outputs with equal weights",
            "the parts do not count equally: their weights are exp(m_a - m) l_a and exp(m_b - m) l_b; "
            "merge the unnormalised acc and l, not the outputs.", _ms_outputs),
    Mistake("one global max over all queries instead of one per query",
            "take the max per query, elementwise: `np.maximum(m_a, m_b)` of shape (..., Lq).",
            _ms_global_max),
]


def _split_stats(rng, batch, Lq, Lk, Dv, scale, cut):
    """Stats of keys ``:cut`` and ``cut:`` of one random problem, with rows of varied scale."""
    offsets = rng.normal(size=(*batch, Lq, 1)) * scale  # (..., Lq, 1)
    scores = rng.normal(size=(*batch, Lq, Lk)) * scale + offsets  # (..., Lq, Lk)
    V = rng.normal(size=(*batch, Lk, Dv))  # (..., Lk, Dv)
    scores[..., 0::2, :cut] += 2 * scale  # even queries: the max is in part a, odd ones: in part b
    scores[..., 1::2, cut:] += 2 * scale
    return (*_stats_of(scores[..., :cut], V[..., :cut, :]), *_stats_of(scores[..., cut:], V[..., cut:, :]))


def _ms_cases(hidden: bool) -> list[Case]:
    rng = case_rng(801 if hidden else 81, hidden)
    shapes = ([((), 5, 9, 2, 3.0, 4), ((3,), 4, 7, 3, 2.0, 5), ((), 3, 6, 4, 6.0, 1)] if hidden else
              [((), 4, 7, 3, 2.0, 3), ((2,), 3, 8, 2, 4.0, 5), ((), 6, 5, 1, 1.0, 2)])
    return [Case(_split_stats(rng, *s), why="two parts of the keys; the max is in part a for some "
                 "queries, in part b for others") for s in shapes]


def _ms_empty_cases(hidden: bool) -> list[Case]:
    rng = case_rng(802 if hidden else 82, hidden)
    cases = []
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
        cases.append(Case((m_a, l_a, acc_a, m_b, l_b, acc_b),
                          why="parts that have seen no key (m = -inf, l = 0, acc = 0), and a query "
                          "that no part has seen a key for"))
    return cases


_MS_ARGS = ("m_a", "l_a", "acc_a", "m_b", "l_b", "acc_b")


def check_merge_softmax_stats(merge_softmax_stats, hidden: bool = False) -> None:
    """Check that ``merge_softmax_stats`` merges two parts exactly (the stats of all the keys)."""
    run_check(merge_softmax_stats, exercise="merge_softmax_stats", reference=_ref.merge_softmax_stats,
              cases=_ms_cases(hidden), mistakes=MERGE_MISTAKES, arg_names=_MS_ARGS, outputs=_STATS,
              show_values=not hidden, passed="two parts merge into the statistics of all the keys",
              invoke=invoke_numpy)


def check_merge_softmax_stats_empty(merge_softmax_stats, hidden: bool = False) -> None:
    """Check that a part that has seen no key (``m = -inf``) merges without NaN."""
    run_check(merge_softmax_stats, exercise="merge_softmax_stats", reference=_ref.merge_softmax_stats,
              cases=_ms_empty_cases(hidden), mistakes=MERGE_MISTAKES, arg_names=_MS_ARGS, outputs=_STATS,
              show_values=not hidden, passed="empty parts (m = -inf) merge without NaN",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# online_softmax_update

def _up_no_acc_rescale(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    p = np.exp(scores - m_new[..., None])
    return m_new, np.exp(m - m_new) * l + p.sum(axis=-1), acc + p @ V_tile


def _up_no_l_rescale(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(scores - m_new[..., None])
    return m_new, l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile


def _up_no_rescale(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    p = np.exp(scores - m_new[..., None])
    return m_new, l + p.sum(axis=-1), acc + p @ V_tile


def _up_tile_max(m, l, acc, scores, V_tile):
    m_tile = scores.max(axis=-1)
    m_new = np.maximum(m, m_tile)
    alpha = np.exp(m - m_new)
    p = np.exp(scores - m_tile[..., None])  # relative to the tile's max, not the running one
    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile


def _up_forget_max(m, l, acc, scores, V_tile):
    m_new = scores.max(axis=-1)  # the old max is forgotten
    alpha = np.exp(m - m_new)
    p = np.exp(scores - m_new[..., None])
    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile


def _up_flipped(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    alpha = np.exp(m_new - m)
    p = np.exp(scores - m_new[..., None])
    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile


def _up_normalised(m, l, acc, scores, V_tile):
    m_new, l_new, acc_new = _ref.online_softmax_update(m, l, acc, scores, V_tile)
    return m_new, l_new, acc_new / l_new[..., None]


def _up_nan(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    alpha = np.exp(m - m_new)  # NaN while every score so far is -inf
    p = np.exp(scores - m_new[..., None])
    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile


def _up_nan_tile(m, l, acc, scores, V_tile):
    m_tile = scores.max(axis=-1)
    p = np.exp(scores - m_tile[..., None])  # NaN for a fully masked tile (-inf - (-inf))
    return _ref.merge_softmax_stats(m, l, acc, m_tile, p.sum(axis=-1), p @ V_tile)


def _up_no_max(m, l, acc, scores, V_tile):
    p = np.exp(scores)
    return np.zeros_like(m), l + p.sum(axis=-1), acc + p @ V_tile


UPDATE_MISTAKES = [
    Mistake("NaN for a query whose scores so far are all -inf (exp(-inf - (-inf)))",
            "while the running max is still -inf, rescale with 0: e.g. "
            "`m_safe = np.where(m_new == -np.inf, 0.0, m_new)`, then `np.exp(m - m_safe)` and "
            "`np.exp(scores - m_safe[..., None])`.", _up_nan),
    Mistake("NaN for a tile whose scores are all -inf (the tile's own max is -inf)",
            "a fully masked tile has max -inf, and exp(-inf - (-inf)) is NaN: replace an infinite "
            "max by 0 before subtracting it (`np.where(m_tile == -np.inf, 0.0, m_tile)`), so that "
            "the tile contributes l = 0 and acc = 0.", _up_nan_tile),
    Mistake("not rescaling the accumulator when the max changes",
            "acc holds sums of exp(s - m) v; when the max rises to m', multiply the old acc by "
            "exp(m - m') before adding the tile's `p @ V_tile`.", _up_no_acc_rescale),
    Mistake("not rescaling l when the max changes",
            "l is a sum of exp(s - m); when the max rises to m', multiply the old l by exp(m - m') "
            "before adding the tile's `p.sum(axis=-1)`.", _up_no_l_rescale),
    Mistake("not rescaling l or acc when the max changes",
            "both running sums are relative to the old max m: multiply them by exp(m - m') with "
            "m' = max(m, tile max) before adding the tile's terms.", _up_no_rescale),
    Mistake("using the tile's max instead of the new running max for the tile's exponentials",
            "compute the tile's terms relative to the same max as everything else: "
            "`p = np.exp(scores - m_new[..., None])` with `m_new = np.maximum(m, scores.max(-1))`.",
            _up_tile_max),
    Mistake("taking the tile's max as the new max (forgetting the running max)",
            "the new max is `np.maximum(m, scores.max(axis=-1))`: a tile whose scores are all "
            "below the running max must not lower it.", _up_forget_max),
    Mistake("rescaling with exp(m' - m) instead of exp(m - m')",
            "when the max goes up from m to m', the old sums shrink: their factor is "
            "exp(m - m') <= 1.", _up_flipped),
    Mistake("normalising the accumulator inside the update (dividing by l)",
            "keep acc unnormalised; divide by l only once, after the last tile.", _up_normalised),
    Mistake("no running max at all (exp of the raw scores)",
            "subtract the running max: exp(s) overflows or underflows for large scores; keep "
            "m' = max(m, tile max) and use exp(s - m').", _up_no_max),
]


def _running_state(rng, batch, Lq, Dv, n_seen, scale):
    """Statistics after ``n_seen`` keys (``n_seen = 0``: the empty start)."""
    if n_seen == 0:
        return _ref.empty_softmax_stats(batch, Lq, Dv)
    scores = rng.normal(size=(*batch, Lq, n_seen)) * scale
    return _stats_of(scores, rng.normal(size=(*batch, n_seen, Dv)))


def _tile(rng, batch, Lq, T, Dv, scale):
    scores = rng.normal(size=(*batch, Lq, T)) * scale  # (..., Lq, T)
    scores[..., 0::2, :] += 2.5 * scale  # even queries: the max goes up; odd ones: it stays
    scores[..., 1::2, :] -= 2.5 * scale
    return scores, rng.normal(size=(*batch, T, Dv))


def _up_cases(hidden: bool) -> list[Case]:
    rng = case_rng(811 if hidden else 91, hidden)
    specs = ([((), 5, 4, 3, 2, 2.0), ((2,), 4, 2, 5, 3, 3.0), ((), 3, 6, 1, 4, 1.5), ((), 4, 3, 2, 0, 2.0)]
             if hidden else
             [((), 4, 3, 2, 5, 2.0), ((2,), 3, 4, 3, 2, 3.0), ((), 5, 2, 4, 3, 1.0), ((), 3, 4, 2, 0, 2.0)])
    cases = []
    for batch, Lq, T, Dv, n_seen, scale in specs:
        m, l, acc = _running_state(rng, batch, Lq, Dv, n_seen, scale)
        scores, V_tile = _tile(rng, batch, Lq, T, Dv, scale)
        why = ("the first tile (m = -inf, l = 0, acc = 0)" if n_seen == 0 else
               f"after {n_seen} keys; the max goes up for even queries and stays for odd ones")
        cases.append(Case((m, l, acc, scores, V_tile), why=why))
    return cases


def _up_masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(812 if hidden else 92, hidden)
    cases = []
    for batch, Lq, T, Dv, n_seen in ([((), 4, 3, 2, 3), ((2,), 3, 5, 3, 2)] if hidden else
                                     [((), 4, 5, 3, 2), ((3,), 3, 2, 2, 4)]):
        m, l, acc = _running_state(rng, batch, Lq, Dv, n_seen, 2.0)
        m[..., 0], l[..., 0], acc[..., 0, :] = -np.inf, 0.0, 0.0  # query 0 has seen only masked keys
        m[..., 1], l[..., 1], acc[..., 1, :] = -np.inf, 0.0, 0.0  # so has query 1
        scores, V_tile = _tile(rng, batch, Lq, T, Dv, 2.0)
        scores[..., 0, :] = -np.inf  # query 0: this tile is masked too
        scores[..., 2, :] = -np.inf  # query 2: masked tile, but it has seen keys before
        scores[..., -1, ::2] = -np.inf  # the last query: some masked keys
        cases.append(Case((m, l, acc, scores, V_tile),
                          why="masked keys (-inf scores): a query that has seen only masked keys, "
                          "a fully masked tile, a partly masked one"))
    return cases


_UP_ARGS = ("m", "l", "acc", "scores", "V_tile")


def check_online_softmax_update(online_softmax_update, hidden: bool = False) -> None:
    """Check that ``online_softmax_update`` folds a tile into the running statistics exactly."""
    run_check(online_softmax_update, exercise="online_softmax_update",
              reference=_ref.online_softmax_update, cases=_up_cases(hidden), mistakes=UPDATE_MISTAKES,
              arg_names=_UP_ARGS, outputs=_STATS, show_values=not hidden,
              passed="the running max, normaliser and accumulator are updated exactly",
              invoke=invoke_numpy)


def check_online_softmax_update_masked(online_softmax_update, hidden: bool = False) -> None:
    """Check that masked keys (``-inf`` scores) get weight 0 and never produce NaN."""
    run_check(online_softmax_update, exercise="online_softmax_update",
              reference=_ref.online_softmax_update, cases=_up_masked_cases(hidden),
              mistakes=UPDATE_MISTAKES, arg_names=_UP_ARGS, outputs=_STATS, show_values=not hidden,
              passed="masked keys get weight 0, without NaN",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# tiled_attention

def _tiles(L, T):
    return [(a, min(a + T, L)) for a in range(0, L, T)]


def _tiled(Q, K, V, tile_size, causal=False, *, scale=True, m0=-np.inf, stop="right",
           mask="right", reset=True, normalise=True, key_tiles=_tiles, update=None):
    """Tiled attention as a learner writes it (naive final division), with one thing changed
    by the keyword arguments: the wrong implementations below."""
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    out = np.zeros((*batch, Lq, Dv))
    lse = np.zeros((*batch, Lq))
    T = tile_size
    m = l = acc = None
    with np.errstate(all="ignore"):
        for i0, i1 in _tiles(Lq, T):
            if reset or m is None:
                m = np.full((*batch, i1 - i0), m0)
                l = np.zeros((*batch, i1 - i0))
                acc = np.zeros((*batch, i1 - i0, Dv))
            else:  # the previous query tile's statistics, carried over (cut to a shorter last tile)
                m, l, acc = m[..., :i1 - i0], l[..., :i1 - i0], acc[..., :i1 - i0, :]
            end = Lk
            if causal:
                end = {"right": min(Lk, i1), "diagonal_skipped": min(Lk, i0),
                       "one_more": min(Lk, i1 + T), "no_skip": Lk}[stop]
            for j0, j1 in key_tiles(Lk, T):
                if j0 >= end:
                    continue
                s = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2)  # (..., Tq, T)
                if scale:
                    s = s / np.sqrt(Dk)
                if causal:
                    i = np.arange(i0, i1)[:, None]
                    j = np.arange(j0, j1)[None, :]
                    visible = {"right": j <= i, "strict": j < i, "local": (j - j0) <= (i - i0),
                               "bottom_right": j <= i + (Lk - Lq), "outside_only": (j <= i) | (j1 <= i1)}[mask]
                    s = np.where(visible, s, -np.inf)
                m, l, acc = (update or _ref.online_softmax_update)(m, l, acc, s, V[..., j0:j1, :])
            out[..., i0:i1, :] = acc / l[..., None] if normalise else acc
            lse[..., i0:i1] = m + np.log(l)
    return out, lse


def _ta_no_scale(Q, K, V, tile_size, causal=False):
    return _tiled(Q, K, V, tile_size, causal, scale=False)


def _ta_m0_zero(Q, K, V, tile_size, causal=False):
    return _tiled(Q, K, V, tile_size, causal, m0=0.0)


def _ta_no_rescale(Q, K, V, tile_size, causal=False):
    return _tiled(Q, K, V, tile_size, causal, update=_up_no_rescale)


def _ta_drop_partial(Q, K, V, tile_size, causal=False):
    def full_tiles(L, T):
        return [(a, a + T) for a in range(0, L - T + 1, T)]
    return _tiled(Q, K, V, tile_size, causal, key_tiles=full_tiles)


def _ta_no_reset(Q, K, V, tile_size, causal=False):
    return _tiled(Q, K, V, tile_size, causal, reset=False)


def _ta_unnormalised(Q, K, V, tile_size, causal=False):
    return _tiled(Q, K, V, tile_size, causal, normalise=False)


def _ta_log_l(Q, K, V, tile_size, causal=False):
    # log(l) without the running max: recompute l relative to the max
    out, lse = _ref.tiled_attention(Q, K, V, tile_size, causal)
    Qf, Kf = np.asarray(Q, dtype=float), np.asarray(K, dtype=float)
    s = Qf @ np.swapaxes(Kf, -1, -2) / np.sqrt(Qf.shape[-1])
    if causal:
        s = np.where(np.arange(s.shape[-1])[None, :] <= np.arange(s.shape[-2])[:, None], s, -np.inf)
    return out, lse - s.max(axis=-1)


def _ta_output_only(Q, K, V, tile_size, causal=False):
    return _ref.tiled_attention(Q, K, V, tile_size, causal)[0]


def _ta_per_tile_sum(Q, K, V, tile_size, causal=False):
    """Each key tile normalised on its own, the tiles' outputs added."""
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    out = 0
    for j0, j1 in _tiles(K.shape[-2], tile_size):
        out = out + _sdpa(Q, K[..., j0:j1, :], V[..., j0:j1, :])[0]
    return out, _ref.tiled_attention(Q, K, V, tile_size, causal)[1]


def _ta_per_tile_mean(Q, K, V, tile_size, causal=False):
    out, lse = _ta_per_tile_sum(Q, K, V, tile_size, causal)
    return out / len(_tiles(np.shape(K)[-2], tile_size)), lse


def _ta_weights(Q, K, V, tile_size, causal=False):
    from ..masks import causal_mask
    Q, K = np.asarray(Q, dtype=float), np.asarray(K, dtype=float)
    mask = causal_mask(Q.shape[-2], K.shape[-2]) if causal else None
    return _sdpa(Q, K, V, mask)


TILED_MISTAKES = [
    Mistake("returning only the output, not (output, logsumexp)",
            "return a tuple `(output, logsumexp)` with logsumexp = m + log(l) of shape (..., Lq).",
            _ta_output_only),
    Mistake("returning the (Lq, Lk) weights instead of the log-sum-exp",
            "the second item is logsumexp = m + np.log(l), one number per query (..., Lq): the "
            "weights are exactly what tiling avoids storing.", _ta_weights),
    Mistake("forgetting the 1/√Dk scale of the scores",
            "divide each tile of scores by `np.sqrt(Dk)` (or scale Q once before the loops).",
            _ta_no_scale),
    Mistake("initialising the running max at 0 instead of -inf",
            "start every query tile with `m = np.full(..., -np.inf)`: with m = 0, scores far below "
            "0 (here about -3000) underflow to exp(s - 0) = 0 and l stays 0.", _ta_m0_zero),
    Mistake("not rescaling l and acc when a later tile raises the max",
            "keep the old max until the rescale factor is computed: `m_new = np.maximum(m, "
            "s.max(-1))`, `alpha = np.exp(m - m_new)`, then `l = alpha * l + ...`, "
            "`acc = alpha[..., None] * acc + ...` (or call `attnlab.online_softmax_update`).",
            _ta_no_rescale),
    Mistake("dropping the last, partial tile of keys",
            "loop `for j0 in range(0, Lk, tile_size)` with `j1 = min(j0 + tile_size, Lk)`: when "
            "tile_size does not divide Lk the last tile is shorter, not missing.", _ta_drop_partial),
    Mistake("not resetting m, l and acc for each tile of queries",
            "create fresh statistics (m = -inf, l = 0, acc = 0) at the start of every query tile: "
            "each query's sums run over its own scores only.", _ta_no_reset),
    Mistake("normalising each tile of keys on its own and adding the tiles' outputs",
            "a softmax per tile gives weights that sum to one per tile; carry (m, l, acc) across the "
            "tiles with the online update and divide by l once, at the end.", _ta_per_tile_sum),
    Mistake("averaging the tiles' outputs (each tile normalised on its own)",
            "tiles do not count equally: carry (m, l, acc) across the tiles with the online update "
            "and divide acc by l once, at the end.", _ta_per_tile_mean),
    Mistake("not dividing acc by l at the end",
            "the output is `acc / l[..., None]`, computed once after the last key tile.",
            _ta_unnormalised),
    Mistake("returning log(l) without adding the running max",
            "l is relative to the max m: the log-sum-exp of the scores is `m + np.log(l)`.", _ta_log_l),
]


def _ta_no_skip(Q, K, V, tile_size, causal=False):
    return _tiled(Q, K, V, tile_size, causal, stop="no_skip")


def _ta_skip_diagonal(Q, K, V, tile_size, causal=False):
    return _tiled(Q, K, V, tile_size, causal, stop="diagonal_skipped")


def _ta_one_more(Q, K, V, tile_size, causal=False):
    return _tiled(Q, K, V, tile_size, causal, stop="one_more")


def _ta_mask_kind(kind):
    def impl(Q, K, V, tile_size, causal=False):
        return _tiled(Q, K, V, tile_size, causal, mask=kind)
    return impl


def _ta_ignores_causal(Q, K, V, tile_size, causal=False):
    return _ref.tiled_attention(Q, K, V, tile_size, causal=False)


CAUSAL_MISTAKES = [
    Mistake("ignoring `causal` (every query sees every key)",
            "with causal=True, query i may only see keys j <= i: mask the scores of keys j > i "
            "with -inf.", _ta_ignores_causal),
    Mistake("skipping the diagonal tile (an off-by-one in the key loop)",
            "the tile that holds the diagonal is only partly masked: loop over key tiles that start "
            "before the query tile ends, `range(0, min(Lk, i1), tile_size)`, and mask inside the "
            "diagonal tile.", _ta_skip_diagonal),
    Mistake("visiting one key tile past the diagonal (an off-by-one in the key loop)",
            "the last key tile a query tile [i0, i1) needs is the one holding key i1 - 1: stop the "
            "key loop at `min(Lk, i1)`; the keys after it are all masked and must not be read.",
            _ta_one_more),
    Mistake("reading the tiles above the diagonal (masking them instead of skipping them)",
            "a key tile that starts at j0 >= i1 is entirely masked for the query tile [i0, i1): "
            "skip it (stop the key loop at `min(Lk, i1)`) instead of computing and masking it. "
            "Here those keys hold NaN, which a masked tile still multiplies into acc (0 * NaN = NaN).",
            _ta_no_skip),
    Mistake("leaving the diagonal tile unmasked (masking only tiles that stick out past the query tile)",
            "inside the tile that crosses the diagonal, query i still must not see keys j > i: mask "
            "it with `j <= i` using the global indices i0 + r and j0 + c.", _ta_mask_kind("outside_only")),
    Mistake("a strict mask j < i (a query cannot see its own key)",
            "the causal mask is `j <= i`: query i sees keys 0..i, itself included.",
            _ta_mask_kind("strict")),
    Mistake("masking with the tile's local indices instead of the global ones",
            "compare global positions: query i0 + r against key j0 + c. With local indices a tile "
            "below the diagonal (fully visible) is masked as if it were the diagonal tile.",
            _ta_mask_kind("local")),
    Mistake("a bottom-right aligned causal mask (j <= i + Lk - Lq)",
            "the course's causal mask is top-left aligned, as `attnlab.causal_mask(Lq, Lk)` and "
            "`is_causal=True`: query i sees keys j <= i whatever Lq and Lk.",
            _ta_mask_kind("bottom_right")),
] + TILED_MISTAKES


def _qkv(rng, batch, Lq, Lk, Dk, Dv, shift=0.0):
    Q = rng.normal(size=(*batch, Lq, Dk)) + shift
    K = rng.normal(size=(*batch, Lk, Dk)) - shift
    V = rng.normal(size=(*batch, Lk, Dv))
    return Q, K, V


def _ta_cases(hidden: bool) -> list[Case]:
    rng = case_rng(821 if hidden else 101, hidden)
    specs = ([((), 6, 10, 3, 2, 4, "a tile size that divides neither length"),
              ((3,), 5, 4, 2, 3, 2, "a batch"),
              ((), 3, 7, 4, 5, 1, "tiles of one"),
              ((), 4, 6, 2, 3, 16, "one tile larger than both lengths")] if hidden else
             [((), 5, 7, 3, 4, 3, "Lq != Lk, a tile size that divides neither"),
              ((2,), 6, 8, 4, 2, 4, "a batch; the tile size divides Lk"),
              ((), 4, 9, 2, 3, 1, "tiles of one"),
              ((), 3, 4, 5, 2, 10, "one tile larger than both lengths")])
    cases = [Case((*_qkv(rng, b, Lq, Lk, Dk, Dv), T), why=why) for b, Lq, Lk, Dk, Dv, T, why in specs]
    Q, K, V = _qkv(rng, (), 5 if hidden else 4, 7 if hidden else 6, 4, 3, shift=40.0)
    cases.append(Case((Q, K, V, 2 if hidden else 3),
                      why="scores around -3000: exp(s) underflows unless the running max is subtracted"))
    return cases


def _ta_causal_cases(hidden: bool) -> list[Case]:
    rng = case_rng(822 if hidden else 102, hidden)
    specs = ([((), 8, 8, 3, 2, 3), ((2,), 9, 5, 2, 3, 2), ((), 4, 7, 3, 3, 2)] if hidden else
             [((), 7, 7, 4, 2, 3), ((2,), 8, 5, 3, 2, 2), ((), 5, 9, 2, 3, 2)])
    cases = [Case((*_qkv(rng, b, Lq, Lk, Dk, Dv), T), {"causal": True},
                  why="causal, Lq == Lk" if Lq == Lk else f"causal, Lq {'>' if Lq > Lk else '<'} Lk")
             for b, Lq, Lk, Dk, Dv, T in specs]
    for Lq, Lk, T in ([(5, 11, 2), (6, 10, 3)] if hidden else [(5, 12, 2), (6, 11, 3)]):
        Q, K, V = _qkv(rng, (), Lq, Lk, 3, 2)
        first_unseen = -(-Lq // T) * T  # key tiles from here on lie above the diagonal for every query
        K[first_unseen:] = np.nan
        V[first_unseen:] = np.nan
        cases.append(Case((Q, K, V, T), {"causal": True},
                          why=f"causal, Lq < Lk: keys {first_unseen}.. are above the diagonal for every "
                          "query tile and hold NaN, so they must never be read"))
    return cases


def check_tiled_attention(tiled_attention, hidden: bool = False) -> None:
    """Check that ``tiled_attention`` equals scaled dot-product attention (to 1e-10) and returns
    ``(output, logsumexp)``."""
    run_check(tiled_attention, exercise="tiled_attention", reference=_ref.tiled_attention,
              cases=_ta_cases(hidden), mistakes=TILED_MISTAKES,
              arg_names=("Q", "K", "V", "tile_size"), outputs=("output", "logsumexp"),
              rtol=1e-10, atol=1e-10, show_values=not hidden,
              passed="equals softmax(Q Kᵀ/√Dk) V and its log-sum-exp to 1e-10",
              invoke=invoke_numpy)


def check_tiled_attention_causal(tiled_attention, hidden: bool = False) -> None:
    """Check that ``tiled_attention(..., causal=True)`` masks keys j > i and skips the tiles above
    the diagonal."""
    run_check(tiled_attention, exercise="tiled_attention", reference=_ref.tiled_attention,
              cases=_ta_causal_cases(hidden), mistakes=CAUSAL_MISTAKES,
              arg_names=("Q", "K", "V", "tile_size"), outputs=("output", "logsumexp"),
              rtol=1e-10, atol=1e-10, show_values=not hidden,
              passed="causal: equals the masked attention and never reads a tile above the diagonal",
              invoke=invoke_numpy)


# -- memory ------------------------------------------------------------------------------------

MEMORY_FRACTION = 4  # the call may hold at most 1/4 of the (Lq, Lk) float64 score matrix at once


class TooMuchMemory(CheckRaised, Exception):
    """The learner's tiled_attention held too much memory at once."""


@numpy_exercise
def invoke_measuring_memory(fn, Q, K, V, tile_size, **kwargs):
    """Call ``fn`` and measure its peak extra memory (numpy, torch and Python alike: the call
    runs in a forked child, see :mod:`attnlab.checks._memory`); raise :class:`TooMuchMemory` if
    it reaches ``1 / MEMORY_FRACTION`` of the ``(Lq, Lk)`` float64 score matrix.

    This is the measurement of the notebook's own check. The course's grader does not trust a
    measurement taken in the learner's process: it calls :func:`call_tiled` in a process of its
    own and judges the peak it reads from the kernel with :func:`memory_verdict` (the pair is
    ``invoke_measuring_memory.measured_outside``)."""
    def warmup():  # the same code on two tiles of queries and keys: half the cost of a full call
        n = 2 * tile_size
        return fn(Q[..., :n, :], K[..., :n, :], V[..., :n, :], tile_size, **kwargs)

    result, peak, how = peak_of_call(lambda: fn(Q, K, V, tile_size, **kwargs), warmup=warmup)
    message = memory_verdict(peak, how, Q, K, V, tile_size, **kwargs)
    if message:
        raise TooMuchMemory(message)
    return result


def call_tiled(fn, Q, K, V, tile_size, **kwargs):
    """The call whose memory the grader measures from outside."""
    return fn(Q, K, V, tile_size, **kwargs)


def memory_verdict(peak: int, how: str, Q, K, V, tile_size, **kwargs) -> str | None:  # noqa: ARG001
    """None if ``peak`` extra bytes stay below ``1 / MEMORY_FRACTION`` of the score matrix;
    otherwise what :class:`TooMuchMemory` says."""
    full = Q.shape[-2] * K.shape[-2] * 8
    if peak < full / MEMORY_FRACTION:
        return None
    return (f"it held {peak / 2**20:.1f} MiB at once ({how}), while the whole ({Q.shape[-2]}, "
            f"{K.shape[-2]}) score matrix takes {full / 2**20:.1f} MiB; tiles of {tile_size} x "
            f"{tile_size} need about {3 * tile_size**2 * 8 / 2**20:.2f} MiB")


invoke_measuring_memory.measured_outside = (call_tiled, memory_verdict)


def _ta_full_matrix(Q, K, V, tile_size, causal=False):
    raise TooMuchMemory("the full score matrix")


MEMORY_MISTAKES = [
    Mistake("materialising the full (Lq, Lk) score matrix (no tiling)",
            "compute the scores one tile at a time inside the loops, "
            "`Q[..., i0:i1, :] @ K[..., j0:j1, :].swapaxes(-1, -2)`, and never `Q @ K.T` for all "
            "keys at once; keep only m, l, acc of the current query tile.", _ta_full_matrix),
] + TILED_MISTAKES


def _ta_memory_cases(hidden: bool) -> list[Case]:
    rng = case_rng(823 if hidden else 103, hidden)
    # Large enough that the score matrix (48-56 MiB) dwarfs what a process's first calls fault in
    # (library pages, allocator caches), so the grader can measure it from outside the process.
    Lq, Lk, T = (2304, 3200, 128) if hidden else (2048, 3072, 128)
    return [Case((*_qkv(rng, (), Lq, Lk, 16, 8), T),
                 why=f"long sequences; the call may hold at most 1/{MEMORY_FRACTION} of the "
                 "(Lq, Lk) score matrix at once")]


def check_tiled_attention_memory(tiled_attention, hidden: bool = False) -> None:
    """Check that ``tiled_attention`` never holds the ``(Lq, Lk)`` score matrix (peak memory)."""
    run_check(tiled_attention, exercise="tiled_attention", reference=_ref.tiled_attention,
              cases=_ta_memory_cases(hidden), mistakes=MEMORY_MISTAKES,
              arg_names=("Q", "K", "V", "tile_size"), outputs=("output", "logsumexp"),
              rtol=1e-10, atol=1e-10, show_values=not hidden, invoke=invoke_measuring_memory,
              passed=f"peak memory below 1/{MEMORY_FRACTION} of the (Lq, Lk) score matrix")


# ---------------------------------------------------------------------------------------------
# weights_from_logsumexp

def _wl_scores(Q, K):
    Q, K = np.asarray(Q, dtype=float), np.asarray(K, dtype=float)
    return Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])


def _wl_no_scale(Q, K, logsumexp):
    Q, K = np.asarray(Q, dtype=float), np.asarray(K, dtype=float)
    return np.exp(Q @ np.swapaxes(K, -1, -2) - logsumexp[..., None])


def _wl_wrong_axis(Q, K, logsumexp):
    return np.exp(_wl_scores(Q, K) - logsumexp[..., None, :])


def _wl_ratio(Q, K, logsumexp):
    return np.exp(_wl_scores(Q, K)) / np.exp(logsumexp)[..., None]


def _wl_softmax(Q, K, logsumexp):
    return _softmax(_wl_scores(Q, K), axis=-1)


def _wl_plus(Q, K, logsumexp):
    return np.exp(_wl_scores(Q, K) + logsumexp[..., None])


def _wl_divide(Q, K, logsumexp):
    return np.exp(_wl_scores(Q, K)) / logsumexp[..., None]


LSE_MISTAKES = [
    Mistake("a softmax over the given keys (it ignores logsumexp)",
            "the keys may be only one tile of all the keys: their weights in the full attention are "
            "`exp(s - logsumexp[..., None])`, which need not sum to one over the tile.", _wl_softmax),
    Mistake("forgetting the 1/√Dk scale of the scores",
            "the scores are `Q @ K.swapaxes(-1, -2) / np.sqrt(Dk)`, as in the attention that produced "
            "logsumexp.", _wl_no_scale),
    Mistake("subtracting logsumexp along the keys (logsumexp[None, :]) instead of per query",
            "logsumexp has one entry per query (row): broadcast it as `logsumexp[..., None]`.",
            _wl_wrong_axis),
    Mistake("exp(s) / exp(logsumexp): it overflows for large scores",
            "subtract first, then exponentiate: `np.exp(s - logsumexp[..., None])` never overflows "
            "since s <= logsumexp.", _wl_ratio),
    Mistake("adding logsumexp instead of subtracting it",
            "weights = exp(s) / sum exp(s) = exp(s - logsumexp).", _wl_plus),
    Mistake("dividing by logsumexp instead of subtracting it in the exponent",
            "logsumexp is a log: exp(s) / sum exp(s) = exp(s - logsumexp).", _wl_divide),
]


def _wl_cases(hidden: bool) -> list[Case]:
    rng = case_rng(831 if hidden else 111, hidden)
    cases = []
    specs = ([((), 5, 8, 3, (0, 8)), ((2,), 4, 9, 2, (3, 7)), ((), 6, 10, 4, (0, 4))] if hidden else
             [((), 4, 7, 3, (0, 7)), ((2,), 5, 8, 2, (2, 6)), ((), 3, 9, 4, (5, 9))])
    for batch, Lq, Lk, Dk, (j0, j1) in specs:
        Q, K, V = _qkv(rng, batch, Lq, Lk, Dk, 2)
        lse = _ref.tiled_attention(Q, K, V, 3)[1]
        why = "all the keys" if (j0, j1) == (0, Lk) else f"one tile of the keys, {j0}:{j1} of {Lk}"
        cases.append(Case((Q, K[..., j0:j1, :], lse), why=why))
    Q, K, V = _qkv(rng, (), 3, 5, 4, 2)
    Q, K = Q * 25, K * 25  # scores of several hundred
    top = float(np.max(Q @ K.T)) / 2.0  # the largest scaled score (Dk = 4)
    Q = Q * max(1.0, 800.0 / top)  # at least one score above 709, where exp overflows
    cases.append(Case((Q, K, _ref.tiled_attention(Q, K, V, 2)[1]), why="scores of several hundred"))
    return cases


def check_weights_from_logsumexp(weights_from_logsumexp, hidden: bool = False) -> None:
    """Check that ``weights_from_logsumexp`` recomputes the weights of any subset of the keys."""
    run_check(weights_from_logsumexp, exercise="weights_from_logsumexp",
              reference=_ref.weights_from_logsumexp, cases=_wl_cases(hidden), mistakes=LSE_MISTAKES,
              arg_names=("Q", "K", "logsumexp"), show_values=not hidden,
              passed="the weights of all the keys, and of one tile of them, are recomputed exactly",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# tiled_attention_backward

def _backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False, *, D="right",
              scale=True, lse="right", mask="right", swap=False, minus_D=True):
    """The backward pass as a learner writes it, with one thing changed by the keyword
    arguments: the wrong implementations below."""
    Q, K, V, O, lse_all, dO = (np.asarray(a, dtype=float) for a in (Q, K, V, output, logsumexp, grad_output))
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    s = 1 / np.sqrt(Dk) if scale else 1.0
    if D == "dO_V":  # dO_i · Σ_j v_j: the row sums of dP = dO V^T
        Drow = (dO * V.sum(-2)[..., None, :]).sum(-1)  # (..., Lq)
    else:
        Drow = dO.sum(-1) if D == "dO" else (dO * O).sum(-1)  # (..., Lq)
    dQ, dK, dV = np.zeros((*batch, Lq, Dk)), np.zeros((*batch, Lk, Dk)), np.zeros((*batch, Lk, Dv))
    T = tile_size
    with np.errstate(all="ignore"):
        for i0, i1 in _tiles(Lq, T):
            end = (Lk if mask == "no_skip" else min(Lk, i1)) if causal else Lk
            for j0, j1 in _tiles(Lk, T):
                if j0 >= end:
                    continue
                S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) / np.sqrt(Dk)
                if causal and mask in ("right", "no_skip"):
                    S = np.where(np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None], S, -np.inf)
                rows = (slice(i0, i1) if lse == "right" else slice(j0, j1))
                P = np.exp(S - lse_all[..., rows, None])
                dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ dO[..., i0:i1, :]
                dP = dO[..., i0:i1, :] @ np.swapaxes(V[..., j0:j1, :], -1, -2)
                d = (P * dP).sum(-1) if D == "tile" else Drow[..., i0:i1]
                dS = P * (dP - d[..., None]) if minus_D else P * dP
                dQ[..., i0:i1, :] += s * dS @ K[..., j0:j1, :]
                dK[..., j0:j1, :] += s * np.swapaxes(dS, -1, -2) @ Q[..., i0:i1, :]
    dQ, dK, dV = (_ref._sum_to(g, x.shape) for g, x in zip((dQ, dK, dV), (Q, K, V)))
    return (dK, dQ, dV) if swap else (dQ, dK, dV)


def _bw(**how):
    def impl(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
        return _backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal, **how)
    return impl


_bw_D_dO_V, _bw_D_dO, _bw_D_tile = _bw(D="dO_V"), _bw(D="dO"), _bw(D="tile")
_bw_no_scale, _bw_swap, _bw_lse_key_tile, _bw_no_D = _bw(scale=False), _bw(swap=True), _bw(lse="key"), _bw(minus_D=False)
_bw_no_mask, _bw_no_skip = _bw(mask="none"), _bw(mask="no_skip")


def _bw_ignores_causal(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    return _backward(Q, K, V, output, logsumexp, grad_output, tile_size, False)


BACKWARD_MISTAKES = [
    Mistake("D_i from the wrong product (dO · V summed over the keys) instead of Σ_d dO_id O_id",
            "`D = (grad_output * output).sum(axis=-1)`, one number per query, computed once before the "
            "loops.", _bw_D_dO_V,
            principle="D_i is the row sum of the incoming gradient times the output, dO_i · O_i "
            "(= Σ_j P_ij dP_ij): the product of dO with O, not with V."),
    Mistake("D_i as the row sum of dO alone (the output O left out)",
            "`D = (grad_output * output).sum(axis=-1)`.", _bw_D_dO,
            principle="D_i = Σ_d dO_id O_id: multiply the incoming gradient by the output before "
            "summing over the row."),
    Mistake("D_i summed over one tile of keys only (Σ_j P_ij dP_ij within the tile)",
            "compute `D = (grad_output * output).sum(axis=-1)` once, before the loops: it is a sum "
            "over all the keys, which dO · O gives without visiting them.", _bw_D_tile,
            principle="D_i sums over every key the query sees, not over the current tile: take it "
            "from dO and O, which already hold all the keys."),
    Mistake("dS without D_i (dS = P * dP)",
            "the softmax's backward is `dS = P * (dP - D[..., None])` with D = Σ_d dO_id O_id.",
            _bw_no_D,
            principle="The softmax couples the weights of a row: its backward subtracts the row's "
            "D_i from dP before multiplying by P."),
    Mistake("the scale forgotten in dS (dQ and dK without the 1/√Dk)",
            "the scores are `Q K^T / sqrt(Dk)`, so `dQ += dS @ K_tile / np.sqrt(Dk)` and "
            "`dK += dS^T @ Q_tile / np.sqrt(Dk)`.", _bw_no_scale,
            principle="The scores carry the factor 1/√Dk: the chain rule carries it into the "
            "gradients of Q and K (not into dV)."),
    Mistake("dK and dQ swapped (returned in the wrong order)",
            "return `(dQ, dK, dV)`: dQ has the shape of Q (..., Lq, Dk), dK that of K (..., Lk, Dk).",
            _bw_swap,
            principle="Return the gradients in the order of the inputs Q, K, V, each with its "
            "input's shape."),
    Mistake("the log-sum-exp of the wrong tile (indexed by the key tile, logsumexp[j0:j1])",
            "logsumexp has one entry per query: rebuild the tile's weights with "
            "`logsumexp[..., i0:i1, None]`, the rows of the query tile.", _bw_lse_key_tile,
            principle="Each weight is exp(s_ij - logsumexp_i): the log-sum-exp belongs to the query "
            "row i, so take the query tile's entries."),
]

BACKWARD_CAUSAL_MISTAKES = [
    Mistake("causal mask not applied in backward (the diagonal tile left unmasked)",
            "inside the tile that crosses the diagonal, set the scores of keys j > i to -inf "
            "before `np.exp(S - logsumexp)`, as in the forward pass.", _bw_no_mask,
            principle="The weights rebuilt in the backward pass must be those of the forward pass: "
            "masked keys (j > i) get weight 0 there too."),
    Mistake("ignoring `causal` in the backward pass (every query sees every key)",
            "with causal=True, skip the key tiles above the diagonal and mask keys j > i in the "
            "diagonal tile.", _bw_ignores_causal,
            principle="The backward pass uses the forward pass's mask: query i has weights only on "
            "keys j <= i."),
    Mistake("reading the tiles above the diagonal (masking them instead of skipping them)",
            "stop the key loop at `min(Lk, i1)`: a key tile starting at j0 >= i1 is entirely masked. "
            "Here those keys hold NaN, which a masked tile still multiplies in (0 * NaN = NaN).",
            _bw_no_skip,
            principle="A key tile entirely above the diagonal contributes nothing: skip it without "
            "reading its keys and values."),
] + BACKWARD_MISTAKES


def _bw_case(rng, qb, kb, Lq, Lk, Dk, Dv, T, causal=False, why=""):
    Q = rng.normal(size=(*qb, Lq, Dk))
    K, V = rng.normal(size=(*kb, Lk, Dk)), rng.normal(size=(*kb, Lk, Dv))
    output, lse = _ref.tiled_attention(Q, K, V, T, causal=causal)
    dO = rng.normal(size=output.shape)
    return Case((Q, K, V, output, lse, dO, T), {"causal": True} if causal else {}, why=why)


_BW_ARGS = ("Q", "K", "V", "output", "logsumexp", "grad_output", "tile_size")
_BW_OUTPUTS = ("dQ", "dK", "dV")


def _bw_cases(hidden: bool) -> list[Case]:
    rng = case_rng(841 if hidden else 121, hidden)
    specs = ([((), (), 8, 5, 3, 2, 3, "Lq > Lk, a tile size that divides neither length"),
              ((), (), 6, 6, 4, 3, 4, "Lq == Lk, a tile size that does not divide them"),
              ((2,), (2,), 5, 9, 2, 4, 2, "a batch, Lq < Lk"),
              ((3, 2), (3, 2), 4, 3, 3, 2, 1, "two batch axes, tiles of one"),
              ((), (), 1, 6, 2, 3, 16, "one query, one tile larger than both lengths")] if hidden else
             [((), (), 7, 5, 3, 2, 3, "Lq > Lk, a tile size that divides neither length"),
              ((), (), 6, 6, 2, 3, 4, "Lq == Lk, a tile size that does not divide them"),
              ((2,), (2,), 4, 9, 3, 2, 2, "a batch, Lq < Lk"),
              ((2, 3), (2, 3), 3, 4, 2, 3, 1, "two batch axes, tiles of one"),
              ((), (), 1, 5, 3, 2, 8, "one query, one tile larger than both lengths")])
    return [_bw_case(rng, *spec[:7], why=spec[7]) for spec in specs]


def _bw_causal_cases(hidden: bool) -> list[Case]:
    rng = case_rng(842 if hidden else 122, hidden)
    specs = ([((), 8, 8, 3, 2, 3), ((2,), 9, 5, 2, 3, 2), ((), 4, 7, 3, 3, 2)] if hidden else
             [((), 7, 7, 4, 2, 3), ((2,), 8, 5, 3, 2, 2), ((), 5, 9, 2, 3, 2)])
    cases = [_bw_case(rng, b, b, Lq, Lk, Dk, Dv, T, True,
                      "causal, Lq == Lk" if Lq == Lk else f"causal, Lq {'>' if Lq > Lk else '<'} Lk")
             for b, Lq, Lk, Dk, Dv, T in specs]
    for Lq, Lk, T in ([(5, 11, 2)] if hidden else [(5, 12, 2)]):
        case = _bw_case(rng, (), (), Lq, Lk, 3, 2, T, True)
        Q, K, V, output, lse, dO, _ = case.args
        first_unseen = -(-Lq // T) * T  # key tiles from here on lie above the diagonal for every query
        K, V = K.copy(), V.copy()
        K[first_unseen:], V[first_unseen:] = np.nan, np.nan
        cases.append(Case((Q, K, V, output, lse, dO, T), {"causal": True},
                          why=f"causal, Lq < Lk: keys {first_unseen}.. are above the diagonal for every "
                          "query tile and hold NaN, so they must never be read"))
    return cases


def check_tiled_attention_backward(tiled_attention_backward, hidden: bool = False) -> None:
    """Check that ``tiled_attention_backward`` equals autograd of naive attention (to 1e-10)."""
    run_check(tiled_attention_backward, exercise="tiled_attention_backward",
              reference=_ref.tiled_attention_backward, cases=_bw_cases(hidden), mistakes=BACKWARD_MISTAKES,
              arg_names=_BW_ARGS, outputs=_BW_OUTPUTS, rtol=1e-10, atol=1e-10, show_values=not hidden,
              passed="dQ, dK and dV equal the gradients of softmax(Q Kᵀ/√Dk) V to 1e-10")


def check_tiled_attention_backward_causal(tiled_attention_backward, hidden: bool = False) -> None:
    """Check that ``tiled_attention_backward(..., causal=True)`` masks keys j > i and skips the
    tiles above the diagonal."""
    run_check(tiled_attention_backward, exercise="tiled_attention_backward",
              reference=_ref.tiled_attention_backward, cases=_bw_causal_cases(hidden),
              mistakes=BACKWARD_CAUSAL_MISTAKES, arg_names=_BW_ARGS, outputs=_BW_OUTPUTS,
              rtol=1e-10, atol=1e-10, show_values=not hidden,
              passed="causal: the gradients of the masked attention, no tile above the diagonal read")


@numpy_exercise
def invoke_backward_measuring_memory(fn, Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs):
    """:func:`invoke_measuring_memory` for the backward pass: its peak extra memory must stay
    below ``1 / MEMORY_FRACTION`` of the ``(Lq, Lk)`` float64 matrix (the grader measures it
    outside the learner's process, with ``measured_outside``)."""
    def warmup():
        n = 2 * tile_size
        return fn(Q[..., :n, :], K[..., :n, :], V[..., :n, :], output[..., :n, :], logsumexp[..., :n],
                  grad_output[..., :n, :], tile_size, **kwargs)

    result, peak, how = peak_of_call(
        lambda: fn(Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs), warmup=warmup)
    message = backward_memory_verdict(peak, how, Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs)
    if message:
        raise TooMuchMemory(message)
    return result


def call_backward(fn, Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs):
    """The call whose memory the grader measures from outside."""
    return fn(Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs)


def backward_memory_verdict(peak: int, how: str, Q, K, V, output, logsumexp, grad_output,  # noqa: ARG001
                            tile_size, **kwargs) -> str | None:
    """None if ``peak`` stays below ``1 / MEMORY_FRACTION`` of the ``(Lq, Lk)`` matrix."""
    return memory_verdict(peak, how, Q, K, V, tile_size)


invoke_backward_measuring_memory.measured_outside = (call_backward, backward_memory_verdict)


def _bw_full_matrix(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    raise TooMuchMemory("the full (Lq, Lk) matrix")


BACKWARD_MEMORY_MISTAKES = [
    Mistake("materialising the full (Lq, Lk) weights in the backward pass (no tiling)",
            "rebuild P one tile at a time inside the loops, `np.exp(S_tile - logsumexp[..., i0:i1, None])`, "
            "and accumulate dQ, dK, dV tile by tile; never form `Q @ K.T` for all keys at once.",
            _bw_full_matrix,
            principle="Rebuild the weights a tile at a time from the log-sum-exp and drop each tile "
            "after use: the point of the backward pass is never to hold P or dS whole."),
] + BACKWARD_MISTAKES


_BW_MEMORY_INPUTS: dict[str, tuple] = {}  # the long inputs by generator state: the forward pass is slow


def _bw_memory_cases(hidden: bool) -> list[Case]:
    rng = case_rng(843 if hidden else 123, hidden)
    Lq, Lk, T = (2304, 3200, 128) if hidden else (2048, 3072, 128)
    key = repr(rng.bit_generator.state)
    if key not in _BW_MEMORY_INPUTS:
        _BW_MEMORY_INPUTS[key] = _bw_case(rng, (), (), Lq, Lk, 16, 8, T).args
    args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in _BW_MEMORY_INPUTS[key])  # fresh copies
    return [Case(args, why=f"long sequences; the call may hold at most 1/{MEMORY_FRACTION} of the "
                 "(Lq, Lk) matrix at once")]


def check_tiled_attention_backward_memory(tiled_attention_backward, hidden: bool = False) -> None:
    """Check that ``tiled_attention_backward`` never holds an ``(Lq, Lk)`` array (peak memory)."""
    run_check(tiled_attention_backward, exercise="tiled_attention_backward",
              reference=_ref.tiled_attention_backward, cases=_bw_memory_cases(hidden),
              mistakes=BACKWARD_MEMORY_MISTAKES, arg_names=_BW_ARGS, outputs=_BW_OUTPUTS,
              rtol=1e-10, atol=1e-10, show_values=not hidden, invoke=invoke_backward_measuring_memory,
              passed=f"peak memory below 1/{MEMORY_FRACTION} of the (Lq, Lk) matrix")


# ---------------------------------------------------------------------------------------------
# Predict, then run


SCORE_MEMORY = Prediction(
    "prediction_score_memory_gib", "number", 16.0,
    "65536² = 2³² numbers of 4 bytes each (float32): 2³⁴ bytes = 16 GiB for one L x L matrix, "
    "one head of one sequence. Q, K, V and the output together take 64 MiB, 256 times less.",
    rtol=0.02,
    wrong=(
        WrongPrediction(4.0, "numbers counted, not bytes",
                        "2³² numbers is 4 Gi *numbers*; each float32 takes 4 bytes."),
        WrongPrediction(32.0, "8 bytes per number",
                        "8 bytes is float64; float32 takes 4."),
        WrongPrediction(0.015625, "L x d instead of L x L",
                        "16 MiB is one (L, d) matrix such as Q; the scores are (L, L)."),
    ),
)


def check_prediction_score_memory_gib(prediction_score_memory_gib, hidden: bool = False) -> None:
    """Check the prediction of the memory of one 65536 x 65536 float32 matrix, in GiB."""
    SCORE_MEMORY.check(prediction_score_memory_gib, hidden=hidden)


CAUSAL_TILES = Prediction(
    "prediction_causal_tiles", "number", 15,
    "Query tile a (rows 8a to 8a + 7) needs the key tiles b <= a: the tile b = a crosses the "
    "diagonal (masked inside), the tiles b < a lie below it (computed in full), the tiles b > a lie "
    "above it (skipped). That is a + 1 tiles for a = 0, ..., 4: 1 + 2 + 3 + 4 + 5 = 15 of the "
    "5 x 6 = 30 tiles. The sixth column of key tiles (keys 40 to 47) lies entirely above the "
    "diagonal: no query of 0 to 39 may see those keys.",
    wrong=(
        WrongPrediction(30, "every tile is computed and masked",
                        "A tile that lies entirely above the diagonal holds only masked scores: "
                        "tiled attention skips it without reading its keys."),
        WrongPrediction(10, "the tiles on the diagonal are skipped",
                        "A tile on the diagonal holds keys j <= i for some of its queries (query 8a "
                        "sees key 8a): it is computed, with the mask inside it."),
        WrongPrediction(20, "half of the tiles plus the diagonal",
                        "The grid is 5 x 6, not square: the last key tile is above the diagonal for "
                        "every query tile. Count the tiles b <= a row by row."),
    ),
)


def check_prediction_causal_tiles(prediction_causal_tiles, hidden: bool = False) -> None:
    """Check the prediction of how many 8 x 8 tiles causal tiled attention computes for Lq=40, Lk=48."""
    CAUSAL_TILES.check(prediction_causal_tiles, hidden=hidden)


DK_SUM = Prediction(
    "prediction_dk_sum", "choice", "zero",
    "Add the same vector c to every key: each score of row i grows by q_i · c / √Dk, the same for "
    "all the keys of that row, and a softmax ignores a constant added to a whole row. The weights, "
    "the output and the loss do not change, so the loss's derivative along that move, "
    "Σ_j dK_j · c, is 0 for every c: the keys' gradients sum to the zero vector, whatever the "
    "inputs (up to rounding).",
    options=("zero", "the sum of dQ", "it depends on the inputs"),
    wrong=(
        WrongPrediction("it depends on the inputs", "the gradient of each key is its own",
                        "Each dK_j depends on the inputs, but their sum does not: moving every key by "
                        "the same c shifts each row of scores by a constant, which the softmax "
                        "cancels."),
        WrongPrediction("the sum of dQ", "queries and keys play the same part",
                        "Scores are symmetric in q and k, but the softmax is not: it normalises over "
                        "the keys of a row, so a common shift of the keys cancels, while a common "
                        "shift of the queries changes the scores by k_j · c, different for each key."),
    ),
)


def check_prediction_dk_sum(prediction_dk_sum, hidden: bool = False) -> None:
    """Check the prediction of the sum of dK over the keys."""
    DK_SUM.check(prediction_dk_sum, hidden=hidden)
