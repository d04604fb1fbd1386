"""Multi-head attention (numpy references, torch twins, the ``MultiHeadAttention`` module)
against ``torch.nn.MultiheadAttention`` with copied weights, properties, gradients, bad input.

Oracle: ``nn.MultiheadAttention(D, H, batch_first=True)`` in float64 with
``in_proj_weight = cat([W_q.T, W_k.T, W_v.T])``, ``out_proj.weight = W_o.T`` and the masks
negated (its boolean masks mean *blocked*). Shapes include one head and several, ``Lq != Lk``,
``B > 1``, head widths from 1 to 8.
"""
from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st
from torch import nn

import attnlab
import attnlab.torch as at
from attnlab.checks import SpecRecorded, SpecRecorder
import attnlab.checks as all_checks  # noqa: E402 - the checks, from their cards

ATOL = 1e-10  # float64 agreement between two implementations of the same formula
ORACLE_ATOL = 1e-6  # the course's promise: matches nn.MultiheadAttention to 1e-6 in float64

settings.register_profile("attnlab", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("attnlab")

SHAPES = [  # (B, Lq, Lk, D, H)
    (1, 1, 1, 4, 1),
    (2, 3, 5, 8, 2),
    (2, 4, 4, 8, 4),
    (3, 2, 6, 12, 3),
    (1, 5, 3, 16, 8),
]


def _mha_inputs(B, Lq, Lk, D, H, seed=0):
    rng = np.random.default_rng(seed)
    Ws = [rng.normal(size=(D, D)) / math.sqrt(D) for _ in range(4)]
    return rng.normal(size=(B, Lq, D)), rng.normal(size=(B, Lk, D)), *Ws


def _torch_mha(W_q, W_k, W_v, W_o, H, biases=None) -> nn.MultiheadAttention:
    D = W_q.shape[0]
    mha = nn.MultiheadAttention(D, H, bias=biases is not None, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.tensor(np.concatenate([W_q.T, W_k.T, W_v.T])))  # (3D, D)
        mha.out_proj.weight.copy_(torch.tensor(W_o.T))
        if biases is not None:
            b_q, b_k, b_v, b_o = biases
            mha.in_proj_bias.copy_(torch.tensor(np.concatenate([b_q, b_k, b_v])))
            mha.out_proj.bias.copy_(torch.tensor(b_o))
    return mha


# ---------------------------------------------------------------------------------------------
# split_heads / merge_heads

@given(st.integers(1, 3), st.integers(1, 5), st.integers(1, 4), st.integers(1, 4))
def test_split_heads_takes_contiguous_columns_and_merge_inverts_it(B, L, H, Dh):
    X = np.random.default_rng(B * 100 + L * 10 + H).normal(size=(B, L, H * Dh))
    S = attnlab.split_heads(X, H)
    assert S.shape == (B, H, L, Dh)
    for h in range(H):
        np.testing.assert_array_equal(S[:, h], X[:, :, h * Dh:(h + 1) * Dh])
    np.testing.assert_array_equal(attnlab.merge_heads(S), X)
    T = torch.tensor(X)
    np.testing.assert_array_equal(at.split_heads(T, H).numpy(), S)
    np.testing.assert_array_equal(T.view(B, L, H, Dh).transpose(1, 2).numpy(), S)  # the torch idiom
    np.testing.assert_array_equal(at.merge_heads(at.split_heads(T, H)).numpy(), X)


# ---------------------------------------------------------------------------------------------
# multi_head_attention

@pytest.mark.parametrize("B,Lq,Lk,D,H", SHAPES)
@pytest.mark.parametrize("masked", [False, True])
def test_multi_head_attention_matches_nn_multihead_attention(B, Lq, Lk, D, H, masked):
    X_q, X_kv, W_q, W_k, W_v, W_o = _mha_inputs(B, Lq, Lk, D, H)
    mask = None
    if masked:
        mask = np.random.default_rng(3).random((B, 1, Lq, Lk)) < 0.6
        mask[..., 0] = True  # nn.MultiheadAttention gives NaN on fully masked rows
    out, w = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, H, mask)
    assert out.shape == (B, Lq, D) and w.shape == (B, H, Lq, Lk)

    mha = _torch_mha(W_q, W_k, W_v, W_o, H)
    attn_mask = None
    if mask is not None:  # (B, 1, Lq, Lk) -> nn's 3-D form (B*H, Lq, Lk), True = blocked
        attn_mask = torch.tensor(~np.repeat(mask, H, axis=1).reshape(B * H, Lq, Lk))
    t_q, t_kv = torch.tensor(X_q), torch.tensor(X_kv)
    expected, w_mean = mha(t_q, t_kv, t_kv, attn_mask=attn_mask)
    _, w_heads = mha(t_q, t_kv, t_kv, attn_mask=attn_mask, average_attn_weights=False)
    np.testing.assert_allclose(out, expected.detach().numpy(), atol=ORACLE_ATOL)
    np.testing.assert_allclose(w.mean(axis=1), w_mean.detach().numpy(), atol=ORACLE_ATOL)
    np.testing.assert_allclose(w, w_heads.detach().numpy(), atol=ORACLE_ATOL)

    t_out, t_w = at.multi_head_attention(t_q, t_kv, *(torch.tensor(W) for W in (W_q, W_k, W_v, W_o)),
                                         H, None if mask is None else torch.tensor(mask))
    np.testing.assert_allclose(t_out.numpy(), out, atol=ATOL)
    np.testing.assert_allclose(t_w.numpy(), w, atol=ATOL)


