"""Notebook 13's library: attention variants as dense attention with a score mod or a mask mod.

With no mod it is the course's attention; every mask mod against a mask written by hand; ALiBi's
slopes against the paper's rule; sinks, top-k and multi-head latent attention against dense
attention computed another way; the torch twins against numpy, ``gradcheck`` and torch's own
``flex_attention``; bad input named in a ``ValueError``.
"""
from __future__ import annotations

import time
import warnings

import numpy as np
import pytest
import torch

import attnlab
import attnlab.torch as at
from attnlab import variants as v
from attnlab.torch import variants as tv

TOL = dict(rtol=1e-12, atol=1e-12)


def _qkv(B=2, H=3, Lq=5, Lk=6, D=4, Dv=3, seed=0, scale=1.0):
    rng = np.random.default_rng(seed)
    return (scale * rng.normal(size=(B, H, Lq, D)), scale * rng.normal(size=(B, H, Lk, D)),
            rng.normal(size=(B, H, Lk, Dv)))


def _mask(rows) -> np.ndarray:
    """A mask written as strings of 0/1, one per query row."""
    return np.array([[c == "1" for c in r] for r in rows])


# --------------------------------------------------------------------------- no mod = dense


@pytest.mark.parametrize("shape", [(2, 3, 5, 6), (1, 1, 1, 1), (1, 2, 4, 4)])
def test_without_mods_it_is_scaled_dot_product_attention(shape):
    B, H, Lq, Lk = shape
    Q, K, V = _qkv(B, H, Lq, Lk, seed=Lq)
    out, w = v.attention_with_mods(Q, K, V)
    ref_out, ref_w = attnlab.scaled_dot_product_attention(Q, K, V)
    np.testing.assert_allclose(out, ref_out, **TOL)
    np.testing.assert_allclose(w, ref_w, **TOL)
    assert out.shape == (B, H, Lq, 3) and w.shape == (B, H, Lq, Lk) and out.dtype == np.float64


def test_two_d_inputs_are_one_batch_and_one_head():
    Q, K, V = (x[0, 0] for x in _qkv())
    out, w = v.attention_with_mods(Q, K, V, mask_mod=v.causal_mask_mod)
    ref_out, ref_w = attnlab.scaled_dot_product_attention(Q, K, V, attnlab.causal_mask(5, 6))
    np.testing.assert_allclose(out, ref_out, **TOL)
    np.testing.assert_allclose(w, ref_w, **TOL)
    assert out.shape == (5, 3)


def test_a_mask_mod_is_the_explicit_mask_and_an_empty_row_is_zero():
    Q, K, V = _qkv()
    mod = v.and_masks(v.causal_mask_mod, lambda b, h, q, k: (q != 2) & (h != 1))  # row 2 and head 1 see nothing
    mask = v.mask_from_mod(mod, 2, 3, 5, 6)
    out, w = v.attention_with_mods(Q, K, V, mask_mod=mod)
    ref_out, ref_w = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    np.testing.assert_allclose(out, ref_out, **TOL)
    np.testing.assert_allclose(w, ref_w, **TOL)
    assert np.all(w[:, :, 2] == 0) and np.all(out[:, 1] == 0) and np.all(np.isfinite(out))
    assert np.all(w[~mask] == 0)


def test_the_mods_receive_broadcastable_indices():
    seen = {}

    def spy(score, b, h, q, k):
        seen.update(score=score.shape, b=b.shape, h=h.shape, q=q.shape, k=k.shape)
        return score
    v.attention_with_mods(*_qkv(), score_mod=spy)
    assert seen == dict(score=(2, 3, 5, 6), b=(2, 1, 1, 1), h=(1, 3, 1, 1), q=(1, 1, 5, 1), k=(1, 1, 1, 6))


# --------------------------------------------------------------------------- mask mods by hand


def test_causal_mask_mod_by_hand():
    want = _mask(["1000", "1100", "1110"])
    np.testing.assert_array_equal(v.mask_from_mod(v.causal_mask_mod, 1, 1, 3, 4)[0, 0], want)
    np.testing.assert_array_equal(want, attnlab.causal_mask(3, 4))


