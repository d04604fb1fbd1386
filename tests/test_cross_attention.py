"""``cross_attention`` (numpy and torch twin) against the torch oracle, properties, bad input.

Oracle: ``F.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, attn_mask=mask)``;
``torch.autograd.gradcheck`` in float64. Shapes include ``Lq != Lk``, ``Dq != Dkv``,
``Dk != Dv``, no batch, one and two batch dimensions.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st

import attnlab
import attnlab.torch as at
from attnlab.checks import SpecRecorded, SpecRecorder
import attnlab.checks as all_checks  # noqa: E402 - the checks, from their cards

ATOL = 1e-10  # float64 agreement between two implementations of the same formula

SHAPES = [  # (batch, Lq, Lk, Dq, Dkv, Dk, Dv)
    ((), 1, 1, 1, 1, 1, 1),
    ((), 3, 5, 4, 6, 2, 7),
    ((2,), 4, 4, 8, 8, 8, 8),
    ((2,), 5, 2, 3, 5, 4, 2),
    ((2, 3), 2, 6, 5, 3, 3, 4),
]


def _inputs(batch, Lq, Lk, Dq, Dkv, Dk, Dv, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(*batch, Lq, Dq)), rng.normal(size=(*batch, Lk, Dkv)),
            rng.normal(size=(Dq, Dk)), rng.normal(size=(Dkv, Dk)), rng.normal(size=(Dkv, Dv)))


def _mask(batch, Lq, Lk, seed=1):
    mask = np.random.default_rng(seed).random((*batch, Lq, Lk)) < 0.6
    mask[..., 0] = True  # no fully masked row: those are tested separately
    return mask


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("masked", [False, True])
def test_cross_attention_matches_sdpa_oracle(shape, masked):
    X_q, X_kv, W_q, W_k, W_v = _inputs(*shape)
    batch, Lq, Lk, *_, Dv = shape
    mask = _mask(batch, Lq, Lk) if masked else None
    out, w = attnlab.cross_attention(X_q, X_kv, W_q, W_k, W_v, mask)
    assert out.shape == (*batch, Lq, Dv) and w.shape == (*batch, Lq, Lk)
    expected = F.scaled_dot_product_attention(
        torch.tensor(X_q @ W_q), torch.tensor(X_kv @ W_k), torch.tensor(X_kv @ W_v),
        attn_mask=None if mask is None else torch.tensor(mask))
    np.testing.assert_allclose(out, expected.numpy(), atol=ATOL)
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=ATOL)
    t_out, t_w = at.cross_attention(*(torch.tensor(a) for a in (X_q, X_kv, W_q, W_k, W_v)),
                                    None if mask is None else torch.tensor(mask))
    np.testing.assert_allclose(t_out.numpy(), out, atol=ATOL)
    np.testing.assert_allclose(t_w.numpy(), w, atol=ATOL)


def test_self_attention_is_the_special_case_x_q_equals_x_kv():
    X, _, W_q, W_k, W_v = _inputs((2,), 4, 4, 5, 5, 3, 2)
    out, w = attnlab.cross_attention(X, X, W_q, W_k, W_v)
    ref_out, ref_w = attnlab.scaled_dot_product_attention(X @ W_q, X @ W_k, X @ W_v)
    np.testing.assert_allclose(out, ref_out, atol=ATOL)
    np.testing.assert_allclose(w, ref_w, atol=ATOL)


def test_padding_mask_broadcasts_and_fully_masked_query_gives_zero():
    X_q, X_kv, W_q, W_k, W_v = _inputs((3,), 2, 5, 4, 6, 3, 2)
    mask = attnlab.padding_mask(np.array([5, 2, 0]), 5)[:, None, :]  # (B, 1, Lk); sequence 2 empty
    for out, w in (attnlab.cross_attention(X_q, X_kv, W_q, W_k, W_v, mask),
                   [t.numpy() for t in at.cross_attention(
                       *(torch.tensor(a) for a in (X_q, X_kv, W_q, W_k, W_v)), torch.tensor(mask))]):
        assert np.all(np.isfinite(out)) and np.all(np.isfinite(w))
        assert np.all(w[1, :, 2:] == 0), "padding keys got weight"
        assert np.all(w[2] == 0) and np.all(out[2] == 0), "an empty source must give zeros"
        np.testing.assert_allclose(w[:2].sum(-1), 1.0, atol=ATOL)


def test_torch_cross_attention_gradcheck():
    X_q, X_kv, W_q, W_k, W_v = (torch.tensor(a, requires_grad=True)
                                for a in _inputs((2,), 3, 4, 3, 5, 2, 3))
    mask = torch.tensor(np.random.default_rng(2).random((2, 3, 4)) < 0.7)
    mask[0, 1] = False  # a fully masked query has finite (zero) gradients too
    assert torch.autograd.gradcheck(
        lambda *args: at.cross_attention(*args, mask=mask)[0], (X_q, X_kv, W_q, W_k, W_v))


settings.register_profile("attnlab", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("attnlab")


@given(st.integers(1, 4), st.integers(1, 6), st.integers(1, 4), st.integers(0, 10_000))
def test_permuting_the_source_permutes_weight_columns_only(Lq, Lk, Dv, seed):
    """Cross-attention reads the source as a set: reorder X_kv and only the weights' columns move."""
    X_q, X_kv, W_q, W_k, W_v = _inputs((), Lq, Lk, 3, 4, 2, Dv, seed=seed)
    mask = np.random.default_rng(seed + 1).random((Lq, Lk)) < 0.7
    perm = np.random.default_rng(seed + 2).permutation(Lk)
    out, w = attnlab.cross_attention(X_q, X_kv, W_q, W_k, W_v, mask)
    out_p, w_p = attnlab.cross_attention(X_q, X_kv[perm], W_q, W_k, W_v, mask[:, perm])
    np.testing.assert_allclose(out_p, out, atol=1e-10)
    np.testing.assert_allclose(w_p, w[:, perm], atol=1e-12)
    assert np.all(w[~mask] == 0), "a masked weight is not exactly zero"
    np.testing.assert_allclose(w.sum(-1), mask.any(-1).astype(float), atol=1e-12)