def test_one_head_is_plain_attention_then_projection():
    X_q, X_kv, W_q, W_k, W_v, W_o = _mha_inputs(2, 3, 5, 6, 1)
    out, w = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, 1)
    z, a = attnlab.cross_attention(X_q, X_kv, W_q, W_k, W_v)
    np.testing.assert_allclose(out, z @ W_o, atol=ATOL)
    np.testing.assert_allclose(w[:, 0], a, atol=ATOL)


def test_masks_broadcast_over_heads_and_empty_sequences_give_zero():
    X_q, X_kv, W_q, W_k, W_v, W_o = _mha_inputs(3, 4, 5, 8, 4)
    causal = attnlab.causal_mask(4, 5)  # (Lq, Lk)
    pad = attnlab.padding_mask(np.array([5, 2, 0]), 5)[:, None, None, :]  # (B, 1, 1, Lk)
    out, w = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, 4, causal & pad)
    assert np.all(np.isfinite(out)) and np.all(w[~np.broadcast_to(causal & pad, w.shape)] == 0)
    assert np.all(out[2] == 0) and np.all(w[2] == 0)
    np.testing.assert_allclose(w[:2].sum(-1), 1.0, atol=ATOL)


def test_concatenate_then_project_is_a_sum_over_heads():
    X_q, X_kv, W_q, W_k, W_v, W_o = _mha_inputs(2, 3, 4, 12, 3)
    H, Dh = 3, 4
    Q, K, V = (attnlab.split_heads(X @ W, H) for X, W in ((X_q, W_q), (X_kv, W_k), (X_kv, W_v)))
    Z, _ = attnlab.scaled_dot_product_attention(Q, K, V)
    summed = sum(Z[:, h] @ W_o[h * Dh:(h + 1) * Dh] for h in range(H))
    out, _ = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, H)
    np.testing.assert_allclose(out, summed, atol=ATOL)


# ---------------------------------------------------------------------------------------------
# merge_value_output

@pytest.mark.parametrize("D,H", [(4, 1), (6, 2), (8, 4), (12, 3), (6, 6)])
def test_merge_value_output(D, H):
    X_q, X_kv, W_q, W_k, W_v, W_o = _mha_inputs(2, 3, 5, D, H, seed=D + H)
    W_vo = attnlab.merge_value_output(W_v, W_o, H)
    assert W_vo.shape == (H, D, D)
    Dh = D // H
    for h in range(H):
        np.testing.assert_allclose(W_vo[h], W_v[:, h * Dh:(h + 1) * Dh] @ W_o[h * Dh:(h + 1) * Dh], atol=ATOL)
        assert np.linalg.matrix_rank(W_vo[h]) <= Dh
    np.testing.assert_allclose(W_vo.sum(0), W_v @ W_o, atol=ATOL)
    out, w = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, H)
    np.testing.assert_allclose(np.einsum("bhqk,bkd,hde->bqe", w, X_kv, W_vo), out, atol=ATOL)
    np.testing.assert_allclose(at.merge_value_output(torch.tensor(W_v), torch.tensor(W_o), H).numpy(),
                               W_vo, atol=ATOL)


