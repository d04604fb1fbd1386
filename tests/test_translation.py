"""Notebook 07's library: the toy language, the attention modules, the encoder-decoder, greedy
decoding, the metrics, the checks' cases, and the committed checkpoints.

Oracles: ``attnlab.torch.additive_score`` / ``general_score`` / ``dot_score`` (notebook 02's score
functions) and ``F.scaled_dot_product_attention`` with ``scale=1`` for the attention modules; a
Python loop of ``step`` for the teacher-forced decoder; ``nn.GRUCell`` in a loop for the fused GRU;
hand-computed BLEU for ``corpus_bleu``; the numpy ``alignment_accuracy`` for its torch twin.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

import attnlab
import attnlab.torch as at
from attnlab import toylang
import coursekit as ck
from attnlab.cards import greedy_decode as greedy_card
from attnlab.checks import rnn_translation_with_attention as checks07
import attnlab.checks as all_checks  # noqa: E402 - the checks, from their cards
from attnlab.torch import translation as tr
from attnlab.torch.seq2seq import Seq2Seq, _run_gru_cell, final_states
from attnlab.translation_metrics import alignment_accuracy, bleu_statistics, corpus_bleu, exact_match

ROOT = Path(__file__).resolve().parents[1]
ATOL = 1e-10  # float64 agreement between two implementations of the same formula


# ---------------------------------------------------------------------------------------------
# The toy language

@pytest.fixture(scope="module")
def pairs():
    return toylang.generate_pairs(3000, seed=11)


def test_generator_is_deterministic():
    assert toylang.generate_pairs(200, seed=3) == toylang.generate_pairs(200, seed=3)
    assert toylang.generate_pairs(200, seed=3) != toylang.generate_pairs(200, seed=4)


def test_lengths_spread_from_3_to_52(pairs):
    lengths = np.array([len(p) for p in pairs])
    assert lengths.min() == 3 and lengths.max() == 52
    counts, _ = np.histogram(lengths, bins=[3, 11, 21, 31, 41, 53])
    assert counts.min() > 0.12 * len(pairs), counts  # every length bucket well filled
    assert len({p.src for p in pairs}) == len(pairs)  # no duplicates


def test_every_alignment_is_a_lexicon_link(pairs):
    links = toylang.lexicon_links()
    for p in pairs:
        assert len(p.alignment) == len(p.tgt)
        for word, j in zip(p.tgt, p.alignment):
            assert -1 <= j < len(p.src)
            if j >= 0:
                assert (p.src[j], word) in links, (p.src, p.tgt, word, p.src[j])
            else:
                assert word == "des"  # the only French word with no English source


def test_examples_follow_the_lexicon():
    links = toylang.lexicon_links()
    for name, p in toylang.EXAMPLES.items():
        assert len(p.alignment) == len(p.tgt), name
        assert all((p.src[j], w) in links for w, j in zip(p.tgt, p.alignment) if j >= 0), name


def test_the_phenomena_occur(pairs):
    text = [" ".join(p.tgt) for p in pairs]
    assert any(" ne " in t and " pas" in t for t in text)  # negation around the verb
    assert any(re.search(r"\b(je|tu|il|elle|nous|ils) (te|t'|me|m'|le|la|l'|les|nous) ", t) for t in text)
    adjectives = {a[0] for a in toylang.ADJECTIVES}
    nouns = {n[0] for n in toylang.NOUNS} | {n[1] for n in toylang.NOUNS}
    swapped = 0
    for p in pairs:  # an English adjective before its noun, whose translation comes after
        for t, j in enumerate(p.alignment):
            if j >= 0 and p.src[j] in adjectives and t > 0 and p.alignment[t - 1] > j:
                swapped += p.src[p.alignment[t - 1]] in nouns
    assert swapped > 100
    assert any("qui" in p.tgt or "que" in p.tgt for p in pairs)
    forms = {w for p in pairs for w in p.tgt}
    assert {"j'", "t'", "l'", "n'", "qu'", "cet"} <= forms  # elision


def test_splits_are_disjoint():
    data = toylang.make_splits(2000, 200, 300, seed=5)
    sets = {k: {p.src for p in v} for k, v in data.items()}
    assert [len(v) for v in data.values()] == [2000, 200, 300]
    assert not (sets["train"] & sets["test"]) and not (sets["train"] & sets["valid"])
    assert not (sets["valid"] & sets["test"])


def test_vocabularies_cover_the_grammar(pairs):
    src_vocab, tgt_vocab = toylang.vocabularies()
    assert 200 <= len(src_vocab) <= 500 and 200 <= len(tgt_vocab) <= 500
    assert src_vocab.itos[:4] == list(toylang.SPECIALS)
    for p in pairs:
        assert toylang.UNK not in src_vocab.encode(p.src) and toylang.UNK not in tgt_vocab.encode(p.tgt)
        assert tgt_vocab.decode(tgt_vocab.encode(p.tgt) + [toylang.EOS, 5]) == list(p.tgt)


def test_encode_batch_shapes_and_masks(pairs):
    src_vocab, tgt_vocab = toylang.vocabularies()
    batch = toylang.encode_batch(pairs[:5], src_vocab, tgt_vocab)
    B, Ls = batch["src"].shape
    Lt = batch["tgt_in"].shape[1]
    assert B == 5 and Ls == max(len(p) for p in pairs[:5]) and Lt == max(len(p.tgt) for p in pairs[:5]) + 1
    for b, p in enumerate(pairs[:5]):
        assert batch["src_mask"][b].sum() == len(p.src)
        assert batch["tgt_in"][b, 0] == toylang.BOS and batch["tgt_out"][b, len(p.tgt)] == toylang.EOS
        assert (batch["tgt_in"][b, 1:len(p.tgt) + 1] == batch["tgt_out"][b, :len(p.tgt)]).all()
        assert list(batch["gold"][b, :len(p.tgt)]) == list(p.alignment)
        assert (batch["gold"][b, len(p.tgt):] == -1).all()
    assert (batch["tgt_mask"] == (batch["tgt_out"] != toylang.PAD)).all()


# ---------------------------------------------------------------------------------------------
# Attention modules against the score functions of notebook 02 and against SDPA

SHAPES = [(1, 1, 3, 3, 2), (2, 5, 4, 6, 3), (3, 4, 6, 2, 5)]  # (B, Lk, Dq, Dk, Dh)


def _inputs(B, Lk, Dq, Dk, seed=0, lengths=None):
    g = torch.Generator().manual_seed(seed)
    query = torch.randn(B, Dq, generator=g, dtype=torch.float64)
    keys = torch.randn(B, Lk, Dk, generator=g, dtype=torch.float64)
    mask = None
    if lengths is not None:
        mask = torch.arange(Lk)[None, :] < torch.tensor(lengths)[:, None]
    return query, keys, mask


@pytest.mark.parametrize("B,Lk,Dq,Dk,Dh", SHAPES)
@pytest.mark.parametrize("masked", [False, True])
def test_additive_attention_matches_additive_score(B, Lk, Dq, Dk, Dh, masked):
    torch.manual_seed(B + Lk)
    module = at.AdditiveAttention(Dq, Dk, Dh).double()
    lengths = [max(1, Lk - b) for b in range(B)] if masked else None
    query, keys, mask = _inputs(B, Lk, Dq, Dk, lengths=lengths)
    context, weights = module(query, keys, mask)
    scores = at.additive_score(query[:, None, :], keys, module.W_q.weight.T, module.W_k.weight.T,
                               module.v.weight[0])[:, 0]  # (B, Lk)
    expected = at.masked_softmax(scores, mask)
    assert torch.allclose(weights, expected, atol=ATOL)
    assert torch.allclose(context, torch.einsum("bj,bjd->bd", expected, keys), atol=ATOL)
    if mask is not None:
        assert (weights[~mask] == 0).all()
    assert torch.allclose(weights.sum(-1), torch.ones(B, dtype=torch.float64), atol=ATOL)


@pytest.mark.parametrize("B,Lk,Dq,Dk,Dh", SHAPES)
def test_general_attention_matches_general_score(B, Lk, Dq, Dk, Dh):
    torch.manual_seed(7)
    module = at.MultiplicativeAttention(Dq, Dk, "general").double()
    query, keys, _ = _inputs(B, Lk, Dq, Dk, seed=1)
    context, weights = module(query, keys)
    expected = torch.softmax(at.general_score(query[:, None, :], keys, module.W.weight)[:, 0], dim=-1)
    assert torch.allclose(weights, expected, atol=ATOL)
    assert torch.allclose(context, torch.einsum("bj,bjd->bd", expected, keys), atol=ATOL)


@pytest.mark.parametrize("B,Lk,D", [(1, 1, 3), (2, 5, 4), (4, 3, 8)])
def test_dot_attention_matches_sdpa_with_scale_one(B, Lk, D):
    module = at.MultiplicativeAttention(D, D, "dot")
    query, keys, mask = _inputs(B, Lk, D, D, seed=2, lengths=[max(1, Lk - b) for b in range(B)])
    context, weights = module(query, keys, mask)
    oracle = F.scaled_dot_product_attention(query[:, None, :], keys, keys, attn_mask=mask[:, None, :],
                                            scale=1.0)[:, 0]
    assert torch.allclose(context, oracle, atol=1e-12)
    assert torch.allclose(weights, at.masked_softmax(at.dot_score(query[:, None], keys)[:, 0], mask), atol=ATOL)


@pytest.mark.parametrize("kind", ["additive", "dot", "general"])
def test_attend_with_many_queries_is_attention_per_query(kind):
    torch.manual_seed(3)
    module = at.seq2seq.make_attention(kind, 6, 6, 5).double()
    _, keys, mask = _inputs(3, 5, 6, 6, seed=3, lengths=[5, 2, 4])
    queries = torch.randn(3, 4, 6, dtype=torch.float64)  # (B, Lq, Dq)
    contexts, weights = module.attend(queries, module.project_keys(keys), keys, mask)
    for t in range(4):
        c, w = module(queries[:, t], keys, mask)
        assert torch.allclose(contexts[:, t], c, atol=ATOL) and torch.allclose(weights[:, t], w, atol=ATOL)


@pytest.mark.parametrize("kind", ["additive", "dot", "general"])
def test_fully_masked_row_gets_zeros_and_finite_gradients(kind):
    torch.manual_seed(4)
    module = at.seq2seq.make_attention(kind, 4, 4, 3).double()
    query, keys, mask = _inputs(2, 3, 4, 4, seed=4, lengths=[3, 0])
    keys.requires_grad_(True)
    context, weights = module(query, keys, mask)
    assert (weights[1] == 0).all() and (context[1] == 0).all()
    context.sum().backward()
    assert torch.isfinite(keys.grad).all()


@pytest.mark.parametrize("kind", ["additive", "general"])
def test_attention_gradcheck(kind):
    torch.manual_seed(5)
    module = at.seq2seq.make_attention(kind, 3, 4, 2).double()
    query, keys, mask = _inputs(2, 3, 3, 4, seed=5, lengths=[3, 2])
    query.requires_grad_(True)
    keys.requires_grad_(True)
    assert torch.autograd.gradcheck(lambda q, k: module(q, k, mask), (query, keys))


def test_attention_rejects_bad_input():
    module = at.AdditiveAttention(3, 4, 2)
    q, k = torch.randn(2, 3), torch.randn(2, 5, 4)
    with pytest.raises(ValueError, match=r"query: expected shape \(B, Dq\)"):
        module(q[0], k)
    with pytest.raises(ValueError, match=r"keys: expected shape \(B, Lk, Dk=4\)"):
        module(q, torch.randn(2, 5, 3))
    with pytest.raises(ValueError, match="batch size B"):
        module(q, torch.randn(3, 5, 4))
    with pytest.raises(ValueError, match=r"mask: expected shape \(B, Lk\)"):
        module(q, k, torch.ones(2, 4, dtype=torch.bool))
    with pytest.raises(ValueError, match="mask: expected a boolean"):
        module(q, k, torch.ones(2, 5))
    with pytest.raises(ValueError, match="kind"):
        at.MultiplicativeAttention(3, 3, "scaled")
    with pytest.raises(ValueError, match="query_dim == key_dim"):
        at.MultiplicativeAttention(3, 4, "dot")


# ---------------------------------------------------------------------------------------------
# Encoder, decoders, greedy decoding

def _batch(n=6, seed=2):
    src_vocab, tgt_vocab = toylang.vocabularies()
    return tr.to_tensors(toylang.generate_pairs(n, seed=seed), src_vocab, tgt_vocab)


def _model(kind, seed=0):
    src_vocab, tgt_vocab = toylang.vocabularies()
    torch.manual_seed(seed)
    return Seq2Seq(len(src_vocab), len(tgt_vocab), emb_dim=8, enc_hidden=6, dec_hidden=12,
                   attention=kind, attn_hidden=7).double().eval()


def test_fused_gru_is_a_loop_of_gru_cells():
    torch.manual_seed(0)
    cell = nn.GRUCell(5, 7).double()
    x, h = torch.randn(3, 6, 5, dtype=torch.float64), torch.randn(3, 7, dtype=torch.float64)
    fused = _run_gru_cell(cell, x, h)
    for t in range(6):
        h = cell(x[:, t], h)
        assert torch.allclose(fused[:, t], h, atol=ATOL)


@pytest.mark.parametrize("kind", tr.KINDS)
def test_teacher_forcing_is_a_loop_of_steps(kind):
    model, t = _model(kind), _batch()
    with torch.no_grad():
        logits, weights = model(t["src"], t["src_mask"], t["tgt_in"])
        outputs, hidden = model.encode(t["src"], t["src_mask"])
        for step in range(t["tgt_in"].shape[1]):
            l, hidden, w = model.decoder.step(t["tgt_in"][:, step], hidden, outputs, t["src_mask"])
            assert torch.allclose(logits[:, step], l, atol=1e-9) and torch.allclose(weights[:, step], w, atol=ATOL)


def test_encoder_ignores_padding():
    model, t = _model("additive"), _batch()
    with torch.no_grad():
        outputs, final = model.encoder(t["src"], t["src_mask"])
        assert (outputs[~t["src_mask"]] == 0).all()
        assert torch.allclose(final, final_states(outputs, t["src_mask"]), atol=ATOL)
        for b in range(t["src"].shape[0]):  # alone, without the batch's padding
            n = int(t["src_mask"][b].sum())
            alone, _ = model.encoder(t["src"][b:b + 1, :n], t["src_mask"][b:b + 1, :n])
            assert torch.allclose(alone[0], outputs[b, :n], atol=1e-9)


@pytest.mark.parametrize("kind", ["none", "additive", "dot"])
def test_greedy_decode_batched_equals_one_by_one(kind):
    model, t = _model(kind, seed=1), _batch(5, seed=7)
    with torch.no_grad():
        model.decoder.out.bias[toylang.EOS] += 3.0  # make some sentences end early
    tokens, weights = at.greedy_decode(model, t["src"], t["src_mask"], max_len=9)
    assert tokens.shape[1] <= 9 and weights.shape == (*tokens.shape, t["src"].shape[1])
    for b in range(5):
        n = int(t["src_mask"][b].sum())
        one, w_one = at.greedy_decode(model, t["src"][b:b + 1, :n], t["src_mask"][b:b + 1, :n], max_len=9)
        T = one.shape[1]
        assert torch.equal(tokens[b, :T], one[0])
        assert (tokens[b, T:] == toylang.PAD).all() and (weights[b, T:] == 0).all()
        assert torch.allclose(weights[b, :T, :n], w_one[0], atol=ATOL)
        ends = (one[0] == toylang.EOS).nonzero()
        assert T == 9 or (len(ends) == 1 and ends[0, 0] == T - 1)


# ---------------------------------------------------------------------------------------------
# Metrics

def test_bleu_by_hand():
    # hyp 1: "the cat sat on the mat" vs ref "the cat is on the mat": 6 words each
    hyp, ref = "the cat sat on the mat".split(), "the cat is on the mat".split()
    s = bleu_statistics([hyp], [ref])
    assert s["matches"] == [5, 3, 1, 0] and s["totals"] == [6, 5, 4, 3]
    assert corpus_bleu([hyp], [ref]) == 0.0  # no 4-gram matches: BLEU is 0 without smoothing
    # identical sentences score 100; pooled counts over two sentences
    assert corpus_bleu([ref], [ref]) == pytest.approx(100.0)
    hyps = ["a b c d e".split(), "a b c d".split()]
    refs = ["a b c d e".split(), "a b c x".split()]
    # 1-grams 8/9, 2-grams 6/7, 3-grams 4/5, 4-grams 2/3; c = 9, r = 9 (no brevity penalty)
    expected = 100 * math.exp((math.log(8 / 9) + math.log(6 / 7) + math.log(4 / 5) + math.log(2 / 3)) / 4)
    assert corpus_bleu(hyps, refs) == pytest.approx(expected)
    # brevity penalty: a short but exact hypothesis of 4 words against 8 reference words
    short = [["a", "b", "c", "d"]]
    assert corpus_bleu(short, [list("abcdefgh")]) == pytest.approx(100 * math.exp(1 - 8 / 4))
    # clipping: "the the the the" matches "the" once per reference occurrence
    assert bleu_statistics([["the"] * 4], [["the", "cat"]])["matches"][0] == 1
    assert corpus_bleu([[]], [["a"]]) == 0.0


def test_exact_match():
    assert exact_match([["a", "b"], ["c"]], [["a", "b"], ["d"]]) == 0.5
    with pytest.raises(ValueError, match="same number"):
        exact_match([["a"]], [])


@pytest.mark.parametrize("shape", [(4, 3), (5, 7), (2, 4, 6)])
def test_alignment_accuracy_twins_agree(shape):
    rng = np.random.default_rng(0)
    weights = rng.random(shape)
    gold = rng.integers(-1, shape[-1], size=shape[:-1])
    gold.flat[0] = 0
    expected = alignment_accuracy(weights, gold)
    aligned = gold >= 0
    assert expected == pytest.approx(np.sum((weights.argmax(-1) == gold) & aligned) / aligned.sum())
    assert at.alignment_accuracy(torch.from_numpy(weights), torch.from_numpy(gold)) == pytest.approx(expected)
    assert attnlab.alignment_accuracy is alignment_accuracy


def test_alignment_accuracy_edge_cases_and_errors():
    w = np.array([[0.5, 0.5], [0.2, 0.8]])
    assert alignment_accuracy(w, np.array([0, 1])) == 1.0  # a tie goes to the first maximum
    assert math.isnan(alignment_accuracy(w, np.array([-1, -1])))
    for fn, wrap in ((alignment_accuracy, np.asarray), (at.alignment_accuracy, torch.as_tensor)):
        with pytest.raises(ValueError, match=r"gold: expected shape \(\.\.\., Lt\)"):
            fn(wrap(w), wrap(np.array([0, 1, 1])))
        with pytest.raises(ValueError, match="gold: expected integers in"):
            fn(wrap(w), wrap(np.array([0, 2])))
        with pytest.raises(ValueError, match=r"weights: expected shape \(\.\.\., Lt, Ls\)"):
            fn(wrap(np.ones(3)), wrap(np.array([0, 1, 2])))


# ---------------------------------------------------------------------------------------------
# The checks: every known mistake gives another answer than the reference on some case

EXERCISE_CHECKS = [  # the checks of one exercise share their catalogue of mistakes
    (all_checks.check_additive_attention, all_checks.check_additive_attention_mask),
    (all_checks.check_multiplicative_attention, all_checks.check_multiplicative_attention_mask),
    (all_checks.check_decoder_step, all_checks.check_decoder_step_luong),
    (all_checks.check_greedy_decode, all_checks.check_greedy_decode_eos),
    (all_checks.check_alignment_accuracy, all_checks.check_alignment_accuracy_batched),
]


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("checks", EXERCISE_CHECKS, ids=lambda c: c[0].__name__)
def test_checks_tell_every_value_mistake_apart(checks, hidden):
    # A structural mistake's code (a class the check cannot build as the stub says) loses its
    # points by the check's own error on the cases it reaches; a value mistake that does not apply
    # to a case raises NotApplicable there, which tells nothing apart.
    assert not ck.mistakes_not_told_apart(checks, hidden, crash_loses_points=True)


MODULE_CARDS = {"AdditiveAttention": "invoke_additive", "MultiplicativeAttention": "invoke_multiplicative",
                "AttentionDecoder": "invoke_decoder_step"}


@pytest.mark.parametrize("exercise", MODULE_CARDS)
def test_module_cards_run_their_mistakes_like_the_learners_class(exercise):
    """A mistake of a module card is a whole class: the flag-style ones keep their variant (the
    checks combine two of them), the others are called as the learner's class is, through the
    check's invoke (built with known weights); importing the card imports no torch."""
    import subprocess
    import sys
    from functools import partial

    from attnlab.cards import card

    invoke = getattr(checks07, MODULE_CARDS[exercise])
    c = card(exercise)
    for m in c.mistakes:
        assert m.code.startswith(f"class {exercise}"), m.name
        assert isinstance(m.impl, partial), m.name
        assert m.impl.func is invoke or not m.impl.args, m.name
    assert any(m.impl.func is invoke for m in c.mistakes)
    code = f"import sys\nimport attnlab.cards.{exercise}\nprint('torch' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False", "importing the card imported torch"


