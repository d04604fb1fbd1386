"""Notebook 11's library: RoPE (both pairings and the permutation between them), repeat_kv and
grouped-query attention against torch's SDPA, sliding-window masks, the ring cache's decoding
step, the KV cache calculator; numpy against torch."""
from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import attnlab
import attnlab.torch as at

TOL = dict(rtol=1e-12, atol=1e-12)


def _rope_by_loops(x, positions, base, interleaved):
    """RoPE written pair by pair, straight from the contract's sentence."""
    L, Dh = x.shape
    out = np.empty_like(x)
    for l in range(L):
        for k in range(Dh // 2):
            i, j = (2 * k, 2 * k + 1) if interleaved else (k, k + Dh // 2)
            theta = positions[l] * base ** (-2 * k / Dh)
            a, b = x[l, i], x[l, j]
            out[l, i], out[l, j] = a * np.cos(theta) - b * np.sin(theta), a * np.sin(theta) + b * np.cos(theta)
    return out


@pytest.mark.parametrize("interleaved", [False, True])
def test_rope_follows_the_contract(interleaved):
    rng = np.random.default_rng(0)
    x, pos = rng.normal(size=(5, 8)), np.array([0, 3, 1, 7, 100])
    want = _rope_by_loops(x, pos, 500.0, interleaved)
    np.testing.assert_allclose(attnlab.rope(x, pos, 500.0, interleaved), want, **TOL)
    np.testing.assert_allclose(at.rope(torch.from_numpy(x), torch.from_numpy(pos), 500.0, interleaved).numpy(),
                               want, **TOL)
    batched = np.stack([x, 2 * x])
    np.testing.assert_allclose(attnlab.rope(batched, pos, 500.0, interleaved)[1], 2 * want, **TOL)


def test_rope_at_position_zero_is_the_identity_and_keeps_norms():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 3, 6, 10))
    np.testing.assert_array_equal(attnlab.rope(x, np.zeros(6, dtype=int)), x)
    y = attnlab.rope(x, np.arange(6) * 13)
    np.testing.assert_allclose(np.linalg.norm(y, axis=-1), np.linalg.norm(x, axis=-1), **TOL)
    assert not np.allclose(y, x)


@pytest.mark.parametrize("Dh", [2, 4, 6, 16])
def test_the_two_pairings_convert_by_the_column_permutation(Dh):
    rng = np.random.default_rng(Dh)
    x, pos = rng.normal(size=(3, 7, Dh)), np.arange(7) * 5 + 2
    perm = attnlab.halves_to_interleaved(Dh)
    assert sorted(perm.tolist()) == list(range(Dh))
    np.testing.assert_allclose(attnlab.rope(x[..., perm], pos, interleaved=True), attnlab.rope(x, pos)[..., perm], **TOL)
    inv = attnlab.interleaved_to_halves(Dh)
    np.testing.assert_array_equal(x[..., perm][..., inv], x)
    np.testing.assert_allclose(attnlab.rope(x[..., inv], pos), attnlab.rope(x, pos, interleaved=True)[..., inv], **TOL)
    np.testing.assert_array_equal(at.halves_to_interleaved(Dh).numpy(), perm)
    if Dh > 2:  # loaded with the other pairing, the same weights give other rotations
        assert not np.allclose(attnlab.rope(x, pos, interleaved=True), attnlab.rope(x, pos))


@pytest.mark.parametrize("interleaved", [False, True])
def test_rope_scores_depend_only_on_the_offset(interleaved):
    rng = np.random.default_rng(2)
    Q, K = rng.normal(size=(6, 8)), rng.normal(size=(6, 8))
    pos = np.arange(6)
    scores = attnlab.rope(Q, pos, interleaved=interleaved) @ attnlab.rope(K, pos, interleaved=interleaved).T
    for shift in (1, 17, 1000):
        shifted = (attnlab.rope(Q, pos + shift, interleaved=interleaved)
                   @ attnlab.rope(K, pos + shift, interleaved=interleaved).T)
        np.testing.assert_allclose(shifted, scores, rtol=1e-9, atol=1e-9)
    assert not np.allclose(scores, Q @ K.T)
    # added sinusoidal encodings do not have this property
    pe = attnlab.sinusoidal_positional_encoding(1006, 8)
    added = (Q + pe[:6]) @ (K + pe[:6]).T
    assert not np.allclose((Q + pe[17:23]) @ (K + pe[17:23]).T, added)



