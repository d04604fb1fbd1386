"""Notebook 03's library: ``self_attention``, ``append_ones``, ``absorb_bias`` (numpy and torch)
and ``attnlab.torch.SelfAttention``, against torch oracles; and the checks and cards of notebook 03.

Oracles: ``F.scaled_dot_product_attention`` on the projected inputs, ``nn.MultiheadAttention``
with one head and copied weights, ``torch.autograd.gradcheck`` in float64.
"""
from __future__ import annotations

import pickle
import subprocess
import sys
from functools import partial

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st
from torch import nn

import attnlab
import attnlab.torch as at
from attnlab.checks import (
    CheckFailure, SpecRecorded, SpecRecorder, check_absorb_bias, check_append_ones,
    check_append_ones_batched, check_self_attention, check_self_attention_batched,
    check_self_attention_module, check_self_attention_module_mask,
)

import coursekit as ck

ATOL = 1e-10  # float64 agreement between two implementations of the same formula

SHAPES = [  # (batch, L, D, Dk, Dv)
    ((), 1, 1, 1, 1),
    ((), 4, 6, 3, 5),
    ((2,), 5, 3, 4, 2),
    ((2, 3), 3, 8, 8, 8),
]


def _args(batch, L, D, Dk, Dv, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(*batch, L, D)), rng.normal(size=(D, Dk)) / np.sqrt(D),
            rng.normal(size=(D, Dk)) / np.sqrt(D), rng.normal(size=(D, Dv)) / np.sqrt(D))


def _t(*arrays):
    return tuple(torch.tensor(a) for a in arrays)


def _module(D, Dk, Dv, W_q, W_k, W_v, biases=None):
    m = at.SelfAttention(D, Dk, Dv, bias=biases is not None).double()
    with torch.no_grad():
        for linear, W in ((m.W_q, W_q), (m.W_k, W_k), (m.W_v, W_v)):
            linear.weight.copy_(torch.tensor(W.T))
        if biases is not None:
            for linear, b in zip((m.W_q, m.W_k, m.W_v), biases):
                linear.bias.copy_(torch.tensor(b))
    return m


# ---------------------------------------------------------------------------------------------
# References against oracles

@pytest.mark.parametrize("batch,L,D,Dk,Dv", SHAPES)
def test_self_attention_matches_torch_sdpa(batch, L, D, Dk, Dv):
    X, W_q, W_k, W_v = _args(batch, L, D, Dk, Dv)
    Z, A = attnlab.self_attention(X, W_q, W_k, W_v)
    tX, tq, tk, tv = _t(X, W_q, W_k, W_v)
    expected = F.scaled_dot_product_attention(tX @ tq, tX @ tk, tX @ tv)
    np.testing.assert_allclose(Z, expected.numpy(), atol=ATOL)
    assert Z.shape == (*batch, L, Dv) and A.shape == (*batch, L, L)
    np.testing.assert_allclose(A.sum(-1), 1.0, atol=1e-12)
    tZ, tA = at.self_attention(tX, tq, tk, tv)
    np.testing.assert_allclose(tZ.numpy(), Z, atol=ATOL)
    np.testing.assert_allclose(tA.numpy(), A, atol=ATOL)


@pytest.mark.parametrize("batch", [(), (3,)])
def test_self_attention_matches_one_head_multihead_attention(batch):
    L, D = 5, 6
    X, W_q, W_k, W_v = _args(batch, L, D, D, D, seed=1)
    mha = nn.MultiheadAttention(D, num_heads=1, bias=False, batch_first=True).double()
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.tensor(np.concatenate([W_q.T, W_k.T, W_v.T])))  # (3D, D)
        mha.out_proj.weight.copy_(torch.eye(D, dtype=torch.float64))
    tX = torch.tensor(X)
    out, weights = mha(tX, tX, tX, need_weights=True)
    Z, A = attnlab.self_attention(X, W_q, W_k, W_v)
    np.testing.assert_allclose(Z, out.detach().numpy(), atol=ATOL)
    np.testing.assert_allclose(A, weights.detach().numpy(), atol=ATOL)
    m = _module(D, D, D, W_q, W_k, W_v)
    mZ, mA = m(tX)
    np.testing.assert_allclose(mZ.detach().numpy(), out.detach().numpy(), atol=ATOL)


