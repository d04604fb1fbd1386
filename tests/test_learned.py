"""Notebook 12's references (``attnlab.learned``) and their torch twins: the equations of the
contract, the gradient-descent construction, edge cases and errors."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import attnlab
import attnlab.torch as at
from attnlab import learned
from attnlab.torch import learned as tl

TOL = 1e-10


def _task(rng, batch=(), N=7, d=3):
    return rng.normal(size=(*batch, N, d)), rng.normal(size=(*batch, N)), rng.normal(size=(*batch, d))


@pytest.mark.parametrize("batch", [(), (2,), (2, 3)])
def test_icl_prompt_rows(batch):
    rng = np.random.default_rng(0)
    X, y, xq = _task(rng, batch)
    Z = attnlab.icl_prompt(X, y, xq)
    assert Z.shape == (*batch, 8, 4)
    np.testing.assert_array_equal(Z[..., :7, :3], X)
    np.testing.assert_array_equal(Z[..., :7, 3], y)
    np.testing.assert_array_equal(Z[..., 7, :3], xq)
    assert np.all(Z[..., 7, 3] == 0)
    torch.testing.assert_close(at.icl_prompt(torch.tensor(X), torch.tensor(y), torch.tensor(xq)), torch.tensor(Z))


@pytest.mark.parametrize("batch", [(), (2,)])
def test_linear_self_attention_equation(batch):
    rng = np.random.default_rng(1)
    N, d = 6, 3
    Z = rng.normal(size=(*batch, N + 1, d + 1))
    W_kq, W_pv = rng.normal(size=(d + 1, d + 1)), rng.normal(size=(d + 1, d + 1))
    out = attnlab.linear_self_attention(Z, W_kq, W_pv)
    Zf = Z.reshape(-1, N + 1, d + 1)
    for b, z in enumerate(Zf):
        expected = z.copy()
        for r in range(N + 1):  # explicit sum over the N example rows, the query row excluded
            expected[r] += sum((z[r] @ W_kq @ z[i]) * (z[i] @ W_pv) for i in range(N)) / N
        np.testing.assert_allclose(out.reshape(-1, N + 1, d + 1)[b], expected, rtol=1e-12, atol=TOL)
    torch.testing.assert_close(at.linear_self_attention(torch.tensor(Z), torch.tensor(W_kq), torch.tensor(W_pv)),
                               torch.tensor(out))


def test_query_row_is_no_key():
    rng = np.random.default_rng(2)
    Z = rng.normal(size=(5, 4))
    W_kq, W_pv = rng.normal(size=(4, 4)), rng.normal(size=(4, 4))
    Z2 = Z.copy()
    Z2[-1, :3] += 10.0  # changing the query input changes only the query row
    a, b = attnlab.linear_self_attention(Z, W_kq, W_pv), attnlab.linear_self_attention(Z2, W_kq, W_pv)
    np.testing.assert_allclose(a[:-1], b[:-1], atol=TOL)
    assert not np.allclose(a[-1], b[-1])


@pytest.mark.parametrize("batch,N,d", [((), 1, 1), ((), 9, 4), ((3,), 5, 2)])
def test_gd_construction_equals_gd_step(batch, N, d):
    rng = np.random.default_rng(3)
    X, y, xq = _task(rng, batch, N, d)
    Gamma = rng.normal(size=(d, d))
    W_kq, W_pv = learned.gd_construction(d, Gamma)
    pred = attnlab.linear_self_attention(attnlab.icl_prompt(X, y, xq), W_kq, W_pv)[..., -1, -1]
    np.testing.assert_allclose(pred, attnlab.gd_step_prediction(X, y, xq, Gamma), rtol=1e-10, atol=TOL)
    np.testing.assert_allclose(learned.read_gamma(W_kq, W_pv), Gamma)


def test_gd_step_prediction_equation():
    rng = np.random.default_rng(4)
    X, y, xq = _task(rng, (), 8, 3)
    Gamma = rng.normal(size=(3, 3))
    w = Gamma @ X.T @ y / 8  # one step from w = 0 on the mean squared error
    grad_at_zero = -(X.T @ y) / 8
    np.testing.assert_allclose(w, -Gamma @ grad_at_zero)
    assert attnlab.gd_step_prediction(X, y, xq, Gamma) == pytest.approx(xq @ w, rel=1e-12)
    # the transposed preconditioner gives another answer for a non-symmetric Gamma
    assert attnlab.gd_step_prediction(X, y, xq, Gamma.T) != pytest.approx(xq @ w, rel=1e-6)


def test_scores_equations():
    rng = np.random.default_rng(5)
    W = rng.random(size=(2, 3, 8, 8))
    assert attnlab.previous_token_score(W) == pytest.approx(np.mean([W[..., t, t - 1] for t in range(1, 8)]))
    P = 3
    assert attnlab.prefix_matching_score(W, P) == pytest.approx(np.mean([W[..., t, t - P + 1] for t in range(P, 8)]))
    eye_shift = np.eye(6, k=-1)
    assert attnlab.previous_token_score(eye_shift) == pytest.approx(1.0)
    assert attnlab.prefix_matching_score(eye_shift, 2) == pytest.approx(1.0)  # t attends t-1 = t-2+1
    assert attnlab.prefix_matching_score(eye_shift, 3) == pytest.approx(0.0)
    assert tl.previous_token_score(torch.tensor(W)) == pytest.approx(attnlab.previous_token_score(W))


def test_soft_align_equation():
    rng = np.random.default_rng(6)
    A, B = rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 5, 3))
    beta, alpha = attnlab.soft_align(A, B)
    assert beta.shape == (2, 4, 3) and alpha.shape == (2, 5, 3)
    E = np.einsum("bid,bjd->bij", A, B)
    w = np.exp(E - E.max(-1, keepdims=True))
    np.testing.assert_allclose(beta, (w / w.sum(-1, keepdims=True)) @ B, atol=TOL)
    v = np.exp(E - E.max(-2, keepdims=True))
    np.testing.assert_allclose(alpha, np.swapaxes(v / v.sum(-2, keepdims=True), -1, -2) @ A, atol=TOL)
    tb, ta = at.soft_align(torch.tensor(A), torch.tensor(B))
    torch.testing.assert_close(tb, torch.tensor(beta))
    torch.testing.assert_close(ta, torch.tensor(alpha))
    one_b, one_a = attnlab.soft_align(A[0], B[0, :1])  # one token in B: every beta row is that token
    np.testing.assert_allclose(one_b, np.broadcast_to(B[0, :1], (4, 3)))


@pytest.mark.parametrize("call,name", [
    (lambda: attnlab.icl_prompt(np.zeros((3, 2)), np.zeros(4), np.zeros(2)), "y"),
    (lambda: attnlab.icl_prompt(np.zeros((3, 2)), np.zeros(3), np.zeros(3)), "x_query"),
    (lambda: attnlab.icl_prompt(np.zeros(3), np.zeros(3), np.zeros(1)), "X"),
    (lambda: attnlab.linear_self_attention(np.zeros((1, 3)), np.eye(3), np.eye(3)), "Z"),
    (lambda: attnlab.linear_self_attention(np.zeros((4, 3)), np.eye(2), np.eye(3)), "W_kq"),
    (lambda: attnlab.linear_self_attention(np.zeros((4, 3)), np.eye(3), np.eye(4)), "W_pv"),
    (lambda: attnlab.gd_step_prediction(np.zeros((3, 2)), np.zeros(3), np.zeros(2), np.eye(3)), "Gamma"),
    (lambda: attnlab.gd_step_prediction(np.zeros((0, 2)), np.zeros(0), np.zeros(2), np.eye(2)), "X"),
    (lambda: attnlab.previous_token_score(np.ones((1, 1))), "weights"),
    (lambda: attnlab.previous_token_score(np.ones((3, 4))), "weights"),
    (lambda: attnlab.prefix_matching_score(np.ones((4, 4)), 4), "period"),
    (lambda: attnlab.prefix_matching_score(np.ones((4, 4)), 0), "period"),
    (lambda: attnlab.soft_align(np.zeros((2, 3)), np.zeros((2, 4))), "B"),
    (lambda: attnlab.soft_align(np.zeros((0, 3)), np.zeros((2, 3))), "A"),
])
def test_errors_name_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}:"):
        call()


def test_attention_only_transformer_ablation_and_shapes():
    torch.manual_seed(0)
    model = tl.AttentionOnlyTransformer(vocab=7, max_len=10, D=8, n_heads=2)
    tokens = torch.randint(0, 7, (3, 10))
    logits, weights = model(tokens)
    assert logits.shape == (3, 10, 7) and len(weights) == 2 and weights[0].shape == (3, 2, 10, 10)
    torch.testing.assert_close(weights[1].sum(-1), torch.ones(3, 2, 10))
    assert torch.all(weights[0].triu(1) == 0)  # causal
    ablated, _ = model(tokens, ablate={(1, 0)})
    assert not torch.allclose(ablated, logits)
    same, _ = model(tokens, ablate=set())
    torch.testing.assert_close(same, logits)


def test_decomposable_attention_is_blind_to_order():
    torch.manual_seed(0)
    model = tl.DecomposableAttention(vocab=9, D=4, hidden=8)
    a, b = torch.randint(0, 9, (2, 5)), torch.randint(0, 9, (2, 4))
    out = model(a, b)
    torch.testing.assert_close(model(a.flip(1), b[:, [2, 0, 3, 1]]), out)
    assert out.shape == (2, 2)


def test_linear_self_attention_trains_towards_a_gd_step():
    d, N = 3, 10
    model, losses = tl.train_icl(d=d, N=N, steps=500, batch=256, lr=0.01, seed=0)
    assert losses[-20:].mean() < 0.5 * losses[:5].mean()
    Gamma = learned.read_gamma(model.W_kq.detach().double().numpy(), model.W_pv.detach().double().numpy())
    # Zhang, Frei and Bartlett: for x ~ N(0, I) the trained preconditioner is close to N/(N+d+1) I
    np.testing.assert_allclose(Gamma, N / (N + d + 1) * np.eye(d), atol=0.1)
