"""Notebook 09's library: positional encodings, the Transformer layers against torch.nn's, the
key-value cache against recomputation, and the translator's plumbing."""
from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

import attnlab
import attnlab.torch as at
from attnlab.torch.transformer import to_torch_decoder_layer, to_torch_encoder_layer

TOL64 = dict(rtol=1e-10, atol=1e-10)


def _randomise(module: nn.Module, seed: int, std: float = 0.3) -> nn.Module:
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, generator=gen, dtype=p.dtype) * std)
    return module


# ---------------------------------------------------------------------------------------------
# Positional encodings

@pytest.mark.parametrize("L, D", [(1, 1), (5, 7), (50, 16), (0, 4), (128, 64)])
def test_positional_encoding_by_the_formula(L, D):
    PE = attnlab.sinusoidal_positional_encoding(L, D)
    assert PE.shape == (L, D)
    for p in range(min(L, 9)):
        for col in range(D):
            i = col // 2
            angle = p / 10000 ** (2 * i / D)
            expected = np.sin(angle) if col % 2 == 0 else np.cos(angle)
            assert PE[p, col] == pytest.approx(expected, abs=1e-12)
    twin = at.sinusoidal_positional_encoding(L, D)
    assert twin.dtype == torch.get_default_dtype()
    np.testing.assert_allclose(twin.numpy(), PE, atol=1e-6)


def test_positional_dot_product_depends_only_on_the_offset():
    PE = attnlab.sinusoidal_positional_encoding(200, 64)
    G = PE @ PE.T
    for k in (0, 1, 5, 37, 150):
        diagonal = np.diagonal(G, offset=k)
        assert np.ptp(diagonal) < 1e-9
    assert np.diagonal(G)[0] == pytest.approx(32.0)  # D/2 pairs of sin^2 + cos^2


@pytest.mark.parametrize("bad", [(-1, 4), (4, 0), (2.5, 4), (True, 4)])
def test_positional_encoding_rejects_bad_sizes(bad):
    for fn in (attnlab.sinusoidal_positional_encoding, at.sinusoidal_positional_encoding):
        with pytest.raises(ValueError, match="expected an integer"):
            fn(*bad)


# ---------------------------------------------------------------------------------------------
# The layers against torch.nn