def test_rope_shift_change_measures_the_rounding_of_each_dtype():
    """at.modern.rope_shift_change (notebook 11's precision questions): the relative change of the
    scores equals the one computed by hand with at.rope; float64 keeps RoPE's offset invariance,
    float32's change grows with the position (the angle's rounding is absolute), and bfloat16 at
    positions it cannot hold apart gives the scores without relative positions."""
    g = torch.Generator().manual_seed(5)
    Q, K = torch.randn(6, 32, generator=g, dtype=torch.float64), torch.randn(6, 32, generator=g, dtype=torch.float64)
    p = torch.arange(6)
    by_hand = lambda dt, pos: (at.rope(Q.to(dt), pos) @ at.rope(K.to(dt), pos).T).double()
    for dt, shift in ((torch.float32, 3000), (torch.bfloat16, 40), (torch.float64, 10**5)):
        S, S2 = by_hand(dt, p), by_hand(dt, p + shift)
        assert at.modern.rope_shift_change(Q, K, shift, dtype=dt) == pytest.approx(
            float(torch.linalg.norm(S2 - S) / torch.linalg.norm(S)), rel=1e-12, abs=1e-15)
    assert at.modern.rope_shift_change(Q, K, 0, dtype=torch.bfloat16) == 0.0
    assert at.modern.rope_shift_change(Q, K, 10**5, dtype=torch.float64) < 1e-10
    near, far = (at.modern.rope_shift_change(Q, K, s, dtype=torch.float32) for s in (100, 100_000))
    assert near < 1e-5 and 1e-5 < far < 1e-2 and far > 50 * near
    # 4096..4101 are all stored as 4096 in bfloat16: one rotation for all six tokens
    assert (torch.arange(4096, 4102).to(torch.bfloat16) == 4096).all()
    collapsed = (Q @ K.T - at.rope(Q, p) @ at.rope(K, p).T).norm() / (at.rope(Q, p) @ at.rope(K, p).T).norm()
    assert at.modern.rope_shift_change(Q, K, 4096, dtype=torch.bfloat16) == pytest.approx(float(collapsed), abs=0.03)
    with pytest.raises(ValueError, match="K"):
        at.modern.rope_shift_change(Q, K[:, :16], 10)
    with pytest.raises(ValueError, match="Q"):
        at.modern.rope_shift_change(Q[0], K[0], 10)


