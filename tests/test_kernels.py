"""Notebook 06's references (``attnlab.kernels``, ``attnlab.linearised_attention``) against
oracles, their torch twins against both, properties, and bad input.

Oracles: ``F.scaled_dot_product_attention`` (Nadaraya-Watson is scaled dot-product attention
with one bias per key), scikit-learn's ``KernelRidge`` and ``rbf_kernel``, brute-force
leave-one-out with ``np.delete``, the quadratic (masked) form of linear attention, ``F.elu``,
``torch.autograd.gradcheck`` in float64. The checks of notebook 06 are tested here too: other
correct ways of writing an exercise must pass them.
"""
from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics.pairwise import rbf_kernel

import attnlab
import attnlab.torch as at
from attnlab.cards import card
from attnlab.cards._card import _standard_namespace
from attnlab.checks import CheckFailure
import attnlab.checks as all_checks  # noqa: E402 - the checks, from their cards

ATOL = 1e-10  # float64 agreement between two implementations of the same formula

settings.register_profile("attnlab-kernels", max_examples=40, deadline=None, derandomize=True)

LENGTHS = [(1, 1), (3, 5), (6, 4), (7, 7)]  # (Lq, Lk)
BANDWIDTHS = [0.2, 0.7, 2.5]


def _points(seed, *sizes, lo=-3.0, hi=3.0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(lo, hi, size=n) for n in sizes]


def _t(*arrays_):
    return [torch.tensor(a) for a in arrays_]


# ---------------------------------------------------------------------------------------------
# Gaussian attention weights and Nadaraya-Watson

@pytest.mark.parametrize("Lq,Lk", LENGTHS)
@pytest.mark.parametrize("sigma", BANDWIDTHS)
def test_gaussian_weights_match_torch_softmax(Lq, Lk, sigma):
    xq, xk = _points(1, Lq, Lk)
    expected = torch.softmax(-(torch.tensor(xq)[:, None] - torch.tensor(xk)[None, :])**2 / (2 * sigma**2), dim=-1)
    w = attnlab.gaussian_attention_weights(xq, xk, sigma)
    assert w.shape == (Lq, Lk)
    np.testing.assert_allclose(w, expected.numpy(), atol=ATOL)
    np.testing.assert_allclose(at.gaussian_attention_weights(*_t(xq, xk), sigma).numpy(), w, atol=ATOL)


@pytest.mark.parametrize("Lq,Lk", LENGTHS)
@pytest.mark.parametrize("sigma", BANDWIDTHS)
def test_nadaraya_watson_is_sdpa_with_a_key_bias(Lq, Lk, sigma):
    """-(x_q - x_k)²/2σ² = x_q x_k/σ² - x_q²/2σ² - x_k²/2σ²; the x_q² term cancels in the softmax."""
    xq, xk, y = _points(2, Lq, Lk, Lk)
    q, k, v = (torch.tensor(a)[:, None] for a in (xq, xk, y))  # (L, 1) each
    bias = (-torch.tensor(xk)**2 / (2 * sigma**2))[None, :].expand(Lq, Lk)  # (Lq, Lk) per-key bias
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=bias, scale=1 / sigma**2)[:, 0]
    pred = attnlab.nadaraya_watson(xq, xk, y, sigma)
    assert pred.shape == (Lq,)
    np.testing.assert_allclose(pred, expected.numpy(), atol=1e-9)
    np.testing.assert_allclose(at.nadaraya_watson(*_t(xq, xk, y), sigma).numpy(), pred, atol=ATOL)


def test_gaussian_weights_stable_far_from_the_data():
    xk = np.linspace(0, 1, 5)
    for lib_w in (attnlab.gaussian_attention_weights(np.array([50.0, -40.0]), xk, 0.05),
                  at.gaussian_attention_weights(torch.tensor([50.0, -40.0]), torch.tensor(xk), 0.05).numpy()):
        assert np.all(np.isfinite(lib_w))
        np.testing.assert_allclose(lib_w.sum(-1), 1.0)
        np.testing.assert_allclose(lib_w[0, -1], 1.0)  # the nearest key takes everything
        np.testing.assert_allclose(lib_w[1, 0], 1.0)