@pytest.mark.parametrize("D, H, F, B, L", [(16, 4, 24, 3, 6), (12, 1, 8, 1, 5), (8, 2, 32, 2, 1)])
def test_encoder_layer_matches_torch(D, H, F, B, L):
    layer = _randomise(at.TransformerEncoderLayer(D, H, F).double(), seed=D + L).eval()
    X = torch.randn(B, L, D, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    lengths = torch.tensor([L] + [max(1, L - 2 - b) for b in range(B - 1)])
    mask = torch.arange(L)[None, :] < lengths[:, None]  # (B, L)
    with torch.no_grad():
        ours, weights = layer(X, mask)
    theirs = to_torch_encoder_layer(layer)(X, src_key_padding_mask=~mask)
    torch.testing.assert_close(ours[mask], theirs[mask], **TOL64)  # torch's fast path zeroes padded rows
    assert weights.shape == (B, H, L, L)
    assert float(weights.masked_select(~mask[:, None, None, :].expand_as(weights)).abs().sum()) == 0.0
    unmasked, _ = layer(X)
    torch.testing.assert_close(unmasked, to_torch_encoder_layer(layer)(X), **TOL64)


@pytest.mark.parametrize("D, H, F, B, Lt, Ls", [(16, 4, 24, 3, 5, 7), (12, 3, 8, 1, 6, 2), (8, 2, 16, 2, 1, 4)])
def test_decoder_layer_matches_torch(D, H, F, B, Lt, Ls):
    layer = _randomise(at.TransformerDecoderLayer(D, H, F).double(), seed=D + Lt).eval()
    gen = torch.Generator().manual_seed(2)
    X = torch.randn(B, Lt, D, dtype=torch.float64, generator=gen)
    memory = torch.randn(B, Ls, D, dtype=torch.float64, generator=gen)
    lengths = torch.tensor([Ls] + [max(1, Ls - 1 - b) for b in range(B - 1)])
    mask = torch.arange(Ls)[None, :] < lengths[:, None]
    ours, self_w, cross_w = layer(X, memory, mask)
    theirs = to_torch_decoder_layer(layer)(X, memory, tgt_mask=~at.causal_mask(Lt, Lt), tgt_is_causal=True,
                                          memory_key_padding_mask=~mask)
    torch.testing.assert_close(ours, theirs, **TOL64)
    assert self_w.shape == (B, H, Lt, Lt) and cross_w.shape == (B, H, Lt, Ls)
    assert float(self_w.triu(diagonal=1).abs().sum()) == 0.0  # no looking ahead
    assert float(cross_w.masked_select(~mask[:, None, None, :].expand_as(cross_w)).abs().sum()) == 0.0


def test_decoder_is_causal():
    """Changing target position t changes no output before t."""
    layer = _randomise(at.TransformerDecoderLayer(8, 2, 12).double(), seed=3).eval()
    X = torch.randn(2, 6, 8, dtype=torch.float64)
    memory = torch.randn(2, 4, 8, dtype=torch.float64)
    Y = X.clone()
    Y[:, 4] += 1.0
    a, _, _ = layer(X, memory)
    b, _, _ = layer(Y, memory)
    torch.testing.assert_close(a[:, :4], b[:, :4], **TOL64)
    assert float((a[:, 4] - b[:, 4]).abs().max()) > 1e-3


def test_encoder_without_positions_is_permutation_equivariant():
    layer = _randomise(at.TransformerEncoderLayer(8, 2, 12).double(), seed=4).eval()
    X = torch.randn(1, 7, 8, dtype=torch.float64)
    perm = torch.tensor([3, 0, 6, 1, 5, 2, 4])
    a, _ = layer(X)
    b, _ = layer(X[:, perm])
    torch.testing.assert_close(a[:, perm], b, **TOL64)


def test_post_norm_layer_matches_torch():
    layer = _randomise(at.PostNormEncoderLayer(16, 4, 24).double(), seed=5).eval()
    X = torch.randn(2, 5, 16, dtype=torch.float64)
    theirs = nn.TransformerEncoderLayer(16, 4, 24, dropout=0.0, batch_first=True, norm_first=False,
                                        dtype=torch.float64).eval()
    ref = to_torch_encoder_layer(layer)
    theirs.load_state_dict(ref.state_dict())
    torch.testing.assert_close(layer(X)[0], theirs(X), **TOL64)


@pytest.mark.parametrize("bad, match", [
    (lambda l: l(torch.randn(2, 5, 7)), "expected shape"),
    (lambda l: l(torch.randn(5, 8)), "expected shape"),
    (lambda l: l(torch.randn(2, 5, 8), torch.ones(2, 4, dtype=torch.bool)), "mask"),
    (lambda l: l(torch.randn(2, 5, 8), torch.ones(2, 5)), "bool"),
])
def test_encoder_layer_rejects_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        bad(at.TransformerEncoderLayer(8, 2, 12))


def test_decoder_layer_rejects_bad_input():
    layer = at.TransformerDecoderLayer(8, 2, 12)
    with pytest.raises(ValueError, match="memory"):
        layer(torch.randn(2, 3, 8), torch.randn(3, 4, 8))
    with pytest.raises(ValueError, match="memory_mask"):
        layer(torch.randn(2, 3, 8), torch.randn(2, 4, 8), torch.ones(2, 3, dtype=torch.bool))


# ---------------------------------------------------------------------------------------------
# The translator and the key-value cache

def _model(positions="sinusoidal", layers=2, seed=0):
    torch.manual_seed(seed)
    return at.TransformerSeq2Seq(13, 17, d_model=16, num_heads=4, d_ff=24, num_layers=layers,
                                 positions=positions, max_len=40).eval()


def _batch(seed=0):
    gen = torch.Generator().manual_seed(seed)
    lengths = torch.tensor([7, 3, 5])
    mask = torch.arange(7)[None, :] < lengths[:, None]
    src = torch.randint(4, 13, (3, 7), generator=gen).masked_fill(~mask, 0)
    return src, mask


@pytest.mark.parametrize("positions", ["sinusoidal", "learned", "none"])
@pytest.mark.parametrize("layers", [1, 3])
def test_cache_equals_recomputation_float32(positions, layers):
    model = _randomise(_model(positions, layers), seed=10 + layers, std=0.5)  # a lively argmax
    src, mask = _batch(layers)
    tokens, logits = at.decode_with_cache(model, src, mask, 25)
    ref_tokens, ref_logits = at.decode_by_recomputation(model, src, mask, 25)
    assert tokens.dtype == torch.long and tokens.shape == (3, 25) and logits.shape == (3, 25, 17)
    assert torch.equal(tokens, ref_tokens)
    assert float((logits - ref_logits).abs().max()) <= 1e-6 * max(1.0, float(ref_logits.abs().max()))
    if layers == 3:  # the test exercises a changing prefix
        assert len(set(tokens.flatten().tolist())) > 1


def test_recomputation_matches_teacher_forcing():
    """The logits of recomputation are those of one teacher-forced pass over its own output."""
    model = _model()
    src, mask = _batch(1)
    tokens, logits = at.decode_by_recomputation(model, src, mask, 9)
    tgt_in = torch.cat([torch.full((3, 1), at.transformer.BOS), tokens[:, :-1]], dim=1)
    with torch.no_grad():
        forced, weights = model(src, mask, tgt_in)
    torch.testing.assert_close(forced, logits, rtol=1e-5, atol=1e-5)
    assert weights.shape == (3, 9, 7)


def test_translator_needs_positions_to_tell_word_order():
    src, mask = _batch(2)
    flipped = src.clone()
    flipped[0, :7] = src[0, :7].flip(0)
    for positions, same in (("none", True), ("sinusoidal", False)):
        model = _model(positions)
        a = at.decode_with_cache(model, src, mask, 6)[1][0]
        b = at.decode_with_cache(model, flipped, mask, 6)[1][0]
        assert bool(torch.allclose(a, b, atol=1e-5)) is same


def test_decode_rejects_bad_input():
    model = _model()
    src, mask = _batch()
    with pytest.raises(ValueError, match="max_len"):
        at.decode_with_cache(model, src, mask, 0)
    with pytest.raises(ValueError, match="src_mask"):
        at.decode_with_cache(model, src, mask[:, :3], 4)
    with pytest.raises(ValueError, match="max_len = 40"):
        at.decode_with_cache(model, src, mask, 41)
    with pytest.raises(ValueError, match="positions"):
        at.TransformerSeq2Seq(5, 5, positions="rotary")


# ---------------------------------------------------------------------------------------------
# The checks: every known mistake gives another answer than the reference on some case

import attnlab.checks as all_checks  # noqa: E402 - the checks, from their cards
import coursekit as ck  # noqa: E402

EXERCISE_CHECKS = [
    (all_checks.check_sinusoidal_positional_encoding, all_checks.check_sinusoidal_positional_encoding_odd),
    (all_checks.check_encoder_layer, all_checks.check_encoder_layer_mask),
    (all_checks.check_decoder_layer, all_checks.check_decoder_layer_mask),
    (all_checks.check_decode_with_cache, all_checks.check_decode_with_cache_positions),
]


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("checks", EXERCISE_CHECKS, ids=lambda c: c[0].__name__)
def test_checks_tell_every_value_mistake_apart(checks, hidden):
    assert not ck.mistakes_not_told_apart(checks, hidden, crash_loses_points=True)


def test_library_passes_its_own_checks(capsys):
    from attnlab.torch.transformer import TransformerDecoderLayer, TransformerEncoderLayer

    for hidden in (False, True):
        all_checks.check_sinusoidal_positional_encoding(attnlab.sinusoidal_positional_encoding, hidden=hidden)
        all_checks.check_sinusoidal_positional_encoding_odd(attnlab.sinusoidal_positional_encoding, hidden=hidden)
        all_checks.check_encoder_layer(TransformerEncoderLayer, hidden=hidden)
        all_checks.check_encoder_layer_mask(TransformerEncoderLayer, hidden=hidden)
        all_checks.check_decoder_layer(TransformerDecoderLayer, hidden=hidden)
        all_checks.check_decoder_layer_mask(TransformerDecoderLayer, hidden=hidden)
        all_checks.check_decode_with_cache(at.decode_with_cache, hidden=hidden)
        all_checks.check_decode_with_cache_positions(at.decode_with_cache, hidden=hidden)
    assert capsys.readouterr().out.count("✓") == 16


# ---------------------------------------------------------------------------------------------
# The committed checkpoints (`make checkpoints`)

from attnlab.torch import translation as tr  # noqa: E402


def test_transformer_checkpoints_are_small_and_load():
    for kind in tr.TRANSFORMER_KINDS:
        path = tr.checkpoint_path(kind)
        assert path.exists(), f"{path} is missing: run `make checkpoints`"
        assert path.stat().st_size < 1_000_000
        model, blob = tr.load_checkpoint(path)
        assert isinstance(model, at.TransformerSeq2Seq)
        assert tr.TrainConfig(**blob["config"]) == tr.transformer_config(kind)  # the recipe as documented
        assert model.positions == ("none" if kind == "transformer_nopos" else "sinusoidal")


def test_transformer_checkpoint_translates_and_its_cache_is_exact():
    """On 200 test sentences: the stored figures are what the model does, and the cache equals
    recomputation in float32 on real weights."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model, blob = tr.load_checkpoint(tr.checkpoint_path("transformer"))
        pairs = tr.splits()["test"][:200]
        hyps, _ = tr.translate(model, pairs)
        bleu = tr.score(pairs, hyps)["all"]["bleu"]
        assert bleu >= 97.0 and blob["figures"]["all"]["bleu"] >= 98.5
        t = tr.to_tensors(pairs[:32], *attnlab.toylang.vocabularies())
        tokens, logits = at.decode_with_cache(model, t["src"], t["src_mask"], 50)
        ref_tokens, ref_logits = at.decode_by_recomputation(model, t["src"], t["src_mask"], 50)
        assert torch.equal(tokens, ref_tokens)
        assert float((logits - ref_logits).abs().max()) <= 1e-6 * float(ref_logits.abs().max())
    finally:
        torch.set_num_threads(threads)


def test_the_docs_state_the_transformer_figures():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "checkpoints.md").read_text(encoding="utf-8")
    for kind in tr.TRANSFORMER_KINDS:
        f = tr.load_checkpoint(tr.checkpoint_path(kind))[1]["figures"]
        align = f"{100 * f['all']['align']:.1f}%" if "align" in f["all"] else "-"
        row = (f"| {tr.LABELS[kind]} | {f['all']['bleu']:.1f} | {100 * f['all']['exact']:.1f}% | {align} | "
               f"{f['long']['bleu']:.1f} |")
        assert row in doc, f"docs/checkpoints.md does not state {row!r}"
