"""alignment_accuracy (notebook 07): the share of aligned target tokens whose attention peak is
their gold source word, counted over the whole batch (gold = -1: aligned to nothing)."""
from __future__ import annotations

from functools import partial

import numpy as np

from ..checks._contract import invoke_float
from ..checks._core import Case, Mistake, case_rng
from ..masks import masked_softmax as _masked_softmax
from ..translation_metrics import alignment_accuracy as _alignment_accuracy
from ._card import Card, Contract, Example


def _aa_variant(weights, gold, *, denominator="aligned", hit="argmax", scale=1.0, average="pooled",
                first=0):
    """The accuracy with its known slips as flags."""
    weights, gold = np.asarray(weights, dtype=float), np.asarray(gold)
    Ls = weights.shape[-1]
    peak = np.argmax(weights, axis=-1)
    aligned = gold >= first
    if hit == "argmax":
        hits = (peak == gold) & aligned
    elif hit == "negative_index":  # weights[t, gold[t]] with gold = -1 picks the last word
        hits = peak == np.where(aligned, gold, Ls - 1)
    elif hit == "soft":
        hits = np.where(aligned, np.take_along_axis(weights, np.maximum(gold, 0)[..., None], -1)[..., 0], 0.0)
    elif hit == "half":
        hits = aligned & (np.take_along_axis(weights, np.maximum(gold, 0)[..., None], -1)[..., 0] > 0.5)
    else:
        raise ValueError(hit)
    if average == "sentences" and weights.ndim == 3:
        per = [np.sum(h[a]) / max(1, np.sum(a)) for h, a in zip(hits, aligned)]
        return scale * float(np.mean(per))
    if denominator == "aligned":
        return scale * float(np.sum(hits) / np.sum(aligned))
    if denominator == "all":
        return scale * float(np.sum(hits) / hits.size)
    return scale * float(np.sum(hits))  # a count


_AA = "test_alignment_accuracy"
_AAB = "test_alignment_accuracy_batched"
_BOTH = (_AA, _AAB)

CARD = Card(
    "alignment_accuracy", "07_rnn_translation_with_attention",
    summary="the share of aligned target tokens whose attention peak is their gold source word",
    contract=Contract(
        args=("weights", "gold"), reference=_alignment_accuracy, invoke=invoke_float,
        shapes="weights (..., Lt, Ls) attention weights, a row per target token; gold (..., Lt) int, "
               "the gold source index of each target token, -1 = aligned to nothing",
        returns="a float in [0, 1]: #{aligned t whose argmax_j weights[t, j] is gold[t]} / #{aligned t}, "
                "counted over the whole batch"),
    mistakes=[
        Mistake(
            "unaligned tokens (gold = -1) counted in the denominator",
            principle="Only aligned target tokens (gold >= 0) count, in the numerator and the denominator.",
            fix="divide by the number of aligned target tokens, `(gold >= 0).sum()`, not by Lt.",
            fails=_BOTH, impl=partial(_aa_variant, denominator="all"), code='''
                def alignment_accuracy(weights, gold):
                    return float(np.mean(np.argmax(weights, axis=-1) == gold))
                '''),
        Mistake(
            "gold = -1 used as an index: it picks the last source word, so unaligned tokens count as hits",
            principle='-1 means "no alignment", not "the last word": leave those tokens out.',
            fix="leave unaligned tokens out altogether: `aligned = gold >= 0`, count hits only where "
                "`aligned` is True.",
            fails=(_AA,), impl=partial(_aa_variant, hit="negative_index", denominator="all"), code='''
                def alignment_accuracy(weights, gold):
                    rows = np.arange(len(gold))
                    hits = weights[rows, gold] == weights.max(axis=-1)
                    return float(hits.mean())
                '''),
        Mistake(
            "the weight on the gold word averaged instead of counting argmax hits",
            principle="A hit is the attention peak landing on the gold word; count hits.",
            fix="a hit is `weights.argmax(axis=-1) == gold`: the peak must be the gold word.",
            fails=_BOTH, impl=partial(_aa_variant, hit="soft"), code='''
                def alignment_accuracy(weights, gold):
                    aligned = gold >= 0
                    on_gold = np.take_along_axis(weights, np.maximum(gold, 0)[..., None], axis=-1)[..., 0]
                    return float(on_gold[aligned].mean())
                '''),
        Mistake(
            "counting a hit when the gold weight is above 0.5 instead of being the largest",
            principle="A hit means the gold word has the largest weight, whatever its size.",
            fix="a hit is `weights.argmax(axis=-1) == gold`, whatever the peak's height.",
            fails=_BOTH, impl=partial(_aa_variant, hit="half"), code='''
                def alignment_accuracy(weights, gold):
                    aligned = gold >= 0
                    on_gold = np.take_along_axis(weights, np.maximum(gold, 0)[..., None], axis=-1)[..., 0]
                    return float(np.sum((on_gold > 0.5) & aligned) / np.sum(aligned))
                '''),
        Mistake(
            "the number of hits instead of the fraction",
            principle="Divide the hits by the number of aligned tokens.",
            fix="divide the hits by the number of aligned tokens.",
            fails=_BOTH, impl=partial(_aa_variant, denominator="count"), code='''
                def alignment_accuracy(weights, gold):
                    aligned = gold >= 0
                    return float(np.sum((np.argmax(weights, axis=-1) == gold) & aligned))
                '''),
        Mistake(
            "a percentage (x 100) instead of a fraction in [0, 1]",
            principle="Return a fraction between 0 and 1.",
            fix="return the fraction itself.",
            fails=_BOTH, impl=partial(_aa_variant, scale=100.0), code='''
                def alignment_accuracy(weights, gold):
                    aligned = gold >= 0
                    hits = (np.argmax(weights, axis=-1) == gold) & aligned
                    return 100.0 * hits.sum() / aligned.sum()
                '''),
        Mistake(
            "per-sentence accuracies averaged (every sentence weighs the same) instead of counting "
            "over the whole batch",
            principle="Pool the hits and aligned tokens over the whole batch before dividing.",
            fix="pool the counts: `hits.sum() / aligned.sum()` over every sentence together.",
            fails=(_AAB,), impl=partial(_aa_variant, average="sentences"), code='''
                def alignment_accuracy(weights, gold):
                    if weights.ndim == 2:
                        weights, gold = weights[None], gold[None]
                    scores = []
                    for w, g in zip(weights, gold):
                        aligned = g >= 0
                        scores.append(np.sum((np.argmax(w, axis=-1) == g) & aligned) / np.sum(aligned))
                    return float(np.mean(scores))
                '''),
        Mistake(
            "tokens aligned to source word 0 left out (`gold > 0`): word 0 is a real word",
            principle="Source positions start at 0: every gold >= 0 is an aligned token; only -1 means unaligned.",
            fix="only -1 means unaligned: `aligned = gold >= 0`.",
            fails=_BOTH, impl=partial(_aa_variant, first=1), code='''
                def alignment_accuracy(weights, gold):
                    aligned = gold > 0
                    hits = (np.argmax(weights, axis=-1) == gold) & aligned
                    return float(hits.sum() / aligned.sum())
                '''),
    ],
    examples=[
        # The argmax over the target tokens (axis -2) gives a peak per source word, (..., Ls), which
        # cannot be compared with gold (..., Lt) on the checks' inputs (Lt != Ls on every one): the
        # code crashes, and the general layer describes the crash (a shape error) rather than a
        # mistake of this card naming every shape error.
        Example('''
            def alignment_accuracy(weights, gold):
                aligned = gold >= 0
                peak = np.argmax(weights, axis=-2)
                return float(np.sum((peak == gold) & aligned) / np.sum(aligned))
            ''', _BOTH, "The error is about shapes", label="argmax over the target tokens (axis -2)"),
    ],
)