def test_greedy_cases_end_at_different_steps():
    for hidden in (False, True):
        for case in greedy_card.cases(hidden):
            tokens, _ = greedy_card.reference(*case.args)
            assert tokens.shape[1] == case.args[3]  # someone never ends
            assert 0 < (tokens == toylang.EOS).sum() < len(tokens)
        for case in greedy_card.eos_cases(hidden):
            tokens, _ = greedy_card.reference(*case.args)
            ends = [int(np.nonzero(row == toylang.EOS)[0][0]) for row in tokens]  # all end
            assert tokens.shape[1] < case.args[3] and len(set(ends)) >= 3


# ---------------------------------------------------------------------------------------------
# The committed checkpoints: small, and as good as docs/checkpoints.md says

# The figures docs/checkpoints.md states ("Translation checkpoints (notebook 07)"), as measured by
# ``benchmarks/bench_translation.py`` on the 2 000 test sentences: BLEU, exact match (%), alignment
# accuracy (%), BLEU on sentences of 31+ source words.
DOC_FIGURES = {
    "none": (13.6, 9.2, None, 6.8),
    "additive": (97.6, 94.2, 86.8, 96.6),
    "dot": (98.5, 92.8, 88.5, 98.0),
    "general": (97.9, 91.0, 86.2, 97.2),
}


