"""The whole contract in the checks (issue 27): return types, the range of the scores, fully
masked rows in module checks, and the key-value cache watched as a mechanism."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import attnlab
import attnlab.torch as at
from attnlab.checks import (
    check_cross_attention, check_decode_with_cache, check_decode_with_cache_positions,
    check_masked_softmax, check_mha_module_bias_mask, check_multi_head_attention, check_softmax,
    check_weighted_average,
)
from attnlab.checks._core import CheckFailure


def _fails(check, fn, *pieces, hidden=False):
    with pytest.raises(CheckFailure) as info:
        check(fn, hidden=hidden)
    for piece in pieces:
        assert piece in str(info.value), str(info.value)
    return str(info.value)


# return types -------------------------------------------------------------------------------

def _softmax_torch(x, axis=-1):
    return torch.softmax(torch.as_tensor(x), dim=axis)


def _softmax_float32(x, axis=-1):
    x = np.asarray(x, dtype=np.float32)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _weighted_average_int(values, weights):
    return np.round(attnlab.weighted_average(values, weights)).astype(np.int64)


def _mha_torch(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    out, w = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask)
    return torch.from_numpy(out), w


@pytest.mark.parametrize("hidden", [False, True])
def test_a_torch_tensor_from_a_numpy_exercise_is_named(hidden):
    _fails(check_softmax, _softmax_torch, "torch tensor returned from a numpy exercise",
           "torch.Tensor", hidden=hidden)
    _fails(check_multi_head_attention, _mha_torch, "torch tensor returned from a numpy exercise",
           "item 0 of what it returned", hidden=hidden)


def test_an_int_array_where_floats_are_asked_is_named():
    _fails(check_weighted_average, _weighted_average_int, "an integer (or boolean) array returned",
           "int64")


@pytest.mark.parametrize("hidden", [False, True])
def test_float32_stays_a_fair_route(hidden, capsys):
    check_softmax(_softmax_float32, hidden=hidden)
    check_softmax(attnlab.softmax, hidden=hidden)
    assert "✓ softmax" in capsys.readouterr().out


# the range of the scores ---------------------------------------------------------------------

def _masked_softmax_shift_all(scores, mask):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
    total = e.sum(axis=-1, keepdims=True)
    return np.where(total > 0, e / np.where(total > 0, total, 1), 0.0)


@pytest.mark.parametrize("hidden", [False, True])
def test_a_shift_over_masked_keys_fails_on_large_scores(hidden, capsys):
    check_masked_softmax(attnlab.masked_softmax, hidden=hidden)
    message = _fails(check_masked_softmax, _masked_softmax_shift_all,
                     "the max subtracted over every key, masked ones too", hidden=hidden)
    assert "+-1e4" in message


# fully masked rows in the module checks -------------------------------------------------------

class _FiniteFillMHA(at.MultiHeadAttention):
    """The library's module, but masked scores filled with a finite -10000."""

    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q, K, V = (at.split_heads(p(x), H) for p, x in ((self.W_q, X_q), (self.W_k, X_kv), (self.W_v, X_kv)))
        scores = Q @ K.transpose(-1, -2) / (Q.shape[-1] ** 0.5)
        if mask is not None:
            scores = scores.masked_fill(~mask, -10000.0)
        weights = torch.softmax(scores, dim=-1)
        return self.W_o(at.merge_heads(weights @ V)), weights


@pytest.mark.parametrize("hidden", [False, True])
def test_a_finite_mask_fill_fails_the_module_check(hidden, capsys):
    check_mha_module_bias_mask(at.MultiHeadAttention, hidden=hidden)
    _fails(check_mha_module_bias_mask, _FiniteFillMHA,
           "a finite fill value; a fully masked row must give zero weights", hidden=hidden)


def _cross_attention_finite(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e4)
    w = attnlab.softmax(scores)
    return w @ V, w


def test_cross_attention_meets_a_fully_masked_row():
    with pytest.raises(CheckFailure):
        from attnlab.checks import check_cross_attention_masked
        check_cross_attention_masked(_cross_attention_finite)
    check_cross_attention(_cross_attention_finite)  # right where no row is fully masked


# the key-value cache as a mechanism ------------------------------------------------------------

def _recompute_with_a_cache_variable(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        cache = torch.full((src.shape[0], 1), attnlab.toylang.BOS, dtype=torch.long)
        logits = []
        for _ in range(max_len):
            X = model.embed_target(cache)
            for layer in model.decoder_layers:
                X, _, _ = layer(X, memory, src_mask)
            step = model.out(model.decoder_norm(X))[:, -1]
            logits.append(step)
            cache = torch.cat([cache, step.argmax(-1, keepdim=True)], dim=1)
        return cache[:, 1:], torch.stack(logits, dim=1)


def _library_recomputation(model, src, src_mask, max_len):
    return at.decode_by_recomputation(model, src, src_mask, max_len)


def _cache_never_read(model, src, src_mask, max_len):
    """Keeps a cache, but attends to the new token's own key and value only."""
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        token = torch.full((src.shape[0], 1), attnlab.toylang.BOS, dtype=torch.long)
        tokens, logits = [], []
        for t in range(max_len):
            X = model.embed_target(token, offset=t)
            for layer in model.decoder_layers:
                attn, H = layer.self_attn, layer.self_attn.num_heads
                h = layer.norm1(X)
                k, v = attn.W_k(h), attn.W_v(h)
                z, _ = at.scaled_dot_product_attention(at.split_heads(attn.W_q(h), H), at.split_heads(k, H),
                                                       at.split_heads(v, H))
                X = X + attn.W_o(at.merge_heads(z))
                X = X + layer.cross_attn(layer.norm2(X), memory, src_mask[:, None, None, :])[0]
                X = X + layer.feed_forward(layer.norm3(X))
            step = model.out(model.decoder_norm(X))[:, 0]
            token = step.argmax(-1, keepdim=True)
            tokens.append(token)
            logits.append(step)
        return torch.cat(tokens, 1), torch.stack(logits, 1)


@pytest.mark.parametrize("check", [check_decode_with_cache, check_decode_with_cache_positions])
@pytest.mark.parametrize("fn", [_recompute_with_a_cache_variable, _library_recomputation])
def test_recomputation_is_not_a_cache(check, fn):
    _fails(check, fn, "recomputes the prefix each step; it keeps no cache")


def test_the_library_cache_passes_visible_and_hidden(capsys):
    check_decode_with_cache(at.decode_with_cache)
    check_decode_with_cache_positions(at.decode_with_cache, hidden=True)
    assert capsys.readouterr().out.count("✓ decode_with_cache") == 2


def test_a_cache_that_is_never_read_fails():
    _fails(check_decode_with_cache, _cache_never_read, "the cache not kept")
