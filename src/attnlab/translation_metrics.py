"""How good is a translation, and does attention look where it should? (numpy reference)

* :func:`alignment_accuracy`: how often the attention peak of a target word is the source word
  the gold alignment says it translates;
* :func:`corpus_bleu`: BLEU-4 (Papineni et al., 2002) at corpus level, written out here so that
  nothing needs installing; :func:`exact_match`: the share of sentences translated word for word
  right.

Sentences are lists of tokens (strings or ids), without ``<bos>``, ``<eos>`` or padding.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Hashable, Sequence

import numpy as np

from ._validate import fmt, require_ndim


def alignment_accuracy(weights: np.ndarray, gold: np.ndarray) -> float:
    """The share of aligned target tokens whose attention peak is their gold source token.

    Args:
        weights: (..., Lt, Ls) attention weights, one row per target token.
        gold: (..., Lt) int, the gold source index of each target token; ``-1`` = aligned to
            nothing (e.g. ``<eos>``, padding, or ``des`` in ``je vois des chats``).

    Returns:
        ``#{t : gold[t] >= 0 and argmax_j weights[t, j] == gold[t]} / #{t : gold[t] >= 0}``,
        counted over every sentence of the batch together; ``nan`` if no token is aligned.
        Ties go to the first maximum (``np.argmax``).
    """
    weights = np.asarray(weights, dtype=float)
    gold = np.asarray(gold)
    require_ndim(weights, "weights", ("Lt", "Ls"))
    if gold.shape != weights.shape[:-1]:
        raise ValueError(f"gold: expected shape (..., Lt) = {fmt(weights.shape[:-1])}, got {fmt(gold.shape)}")
    if gold.size and (not np.issubdtype(gold.dtype, np.integer) or gold.min() < -1
                      or gold.max() >= weights.shape[-1]):
        raise ValueError(f"gold: expected integers in [-1, Ls-1 = {weights.shape[-1] - 1}], got "
                         f"dtype {gold.dtype}, values in [{gold.min()}, {gold.max()}]")
    aligned = gold >= 0  # (..., Lt)
    if not aligned.any():
        return float("nan")
    peak = np.argmax(weights, axis=-1)  # (..., Lt)
    return float(np.sum((peak == gold) & aligned) / np.sum(aligned))


def ngrams(tokens: Sequence[Hashable], n: int) -> Counter:
    """The n-grams of a sentence with their counts."""
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def bleu_statistics(hypotheses: Sequence[Sequence[Hashable]], references: Sequence[Sequence[Hashable]],
                    max_n: int = 4) -> dict:
    """The corpus counts BLEU is computed from.

    Returns a dict with ``matches[n-1]`` (clipped n-gram matches summed over sentences),
    ``totals[n-1]`` (hypothesis n-grams summed over sentences), ``hyp_len`` and ``ref_len``
    (summed lengths).
    """
    if len(hypotheses) != len(references):
        raise ValueError(f"hypotheses and references: expected the same number of sentences, got "
                         f"{len(hypotheses)} and {len(references)}")
    matches, totals = [0] * max_n, [0] * max_n
    hyp_len = ref_len = 0
    for hyp, ref in zip(hypotheses, references):
        hyp_len += len(hyp)
        ref_len += len(ref)
        for n in range(1, max_n + 1):
            h, r = ngrams(hyp, n), ngrams(ref, n)
            matches[n - 1] += sum(min(c, r[g]) for g, c in h.items())  # clipped counts
            totals[n - 1] += max(len(hyp) - n + 1, 0)
    return {"matches": matches, "totals": totals, "hyp_len": hyp_len, "ref_len": ref_len}


def corpus_bleu(hypotheses: Sequence[Sequence[Hashable]], references: Sequence[Sequence[Hashable]],
                max_n: int = 4) -> float:
    """Corpus BLEU-4 in [0, 100], one reference per sentence, no smoothing.

    ``p_n = Σ_sentences Σ_ngrams min(count_hyp, count_ref) / Σ_sentences #hypothesis n-grams``
    for ``n = 1..4`` (counts pooled over the corpus, not averaged over sentences), the brevity
    penalty ``BP = 1`` if ``c > r`` else ``exp(1 - r / c)`` with ``c`` and ``r`` the summed
    hypothesis and reference lengths, and ``BLEU = 100 · BP · exp(Σ_n log(p_n) / 4)``; 0 if some
    ``p_n`` is 0 or the hypotheses are empty. This is ``sacrebleu.corpus_bleu`` with
    ``tokenize="none"`` whenever every ``p_n > 0``.
    """
    s = bleu_statistics(hypotheses, references, max_n)
    c, r = s["hyp_len"], s["ref_len"]
    if c == 0 or min(s["matches"]) == 0:
        return 0.0
    log_precision = sum(math.log(m / t) for m, t in zip(s["matches"], s["totals"])) / max_n
    bp = 1.0 if c > r else math.exp(1.0 - r / c)
    return 100.0 * bp * math.exp(log_precision)


def exact_match(hypotheses: Sequence[Sequence[Hashable]], references: Sequence[Sequence[Hashable]]) -> float:
    """The share of hypotheses identical to their reference, in [0, 1]."""
    if len(hypotheses) != len(references):
        raise ValueError(f"hypotheses and references: expected the same number of sentences, got "
                         f"{len(hypotheses)} and {len(references)}")
    if not hypotheses:
        return float("nan")
    return sum(list(h) == list(r) for h, r in zip(hypotheses, references)) / len(hypotheses)