@pytest.fixture(scope="module")
def evaluated():
    """Inference only, on one thread: about 15 s, and no slower when other work shares the CPU."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        data = tr.splits()
        return {kind: tr.evaluate(tr.load_pretrained(kind), data["test"]) for kind in tr.KINDS}
    finally:
        torch.set_num_threads(threads)


SPLITS_SHA256 = "c85853acd1620d85a36b52f3e8096bac245b5fc0041ea3f12836c006e56b5850"


def test_the_data_is_the_data_the_checkpoints_saw():
    """A change to the grammar, the lexicon or the generator changes the splits: retrain then
    (`make checkpoints`) and update this hash and the figures of docs/checkpoints.md."""
    import hashlib

    data = toylang.make_splits()
    assert hashlib.sha256(repr(data).encode()).hexdigest() == SPLITS_SHA256


def test_checkpoints_are_small():
    for kind in tr.KINDS:
        path = tr.checkpoint_path(kind)
        assert path.exists(), f"{path} is missing: run `make checkpoints`"
        assert path.stat().st_size < 2_000_000


def test_checkpoints_reach_the_targets(evaluated):
    for kind in ("additive", "dot", "general"):
        r = evaluated[kind]
        assert r["all"]["bleu"] >= 95 and r["all"]["exact"] >= 0.90 and r["all"]["align"] >= 0.85, (kind, r["all"])
        assert r["long"]["bleu"] >= 80, (kind, r["long"])
        assert evaluated["none"]["long"]["bleu"] <= 0.5 * r["long"]["bleu"]


def test_checkpoints_match_the_docs(evaluated):
    doc = (ROOT / "docs" / "checkpoints.md").read_text(encoding="utf-8")
    for kind, (bleu, exact, align, long_bleu) in DOC_FIGURES.items():
        r = evaluated[kind]
        assert r["all"]["bleu"] == pytest.approx(bleu, abs=0.051), kind
        assert 100 * r["all"]["exact"] == pytest.approx(exact, abs=0.051), kind
        if align is not None:
            assert 100 * r["all"]["align"] == pytest.approx(align, abs=0.051), kind
        assert r["long"]["bleu"] == pytest.approx(long_bleu, abs=0.051), kind
        row = f"| {tr.LABELS[kind]} | {bleu:.1f} | {exact:.1f}% |"
        assert row in doc, f"docs/checkpoints.md does not state {row!r}"


# ---------------------------------------------------------------------------------------------
# A sentence the learner types (notebook 07), and the training budget

def test_parse_sentence_matches_the_vocabulary_spelling():
    assert tr.parse_sentence("The small cat does not see you.") == (
        "the", "small", "cat", "does", "not", "see", "you")
    assert tr.parse_sentence("i love you!") == ("I", "love", "you")


@pytest.mark.parametrize("sentence,named", [
    ("the dgo eats an aple", ("'dgo'", "'dog'", "'aple'", "'apple'", "2 unknown")),
    ("hello <pad> world", ("'hello'", "'<pad>'", "'world'", "source_words()")),
    ("", ("at least one word",)),
    ("  , . ", ("at least one word",)),
    (["I", "love", "you"], ("expected a string", "list")),
])
def test_parse_sentence_names_what_is_wrong(sentence, named):
    with pytest.raises(ValueError) as info:
        tr.parse_sentence(sentence)
    message = str(info.value)
    assert message.startswith("sentence: expected")
    for piece in named:
        assert piece in message, f"{piece!r} not in {message!r}"


def test_translate_words_gives_the_words_and_one_row_of_weights_per_step():
    model = tr.load_pretrained("additive")
    words, weights = tr.translate_words(model, tr.parse_sentence("I love you"))
    assert words == list(toylang.EXAMPLES["I love you"].tgt)
    assert weights.shape == (len(words) + 1, 3)  # the output words, then <eos>
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=1e-5)


def test_training_stops_at_its_time_budget_and_records_the_last_loss():
    data = tr.splits(n_train=200, n_valid=10, n_test=10)
    config = tr.TrainConfig(attention="none", epochs=100, max_steps=10_000, max_seconds=0.0,
                            log_every=50, emb_dim=8, enc_hidden=8, dec_hidden=16, attn_hidden=8)
    _, history = tr.train(config, data, progress=True)
    assert history.steps_done == 1  # the budget is checked after every step
    assert history.steps == [1] and len(history.losses) == 1