def test_gaussian_kernel_matches_sklearn_rbf():
    x1, x2 = _points(3, 4, 6)
    for sigma in BANDWIDTHS:
        expected = rbf_kernel(x1[:, None], x2[:, None], gamma=1 / (2 * sigma**2))
        np.testing.assert_allclose(attnlab.gaussian_kernel(x1, x2, sigma), expected, atol=ATOL)
        np.testing.assert_allclose(at.gaussian_kernel(*_t(x1, x2), sigma).numpy(), expected, atol=ATOL)


def test_torch_gaussian_weights_gradcheck_inputs_and_bandwidth():
    xq, xk, y = _t(*_points(4, 3, 5, 5))
    xq.requires_grad_(True)
    xk.requires_grad_(True)
    sigma = torch.tensor(0.8, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b, s: at.nadaraya_watson(a, b, y, s), (xq, xk, sigma))


# ---------------------------------------------------------------------------------------------
# Leave-one-out and fit_bandwidth

def _brute_force_loo(x, y, sigma):
    return np.array([attnlab.nadaraya_watson(x[i:i + 1], np.delete(x, i), np.delete(y, i), sigma)[0]
                     for i in range(len(x))])


@pytest.mark.parametrize("N", [2, 5, 12])
@pytest.mark.parametrize("sigma", BANDWIDTHS)
def test_leave_one_out_matches_brute_force(N, sigma):
    x, y = _points(5, N, N)
    expected = _brute_force_loo(x, y, sigma)
    np.testing.assert_allclose(attnlab.leave_one_out_predictions(x, y, sigma), expected, atol=ATOL)
    np.testing.assert_allclose(at.leave_one_out_predictions(*_t(x, y), sigma).numpy(), expected, atol=ATOL)
    np.testing.assert_allclose(attnlab.leave_one_out_error(x, y, sigma), np.mean((expected - y)**2), atol=ATOL)


def test_fit_bandwidth_is_the_brute_force_argmin_in_any_order():
    rng = np.random.default_rng(6)
    x = np.sort(rng.uniform(0, 4, 30))
    y = np.sin(2 * x) + 0.3 * rng.normal(size=30)
    candidates = rng.permutation(np.logspace(-1.6, 0.4, 15))
    errors = [np.mean((_brute_force_loo(x, y, c) - y)**2) for c in candidates]
    best = candidates[int(np.argmin(errors))]
    assert attnlab.fit_bandwidth(x, y, candidates) == best
    assert at.fit_bandwidth(*_t(x, y, candidates)) == best
    assert isinstance(attnlab.fit_bandwidth(x, y, candidates), float)


def test_fit_bandwidth_accepts_a_list_and_returns_a_float():
    x, y = _points(6, 8, 8)
    best = attnlab.fit_bandwidth(x, y, [0.3, 1.0, 0.1])
    assert isinstance(best, float) and best in (0.3, 1.0, 0.1)
    assert attnlab.fit_bandwidth(x, y, [0.5, 0.5]) == 0.5


def test_leave_one_out_error_gradient_descent_finds_the_grid_minimum():
    """The notebook's claim: gradient descent on log σ lands near the leave-one-out grid search."""
    rng = np.random.default_rng(7)
    x = np.sort(rng.uniform(0, 5, 40))
    y = 2 * np.sin(x) + 0.4 * rng.normal(size=40)
    grid = np.logspace(-1.5, 0.5, 41)
    best = attnlab.fit_bandwidth(x, y, grid)
    log_sigma = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.Adam([log_sigma], lr=0.1)
    for _ in range(200):
        loss = at.leave_one_out_error(*_t(x, y), log_sigma.exp())
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    assert abs(np.log(log_sigma.exp().item() / best)) < 0.15


def test_torch_leave_one_out_error_gradcheck():
    x, y = _t(*_points(8, 6, 6))
    sigma = torch.tensor(0.6, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda s: at.leave_one_out_error(x, y, s), (sigma,))


# ---------------------------------------------------------------------------------------------
# Kernel ridge regression