@pytest.mark.parametrize("batch,L,D,Dk,Dv", SHAPES)
def test_module_matches_functions_with_and_without_bias(batch, L, D, Dk, Dv):
    X, W_q, W_k, W_v = _args(batch, L, D, Dk, Dv, seed=2)
    m = _module(D, Dk, Dv, W_q, W_k, W_v)
    Z, A = m(torch.tensor(X))
    eZ, eA = attnlab.self_attention(X, W_q, W_k, W_v)
    np.testing.assert_allclose(Z.detach().numpy(), eZ, atol=ATOL)
    np.testing.assert_allclose(A.detach().numpy(), eA, atol=ATOL)

    rng = np.random.default_rng(3)
    b = (rng.normal(size=Dk), rng.normal(size=Dk), rng.normal(size=Dv))
    mb = _module(D, Dk, Dv, W_q, W_k, W_v, biases=b)
    Zb, Ab = mb(torch.tensor(X))
    eZb, eAb = attnlab.scaled_dot_product_attention(X @ W_q + b[0], X @ W_k + b[1], X @ W_v + b[2])
    np.testing.assert_allclose(Zb.detach().numpy(), eZb, atol=ATOL)
    # ... and the biases absorbed by a column of ones give the same layer
    aZ, aA = attnlab.self_attention(attnlab.append_ones(X), *(attnlab.absorb_bias(W, bb) for W, bb in
                                                              zip((W_q, W_k, W_v), b)))
    np.testing.assert_allclose(aZ, eZb, atol=ATOL)
    np.testing.assert_allclose(aA, eAb, atol=ATOL)


def test_module_mask_matches_sdpa_and_zeroes_a_fully_masked_row():
    X, W_q, W_k, W_v = _args((2,), 4, 5, 3, 2, seed=4)
    mask = np.random.default_rng(5).random((2, 4, 4)) < 0.6
    mask[..., 0] = True
    mask[1, 2] = False
    m = _module(5, 3, 2, W_q, W_k, W_v)
    Z, A = (t.detach().numpy() for t in m(torch.tensor(X), torch.tensor(mask)))
    eZ, eA = attnlab.scaled_dot_product_attention(X @ W_q, X @ W_k, X @ W_v, mask)
    np.testing.assert_allclose(Z, eZ, atol=ATOL)
    np.testing.assert_allclose(A, eA, atol=ATOL)
    assert np.all(A[~mask] == 0) and np.all(Z[1, 2] == 0) and np.all(np.isfinite(Z))
    rows = np.ones((2, 4), dtype=bool)
    rows[1, 2] = False
    tZ = F.scaled_dot_product_attention(*(torch.tensor(X) @ torch.tensor(W) for W in (W_q, W_k, W_v)),
                                        attn_mask=torch.tensor(mask))
    np.testing.assert_allclose(Z[rows], tZ.numpy()[rows], atol=ATOL)


def test_gradcheck_function_and_module():
    X, W_q, W_k, W_v = (torch.tensor(a, requires_grad=True) for a in _args((2,), 4, 3, 2, 5, seed=6))
    assert torch.autograd.gradcheck(lambda *a: at.self_attention(*a)[0], (X, W_q, W_k, W_v))
    m = at.SelfAttention(3, 2, 5, bias=True).double()
    mask = torch.ones(4, 4, dtype=torch.bool)
    mask[0] = False  # a fully masked row must have finite (zero) gradients too
    assert torch.autograd.gradcheck(lambda x: m(x, mask)[0], (X,))
    Z, _ = m(X, mask)
    Z.sum().backward()
    assert all(torch.isfinite(p.grad).all() for p in m.parameters())


def test_append_ones_and_absorb_bias():
    X = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(attnlab.append_ones(X), [[0, 1, 2, 1], [3, 4, 5, 1]])
    W, b = np.arange(6.0).reshape(3, 2), np.array([7.0, 8.0])
    np.testing.assert_array_equal(attnlab.absorb_bias(W, b), [[0, 1], [2, 3], [4, 5], [7, 8]])
    Xb = np.random.default_rng(7).normal(size=(2, 3, 4, 3))
    assert attnlab.append_ones(Xb).shape == (2, 3, 4, 4)
    np.testing.assert_array_equal(at.append_ones(torch.tensor(Xb)).numpy(), attnlab.append_ones(Xb))
    np.testing.assert_array_equal(at.absorb_bias(torch.tensor(W), torch.tensor(b)).numpy(),
                                  attnlab.absorb_bias(W, b))


# ---------------------------------------------------------------------------------------------
# Properties

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True)


@PROPERTY
@given(st.lists(st.integers(1, 3), max_size=2), st.integers(1, 6), st.integers(1, 5), st.integers(1, 4),
       st.integers(0, 10_000))