@given(st.sampled_from([(4, 2), (6, 3), (8, 2)]), st.integers(0, 10_000))
def test_value_output_reparametrisation_leaves_the_output_unchanged(DH, seed):
    D, H = DH
    Dh = D // H
    X_q, X_kv, W_q, W_k, W_v, W_o = _mha_inputs(2, 3, 4, D, H, seed=seed)
    rng = np.random.default_rng(seed + 1)
    W_v2, W_o2 = W_v.copy(), W_o.copy()
    for h in range(H):
        M = rng.normal(size=(Dh, Dh)) + 3 * np.eye(Dh)  # well conditioned
        W_v2[:, h * Dh:(h + 1) * Dh] = W_v[:, h * Dh:(h + 1) * Dh] @ M
        W_o2[h * Dh:(h + 1) * Dh] = np.linalg.solve(M, W_o[h * Dh:(h + 1) * Dh])
    out, _ = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, H)
    out2, _ = attnlab.multi_head_attention(X_q, X_kv, W_q, W_k, W_v2, W_o2, H)
    np.testing.assert_allclose(out2, out, atol=1e-9)
    np.testing.assert_allclose(attnlab.merge_value_output(W_v2, W_o2, H),
                               attnlab.merge_value_output(W_v, W_o, H), atol=1e-9)


# ---------------------------------------------------------------------------------------------
# The MultiHeadAttention module

@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("B,Lq,Lk,D,H", SHAPES[1:])
def test_module_matches_nn_multihead_attention(bias, B, Lq, Lk, D, H):
    torch.manual_seed(0)
    ours = at.MultiHeadAttention(D, H, bias=bias).double()
    W = [getattr(ours, n).weight.detach().numpy().T for n in ("W_q", "W_k", "W_v", "W_o")]
    biases = [getattr(ours, n).bias.detach().numpy() for n in ("W_q", "W_k", "W_v", "W_o")] if bias else None
    theirs = _torch_mha(*W, H, biases)
    X_q, X_kv = torch.randn(B, Lq, D, dtype=torch.float64), torch.randn(B, Lk, D, dtype=torch.float64)
    causal = torch.from_numpy(attnlab.causal_mask(Lq, Lk))
    out, w = ours(X_q, X_kv, causal)
    expected, w_mean = theirs(X_q, X_kv, X_kv, attn_mask=~causal)
    assert out.shape == (B, Lq, D) and w.shape == (B, H, Lq, Lk)
    torch.testing.assert_close(out, expected, atol=ORACLE_ATOL, rtol=0)
    torch.testing.assert_close(w.mean(1), w_mean, atol=ORACLE_ATOL, rtol=0)
    if not bias:  # without biases the module is the functional form with W = weight.T
        t_out, _ = at.multi_head_attention(X_q, X_kv, *(torch.tensor(m) for m in W), H, causal)
        torch.testing.assert_close(out, t_out, atol=ATOL, rtol=0)


@pytest.mark.parametrize("H", [1, 2, 4, 8])
def test_parameter_count_is_4D2_for_any_number_of_heads(H):
    D = 32
    assert sum(p.numel() for p in at.MultiHeadAttention(D, H).parameters()) == 4 * D * D
    assert sum(p.numel() for p in at.MultiHeadAttention(D, H, bias=True).parameters()) == 4 * D * D + 4 * D
    assert sum(p.numel() for p in nn.MultiheadAttention(D, H).parameters()) == 4 * D * D + 4 * D


