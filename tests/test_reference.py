"""attnlab's numpy references against the torch oracles, and their torch twins against both.

Oracles: ``torch.softmax``, ``F.scaled_dot_product_attention`` with a boolean mask,
``torch.autograd.gradcheck`` in float64. Shapes include ``Lq != Lk``, ``Dk != Dv``, batch and
no batch.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import attnlab
import attnlab.torch as at

ATOL = 1e-10  # float64 agreement between two implementations of the same formula
RNG_SEED = 1234

SHAPES = [  # (batch, Lq, Lk, Dk, Dv)
    ((), 1, 1, 1, 1),
    ((), 3, 5, 4, 2),
    ((2,), 4, 4, 8, 8),
    ((2, 3), 5, 2, 3, 6),
]


def _qkv(batch, Lq, Lk, Dk, Dv, seed=RNG_SEED):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(*batch, Lq, Dk)), rng.normal(size=(*batch, Lk, Dk)),
            rng.normal(size=(*batch, Lk, Dv)))


@pytest.mark.parametrize("shape,axis", [((5,), -1), ((3, 4), -1), ((3, 4), 0), ((2, 3, 4), 1)])
def test_softmax_matches_torch(shape, axis):
    x = np.random.default_rng(0).normal(size=shape) * 10
    expected = torch.softmax(torch.tensor(x), dim=axis).numpy()
    np.testing.assert_allclose(attnlab.softmax(x, axis=axis), expected, atol=ATOL)
    np.testing.assert_allclose(at.softmax(torch.tensor(x), axis=axis).numpy(), expected, atol=ATOL)


def test_softmax_of_integers_is_float():
    out = attnlab.softmax(np.array([1, 2, 3]))
    assert out.dtype.kind == "f"
    np.testing.assert_allclose(out, torch.softmax(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), 0))


@pytest.mark.parametrize("batch,Lq,Lk,Dk,Dv", SHAPES)
@pytest.mark.parametrize("masked", [False, True])
def test_sdpa_matches_torch_oracle(batch, Lq, Lk, Dk, Dv, masked):
    Q, K, V = _qkv(batch, Lq, Lk, Dk, Dv)
    mask = None
    if masked:
        mask = np.random.default_rng(5).random((*batch, Lq, Lk)) < 0.6
        mask[..., 0] = True  # fully masked rows are tested separately (torch's answer there varies by version)
    out, w = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    tq = [torch.tensor(a) for a in (Q, K, V)]
    expected = F.scaled_dot_product_attention(*tq, attn_mask=None if mask is None else torch.tensor(mask))
    np.testing.assert_allclose(out, expected.numpy(), atol=ATOL)
    assert out.shape == (*batch, Lq, Dv) and w.shape == (*batch, Lq, Lk)
    t_out, t_w = at.scaled_dot_product_attention(*tq, None if mask is None else torch.tensor(mask))
    np.testing.assert_allclose(t_out.numpy(), out, atol=ATOL)
    np.testing.assert_allclose(t_w.numpy(), w, atol=ATOL)


def test_sdpa_causal_mask_matches_is_causal():
    Q, K, V = _qkv((2,), 4, 6, 3, 5)
    out, _ = attnlab.scaled_dot_product_attention(Q, K, V, attnlab.causal_mask(4, 6))
    expected = F.scaled_dot_product_attention(*(torch.tensor(a) for a in (Q, K, V)), is_causal=True)
    np.testing.assert_allclose(out, expected.numpy(), atol=ATOL)


def test_fully_masked_row_gives_zero_output_not_nan():
    Q, K, V = _qkv((), 3, 4, 2, 2)
    mask = np.ones((3, 4), dtype=bool)
    mask[1] = False
    for out, w in (attnlab.scaled_dot_product_attention(Q, K, V, mask),
                   [t.numpy() for t in at.scaled_dot_product_attention(
                       *(torch.tensor(a) for a in (Q, K, V)), torch.tensor(mask))]):
        assert np.all(np.isfinite(out)) and np.all(np.isfinite(w))
        assert np.all(w[1] == 0) and np.all(out[1] == 0)
        np.testing.assert_allclose(w.sum(-1)[[0, 2]], 1.0)


@pytest.mark.parametrize("batch,Lq,Lk,Dk,Dv", SHAPES[1:])
def test_torch_sdpa_gradcheck(batch, Lq, Lk, Dk, Dv):
    Q, K, V = (torch.tensor(a, requires_grad=True) for a in _qkv(batch, Lq, Lk, Dk, Dv))
    mask = torch.tensor(np.random.default_rng(2).random((*batch, Lq, Lk)) < 0.7)
    mask[..., 0, :] = False  # a fully masked row must have finite (zero) gradients too
    assert torch.autograd.gradcheck(lambda q, k, v: at.scaled_dot_product_attention(q, k, v, mask)[0],
                                    (Q, K, V))


def test_torch_softmax_and_masked_softmax_gradcheck():
    x = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: at.softmax(t, axis=0), (x,))
    mask = torch.rand(3, 5) < 0.5
    mask[1] = False
    assert torch.autograd.gradcheck(lambda t: at.masked_softmax(t, mask), (x,))


def test_weighted_average_and_mix_tokens_twins():
    rng = np.random.default_rng(3)
    values, weights = rng.normal(size=(4, 3)), rng.dirichlet(np.ones(4))
    np.testing.assert_allclose(attnlab.weighted_average(values, weights), weights @ values, atol=ATOL)
    np.testing.assert_allclose(at.weighted_average(torch.tensor(values), torch.tensor(weights)).numpy(),
                               weights @ values, atol=ATOL)
    X = rng.normal(size=(2, 5, 3))
    expected = torch.softmax(torch.tensor(X) @ torch.tensor(X).transpose(-1, -2), -1) @ torch.tensor(X)
    np.testing.assert_allclose(attnlab.mix_tokens(X), expected.numpy(), atol=ATOL)
    np.testing.assert_allclose(at.mix_tokens(torch.tensor(X)).numpy(), expected.numpy(), atol=ATOL)


def test_score_functions():
    rng = np.random.default_rng(4)
    Q, K = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4))
    np.testing.assert_allclose(attnlab.dot_score(Q, K), np.einsum("bqd,bkd->bqk", Q, K), atol=ATOL)
    np.testing.assert_allclose(attnlab.scaled_dot_score(Q, K), np.einsum("bqd,bkd->bqk", Q, K) / 2, atol=ATOL)
    cos = attnlab.cosine_score(Q, K)
    expected = F.cosine_similarity(torch.tensor(Q)[:, :, None], torch.tensor(K)[:, None], dim=-1)
    np.testing.assert_allclose(cos, expected.numpy(), atol=1e-8)
    W = rng.normal(size=(4, 6))
    K6 = rng.normal(size=(2, 5, 6))
    np.testing.assert_allclose(attnlab.general_score(Q, K6, W), np.einsum("bqd,de,bke->bqk", Q, W, K6), atol=ATOL)
    W_q, W_k, v = rng.normal(size=(4, 7)), rng.normal(size=(6, 7)), rng.normal(size=7)
    expected = np.array([[[v @ np.tanh(Q[b, i] @ W_q + K6[b, j] @ W_k) for j in range(5)]
                          for i in range(3)] for b in range(2)])
    np.testing.assert_allclose(attnlab.additive_score(Q, K6, W_q, W_k, v), expected, atol=ATOL)
    for name in ("dot_score", "scaled_dot_score", "cosine_score"):
        np.testing.assert_allclose(getattr(at, name)(torch.tensor(Q), torch.tensor(K)).numpy(),
                                   getattr(attnlab, name)(Q, K), atol=ATOL)
    np.testing.assert_allclose(at.general_score(*(torch.tensor(a) for a in (Q, K6, W))).numpy(),
                               attnlab.general_score(Q, K6, W), atol=ATOL)
    np.testing.assert_allclose(at.additive_score(*(torch.tensor(a) for a in (Q, K6, W_q, W_k, v))).numpy(),
                               attnlab.additive_score(Q, K6, W_q, W_k, v), atol=ATOL)


def test_masks():
    np.testing.assert_array_equal(attnlab.causal_mask(3, 5), np.tril(np.ones((3, 5), dtype=bool)))
    np.testing.assert_array_equal(attnlab.causal_mask(3, 5), at.causal_mask(3, 5).numpy())
    expected = np.array([[True, True, False, False], [False, False, False, False], [True] * 4])
    np.testing.assert_array_equal(attnlab.padding_mask(np.array([2, 0, 4]), 4), expected)
    np.testing.assert_array_equal(at.padding_mask(torch.tensor([2, 0, 4]), 4).numpy(), expected)


def test_attend_and_score_variance():
    rng = np.random.default_rng(6)
    q, K, V = rng.normal(size=4), rng.normal(size=(6, 4)), rng.normal(size=(6, 3))
    out, w = attnlab.attend(q, K, V)
    np.testing.assert_allclose(w, torch.softmax(torch.tensor(K @ q / 2), 0).numpy(), atol=ATOL)
    np.testing.assert_allclose(out, w @ V, atol=ATOL)
    t_out, t_w = at.attend(*(torch.tensor(a) for a in (q, K, V)))
    np.testing.assert_allclose(t_out.numpy(), out, atol=ATOL)
    for d in (4, 64):
        var = attnlab.score_variance(d, 20000, np.random.default_rng(d))
        assert abs(var / d - 1) < 0.1, f"variance of q.k for d_k={d}: {var}"