def test_absorbed_bias_equals_affine_map(batch, L, D, M, seed):
    rng = np.random.default_rng(seed)
    X, W, b = rng.normal(size=(*batch, L, D)), rng.normal(size=(D, M)), rng.normal(size=M)
    np.testing.assert_allclose(attnlab.append_ones(X) @ attnlab.absorb_bias(W, b), X @ W + b, atol=1e-12)
    t = at.append_ones(torch.tensor(X)) @ at.absorb_bias(torch.tensor(W), torch.tensor(b))
    np.testing.assert_allclose(t.numpy(), X @ W + b, atol=1e-12)


@PROPERTY
@given(st.integers(1, 7), st.integers(1, 5), st.integers(1, 4), st.integers(1, 4), st.integers(0, 10_000))
def test_self_attention_is_permutation_equivariant(L, D, Dk, Dv, seed):
    X, W_q, W_k, W_v = _args((), L, D, Dk, Dv, seed=seed)
    perm = np.random.default_rng(seed + 1).permutation(L)
    Z, A = attnlab.self_attention(X, W_q, W_k, W_v)
    Zp, Ap = attnlab.self_attention(X[perm], W_q, W_k, W_v)
    np.testing.assert_allclose(Zp, Z[perm], atol=1e-10)
    np.testing.assert_allclose(Ap, A[perm][:, perm], atol=1e-10)
    m = _module(D, Dk, Dv, W_q, W_k, W_v)
    with torch.no_grad():
        mZ, _ = m(torch.tensor(X))
        mZp, _ = m(torch.tensor(X[perm]))
    np.testing.assert_allclose(mZp.numpy(), mZ.numpy()[perm], atol=1e-10)


# ---------------------------------------------------------------------------------------------
# Bad input

X3, W43, W45 = np.zeros((2, 3, 4)), np.zeros((4, 3)), np.zeros((4, 5))
ERRORS = [  # (function name, args, words the message must contain)
    ("self_attention", (np.zeros(4), W43, W43, W45), ["X", "(..., L, D)", "(4,)"]),
    ("self_attention", (X3, np.zeros((5, 3)), W43, W45), ["X", "W_q", "D", "(2, 3, 4)", "(5, 3)"]),
    ("self_attention", (X3, W43, np.zeros((4, 2)), W45), ["W_q", "W_k", "Dk", "(4, 3)", "(4, 2)"]),
    ("self_attention", (X3, W43, W43, np.zeros((2, 4, 5))), ["W_v", "(D, Dv)", "(2, 4, 5)"]),
    ("append_ones", (np.zeros(3),), ["X", "(..., L, D)", "(3,)"]),
    ("absorb_bias", (W43, np.zeros(4)), ["W", "b", "M", "(4, 3)", "(4,)"]),
    ("absorb_bias", (W43, np.zeros((1, 3))), ["b", "(M,)", "(1, 3)"]),
    ("absorb_bias", (np.zeros(4), np.zeros(4)), ["W", "(D, M)", "(4,)"]),
]


@pytest.mark.parametrize("lib", ["numpy", "torch"])
@pytest.mark.parametrize("name,args,words", ERRORS, ids=[f"{e[0]}-{i}" for i, e in enumerate(ERRORS)])
def test_bad_input_message(lib, name, args, words):
    fn = getattr(attnlab if lib == "numpy" else at, name)
    if lib == "torch":
        args = tuple(torch.tensor(a) for a in args)
    with pytest.raises(ValueError) as info:
        fn(*args)
    for word in words:
        assert word in str(info.value), f"{word!r} missing from: {info.value}"


def test_module_rejects_bad_input():
    m = at.SelfAttention(4, 3, 2)
    with pytest.raises(ValueError, match=r"X: expected shape \(\.\.\., L, d_in=4\), got \(2, 3, 5\)"):
        m(torch.zeros(2, 3, 5))
    with pytest.raises(ValueError, match="X"):
        m(torch.zeros(4))
    with pytest.raises(ValueError, match="d_k"):
        at.SelfAttention(4, 0, 2)


# ---------------------------------------------------------------------------------------------
# The checks of notebook 03: correct variants pass, specs travel to the sandbox

def _passes(check, fn):
    check(fn)
    check(fn, hidden=True)