def test_sliding_window_mask_mod_by_hand():
    want = _mask(["10000", "11000", "01100", "00110", "00011"])
    got = v.mask_from_mod(v.sliding_window_mask_mod(2), 2, 2, 5, 5)
    assert got.shape == (2, 2, 5, 5)
    for b in range(2):
        for h in range(2):
            np.testing.assert_array_equal(got[b, h], want)
    # the two newest rows of a cache of 5: offset 3
    np.testing.assert_array_equal(v.mask_from_mod(v.sliding_window_mask_mod(3, offset=3), 1, 1, 2, 5)[0, 0],
                                  _mask(["01110", "00111"]))


@pytest.mark.parametrize("Lq,Lk,window,offset", [(5, 5, 1, 0), (5, 5, 3, 0), (4, 9, 3, 5), (6, 6, 10, 0),
                                                 (3, 7, 2, 2), (2, 8, 4, 6)])
def test_sliding_window_mask_mod_is_modern_sliding_window_mask(Lq, Lk, window, offset):
    got = v.mask_from_mod(v.sliding_window_mask_mod(window, offset), 1, 1, Lq, Lk)[0, 0]
    np.testing.assert_array_equal(got, attnlab.sliding_window_mask(Lq, Lk, window, offset))


def test_document_mask_mod_by_hand():
    docs = np.array([0, 0, 1, 1, 1, 2])
    causal = _mask(["100000", "110000", "001000", "001100", "001110", "000001"])
    both_ways = _mask(["110000", "110000", "001110", "001110", "001110", "000001"])
    np.testing.assert_array_equal(v.mask_from_mod(v.document_mask_mod(docs), 1, 1, 6, 6)[0, 0], causal)
    np.testing.assert_array_equal(v.mask_from_mod(v.document_mask_mod(docs, causal=False), 1, 1, 6, 6)[0, 0],
                                  both_ways)


def test_prefix_lm_mask_mod_by_hand():
    want = _mask(["11000", "11000", "11100", "11110", "11111"])
    np.testing.assert_array_equal(v.mask_from_mod(v.prefix_lm_mask_mod(2), 1, 1, 5, 5)[0, 0], want)
    np.testing.assert_array_equal(v.mask_from_mod(v.prefix_lm_mask_mod(0), 1, 1, 5, 5)[0, 0],
                                  attnlab.causal_mask(5, 5))


def test_and_masks_and_or_masks_by_hand():
    window, prefix = v.sliding_window_mask_mod(2), v.prefix_lm_mask_mod(3)
    window_mask = v.mask_from_mod(window, 1, 1, 5, 5)[0, 0]
    prefix_mask = v.mask_from_mod(prefix, 1, 1, 5, 5)[0, 0]
    np.testing.assert_array_equal(v.mask_from_mod(v.and_masks(window, prefix), 1, 1, 5, 5)[0, 0],
                                  _mask(["10000", "11000", "01100", "00110", "00011"]))
    np.testing.assert_array_equal(v.mask_from_mod(v.or_masks(window, prefix), 1, 1, 5, 5)[0, 0],
                                  _mask(["11100", "11100", "11100", "11110", "11111"]))
    np.testing.assert_array_equal(v.mask_from_mod(v.and_masks(window, prefix), 1, 1, 5, 5)[0, 0],
                                  window_mask & prefix_mask)
    one = v.mask_from_mod(v.or_masks(window), 1, 1, 5, 5)[0, 0]
    np.testing.assert_array_equal(one, window_mask)


# --------------------------------------------------------------------------- score mods


def test_alibi_slopes_for_a_power_of_two():
    np.testing.assert_array_equal(v.alibi_slopes(8), 2.0 ** -np.arange(1, 9))
    np.testing.assert_array_equal(v.alibi_slopes(1), [2.0 ** -8])
    np.testing.assert_allclose(v.alibi_slopes(16), 2.0 ** (-0.5 * np.arange(1, 17)), **TOL)


