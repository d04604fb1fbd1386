"""attnlab.corpus_bleu against sacreBLEU (tokenize="none", smooth_method="none": the same corpus
BLEU-4 on pre-tokenised text), on generated corpora with partial matches, brevity penalties,
longer hypotheses and zero n-gram precisions."""
from __future__ import annotations

import numpy as np
import pytest

import attnlab

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402

SIGNATURE_PREFIX = "nrefs:1|case:mixed|eff:no|tok:none|smooth:none"


def _corpus(seed: int, n: int = 40, vocab: int = 12):
    rng = np.random.default_rng(seed)
    refs, hyps = [], []
    for _ in range(n):
        ref = [f"w{t}" for t in rng.integers(0, vocab, rng.integers(3, 15))]
        hyp = list(ref)
        for _ in range(rng.integers(0, 4)):           # substitutions
            hyp[rng.integers(0, len(hyp))] = f"w{rng.integers(0, vocab)}"
        if rng.random() < 0.3:                          # shorter: brevity penalty
            hyp = hyp[: max(1, len(hyp) - rng.integers(1, 3))]
        if rng.random() < 0.2:                          # longer
            hyp = hyp + [f"w{rng.integers(0, vocab)}"]
        refs.append(ref)
        hyps.append(hyp)
    return hyps, refs


def _sacre(hyps, refs) -> float:
    metric = BLEU(tokenize="none", smooth_method="none")
    return metric.corpus_score([" ".join(h) for h in hyps], [[" ".join(r) for r in refs]]).score


@pytest.mark.parametrize("seed", range(8))
def test_corpus_bleu_matches_sacrebleu(seed):
    hyps, refs = _corpus(seed)
    ours = attnlab.corpus_bleu(hyps, refs)
    assert 0 < ours < 100
    assert ours == pytest.approx(_sacre(hyps, refs), abs=1e-9)


def test_edge_cases_match_sacrebleu():
    refs = [["a", "b", "c", "d", "e"], ["f", "g", "h"]]
    for hyps in ([["a", "b", "c", "d", "e"], ["f", "g", "h"]],    # perfect
                 [["a", "b", "c"], ["f", "g"]],                    # short: brevity penalty, no 4-grams in one
                 [["x", "y", "z", "q"], ["r", "s", "t"]]):         # nothing matches: 0
        assert attnlab.corpus_bleu(hyps, refs) == pytest.approx(_sacre(hyps, refs), abs=1e-9)


def test_signature_reported_in_the_docs():
    from coursekit import ROOT

    metric = BLEU(tokenize="none", smooth_method="none")
    metric.corpus_score(["a b c d"], [["a b c d"]])
    signature = metric.get_signature().format()
    assert signature.startswith(SIGNATURE_PREFIX)
    assert SIGNATURE_PREFIX in (ROOT / "docs" / "checkpoints.md").read_text(encoding="utf-8")