def test_checks_accept_correct_variants(capsys):
    def sa_einsum(X, W_q, W_k, W_v):
        Q, K, V = X @ W_q, X @ W_k, X @ W_v
        S = np.einsum("...id,...jd->...ij", Q, K) / np.sqrt(K.shape[-1])
        A = np.exp(S - S.max(-1, keepdims=True))
        A = A / A.sum(-1, keepdims=True)
        return np.einsum("...ij,...jd->...id", A, V), A

    def sa_via_sdpa(X, W_q, W_k, W_v):
        return attnlab.scaled_dot_product_attention(X @ W_q, X @ W_k, X @ W_v)

    for fn in (sa_einsum, sa_via_sdpa, attnlab.self_attention):
        _passes(check_self_attention, fn)
        _passes(check_self_attention_batched, fn)

    def ones_stack(X):
        return np.append(X, np.ones((*X.shape[:-1], 1)), axis=-1)

    def ones_pad(X):
        return np.pad(X, [(0, 0)] * (X.ndim - 1) + [(0, 1)], constant_values=1.0)

    for fn in (ones_stack, ones_pad):
        _passes(check_append_ones, fn)
        _passes(check_append_ones_batched, fn)
    _passes(check_absorb_bias, lambda W, b: np.r_[W, b[None]])
    _passes(check_absorb_bias, lambda W, b: np.vstack([W, b]))

    class FusedSelfAttention(nn.Module):
        """A correct learner module built on the fused torch call."""

        def __init__(self, d_in, d_k, d_v, bias=False):
            super().__init__()
            self.W_q, self.W_k = nn.Linear(d_in, d_k, bias=bias), nn.Linear(d_in, d_k, bias=bias)
            self.W_v = nn.Linear(d_in, d_v, bias=bias)

        def forward(self, X, mask=None):
            Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
            scores = Q @ K.transpose(-1, -2) / Q.shape[-1] ** 0.5
            if mask is not None:
                scores = scores.masked_fill(~mask, float("-inf"))
            A = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
            return A @ V, A

    for cls in (FusedSelfAttention, at.SelfAttention):
        _passes(check_self_attention_module, cls)
        _passes(check_self_attention_module_mask, cls)
    assert "✓ SelfAttention" in capsys.readouterr().out


def test_module_check_names_the_missing_attribute(monkeypatch):
    class Renamed(nn.Module):
        def __init__(self, d_in, d_k, d_v, bias=False):
            super().__init__()
            self.Wq = nn.Linear(d_in, d_k, bias=bias)

        def forward(self, X, mask=None):
            return X, X

    from attnlab.checks import _core
    monkeypatch.setenv("ATTNLAB_FEEDBACK", "full")  # the self-study tiers
    _core._SEEN.clear()
    messages = []
    for _ in range(2):  # feedback in tiers: the code-level fix comes with the second failing run
        with pytest.raises(CheckFailure) as info:
            check_self_attention_module(Renamed)
        messages.append(str(info.value))
    assert "W_q" in messages[0] and "nn.Linear(d_in, d_k, bias=bias)" not in messages[0]
    assert "self.W_q" in messages[1] and "nn.Linear(d_in, d_k, bias=bias)" in messages[1]


@pytest.mark.parametrize("check", [check_self_attention, check_self_attention_batched, check_append_ones,
                                   check_append_ones_batched, check_absorb_bias,
                                   check_self_attention_module, check_self_attention_module_mask])
@pytest.mark.parametrize("hidden", [False, True])
def test_check_specs_can_be_sent_to_the_sandbox(check, hidden):
    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        check(recorder, hidden=hidden)
    spec = recorder.spec
    payload = [{"invoke": spec.invoke, "args": c.args, "kwargs": c.kwargs} for c in spec.cases]
    assert pickle.loads(pickle.dumps(payload)) is not None


# ---------------------------------------------------------------------------------------------
# The cards of notebook 03: every mistake is its learner code, told apart from the reference

@pytest.mark.parametrize("checks", [
    (check_self_attention, check_self_attention_batched), (check_append_ones, check_append_ones_batched),
    (check_absorb_bias,), (check_self_attention_module, check_self_attention_module_mask),
], ids=["self_attention", "append_ones", "absorb_bias", "SelfAttention"])
@pytest.mark.parametrize("hidden", [False, True])
def test_every_mistake_of_the_cards_is_told_apart(checks, hidden):
    assert not ck.mistakes_not_told_apart(checks, hidden, crash_loses_points=True)


def test_the_module_card_runs_its_mistakes_through_the_checks_invoke():
    """A mistake of the SelfAttention card is a whole class; the check calls it as it calls the
    learner's, through invoke_module (built with known weights), and compiles it only when used."""
    from attnlab.cards.SelfAttention import CARD
    from attnlab.checks.self_attention import invoke_module

    assert all(isinstance(m.impl, partial) and m.impl.func is invoke_module for m in CARD.mistakes)
    assert all(m.code.startswith("class SelfAttention") for m in CARD.mistakes)
    code = "import sys\nimport attnlab.cards.SelfAttention\nprint('torch' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False", "importing the card imported torch"