@pytest.mark.parametrize("N,Lq", [(5, 3), (9, 12), (1, 2)])
@pytest.mark.parametrize("sigma,reg", [(0.6, 0.5), (1.3, 0.01), (0.4, 0.0)])
def test_kernel_ridge_matches_sklearn(N, Lq, sigma, reg):
    x, y, xq = _points(9, N, N, Lq)
    x = np.sort(x) * 1.5  # spread out so that K is invertible even with reg = 0
    model = KernelRidge(alpha=reg, kernel="rbf", gamma=1 / (2 * sigma**2)).fit(x[:, None], y)
    alpha = attnlab.kernel_ridge_fit(x, y, sigma, reg)
    np.testing.assert_allclose(alpha, model.dual_coef_, rtol=1e-6, atol=1e-8)
    pred = attnlab.kernel_ridge_predict(xq, x, alpha, sigma)
    assert pred.shape == (Lq,)
    np.testing.assert_allclose(pred, model.predict(xq[:, None]), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(at.kernel_ridge_fit(*_t(x, y), sigma, reg).numpy(), alpha, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(at.kernel_ridge_predict(*_t(xq, x, alpha), sigma).numpy(), pred, atol=ATOL)


def test_kernel_ridge_with_tiny_reg_interpolates():
    x, y = _points(10, 6, 6)
    x = np.sort(x) * 2
    alpha = attnlab.kernel_ridge_fit(x, y, 0.5, 1e-10)
    np.testing.assert_allclose(attnlab.kernel_ridge_predict(x, x, alpha, 0.5), y, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# Linear attention

LIN_SHAPES = [  # (batch, Lq, Lk, Dk, Dv)
    ((), 1, 1, 1, 1),
    ((), 3, 5, 4, 2),
    ((2,), 4, 4, 3, 5),
    ((2, 3), 5, 2, 2, 3),
]


def _qkv(batch, Lq, Lk, Dk, Dv, seed=11):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(*batch, Lq, Dk)), rng.normal(size=(*batch, Lk, Dk)),
            rng.normal(size=(*batch, Lk, Dv)))


def _quadratic(Q, K, V, phi, causal):
    A = phi(Q) @ np.swapaxes(phi(K), -1, -2)  # (..., Lq, Lk)
    if causal:
        A = A * attnlab.causal_mask(A.shape[-2], A.shape[-1])
    return A / A.sum(-1, keepdims=True) @ V


@pytest.mark.parametrize("batch,Lq,Lk,Dk,Dv", LIN_SHAPES)
def test_linear_attention_equals_the_quadratic_form(batch, Lq, Lk, Dk, Dv):
    Q, K, V = _qkv(batch, Lq, Lk, Dk, Dv)
    out = attnlab.linear_attention(Q, K, V, attnlab.elu_feature_map)
    assert out.shape == (*batch, Lq, Dv)
    np.testing.assert_allclose(out, _quadratic(Q, K, V, attnlab.elu_feature_map, False), atol=ATOL)
    t_out = at.linear_attention(*_t(Q, K, V), at.elu_feature_map)
    np.testing.assert_allclose(t_out.numpy(), out, atol=ATOL)


@pytest.mark.parametrize("batch,L,Dk,Dv", [((), 1, 2, 3), ((), 6, 3, 2), ((2,), 5, 4, 4), ((2, 2), 3, 2, 5)])
def test_causal_linear_attention_equals_masked_quadratic_and_recurrent(batch, L, Dk, Dv):
    Q, K, V = _qkv(batch, L, L, Dk, Dv, seed=12)
    out = attnlab.linear_attention(Q, K, V, attnlab.elu_feature_map, causal=True)
    np.testing.assert_allclose(out, _quadratic(Q, K, V, attnlab.elu_feature_map, True), atol=ATOL)
    np.testing.assert_allclose(at.linear_attention(*_t(Q, K, V), at.elu_feature_map, causal=True).numpy(),
                               out, atol=ATOL)
    flat = [a.reshape(-1, L, a.shape[-1]) for a in (Q, K, V)]
    recurrent = np.stack([attnlab.linear_attention_recurrent(q, k, v, attnlab.elu_feature_map)
                          for q, k, v in zip(*flat)]).reshape(out.shape)
    np.testing.assert_allclose(recurrent, out, atol=ATOL)
    t_recurrent = np.stack([at.linear_attention_recurrent(*_t(q, k, v), at.elu_feature_map).numpy()
                            for q, k, v in zip(*flat)]).reshape(out.shape)
    np.testing.assert_allclose(t_recurrent, out, atol=ATOL)


def test_linear_attention_with_random_features_of_another_width():
    Q, K, V = _qkv((2,), 4, 6, 3, 2, seed=13)
    W = np.random.default_rng(14).normal(size=(3, 11))  # M = 11 != Dk = 3

    def phi(X):
        return attnlab.positive_random_features(X, W)

    def t_phi(X):
        return at.positive_random_features(X, torch.tensor(W))

    out = attnlab.linear_attention(Q, K, V, phi)
    np.testing.assert_allclose(out, _quadratic(Q, K, V, phi, False), atol=ATOL)
    np.testing.assert_allclose(at.linear_attention(*_t(Q, K, V), t_phi).numpy(), out, atol=ATOL)


def test_elu_feature_map_matches_torch():
    x = np.linspace(-5, 5, 23)
    expected = F.elu(torch.tensor(x)) + 1
    np.testing.assert_allclose(attnlab.elu_feature_map(x), expected.numpy(), atol=ATOL)
    np.testing.assert_allclose(at.elu_feature_map(torch.tensor(x)).numpy(), expected.numpy(), atol=ATOL)
    assert np.all(attnlab.elu_feature_map(x) > 0)


def test_positive_random_features_are_unbiased_for_the_softmax_kernel():
    rng = np.random.default_rng(15)
    Q = 0.5 * rng.normal(size=(3, 4)) / 2
    K = 0.5 * rng.normal(size=(5, 4)) / 2
    W = rng.normal(size=(4, 200_000))
    approx = attnlab.positive_random_features(Q, W) @ attnlab.positive_random_features(K, W).T
    np.testing.assert_allclose(approx, np.exp(Q @ K.T), rtol=0.02)
    assert np.all(attnlab.positive_random_features(Q, W) > 0)
    t_feats = at.positive_random_features(*_t(Q, W[:, :50]))
    np.testing.assert_allclose(t_feats.numpy(), attnlab.positive_random_features(Q, W[:, :50]), atol=ATOL)


def test_torch_linear_attention_gradcheck():
    Q, K, V = (t.requires_grad_(True) for t in _t(*_qkv((2,), 4, 4, 3, 2, seed=16)))
    for causal in (False, True):
        assert torch.autograd.gradcheck(
            lambda q, k, v: at.linear_attention(q, k, v, at.elu_feature_map, causal=causal), (Q, K, V))


# ---------------------------------------------------------------------------------------------
# Properties

finite = st.floats(-5, 5, allow_nan=False, allow_infinity=False)


@settings(settings.get_profile("attnlab-kernels"))
@given(arrays(np.float64, st.integers(1, 6), elements=finite),
       arrays(np.float64, st.integers(1, 6), elements=finite),
       st.floats(0.01, 10))
def test_gaussian_weights_on_the_simplex_and_predictions_in_the_hull(xq, xk, sigma):
    w = attnlab.gaussian_attention_weights(xq, xk, sigma)
    assert np.all(np.isfinite(w)) and np.all(w >= 0)
    np.testing.assert_allclose(w.sum(-1), 1.0, rtol=1e-12)
    y = np.cos(xk) * 3
    pred = attnlab.nadaraya_watson(xq, xk, y, sigma)
    assert np.all(pred >= y.min() - 1e-9) and np.all(pred <= y.max() + 1e-9), "an average left the hull"


@settings(settings.get_profile("attnlab-kernels"))
@given(st.integers(1, 6), st.integers(1, 4), st.integers(1, 4), st.integers(0, 10_000))
def test_linear_attention_is_invariant_to_the_order_of_keys(Lk, Dk, Dv, seed):
    Q, K, V = _qkv((), 3, Lk, Dk, Dv, seed=seed)
    perm = np.random.default_rng(seed).permutation(Lk)
    np.testing.assert_allclose(attnlab.linear_attention(Q, K[perm], V[perm], attnlab.elu_feature_map),
                               attnlab.linear_attention(Q, K, V, attnlab.elu_feature_map), atol=1e-10)


@settings(settings.get_profile("attnlab-kernels"))
@given(st.integers(2, 7), st.integers(0, 10_000))
def test_causal_linear_attention_ignores_the_future(L, seed):
    Q, K, V = _qkv((), L, L, 3, 2, seed=seed)
    out = attnlab.linear_attention(Q, K, V, attnlab.elu_feature_map, causal=True)
    K2, V2 = K.copy(), V.copy()
    K2[-1] += 5.0
    V2[-1] -= 5.0
    out2 = attnlab.linear_attention(Q, K2, V2, attnlab.elu_feature_map, causal=True)
    np.testing.assert_allclose(out2[:-1], out[:-1], atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Bad input: a ValueError naming the argument, the expected and the actual shape

def _bad_feature_map(X):
    return X[..., :1, :]


BAD = [  # (function, args, kwargs, words the message must contain)
    ("gaussian_attention_weights", (np.zeros((2, 3)), np.zeros(4), 1.0), {}, ["x_query", "(Lq,)", "(2, 3)"]),
    ("gaussian_attention_weights", (np.zeros(2), np.zeros((4, 1)), 1.0), {}, ["x_keys", "(Lk,)", "(4, 1)"]),
    ("gaussian_attention_weights", (np.zeros(2), np.zeros(4), 0.0), {}, ["bandwidth", "> 0", "0.0"]),
    ("gaussian_attention_weights", (np.zeros(2), np.zeros(4), -1.0), {}, ["bandwidth", "> 0", "-1.0"]),
    ("gaussian_attention_weights", (np.zeros(2), np.zeros(4), float("nan")), {}, ["bandwidth", "> 0"]),
    ("nadaraya_watson", (np.zeros(2), np.zeros(4), np.zeros(3), 1.0), {}, ["x_keys", "y_values", "Lk", "(4,)", "(3,)"]),
    ("fit_bandwidth", (np.zeros(3), np.zeros(4), np.ones(2)), {}, ["x", "y", "(3,)", "(4,)"]),
    ("fit_bandwidth", (np.zeros(3), np.zeros(3), np.array([])), {}, ["candidates", "at least one"]),
    ("fit_bandwidth", (np.zeros(3), np.zeros(3), np.array([0.5, -1.0])), {}, ["candidates", "> 0"]),
    ("fit_bandwidth", (np.zeros(1), np.zeros(1), np.ones(2)), {}, ["x", "at least 2", "(1,)"]),
    ("kernel_ridge_fit", (np.zeros(3), np.zeros(3), 1.0, -0.1), {}, ["reg", ">= 0", "-0.1"]),
    ("kernel_ridge_fit", (np.zeros((3, 1)), np.zeros(3), 1.0, 0.1), {}, ["x", "(N,)", "(3, 1)"]),
    ("kernel_ridge_predict", (np.zeros(2), np.zeros(4), np.zeros(3), 1.0), {}, ["x_train", "alpha", "(4,)", "(3,)"]),
    ("kernel_ridge_predict", (np.zeros(2), np.zeros(4), np.zeros(4), 0), {}, ["bandwidth", "> 0"]),
    ("linear_attention", (np.zeros(4), np.zeros((5, 4)), np.zeros((5, 2)), "elu"), {}, ["Q", "(..., Lq, Dk)", "(4,)"]),
    ("linear_attention", (np.zeros((3, 4)), np.zeros((5, 3)), np.zeros((5, 2)), "elu"), {}, ["Q", "K", "Dk", "(3, 4)", "(5, 3)"]),
    ("linear_attention", (np.zeros((3, 4)), np.zeros((5, 4)), np.zeros((6, 2)), "elu"), {}, ["K", "V", "Lk", "(6, 2)"]),
    ("linear_attention", (np.zeros((3, 4)), np.zeros((5, 4)), np.zeros((5, 2)), None), {}, ["feature_map", "function", "NoneType"]),
    ("linear_attention", (np.zeros((3, 4)), np.zeros((5, 4)), np.zeros((5, 2)), "elu"), {"causal": True},
     ["causal", "Q", "K", "(3, 4)", "(5, 4)"]),
    ("linear_attention", (np.zeros((3, 4)), np.zeros((5, 4)), np.zeros((5, 2)), _bad_feature_map), {},
     ["feature_map", "(..., L, M)", "(1, 4)"]),
    ("linear_attention_recurrent", (np.zeros((2, 3, 4)), np.zeros((2, 3, 4)), np.zeros((2, 3, 2)), "elu"), {},
     ["Q", "(L, Dk)", "(2, 3, 4)"]),
    ("linear_attention_recurrent", (np.zeros((3, 4)), np.zeros((4, 4)), np.zeros((4, 2)), "elu"), {},
     ["Q", "K", "length L", "(3, 4)", "(4, 4)"]),
    ("positive_random_features", (np.zeros((3, 4)), np.zeros((5, 7))), {}, ["X", "W", "Dk", "(3, 4)", "(5, 7)"]),
]


@pytest.mark.parametrize("lib", ["numpy", "torch"])
@pytest.mark.parametrize("name,args,kwargs,words", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_message(lib, name, args, kwargs, words):
    mod = attnlab if lib == "numpy" else at
    fn = getattr(mod, name)
    args = tuple(mod.elu_feature_map if isinstance(a, str) and a == "elu" else a for a in args)
    if lib == "torch":
        args = tuple(torch.tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    with pytest.raises(ValueError) as info:
        fn(*args, **kwargs)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} missing from: {message}"


# ---------------------------------------------------------------------------------------------
# The checks accept other correct ways of writing each exercise

def _gw_exp_renormalised(x_query, x_keys, bandwidth):
    d2 = np.subtract.outer(x_query, x_keys) ** 2  # (Lq, Lk)
    scores = -d2 / (2 * bandwidth**2)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _nw_loop(x_query, x_keys, y_values, bandwidth):
    return np.array([attnlab.gaussian_attention_weights(np.array([q]), x_keys, bandwidth)[0] @ y_values
                     for q in x_query])


def _fb_delete(x, y, candidates):
    errors = [np.mean([(attnlab.nadaraya_watson(x[i:i + 1], np.delete(x, i), np.delete(y, i), s)[0] - y[i])**2
                       for i in range(len(x))]) for s in candidates]
    return candidates[np.argmin(errors)]


def _fb_zero_and_renormalise(x, y, candidates):
    best, best_err = None, np.inf
    for s in candidates:
        W = attnlab.gaussian_attention_weights(x, x, s)
        np.fill_diagonal(W, 0.0)
        W = W / W.sum(axis=1, keepdims=True)
        err = np.sum((W @ y - y)**2)  # a sum instead of a mean: the same argmin
        if err < best_err:
            best, best_err = s, err
    return best


def _krr_fit_inv(x, y, bandwidth, reg):
    K = attnlab.gaussian_kernel(x, x, bandwidth)
    return np.linalg.inv(K + reg * np.eye(len(x))) @ y


def _krr_predict_transposed(x_query, x_train, alpha, bandwidth):
    return (alpha @ attnlab.gaussian_kernel(x_train, x_query, bandwidth))


def _la_quadratic(Q, K, V, feature_map, causal=False):
    return _quadratic(Q, K, V, feature_map, causal)


def _la_loop_recurrent(Q, K, V, feature_map):
    return attnlab.linear_attention(Q, K, V, feature_map, causal=True)


ALTERNATIVES = [
    (all_checks.check_gaussian_attention_weights, _gw_exp_renormalised),
    (all_checks.check_gaussian_attention_weights_stable, _gw_exp_renormalised),
    (all_checks.check_nadaraya_watson, _nw_loop),
    (all_checks.check_fit_bandwidth, _fb_delete),
    (all_checks.check_fit_bandwidth_candidates, _fb_delete),
    (all_checks.check_fit_bandwidth, _fb_zero_and_renormalise),
    (all_checks.check_fit_bandwidth_candidates, _fb_zero_and_renormalise),
    (all_checks.check_kernel_ridge_fit, _krr_fit_inv),
    (all_checks.check_kernel_ridge_predict, _krr_predict_transposed),
]

# Right values, wrong mechanism (issue 27): the (Lq, Lk) kernel matrix, prefix sums for a recurrence.
NOT_THE_MECHANISM = [
    (all_checks.check_linear_attention, _la_quadratic, "quadratic memory"),
    (all_checks.check_linear_attention_causal, _la_quadratic, "quadratic memory"),
    (all_checks.check_linear_attention_recurrent, _la_loop_recurrent, "no running state"),
]


@pytest.mark.parametrize("check,solution", ALTERNATIVES, ids=[f"{c.__name__}-{s.__name__}" for c, s in ALTERNATIVES])
@pytest.mark.parametrize("hidden", [False, True])
def test_checks_accept_other_correct_solutions(check, solution, hidden):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        check(solution, hidden=hidden)
    assert out.getvalue().startswith("✓")


@pytest.mark.parametrize("check,solution,words", NOT_THE_MECHANISM,
                         ids=[f"{c.__name__}-{s.__name__}" for c, s, _ in NOT_THE_MECHANISM])
def test_checks_watch_the_mechanism(check, solution, words):
    with pytest.raises(CheckFailure, match=words):
        check(solution)


GROUPS = [
    ("gaussian_attention_weights", [all_checks.check_gaussian_attention_weights, all_checks.check_gaussian_attention_weights_stable]),
    ("nadaraya_watson", [all_checks.check_nadaraya_watson]),
    ("fit_bandwidth", [all_checks.check_fit_bandwidth, all_checks.check_fit_bandwidth_candidates]),
    ("kernel_ridge_fit", [all_checks.check_kernel_ridge_fit]),
    ("kernel_ridge_predict", [all_checks.check_kernel_ridge_predict]),
    ("linear_attention", [all_checks.check_linear_attention, all_checks.check_linear_attention_causal]),
    ("linear_attention_recurrent", [all_checks.check_linear_attention_recurrent]),
]


def _learner(exercise, mistake):
    """The function a mistake's learner-style code defines (the code of the whole solution cell;
    for a mechanism mistake, code with the right values whose memory the check measures)."""
    c = card(exercise)
    ns = _standard_namespace()
    ns.update(c.uses() if c.uses else {})
    exec(compile(mistake.code, f"<{exercise}: {mistake.name[:40]}>", "exec"), ns)  # noqa: S102
    return ns[exercise]


@pytest.fixture(params=GROUPS, ids=[g[0] for g in GROUPS])
def mistakes(request):
    """One card's mistakes, each with its learner code as a function, and the card's checks."""
    exercise, checks = request.param
    return [(m, _learner(exercise, m)) for m in card(exercise).mistakes], checks


@pytest.mark.parametrize("hidden", [False, True])
def test_every_catalogued_mistake_loses_points_and_is_named(mistakes, hidden):
    """Each mistake's learner code, run as the learner's answer, fails a check that names it."""
    mistakes, checks = mistakes
    assert mistakes
    for mistake, learner in mistakes:
        messages = []
        for check in checks:
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    check(learner, hidden=hidden)
            except AssertionError as exc:
                messages.append(str(exc))
        assert messages, f"{mistake.name!r} passes every check"
        assert any(mistake.name in m for m in messages), f"{mistake.name!r} diagnosed as:\n{messages}"


@pytest.mark.parametrize("secret", [f"course-secret-{k}" for k in range(0, 60, 3)])
def test_fit_bandwidth_mistakes_are_named_under_any_course_secret(secret, monkeypatch):
    """The hidden cases come from the course secret: whichever it is, each catalogued
    fit_bandwidth mistake gets its own name (under some secrets "no search" used to share its
    answer with "argmax", and "σ not squared" with "no leave-one-out")."""
    from attnlab.checks import _core

    monkeypatch.setattr(_core, "_SECRET", [secret])
    for mistake in card("fit_bandwidth").mistakes:
        messages = []
        for check in (all_checks.check_fit_bandwidth, all_checks.check_fit_bandwidth_candidates):
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    check(mistake.impl, hidden=True)
            except AssertionError as exc:
                messages.append(str(exc))
        assert any(mistake.name in m for m in messages), (secret, mistake.name, messages)
    with contextlib.redirect_stdout(io.StringIO()):
        all_checks.check_fit_bandwidth(attnlab.fit_bandwidth, hidden=True)
        all_checks.check_fit_bandwidth_candidates(attnlab.fit_bandwidth, hidden=True)
