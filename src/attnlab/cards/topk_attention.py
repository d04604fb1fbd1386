"""topk_attention (notebook 13): each query keeps its ``k`` highest-scoring keys (ties: the lower key index)
and takes the softmax of the scaled scores over those only."""
from __future__ import annotations

import numpy as np

from .. import variants as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_PLAIN = ("test_topk_attention",)
_TIES = ("test_topk_attention_ties",)
_BOTH = _PLAIN + _TIES


def _cell(keep: str, soft: str = "") -> str:
    soft = soft or '''    masked = np.where(keep, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)'''
    return f'''def topk_attention(Q, K, V, k):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
{keep}
{soft}
    return weights @ V, weights
'''


_KEEP = '''    order = np.argsort(-scores, axis=-1, kind="stable")[..., :k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, order, True, axis=-1)'''

CARD = Card(
    "topk_attention", "13_attention_variants",
    summary="each query keeps its k highest scaled scores (ties: the lower key index), softmax over those only",
    contract=Contract(
        args=("Q", "K", "V", "k"), reference=_ref.topk_attention, invoke=invoke_numpy, outputs=("output", "weights"),
        shapes="Q (..., Lq, Dh), K (..., Lk, Dh), V (..., Lk, Dv); k an integer, 1 <= k <= Lk",
        returns="(output (..., Lq, Dv), weights (..., Lq, Lk)): the kept keys' weights renormalised to sum to one, "
                "the others exactly 0; among equal scores the lower key index is kept"),
    mistakes=[
        Mistake(
            "the full softmax with the other weights zeroed (not renormalised)",
            principle="Top-k attention is a softmax over the kept keys only: their weights sum to one.",
            fix="set the scores outside the top k to `-np.inf` before the softmax, not the weights to 0 after it.",
            fails=_BOTH, code=_cell(_KEEP, '''    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = np.where(keep, e / e.sum(axis=-1, keepdims=True), 0.0)''')),
        Mistake(
            "ties broken towards the higher key index",
            principle="Among equal scores the contract keeps the lower key index (a stable sort of the scores, "
                      "highest first).",
            fix="sort the negated scores with a stable sort, `np.argsort(-scores, kind=\"stable\")`, and take the "
                "first k.",
            fails=_TIES, code=_cell('''    order = np.argsort(scores, axis=-1, kind="stable")[..., -k:]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, order, True, axis=-1)''')),
        Mistake(
            "a threshold at the k-th score: ties keep more than k keys",
            principle="Exactly k keys are kept per query, even when several scores equal the k-th largest.",
            fix="select the k keys by their rank (a stable sort), not by comparing with the k-th score.",
            fails=_TIES, code=_cell('''    kth = np.sort(scores, axis=-1)[..., -k][..., None]
    keep = scores >= kth''')),
        Mistake(
            "one key too few kept (k - 1 instead of k)",
            principle="k is the number of keys each query keeps.",
            fix="take the first k of the sorted order, `[..., :k]`.",
            fails=_BOTH, code=_cell(_KEEP.replace("[..., :k]", "[..., :k - 1]"))),
        Mistake(
            "no scaling: the softmax of Q Kᵀ instead of Q Kᵀ / √Dh",
            principle="The kept scores are the scaled scores of dense attention: divide by √Dh.",
            fix="divide the scores by `np.sqrt(Q.shape[-1])` before the softmax.",
            fails=_BOTH, code=_cell(_KEEP).replace(" / np.sqrt(Q.shape[-1])", "")),
        Mistake(
            "keys ranked over the wrong axis (the top k of each column, over the queries)",
            principle="Each query chooses among the keys: rank the scores along the last axis, one query's row at "
                      "a time, not down a key's column over the queries.",
            fix="sort along `axis=-1`: `np.argsort(-scores, axis=-1, kind=\"stable\")[..., :k]`, and put the "
                "marks along `axis=-1`.",
            fails=_BOTH, code=_cell('''    order = np.argsort(-scores, axis=-2, kind="stable")[..., :k, :]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, order, True, axis=-2)''')),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(1305, hidden)
    specs = [((4, 3), 7, 2, 3), ((2, 3, 5, 4), 6, 3, 2), ((3, 2), 5, 5, 4)] if hidden else \
        [((5, 4), 8, 3, 2), ((2, 4, 3), 6, 2, 5), ((2, 3), 4, 4, 3), ((2, 2, 6, 3), 7, 5, 2)]
    out = []
    for (*lead, Lq, Dh), Lk, k, Dv in specs:
        Q = rng.normal(size=(*lead, Lq, Dh))
        K, V = rng.normal(size=(*lead, Lk, Dh)), rng.normal(size=(*lead, Lk, Dv))
        out.append(Case((Q, K, V, k), why=f"Lq={Lq}, Lk={Lk}, k={k}" + (" (= Lk: every key kept)" if k == Lk else "")))
    return out


def tie_cases(hidden: bool) -> list[Case]:
    rng = case_rng(1306, hidden)
    out = []
    for Lq, Lk, Dh, Dv, k in ([(3, 6, 2, 3, 2), (2, 5, 3, 2, 3)] if hidden else [(4, 7, 2, 3, 3), (3, 6, 4, 2, 2)]):
        Q = rng.integers(-2, 3, size=(Lq, Dh)).astype(float)
        base = rng.integers(-2, 3, size=(Lk - 2, Dh)).astype(float)
        K = np.concatenate([base, base[:2]])  # the last two keys repeat the first two: equal scores
        K = K[rng.permutation(Lk)]
        V = rng.normal(size=(Lk, Dv))
        out.append(Case((Q, K, V, k), why=f"keys that repeat (equal scores), Lq={Lq}, Lk={Lk}, k={k}"))
    return out


def check_topk_attention(topk_attention, hidden: bool = False) -> None:
    """Check ``topk_attention(Q, K, V, k)`` on random scores, with and without a batch."""
    CARD.check(topk_attention, cases(hidden), hidden=hidden,
               passed="each query's k best keys, their weights renormalised to sum to one")


def check_topk_attention_ties(topk_attention, hidden: bool = False) -> None:
    """Check ``topk_attention`` where scores tie: exactly k keys, the lower index first."""
    CARD.check(topk_attention, tie_cases(hidden), hidden=hidden,
               passed="exactly k keys per query, ties to the lower key index")