def _weights(rng, shape, sharp=3.0):
    return _masked_softmax(rng.normal(size=shape) * sharp)


def _case(rng, Lt, Ls, n_none, why):
    weights = _weights(rng, (Lt, Ls))
    gold = np.argmax(weights, axis=-1)
    wrong = rng.random(Lt) < 0.4  # some peaks miss their gold word
    gold = np.where(wrong, (gold + rng.integers(1, Ls, size=Lt)) % Ls, gold)
    gold[rng.choice(Lt, size=n_none, replace=False)] = -1
    none = gold < 0
    weights[none, -1] += 5.0  # unaligned tokens peak on the last word
    first = np.flatnonzero(~none)[0]  # one token aligned to source word 0 (a hit there)
    gold[first] = 0
    weights[first, 0] += 5.0
    weights /= weights.sum(axis=-1, keepdims=True)
    return Case((weights, gold.astype(np.int64)), why=why)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(747 if hidden else 117, hidden)
    if hidden:
        return [_case(rng, 9, 6, 3, "3 unaligned target tokens"), _case(rng, 4, 7, 1, "Lt < Ls")]
    return [_case(rng, 7, 5, 2, "2 unaligned target tokens (gold = -1)"),
            _case(rng, 5, 8, 1, "Lt < Ls, 1 unaligned token")]


def batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(748 if hidden else 118, hidden)
    out = []
    for B, Lt, Ls, lengths in ([(3, 6, 5, [6, 3, 4])] if hidden else [(3, 7, 5, [7, 3, 5]), (2, 4, 6, [4, 2])]):
        weights = _weights(rng, (B, Lt, Ls))
        gold = np.argmax(weights, axis=-1)
        gold = np.where(rng.random((B, Lt)) < 0.35, (gold + 1) % Ls, gold)
        for b, n in enumerate(lengths):
            gold[b, n - 1:] = -1  # <eos> and padding are aligned to nothing
        weights[gold < 0, -1] += 5.0
        weights /= weights.sum(axis=-1, keepdims=True)
        out.append(Case((weights, gold.astype(np.int64)),
                        why=f"a batch of {B} sentences of different lengths, padding aligned to -1"))
    return out


def check_alignment_accuracy(alignment_accuracy, hidden: bool = False) -> None:
    """Check ``alignment_accuracy(weights (Lt, Ls), gold (Lt,))``."""
    CARD.check(alignment_accuracy, cases(hidden), hidden=hidden, passed="argmax hits over the aligned tokens")


def check_alignment_accuracy_batched(alignment_accuracy, hidden: bool = False) -> None:
    """Check ``alignment_accuracy`` on a batch ``(B, Lt, Ls)``, counted over every sentence."""
    CARD.check(alignment_accuracy, batched_cases(hidden), hidden=hidden,
               passed="hits counted over the whole batch")