def test_repeat_kv_order():
    X = np.arange(2 * 3 * 4 * 5, dtype=float).reshape(2, 3, 4, 5)
    Y = attnlab.repeat_kv(X, 2)
    assert Y.shape == (2, 6, 4, 5)
    for h in range(6):
        np.testing.assert_array_equal(Y[:, h], X[:, h // 2])
    np.testing.assert_array_equal(at.repeat_kv(torch.from_numpy(X), 2).numpy(), Y)
    np.testing.assert_array_equal(attnlab.repeat_kv(X, 1), X)


@pytest.mark.parametrize("Hq,Hkv,W,L", [(4, 2, 4, 11), (2, 1, 3, 9), (3, 3, 1, 5), (4, 4, 8, 6), (6, 2, 5, 5)])
def test_ring_cache_decode_step_equals_the_whole_sequence(Hq, Hkv, W, L):
    """Step by step in a ring of W slots, whatever the empty slots hold, the outputs are the rows of
    the whole sequence at once (RoPE at 0..L-1, sliding window W); the token at p ends in slot p % W."""
    rng = np.random.default_rng(Hq * 100 + W * 10 + L)
    B, Dh, Dv = 2, 6, 4
    Q, K, V = rng.normal(size=(B, Hq, L, Dh)), rng.normal(size=(B, Hkv, L, Dh)), rng.normal(size=(B, Hkv, L, Dv))
    p = np.arange(L)
    whole, _ = attnlab.grouped_query_attention(attnlab.rope(Q, p), attnlab.rope(K, p), V, attnlab.sliding_window_mask(L, L, W))
    for leftovers in (np.zeros, lambda size: 5 * rng.normal(size=size)):
        ck, cv = leftovers((B, Hkv, W, Dh)), leftovers((B, Hkv, W, Dv))
        tk, tv = torch.from_numpy(ck.copy()), torch.from_numpy(cv.copy())
        for t in range(L):
            args = [a[:, :, t:t + 1] for a in (Q, K, V)]
            before = ck.copy()
            out, ck2, cv2 = attnlab.ring_cache_decode_step(*args, ck, cv, t)
            np.testing.assert_array_equal(ck, before)  # the arguments are left as they were
            ck, cv = ck2, cv2
            np.testing.assert_allclose(out[:, :, 0], whole[:, :, t], atol=1e-12)
            tout, tk, tv = at.ring_cache_decode_step(*(torch.from_numpy(a) for a in args), tk, tv, t)
            np.testing.assert_allclose(tout.numpy(), out, atol=1e-12)
        for q in range(max(0, L - W), L):  # the last W positions, each in its slot, its key rotated at q
            np.testing.assert_allclose(ck[:, :, q % W], attnlab.rope(K[:, :, q:q + 1], np.array([q]))[:, :, 0], atol=1e-12)
            np.testing.assert_array_equal(cv[:, :, q % W], V[:, :, q])


@pytest.mark.parametrize("Hq,Hkv", [(4, 4), (4, 2), (6, 3), (4, 1)])
@pytest.mark.parametrize("masked", [False, True])
def test_gqa_equals_torch_sdpa_enable_gqa(Hq, Hkv, masked):
    rng = np.random.default_rng(Hq * 10 + Hkv)
    B, Lq, Lk, Dh, Dv = 2, 5, 7, 4, 3
    Q, K, V = rng.normal(size=(B, Hq, Lq, Dh)), rng.normal(size=(B, Hkv, Lk, Dh)), rng.normal(size=(B, Hkv, Lk, Dv))
    mask = attnlab.sliding_window_mask(Lq, Lk, 3, offset=Lk - Lq) if masked else None
    out, weights = attnlab.grouped_query_attention(Q, K, V, mask)
    assert out.shape == (B, Hq, Lq, Dv) and weights.shape == (B, Hq, Lq, Lk)
    t = [torch.from_numpy(a) for a in (Q, K, V)]
    want = F.scaled_dot_product_attention(*t, attn_mask=None if mask is None else torch.from_numpy(mask),
                                          enable_gqa=True).numpy()
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-12)
    out_t, w_t = at.grouped_query_attention(*t, None if mask is None else torch.from_numpy(mask))
    np.testing.assert_allclose(out_t.numpy(), want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(w_t.numpy(), weights, rtol=0, atol=1e-12)


def test_gqa_with_as_many_kv_heads_equals_multi_head_attention():
    rng = np.random.default_rng(3)
    B, Lq, Lk, D, H = 2, 4, 6, 12, 3
    X_q, X_kv = rng.normal(size=(B, Lq, D)), rng.normal(size=(B, Lk, D))
    W_q, W_k, W_v, W_o = (rng.normal(size=(D, D)) / np.sqrt(D) for _ in range(4))
    mask = attnlab.causal_mask(Lq, Lk)
    want, want_w = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, H, mask)
    Q, K, V = (attnlab.split_heads(a, H) for a in (X_q @ W_q, X_kv @ W_k, X_kv @ W_v))
    Z, weights = attnlab.grouped_query_attention(Q, K, V, mask)
    np.testing.assert_allclose(attnlab.merge_heads(Z) @ W_o, want, **TOL)
    np.testing.assert_allclose(weights, want_w, **TOL)


@pytest.mark.parametrize("L", [1, 4, 9])
def test_a_window_as_long_as_the_sequence_is_causal(L):
    np.testing.assert_array_equal(attnlab.sliding_window_mask(L, L, L), attnlab.causal_mask(L, L))
    np.testing.assert_array_equal(attnlab.sliding_window_mask(L, L, L + 5), attnlab.causal_mask(L, L))


def test_sliding_window_mask_rows():
    m = attnlab.sliding_window_mask(3, 8, 3, offset=5)
    assert m.dtype == bool and m.shape == (3, 8)
    assert [np.flatnonzero(r).tolist() for r in m] == [[3, 4, 5], [4, 5, 6], [5, 6, 7]]
    assert np.flatnonzero(attnlab.sliding_window_mask(5, 5, 1)[3]).tolist() == [3]
    np.testing.assert_array_equal(at.sliding_window_mask(3, 8, 3, offset=5).numpy(), m)


def test_kv_cache_bytes_reproduces_the_published_figures():
    mha = attnlab.kv_cache_bytes(32, 32, 128, 32768)
    gqa = attnlab.kv_cache_bytes(32, 8, 128, 32768)
    assert round(mha / 1e9, 2) == 17.18 and mha == 2 * 32 * 32 * 128 * 32768 * 2
    assert round(gqa / 1e9, 2) == 4.29
    assert mha / 2**30 == 16.0  # the same bill in GiB
    for heads, want in ((32, 3.14), (8, 0.78)):  # 27 of 32 layers keep a 1,024-token window
        total = (attnlab.kv_cache_bytes(5, heads, 128, 32768)
                 + attnlab.kv_cache_bytes(27, heads, 128, 32768, window=1024))
        assert round(total / 1e9, 2) == want
    assert attnlab.kv_cache_bytes(1, 1, 1, 10, window=100) == attnlab.kv_cache_bytes(1, 1, 1, 10)
    assert attnlab.kv_cache_bytes(2, 3, 4, 5, batch=6, bytes_per_value=4) == 2 * 2 * 3 * 4 * 5 * 6 * 4
    assert at.kv_cache_bytes(32, 8, 128, 32768) == gqa


def _one_token():
    return np.zeros((1, 2, 1, 4)), np.zeros((1, 1, 1, 4)), np.zeros((1, 1, 1, 4))  # q, k, v


@pytest.mark.parametrize("call,name", [
    (lambda m: m.rope(np.zeros((3, 5)), np.arange(3)), "x"),
    (lambda m: m.rope(np.zeros((3, 4)), np.arange(4)), "positions"),
    (lambda m: m.rope(np.zeros((3, 4)), np.arange(3) * 0.5), "positions"),
    (lambda m: m.repeat_kv(np.zeros((3, 4, 5)), 2), "X"),
    (lambda m: m.repeat_kv(np.zeros((1, 3, 4, 5)), 0), "n_rep"),
    (lambda m: m.grouped_query_attention(np.zeros((1, 4, 2, 3)), np.zeros((1, 3, 5, 3)), np.zeros((1, 3, 5, 3))), "K"),
    (lambda m: m.grouped_query_attention(np.zeros((4, 2, 3)), np.zeros((1, 2, 5, 3)), np.zeros((1, 2, 5, 3))), "Q"),
    (lambda m: m.ring_cache_decode_step(*_one_token(), np.zeros((1, 1, 3, 5)), np.zeros((1, 1, 3, 4)), 0), "cache_k"),
    (lambda m: m.ring_cache_decode_step(*_one_token(), np.zeros((1, 1, 3, 4)), np.zeros((1, 1, 2, 4)), 0), "cache_v"),
    (lambda m: m.ring_cache_decode_step(*_one_token(), np.zeros((1, 1, 3, 4)), np.zeros((1, 1, 3, 4)), -1), "t"),
    (lambda m: m.ring_cache_decode_step(np.zeros((1, 2, 2, 4)), *_one_token()[1:], np.zeros((1, 1, 3, 4)),
                                        np.zeros((1, 1, 3, 4)), 0), "q"),
    (lambda m: m.sliding_window_mask(3, 4, 0), "window"),
    (lambda m: m.sliding_window_mask(3, 4, 2, offset=-1), "offset"),
    (lambda m: m.kv_cache_bytes(32, 0, 128, 10), "num_kv_heads"),
    (lambda m: m.kv_cache_bytes(32, 8, 128, 10, window=0), "window"),
])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call(attnlab)
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call(at)


def test_tiny_decoder_variants_run_and_mha_gqa_mqa_differ_in_kv_width():
    torch.manual_seed(0)
    tokens = torch.randint(0, 11, (2, 7))
    for kv, width in ((4, 32), (2, 16), (1, 8)):
        model = at.TinyDecoder(11, d_model=32, num_heads=4, num_kv_heads=kv)
        assert model(tokens).shape == (2, 7, 11)
        assert model.blocks[0].kv_proj.out_features == 2 * width
    with pytest.raises(ValueError, match="num_kv_heads"):
        at.TinyDecoder(11, num_heads=4, num_kv_heads=3)


@pytest.mark.parametrize("H,Dh,D", [(1, 4, 6), (2, 8, 16), (3, 6, 10), (4, 16, 64)])
def test_a_converted_checkpoint_keeps_every_heads_scores(H, Dh, D):
    """Halves RoPE on X @ W and interleaved RoPE on X @ W' give every head the same scores; a
    one-head W is W[:, halves_to_interleaved(Dh)]; the input is left as it was."""
    rng = np.random.default_rng(H * Dh)
    X, pos = rng.normal(size=(7, D)), np.arange(7) * 3 + 1
    W_q, W_k = rng.normal(size=(D, H * Dh)), rng.normal(size=(D, H * Dh))
    kept = W_q.copy()
    W_q2, W_k2 = attnlab.halves_to_interleaved_weights(W_q, H), attnlab.halves_to_interleaved_weights(W_k, H)
    np.testing.assert_array_equal(W_q, kept)

    def scores(Wq, Wk, interleaved):
        q = (X @ Wq).reshape(7, H, Dh).transpose(1, 0, 2)                 # (H, L, Dh)
        k = (X @ Wk).reshape(7, H, Dh).transpose(1, 0, 2)
        return attnlab.rope(q, pos, interleaved=interleaved) @ np.swapaxes(attnlab.rope(k, pos, interleaved=interleaved), -1, -2)

    np.testing.assert_allclose(scores(W_q2, W_k2, True), scores(W_q, W_k, False), **TOL)
    if Dh > 2:
        assert not np.allclose(scores(W_q, W_k, True), scores(W_q, W_k, False))
    if H == 1:
        np.testing.assert_array_equal(W_q2, W_q[:, attnlab.halves_to_interleaved(Dh)])


@pytest.mark.parametrize("W,H,name", [(np.ones((4, 12)), 5, "W"), (np.ones((4, 9)), 3, "W"),
                                      (np.ones((4, 8)), 0, "num_heads"), (np.ones(8), 1, "W")])
def test_checkpoint_conversion_errors_name_the_argument(W, H, name):
    with pytest.raises(ValueError, match=name):
        attnlab.halves_to_interleaved_weights(W, H)


def _kv_heads_brute(num_heads, num_layers, head_dim, seq_len, budget, batch=1, bpv=2):
    fits = [g for g in range(1, num_heads + 1) if num_heads % g == 0
            and attnlab.kv_cache_bytes(num_layers, g, head_dim, seq_len, batch=batch, bytes_per_value=bpv) <= budget]
    return max(fits) if fits else None


def test_kv_heads_for_budget_agrees_with_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(300):
        H, L, D, T = (int(rng.integers(1, 25)), int(rng.integers(1, 5)), int(rng.integers(1, 9)), int(rng.integers(1, 9)))
        B, bpv = int(rng.integers(1, 4)), int(rng.choice([1, 2, 4]))
        budget = int(rng.integers(1, attnlab.kv_cache_bytes(L, H, D, T, batch=B, bytes_per_value=bpv) + 50))
        want = _kv_heads_brute(H, L, D, T, budget, B, bpv)
        if want is None:
            with pytest.raises(ValueError, match="budget_bytes"):
                attnlab.kv_heads_for_budget(H, L, D, T, budget, batch=B, bytes_per_value=bpv)
        else:
            assert attnlab.kv_heads_for_budget(H, L, D, T, budget, batch=B, bytes_per_value=bpv) == want


def test_kv_heads_for_budget_exact_fit_divisibility_and_errors():
    per_head = attnlab.kv_cache_bytes(2, 1, 4, 5)
    for g in (1, 2, 3, 4, 6, 12):
        assert attnlab.kv_heads_for_budget(12, 2, 4, 5, g * per_head) == g          # an exact fit counts
        if g > 1:
            assert attnlab.kv_heads_for_budget(12, 2, 4, 5, g * per_head - 1) < g
    assert attnlab.kv_heads_for_budget(12, 2, 4, 5, 5 * per_head) == 4              # 5 fit, 5 does not divide 12
    assert attnlab.kv_heads_for_budget(12, 2, 4, 5, 7 * per_head) == 6
    assert attnlab.kv_heads_for_budget(12, 2, 4, 5, 100 * per_head) == 12
    assert attnlab.kv_heads_for_budget(32, 32, 128, 8192, 24 * 10**9, batch=16) == 8
    with pytest.raises(ValueError, match=rf"budget_bytes.*{per_head}"):
        attnlab.kv_heads_for_budget(12, 2, 4, 5, per_head - 1)
    for bad in (dict(num_heads=0), dict(num_layers=0), dict(head_dim=-1), dict(seq_len=0), dict(budget_bytes=0),
                dict(batch=0), dict(bytes_per_value=0)):
        kw = dict(num_heads=12, num_layers=2, head_dim=4, seq_len=5, budget_bytes=10**6) | bad
        with pytest.raises(ValueError):
            attnlab.kv_heads_for_budget(**kw)