def test_torch_multi_head_gradcheck():
    X_q, X_kv, W_q, W_k, W_v, W_o = (torch.tensor(a, requires_grad=True) for a in _mha_inputs(2, 3, 4, 6, 2))
    mask = torch.tensor(np.random.default_rng(4).random((2, 1, 3, 4)) < 0.7)
    mask[1, 0, 2] = False  # a fully masked query: finite (zero) gradients
    assert torch.autograd.gradcheck(
        lambda *a: at.multi_head_attention(*a, num_heads=2, mask=mask)[0], (X_q, X_kv, W_q, W_k, W_v, W_o))
    module = at.MultiHeadAttention(6, 3, bias=True).double()
    assert torch.autograd.gradcheck(lambda q, kv: module(q, kv, mask)[0],
                                    (X_q.detach().requires_grad_(), X_kv.detach().requires_grad_()))


# ---------------------------------------------------------------------------------------------
# Bad input

X3, K3, W8 = np.zeros((2, 3, 8)), np.zeros((2, 5, 8)), np.zeros((8, 8))
BAD = [  # (function, args, words the message must contain)
    ("split_heads", (np.zeros((3, 8)), 2), ["X", "(B, L, D)", "(3, 8)"]),
    ("split_heads", (X3, 3), ["num_heads", "D=8", "3"]),
    ("split_heads", (X3, 0), ["num_heads", ">= 1"]),
    ("merge_heads", (X3,), ["X", "(B, H, L, Dh)", "(2, 3, 8)"]),
    ("multi_head_attention", (np.zeros((3, 8)), K3, W8, W8, W8, W8, 2), ["X_q", "(B, Lq, D)", "(3, 8)"]),
    ("multi_head_attention", (X3, np.zeros((1, 5, 8)), W8, W8, W8, W8, 2), ["X_kv", "(1, 5, 8)"]),
    ("multi_head_attention", (X3, K3, W8, W8, np.zeros((8, 4)), W8, 2), ["W_v", "(D, D)", "(8, 4)"]),
    ("multi_head_attention", (X3, K3, W8, W8, W8, W8, 3), ["num_heads", "D=8"]),
    ("multi_head_attention", (X3, K3, W8, W8, W8, W8, 2, np.ones((2, 3, 5), dtype=bool)),
     ["mask", "ambiguous", "(2, 3, 5)", "mask[:, None]"]),
    ("multi_head_attention", (X3, K3, W8, W8, W8, W8, 2, np.ones((2, 1, 4, 5), dtype=bool)),
     ["mask", "(2, 2, 3, 5)", "(2, 1, 4, 5)"]),
    ("merge_value_output", (W8, np.zeros((8, 6)), 2), ["W_o", "(8, 6)"]),
    ("merge_value_output", (W8, W8, 5), ["num_heads", "D=8"]),
]


@pytest.mark.parametrize("lib", ["numpy", "torch"])
@pytest.mark.parametrize("name,args,words", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_names_argument_and_shapes(lib, name, args, words):
    fn = getattr(attnlab if lib == "numpy" else at, name)
    if lib == "torch":
        args = tuple(torch.tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    with pytest.raises(ValueError) as info:
        fn(*args)
    for word in words:
        assert word in str(info.value), f"{word!r} missing from: {info.value}"


def test_module_rejects_bad_construction_and_input():
    with pytest.raises(ValueError, match="num_heads"):
        at.MultiHeadAttention(10, 4)
    module = at.MultiHeadAttention(8, 2)
    with pytest.raises(ValueError, match=r"X_kv.*d_model=8"):
        module(torch.zeros(1, 3, 8), torch.zeros(1, 4, 6))


@pytest.mark.parametrize("check", ["check_split_heads", "check_merge_heads", "check_multi_head_attention",
                                   "check_multi_head_attention_masked", "check_mha_module",
                                   "check_mha_module_bias_mask", "check_merge_value_output"])
@pytest.mark.parametrize("hidden", [False, True])
def test_check_specs_can_travel_to_the_sandbox(check, hidden):
    """The trusted grader pickles each case and the ``invoke`` for the sandbox process."""
    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        getattr(all_checks, check)(recorder, hidden=hidden)
    spec = recorder.spec
    pickle.dumps([(spec.invoke, c.args, c.kwargs) for c in spec.cases])
    assert len(spec.cases) >= 2 and len(spec.mistakes) >= 4
