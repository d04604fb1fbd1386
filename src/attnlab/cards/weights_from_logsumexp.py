"""weights_from_logsumexp (notebook 08): the attention weights ``exp(s - logsumexp)`` of any
subset of the keys, recomputed from the log-sum-exp that tiled attention kept.

The cases hold all the keys and one tile of them (whose weights need not sum to one), batches,
and scores of several hundred (where ``exp(s)`` overflows).
"""
from __future__ import annotations

import numpy as np

from .. import efficient as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ..checks.efficient_attention import qkv
from ._card import Card, Contract

_FAILS = ("test_weights_from_logsumexp",)

CARD = Card(
    "weights_from_logsumexp", "08_efficient_attention",
    summary="exp(Q Kᵀ/√Dk - logsumexp): the weights of the given keys in the attention over all "
            "the keys, without a softmax",
    contract=Contract(
        args=("Q", "K", "logsumexp"), reference=_ref.weights_from_logsumexp, invoke=invoke_numpy,
        shapes="Q (..., Lq, Dk), K (..., T, Dk) (all the keys or one tile of them), logsumexp "
               "(..., Lq) from the attention over all the keys",
        returns="the weights (..., Lq, T) of those keys in that attention: they sum to one only when "
                "K holds all the keys"),
    mistakes=[
        Mistake(
            "a softmax over the given keys (it ignores logsumexp)",
            principle="The weights are relative to the log-sum-exp over all keys, which you are given.",
            fix="the keys may be only one tile of all the keys: their weights in the full attention are "
                "`exp(s - logsumexp[..., None])`, which need not sum to one over the tile.",
            fails=_FAILS, code='''
                def weights_from_logsumexp(Q, K, logsumexp):
                    return attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))
                '''),
        Mistake(
            "forgetting the 1/√Dk scale of the scores",
            principle="Scores are divided by √Dk.",
            fix="the scores are `Q @ K.swapaxes(-1, -2) / np.sqrt(Dk)`, as in the attention that "
                "produced logsumexp.",
            fails=_FAILS, code='''
                def weights_from_logsumexp(Q, K, logsumexp):
                    return np.exp(Q @ np.swapaxes(K, -1, -2) - logsumexp[..., None])
                '''),
        Mistake(
            "subtracting logsumexp along the keys (logsumexp[None, :]) instead of per query",
            principle="There is one log-sum-exp per query: it lines up with the rows.",
            fix="logsumexp has one entry per query (row): broadcast it as `logsumexp[..., None]`.",
            fails=_FAILS, code='''
                def weights_from_logsumexp(Q, K, logsumexp):
                    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    return np.exp(S - logsumexp[..., None, :])
                '''),
        Mistake(
            "exp(s) / exp(logsumexp): it overflows for large scores",
            principle="Subtract in the exponent, then exponentiate once.",
            fix="subtract first, then exponentiate: `np.exp(s - logsumexp[..., None])` never overflows "
                "since s <= logsumexp.",
            fails=_FAILS, code='''
                def weights_from_logsumexp(Q, K, logsumexp):
                    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    return np.exp(S) / np.exp(logsumexp)[..., None]
                '''),
        Mistake(
            "adding logsumexp instead of subtracting it",
            principle="The weight is exp(score minus log-sum-exp).",
            fix="weights = exp(s) / sum exp(s) = exp(s - logsumexp).",
            fails=_FAILS, code='''
                def weights_from_logsumexp(Q, K, logsumexp):
                    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    return np.exp(S + logsumexp[..., None])
                '''),
        Mistake(
            "dividing by logsumexp instead of subtracting it in the exponent",
            principle="The weight is exp(score minus log-sum-exp).",
            fix="logsumexp is a log: exp(s) / sum exp(s) = exp(s - logsumexp).",
            fails=_FAILS, code='''
                def weights_from_logsumexp(Q, K, logsumexp):
                    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    return np.exp(S) / logsumexp[..., None]
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(831 if hidden else 111, hidden)
    out = []
    specs = ([((), 5, 8, 3, (0, 8)), ((2,), 4, 9, 2, (3, 7)), ((), 6, 10, 4, (0, 4))] if hidden else
             [((), 4, 7, 3, (0, 7)), ((2,), 5, 8, 2, (2, 6)), ((), 3, 9, 4, (5, 9))])
    for batch, Lq, Lk, Dk, (j0, j1) in specs:
        Q, K, V = qkv(rng, batch, Lq, Lk, Dk, 2)
        lse = _ref.tiled_attention(Q, K, V, 3)[1]
        why = "all the keys" if (j0, j1) == (0, Lk) else f"one tile of the keys, {j0}:{j1} of {Lk}"
        out.append(Case((Q, K[..., j0:j1, :], lse), why=why))
    Q, K, V = qkv(rng, (), 3, 5, 4, 2)
    Q, K = Q * 25, K * 25  # scores of several hundred
    top = float(np.max(Q @ K.T)) / 2.0  # the largest scaled score (Dk = 4)
    Q = Q * max(1.0, 800.0 / top)  # at least one score above 709, where exp overflows
    out.append(Case((Q, K, _ref.tiled_attention(Q, K, V, 2)[1]), why="scores of several hundred"))
    return out


def check_weights_from_logsumexp(weights_from_logsumexp, hidden: bool = False) -> None:
    """Check that ``weights_from_logsumexp`` recomputes the weights of any subset of the keys."""
    CARD.check(weights_from_logsumexp, cases(hidden), hidden=hidden,
               passed="the weights of all the keys, and of one tile of them, are recomputed exactly")