def test_alibi_slopes_for_other_head_counts_follow_the_paper():
    # n = 4: 2^-2, 2^-4, 2^-6, 2^-8; then 2n = 8's list 2^-1 .. 2^-8, every other one from the first
    np.testing.assert_array_equal(v.alibi_slopes(6), [2.0 ** -2, 2.0 ** -4, 2.0 ** -6, 2.0 ** -8, 2.0 ** -1, 2.0 ** -3])
    np.testing.assert_allclose(v.alibi_slopes(12), np.concatenate([2.0 ** -np.arange(1, 9),
                                                                   2.0 ** -(np.arange(4) + 0.5)]), **TOL)
    np.testing.assert_array_equal(v.alibi_slopes(3), [2.0 ** -4, 2.0 ** -8, 2.0 ** -2])


def _alibi_reference(H):
    """The ALiBi repository's get_slopes, transcribed."""
    import math

    def power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        return [start * start ** i for i in range(n)]
    if math.log2(H).is_integer():
        return power_of_2(H)
    closest = 2 ** math.floor(math.log2(H))
    return power_of_2(closest) + _alibi_reference(2 * closest)[0::2][: H - closest]


@pytest.mark.parametrize("H", [1, 2, 3, 5, 6, 7, 8, 12, 20, 32, 40])
def test_alibi_slopes_match_the_reference_code(H):
    np.testing.assert_allclose(v.alibi_slopes(H), _alibi_reference(H), **TOL)


def test_alibi_score_mod_is_a_distance_penalty():
    Q, K, V = _qkv(1, 4, 5, 5, seed=3)
    out, w = v.attention_with_mods(Q, K, V, v.alibi_score_mod(4), v.causal_mask_mod)
    i, j = np.arange(5)[:, None], np.arange(5)[None, :]
    scores = Q @ np.swapaxes(K, -1, -2) / 2.0 - v.alibi_slopes(4)[None, :, None, None] * (i - j)  # sqrt(D) = 2
    ref_out, ref_w = attnlab.scaled_dot_product_attention(Q, K, V, attnlab.causal_mask(5, 5))
    ref_w = attnlab.masked_softmax(scores, attnlab.causal_mask(5, 5))
    np.testing.assert_allclose(w, ref_w, **TOL)
    np.testing.assert_allclose(out, ref_w @ V, **TOL)
    assert not np.allclose(out, ref_out)


def test_softcap_bounds_the_scores():
    c = 5.0
    mod = v.softcap_score_mod(c)
    s = np.linspace(-1e4, 1e4, 101)
    capped = mod(s, 0, 0, 0, 0)
    assert np.all(np.abs(capped) <= c) and np.all(np.diff(capped) >= 0)
    np.testing.assert_allclose(mod(np.array([1e-3]), 0, 0, 0, 0), [1e-3], rtol=1e-6)
    Q, K, V = _qkv(scale=30.0)  # scores far beyond c
    seen = {}

    def spy(score, b, h, q, k):
        seen["capped"] = mod(score, b, h, q, k)
        seen["raw"] = score
        return seen["capped"]
    out, w = v.attention_with_mods(Q, K, V, spy)
    assert np.abs(seen["raw"]).max() > 3 * c and np.abs(seen["capped"]).max() <= c
    np.testing.assert_allclose(w, attnlab.masked_softmax(c * np.tanh(seen["raw"] / c)), **TOL)


def test_relative_bias_score_mod_by_loops():
    rng = np.random.default_rng(4)
    H, Lmax = 2, 4
    bias = rng.normal(size=(H, 2 * Lmax - 1))
    Q, K, V = _qkv(1, H, 5, 6, seed=5)  # offsets up to 5 > Lmax - 1: clipped
    scores = Q @ np.swapaxes(K, -1, -2) / 2.0
    for h in range(H):
        for i in range(5):
            for j in range(6):
                scores[0, h, i, j] += bias[h, min(max(j - i, -(Lmax - 1)), Lmax - 1) + Lmax - 1]
    _, w = v.attention_with_mods(Q, K, V, v.relative_bias_score_mod(bias))
    np.testing.assert_allclose(w, attnlab.masked_softmax(scores), **TOL)