X_q0, X_kv0 = np.zeros((2, 3, 4)), np.zeros((2, 5, 6))
W_q0, W_k0, W_v0 = np.zeros((4, 2)), np.zeros((6, 2)), np.zeros((6, 7))
BAD = [  # (args, words the message must contain)
    ((np.zeros(4), X_kv0, W_q0, W_k0, W_v0), ["X_q", "(..., Lq, Dq)", "(4,)"]),
    ((X_q0, X_kv0, np.zeros((5, 2)), W_k0, W_v0), ["X_q", "W_q", "Dq", "(2, 3, 4)", "(5, 2)"]),
    ((X_q0, X_kv0, W_q0, np.zeros((5, 2)), W_v0), ["X_kv", "W_k", "Dkv", "(5, 2)"]),
    ((X_q0, X_kv0, W_q0, W_k0, np.zeros((4, 7))), ["X_kv", "W_v", "Dkv", "(4, 7)"]),
    ((X_q0, X_kv0, W_q0, np.zeros((6, 3)), W_v0), ["W_q", "W_k", "Dk", "(4, 2)", "(6, 3)"]),
    ((X_q0, X_kv0, np.zeros((1, 4, 2)), W_k0, W_v0), ["W_q", "(Dq, Dk)", "(1, 4, 2)"]),
    ((X_q0, X_kv0, W_q0, W_k0, W_v0, np.ones((5, 3), dtype=bool)), ["mask", "(2, 3, 5)", "(5, 3)"]),
    ((X_q0, X_kv0, W_q0, W_k0, W_v0, np.ones((3, 5))), ["mask", "boolean"]),
]


@pytest.mark.parametrize("lib", ["numpy", "torch"])
@pytest.mark.parametrize("args,words", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_input_names_argument_and_shapes(lib, args, words):
    if lib == "torch":
        args = tuple(torch.tensor(a) for a in args)
    fn = attnlab.cross_attention if lib == "numpy" else at.cross_attention
    with pytest.raises(ValueError) as info:
        fn(*args)
    for word in words:
        assert word in str(info.value), f"{word!r} missing from: {info.value}"


@pytest.mark.parametrize("check", ["check_causal_mask", "check_padding_mask", "check_masked_softmax",
                                   "check_masked_softmax_fully_masked", "check_cross_attention",
                                   "check_cross_attention_masked"])
@pytest.mark.parametrize("hidden", [False, True])
def test_check_specs_can_travel_to_the_sandbox(check, hidden):
    """The trusted grader pickles each case and the ``invoke`` for the sandbox process."""
    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        getattr(all_checks, check)(recorder, hidden=hidden)
    spec = recorder.spec
    pickle.dumps([(spec.invoke, c.args, c.kwargs) for c in spec.cases])
    assert len(spec.cases) >= 2 and len(spec.mistakes) >= 4
