"""Property tests (hypothesis) of the numpy references and their torch twins."""
from __future__ import annotations

import numpy as np
import torch
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

import attnlab
import attnlab.torch as at

settings.register_profile("attnlab", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("attnlab")

finite = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)
dims = st.integers(1, 6)


@st.composite
def scores_and_mask(draw):
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    Lq, Lk = draw(dims), draw(dims)
    scores = draw(arrays(np.float64, (*batch, Lq, Lk), elements=finite))
    mask = draw(arrays(np.bool_, (*batch, Lq, Lk)))
    return scores, mask


@given(arrays(np.float64, st.tuples(dims, dims), elements=finite), st.sampled_from([0, 1, -1]))
def test_softmax_on_simplex_even_for_huge_logits(x, axis):
    w = attnlab.softmax(x, axis=axis)
    assert np.all(np.isfinite(w)) and np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=axis), 1.0, rtol=1e-12)
    np.testing.assert_allclose(at.softmax(torch.tensor(x), axis=axis).numpy(), w, atol=1e-12)


@given(arrays(np.float64, st.tuples(dims, dims), elements=st.floats(-50, 50)), st.floats(-1e3, 1e3))
def test_softmax_shift_invariant(x, c):
    np.testing.assert_allclose(attnlab.softmax(x + c), attnlab.softmax(x), atol=1e-9)


@given(scores_and_mask())
def test_masked_softmax_properties(sm):
    scores, mask = sm
    for w in (attnlab.masked_softmax(scores, mask),
              at.masked_softmax(torch.tensor(scores), torch.tensor(mask)).numpy()):
        assert np.all(np.isfinite(w)), "NaN or inf in the weights"
        assert np.all(w[~mask] == 0), "a masked weight is not exactly zero"
        rows = w.sum(-1)
        has_key = mask.any(-1)
        np.testing.assert_allclose(rows[has_key], 1.0, rtol=1e-12)
        assert np.all(rows[~has_key] == 0), "a fully masked row is not all zero"


@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 4), st.integers(0, 10_000))
def test_self_attention_is_permutation_equivariant(L, D, Dv, seed):
    rng = np.random.default_rng(seed)
    X, W_v = rng.normal(size=(L, D)), rng.normal(size=(D, Dv))
    perm = rng.permutation(L)
    out, w = attnlab.scaled_dot_product_attention(X, X, X @ W_v)
    out_p, w_p = attnlab.scaled_dot_product_attention(X[perm], X[perm], X[perm] @ W_v)
    np.testing.assert_allclose(out_p, out[perm], atol=1e-10)
    np.testing.assert_allclose(w_p, w[perm][:, perm], atol=1e-10)
    np.testing.assert_allclose(attnlab.mix_tokens(X[perm]), attnlab.mix_tokens(X)[perm], atol=1e-10)


@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 10_000))
def test_attention_output_is_a_weighted_average_of_values(Lq, Lk, seed):
    rng = np.random.default_rng(seed)
    Q, K, V = rng.normal(size=(Lq, 3)), rng.normal(size=(Lk, 3)), rng.normal(size=(Lk, 2))
    out, w = attnlab.scaled_dot_product_attention(Q, K, V)
    for i in range(Lq):
        np.testing.assert_allclose(out[i], attnlab.weighted_average(V, w[i]), atol=1e-12)
    assert np.all(out <= V.max(0) + 1e-12) and np.all(out >= V.min(0) - 1e-12)  # inside the hull