# --------------------------------------------------------------------------- sinks


def test_sink_window_keys_by_hand():
    np.testing.assert_array_equal(v.sink_window_keys(10, 2, 3), [0, 1, 7, 8, 9])
    np.testing.assert_array_equal(v.sink_window_keys(5, 2, 3), [0, 1, 2, 3, 4])  # exactly touching
    np.testing.assert_array_equal(v.sink_window_keys(4, 3, 3), [0, 1, 2, 3])  # overlapping: no duplicates
    np.testing.assert_array_equal(v.sink_window_keys(10, 0, 4), [6, 7, 8, 9])
    np.testing.assert_array_equal(v.sink_window_keys(2, 4, 1), [0, 1])
    for Lk in range(12):
        for S in range(4):
            for W in range(1, 5):
                keys = v.sink_window_keys(Lk, S, W)
                assert len(keys) == min(Lk, S + W) == len(set(keys.tolist()))


def test_sink_window_attention_is_dense_attention_over_the_kept_keys():
    rng = np.random.default_rng(6)
    q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(3, 12, 4)), rng.normal(size=(3, 12, 2))
    out, w = v.sink_window_attention(q, K, V, n_sinks=2, window=4)
    keys = [0, 1, 8, 9, 10, 11]
    ref_out, ref_w = attnlab.scaled_dot_product_attention(q[:, None, :], K[:, keys], V[:, keys])
    np.testing.assert_allclose(out, ref_out[:, 0], **TOL)
    np.testing.assert_allclose(w[:, keys], ref_w[:, 0], **TOL)
    assert np.all(w[:, 2:8] == 0) and w.shape == (3, 12)
    full_out, _ = v.sink_window_attention(q, K, V, n_sinks=0, window=12)  # nothing evicted: dense
    np.testing.assert_allclose(full_out, attnlab.scaled_dot_product_attention(q[:, None], K, V)[0][:, 0], **TOL)
    assert not np.allclose(out, full_out)


# --------------------------------------------------------------------------- multi-head latent attention


def _mla_args(B=2, L=7, D=8, Dc=3, H=2, Dh=4, Dv=5, Dout=6, seed=7):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(B, L, D)), rng.normal(size=(D, Dc)), rng.normal(size=(Dc, H * Dh)),
            rng.normal(size=(Dc, H * Dv)), rng.normal(size=(D, H * Dh)), rng.normal(size=(H * Dv, Dout)), H)


def test_mla_naive_is_causal_multi_head_attention_on_the_up_projected_latent():
    X, W_dkv, W_uk, W_uv, W_q, W_o, H = _mla_args()
    out, w = v.mla_naive(X, W_dkv, W_uk, W_uv, W_q, W_o, H)
    c = X @ W_dkv
    heads = []
    for h in range(H):  # head by head, by columns
        Qh, Kh = X @ W_q[:, 4 * h:4 * h + 4], c @ W_uk[:, 4 * h:4 * h + 4]
        Zh, Ah = attnlab.scaled_dot_product_attention(Qh, Kh, c @ W_uv[:, 5 * h:5 * h + 5], attnlab.causal_mask(7, 7))
        np.testing.assert_allclose(w[:, h], Ah, **TOL)
        heads.append(Zh)
    np.testing.assert_allclose(out, np.concatenate(heads, axis=-1) @ W_o, **TOL)
    assert out.shape == (2, 7, 6) and w.shape == (2, 2, 7, 7)


@pytest.mark.parametrize("dims", [dict(), dict(Dc=16, H=4, Dh=2, Dv=3), dict(B=1, L=1, H=1)])
def test_mla_absorbed_equals_naive(dims):
    args = _mla_args(**dims)
    out, w = v.mla_naive(*args)
    out_a, w_a = v.mla_absorbed(*args)
    np.testing.assert_allclose(out_a, out, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(w_a, w, rtol=1e-10, atol=1e-10)
    out_2d, _ = v.mla_absorbed(args[0][0], *args[1:])  # no batch
    np.testing.assert_allclose(out_2d, out[0], rtol=1e-10, atol=1e-10)


def test_mla_cache_bytes():
    assert v.mla_cache_bytes(2, 10, 512, 64, 2, batch=3) == 2 * 10 * 3 * 576 * 2
    # DeepSeek-V2: 512 + 64 numbers per token and layer, as GQA with 2.25 groups of head width 128
    assert 4 * v.mla_cache_bytes(60, 1000, 512, 64, 2) == 9 * attnlab.kv_cache_bytes(60, 1, 128, 1000)
    assert attnlab.kv_cache_bytes(60, 128, 128, 1000) / v.mla_cache_bytes(60, 1000, 512, 64, 2) == pytest.approx(56.9, abs=0.05)


# --------------------------------------------------------------------------- top-k


def _topk_by_loops(Q, K, V, k):
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    w = np.zeros_like(scores)
    for i, row in enumerate(scores):
        kept = sorted(range(len(row)), key=lambda j: (-row[j], j))[:k]  # ties: lower index
        e = np.exp(row[kept] - row[kept].max())
        w[i, kept] = e / e.sum()
    return w @ V, w


def test_topk_with_every_key_is_dense():
    Q, K, V = _qkv()
    out, w = v.topk_attention(Q, K, V, 6)
    ref_out, ref_w = attnlab.scaled_dot_product_attention(Q, K, V)
    np.testing.assert_allclose(out, ref_out, **TOL)
    np.testing.assert_allclose(w, ref_w, **TOL)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_topk_renormalises_over_the_kept_keys(k):
    Q, K, V = _qkv(seed=8)
    out, w = v.topk_attention(Q, K, V, k)
    np.testing.assert_allclose(w.sum(-1), 1.0, **TOL)
    assert np.all((w > 0).sum(-1) == k)
    for b in range(2):
        for h in range(3):
            ref_out, ref_w = _topk_by_loops(Q[b, h], K[b, h], V[b, h], k)
            np.testing.assert_allclose(w[b, h], ref_w, **TOL)
            np.testing.assert_allclose(out[b, h], ref_out, **TOL)
    _, dense = attnlab.scaled_dot_product_attention(Q, K, V)
    zeroed = np.where(w > 0, dense, 0.0)  # the full softmax with the others zeroed: rows sum below one
    if k > 1:
        assert np.all(zeroed.sum(-1) < 1 - 1e-6) and not np.allclose(zeroed, w)
    # the kept keys are the k highest scores
    scores = Q @ np.swapaxes(K, -1, -2)
    assert np.all(np.where(w > 0, scores, np.inf).min(-1) >= np.where(w > 0, -np.inf, scores).max(-1))


def test_topk_breaks_ties_by_the_lower_key_index():
    rng = np.random.default_rng(9)
    q = rng.normal(size=(1, 3))
    k0 = rng.normal(size=3)
    K = np.stack([k0 * 0.1, k0, k0 * 0.5, k0, k0, -k0])  # keys 1, 3, 4 tie for the highest score
    V = rng.normal(size=(6, 2))
    if (q @ k0)[0] < 0:
        q = -q
    _, w = v.topk_attention(q, K, V, 2)
    np.testing.assert_array_equal(np.flatnonzero(w[0]), [1, 3])
    np.testing.assert_allclose(w[0, [1, 3]], 0.5, **TOL)
    _, t_w = tv.topk_attention(torch.from_numpy(q), torch.from_numpy(K), torch.from_numpy(V), 2)
    np.testing.assert_array_equal(np.flatnonzero(t_w[0].numpy()), [1, 3])


# --------------------------------------------------------------------------- torch twins


MODS = {
    "none": (None, None),
    "alibi+causal": (v.alibi_score_mod(3), v.causal_mask_mod),
    "softcap+window": (v.softcap_score_mod(0.7), v.sliding_window_mask_mod(2, offset=1)),
    "relative+documents": (v.relative_bias_score_mod(np.linspace(-1, 1, 3 * 9).reshape(3, 9)),
                           v.document_mask_mod(np.array([0, 0, 1, 1, 1, 2]))),
    "prefix": (None, v.or_masks(v.prefix_lm_mask_mod(2), v.causal_mask_mod)),
}


@pytest.mark.parametrize("name", list(MODS))
def test_torch_attention_with_mods_matches_numpy(name):
    score_mod, mask_mod = MODS[name]
    Q, K, V = _qkv(Lq=5, Lk=6)
    out, w = v.attention_with_mods(Q, K, V, score_mod, mask_mod)
    t_out, t_w = tv.attention_with_mods(*(torch.from_numpy(a) for a in (Q, K, V)), score_mod, mask_mod)
    np.testing.assert_allclose(t_out.numpy(), out, **TOL)
    np.testing.assert_allclose(t_w.numpy(), w, **TOL)
    if mask_mod is not None:
        np.testing.assert_array_equal(tv.mask_from_mod(mask_mod, 2, 3, 5, 6).numpy(), v.mask_from_mod(mask_mod, 2, 3, 5, 6))


def test_torch_twins_of_topk_sinks_and_mla_match_numpy():
    Q, K, V = _qkv(seed=10)
    tQ, tK, tV = (torch.from_numpy(a) for a in (Q, K, V))
    for k in (1, 3, 6):
        for t, n in zip(tv.topk_attention(tQ, tK, tV, k), v.topk_attention(Q, K, V, k)):
            np.testing.assert_allclose(t.numpy(), n, **TOL)
    for t, n in zip(tv.sink_window_attention(tQ[..., 0, :], tK, tV, 1, 2), v.sink_window_attention(Q[..., 0, :], K, V, 1, 2)):
        np.testing.assert_allclose(t.numpy(), n, **TOL)
    args = _mla_args()
    t_args = [torch.from_numpy(a) for a in args[:-1]] + [args[-1]]
    for f, g in ((tv.mla_naive, v.mla_naive), (tv.mla_absorbed, v.mla_absorbed)):
        for t, n in zip(f(*t_args), g(*args)):
            np.testing.assert_allclose(t.numpy(), n, rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(tv.alibi_slopes(6).numpy(), v.alibi_slopes(6))
    np.testing.assert_array_equal(tv.sink_window_keys(9, 2, 3).numpy(), v.sink_window_keys(9, 2, 3))
    assert at.attention_with_mods is tv.attention_with_mods and attnlab.attention_with_mods is v.attention_with_mods


@pytest.mark.parametrize("name", ["alibi+causal", "softcap+window", "relative+documents"])
def test_torch_attention_with_mods_gradcheck(name):
    score_mod, mask_mod = MODS[name]
    Q, K, V = (torch.from_numpy(a).requires_grad_() for a in _qkv(1, 3, 4, 6, D=2, Dv=2, seed=11))
    assert torch.autograd.gradcheck(lambda q, k, v_: tv.attention_with_mods(q, k, v_, score_mod, mask_mod)[0], (Q, K, V))


def test_torch_topk_gradcheck():
    Q, K, V = (torch.from_numpy(a).requires_grad_() for a in _qkv(1, 2, 3, 5, D=2, Dv=2, seed=12))
    assert torch.autograd.gradcheck(lambda q, k, v_: tv.topk_attention(q, k, v_, 2)[0], (Q, K, V))


@pytest.mark.parametrize("name", ["none", "alibi+causal", "softcap+window", "relative+documents", "prefix"])
def test_flex_attention_agrees(name):
    """torch's flex_attention, eager on CPU, with the very same mods (vmapped element by element)."""
    try:
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    except ImportError as err:
        pytest.skip(f"no torch.nn.attention.flex_attention in torch {torch.__version__}: {err}")
    score_mod, mask_mod = MODS[name]
    Q, K, V = _qkv(Lq=6, Lk=6, seed=13)
    out, _ = v.attention_with_mods(Q, K, V, score_mod, mask_mod)
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "flex_attention called without torch.compile()"
            block_mask = None if mask_mod is None else create_block_mask(mask_mod, 2, 3, 6, 6, device="cpu")
            got = flex_attention(*(torch.from_numpy(a) for a in (Q, K, V)), score_mod=score_mod, block_mask=block_mask)
    except Exception as err:  # noqa: BLE001  a torch build whose eager flex_attention does not run on CPU
        pytest.skip(f"flex_attention does not run eagerly on CPU in torch {torch.__version__}: "
                    f"{type(err).__name__}: {err}")
    np.testing.assert_allclose(got.numpy(), out, rtol=1e-10, atol=1e-10)
    assert time.perf_counter() - start < 20


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("call,name", [
    (lambda: v.attention_with_mods(np.ones((2, 3, 4)), np.ones((2, 3, 4)), np.ones((2, 3, 4))), "Q"),
    (lambda: v.attention_with_mods(np.ones((1, 1, 3, 4)), np.ones((1, 2, 3, 4)), np.ones((1, 2, 3, 4))), "Q, K and V"),
    (lambda: v.attention_with_mods(np.ones((3, 4)), np.ones((3, 5)), np.ones((3, 4))), "Q and K"),
    (lambda: v.attention_with_mods(*_qkv(), mask_mod=lambda b, h, q, k: (k - q) * 1.0), "mask_mod"),
    (lambda: v.attention_with_mods(*_qkv(), score_mod=lambda s, b, h, q, k: s[..., :2]), "score_mod"),
    (lambda: v.topk_attention(*_qkv(), 0), "k"),
    (lambda: v.topk_attention(*_qkv(), 7), "k"),
    (lambda: v.topk_attention(*_qkv(), 2.0), "k"),
    (lambda: v.sliding_window_mask_mod(0), "window"),
    (lambda: v.sliding_window_mask_mod(2, offset=-1), "offset"),  # as modern.sliding_window_mask
    (lambda: v.sink_window_keys(5, 1, 0), "window"),
    (lambda: v.sink_window_keys(5, -1, 2), "n_sinks"),
    (lambda: v.sink_window_attention(np.ones(4), np.ones((5, 3)), np.ones((5, 2)), 1, 2), "q and K"),
    (lambda: v.alibi_slopes(0), "H"),
    (lambda: v.softcap_score_mod(0.0), "c"),
    (lambda: v.relative_bias_score_mod(np.ones((2, 4))), "bias"),
    (lambda: v.document_mask_mod(np.array([0.0, 1.0])), "doc_ids"),
    (lambda: v.and_masks(), "and_masks"),
    (lambda: v.mask_from_mod(v.causal_mask_mod, 0, 1, 2, 2), "B"),
    (lambda: v.mla_naive(*_mla_args()[:2], np.ones((3, 7)), *_mla_args()[3:]), "W_uk"),
    (lambda: v.mla_naive(*_mla_args()[:-1], 3), "W_uk"),
    (lambda: v.mla_cache_bytes(0, 10, 512, 64, 2), "n_layers"),
    (lambda: tv.attention_with_mods(torch.ones(2, 3, 4), torch.ones(2, 3, 4), torch.ones(2, 3, 4)), "Q"),
    (lambda: tv.topk_attention(torch.ones(3, 4), torch.ones(3, 4), torch.ones(3, 4), 0), "k"),
    (lambda: tv.attention_with_mods(torch.ones(3, 4), torch.ones(3, 4), torch.ones(3, 4),
                                    mask_mod=lambda b, h, q, k: k - q), "mask_mod"),
])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_non_power_of_two_heads_are_not_an_error():
    assert v.alibi_slopes(6).shape == (6,)
    Q, K, V = _qkv(1, 6, 3, 3)
    out, _ = v.attention_with_mods(Q, K, V, v.alibi_score_mod(6), v.causal_mask_mod)
    assert np.all(np.isfinite(out))
