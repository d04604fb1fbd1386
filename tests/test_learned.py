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


def test_induction_score_compares_tokens():
    """The keys after every earlier occurrence of the query's token, summed per query, averaged over
    the queries that have one; a loop over queries and keys gives the same; the layout's score and
    the tokens' agree for an ideal head of a sequence that repeats from its first token."""
    rng = np.random.default_rng(8)
    W = rng.random(size=(3, 2, 9, 9))
    W /= W.sum(-1, keepdims=True)
    tokens = rng.integers(0, 3, size=(3, 1, 9))
    sums = []
    for b in range(3):
        for h in range(2):
            for t in range(9):
                keys = [j for j in range(1, t + 1) if tokens[b, 0, j - 1] == tokens[b, 0, t]]
                if keys:
                    sums.append(sum(W[b, h, t, j] for j in keys))
    assert attnlab.induction_score(W, tokens) == pytest.approx(np.mean(sums), rel=1e-12)
    assert tl.induction_score(torch.tensor(W), torch.tensor(tokens)) == pytest.approx(np.mean(sums), rel=1e-12)
    seq = np.array([4, 7, 1, 4, 7, 1, 4, 7])  # period 3 from position 0, no chance repeat
    ideal = np.zeros((8, 8))
    ideal[np.arange(3), np.arange(3)] = 1.0
    ideal[np.arange(3, 8), np.arange(3, 8) - 2] = 1.0  # t reads t - P + 1
    assert attnlab.induction_score(ideal, seq) == pytest.approx(1.0)
    assert attnlab.prefix_matching_score(ideal, 3) == pytest.approx(1.0)
    # the earlier occurrence itself (a duplicate-token head) scores 0
    assert attnlab.induction_score(np.roll(ideal, -1, axis=-1) * (np.arange(8) >= 3)[:, None], seq) == 0.0
    with pytest.raises(ValueError, match="^tokens"):
        attnlab.induction_score(ideal, np.arange(8))
    with pytest.raises(ValueError, match="^tokens"):
        attnlab.induction_score(W, tokens[:, 0, :, None])


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


# --- induction: layouts, ablations, and the interventions that tell copying by content from position ---

def test_repeat_sequences_layout():
    gen = torch.Generator().manual_seed(0)
    tokens = tl.repeat_sequences(5, 24, 32, 8, 4, gen)
    assert tokens.shape == (5, 24)
    t = torch.arange(12, 24)
    torch.testing.assert_close(tokens[:, t], tokens[:, t - 8])  # from start + period on, period 8
    twice = tl.repeat_sequences(3, 24, 32, 12, 0, gen)  # the fixed layout: 12 tokens, then the same 12
    torch.testing.assert_close(twice[:, 12:], twice[:, :12])
    tokens, repeat_at = tl.shifted_repeat_batch(64, 24, 32, (3, 5, 12), gen)
    for row, r in zip(tokens, repeat_at.tolist()):
        periods = [P for P in (3, 5, 12) if r - P >= 0 and r - P <= 24 - 2 * P
                   and all(row[t] == row[t - P] for t in range(r, 24))]
        assert periods, (row, r)
    with pytest.raises(ValueError, match="^start:"):
        tl.repeat_sequences(2, 10, 5, 6, 4, gen)
    with pytest.raises(ValueError, match="^periods:"):
        tl.shifted_repeat_batch(2, 10, 5, (6,), gen)


def test_zero_and_mean_ablation():
    torch.manual_seed(0)
    model = tl.AttentionOnlyTransformer(vocab=7, max_len=10, D=8, n_heads=2)
    tokens = torch.randint(0, 7, (4, 10))
    logits, _ = model(tokens)
    outs = model.head_outputs(tokens)
    assert len(outs) == 2 and outs[0].shape == (4, 2, 10, 4)
    # replacing a head's output by itself changes nothing; by zero is zero-ablation
    same, _ = model(tokens, ablate={(1, 0): outs[1][:, 0]})
    torch.testing.assert_close(same, logits)
    torch.testing.assert_close(model(tokens, ablate={(0, 1): 0.0})[0], model(tokens, ablate={(0, 1)})[0])
    means = tl.mean_head_outputs(model, tokens, [(0, 1)])
    torch.testing.assert_close(means[(0, 1)], outs[0][:, 1].mean(0))
    mean_ablated, _ = model(tokens, ablate=means)
    assert not torch.allclose(mean_ablated, logits)
    shorter, _ = model(tokens[:, :6], ablate=means)  # the per-position means are cut to the length
    assert shorter.shape == (4, 6, 7)


def test_copying_losses_split_random_and_copyable():
    """A model that knows the answer on the copyable targets: zero loss there, chance before."""
    class Oracle(torch.nn.Module):
        def forward(self, tokens, ablate=None):
            B, L = tokens.shape
            logits = torch.zeros(B, L, 5)
            logits[:, P + start - 1:] = 50 * torch.nn.functional.one_hot(tokens[:, start:L - P + 1], 5).float()
            return logits, []
    P, start = 3, 2
    tokens = tl.repeat_sequences(8, 11, 5, P, start, torch.Generator().manual_seed(0))
    random, copyable = tl.copying_losses(Oracle(), tokens, start, P)
    assert random == pytest.approx(np.log(5)) and copyable == pytest.approx(0.0, abs=1e-6)


LAYOUTS = {"fixed": (12, 0), "shifted": (10, 4), "unseen period": (8, 0)}  # as in notebook 12


@pytest.fixture(scope="module")
def positional_model():
    """The control: trained on one layout (12 tokens, then the same 12), as notebook 12 was."""
    return tl.train_induction(vocab=32, period=12, D=64, steps=500, batch=32, lr=5e-3, seed=0)[0]


def test_a_positional_model_fails_the_interventions(positional_model):
    """Copying by position passes on its own layout and fails when the repeat moves or the
    period changes; its layer-1 head is not needed: it is no induction circuit."""
    on_own = tl.interventions(positional_model, {"fixed": LAYOUTS["fixed"]}, 32, 24)
    assert tl.copying_verdicts(on_own, 32)["copies"]
    assert not tl.copying_verdicts(on_own, 32)["layer 1 needed"]
    for layout in ("shifted", "unseen period"):
        moved = tl.interventions(positional_model, {layout: LAYOUTS[layout]}, 32, 24)
        assert not tl.copying_verdicts(moved, 32)["copies"], layout
        assert moved[layout]["intact"][1] > np.log(32), layout  # worse than chance
    # the prefix-matching score on the fixed layout cannot tell; on a moved repeat it can
    probe = tl.repeat_sequences(128, 24, 32, 8, 4, torch.Generator().manual_seed(2))
    fixed = tl.repeat_sequences(128, 24, 32, 12, 0, torch.Generator().manual_seed(3))
    with torch.no_grad():
        w_fixed = positional_model(fixed[:, :-1])[1][1][:, 0].numpy()
        w_probe = positional_model(probe[:, :-1])[1][1][:, 0].numpy()
    assert attnlab.prefix_matching_score(w_fixed, 12) > 0.5
    assert attnlab.prefix_matching_score(w_probe[:, 4:, 4:], 8) < 0.1


@pytest.fixture(scope="module")
def induction_run():
    """Notebook 12's run: trained on random periods and repeat points, 2,500 steps, seed 0."""
    return tl.train_induction_shifted(vocab=32, L=24, steps=2500, seed=0)


def test_an_induction_circuit_passes_the_interventions(induction_run):
    """Trained on random periods and repeat points (notebook 12's run), the model copies on a
    moved repeat and an unseen period, and ablating either head breaks the copying."""
    model, random_losses, copy_losses = induction_run
    assert copy_losses[-100:].mean() < 1.0 and random_losses[-100:].mean() > np.log(32) - 0.1
    verdicts = tl.copying_verdicts(tl.interventions(model, LAYOUTS, 32, 24), 32)
    assert verdicts == {"copies": True, "layer 1 needed": True, "layer 2 needed": True}


# --- in-context regression: which entries training cannot move ---

def test_icl_entries_without_gradient_never_move():
    """The last row of W_kq meets only the query's zero target, and the prediction reads only the
    last column of W_pv: those entries get no gradient, and training leaves them where they began."""
    d, N = 3, 10
    torch.manual_seed(0)
    model = tl.LinearSelfAttention(d, init_scale=0.3)
    kq0, pv0 = model.W_kq.detach().clone(), model.W_pv.detach().clone()
    X, y, xq, yq = tl.regression_tasks(64, N, d, torch.Generator().manual_seed(1))
    ((model(at.icl_prompt(X, y, xq)) - yq) ** 2).mean().backward()
    expected_kq = torch.zeros(d + 1, d + 1, dtype=torch.bool)
    expected_kq[d] = True
    expected_pv = torch.zeros(d + 1, d + 1, dtype=torch.bool)
    expected_pv[:, :d] = True
    assert torch.equal(model.W_kq.grad == 0, expected_kq) and torch.equal(model.W_pv.grad == 0, expected_pv)
    model.zero_grad()
    model, _ = tl.train_icl(d=d, N=N, steps=1000, batch=256, lr=0.01, seed=0, model=model)
    assert torch.equal(model.W_kq.detach()[expected_kq], kq0[expected_kq])
    assert torch.equal(model.W_pv.detach()[expected_pv], pv0[expected_pv])
    # the off-block entries that do get a gradient are driven from their random start towards zero
    start = max(kq0[:d, d].abs().max(), pv0[:d, d].abs().max())
    end = max(model.W_kq.detach()[:d, d].abs().max(), model.W_pv.detach()[:d, d].abs().max())
    assert end < 0.1 * start


@pytest.mark.parametrize("d", [1, 2, 5, 7])
def test_frozen_entries_are_where_autograd_finds_no_gradient(d):
    """The exercise's reference is what autograd says, on random prompts and random weights, for
    several widths: zero gradient on its entries, a gradient on every other."""
    from attnlab.learned import frozen_entries

    kq_frozen, pv_frozen = frozen_entries(d)
    assert kq_frozen.dtype == bool and kq_frozen.shape == pv_frozen.shape == (d + 1, d + 1)
    for seed in range(3):
        torch.manual_seed(seed)
        model = tl.LinearSelfAttention(d, init_scale=0.5)
        X, y, xq, yq = tl.regression_tasks(32, 6, d, torch.Generator().manual_seed(seed))
        ((model(at.icl_prompt(X, y, xq)) - yq) ** 2).mean().backward()
        np.testing.assert_array_equal((model.W_kq.grad == 0).numpy(), kq_frozen)
        np.testing.assert_array_equal((model.W_pv.grad == 0).numpy(), pv_frozen)


def test_the_predictions_answers_are_what_the_models_do(positional_model):
    """Notebook 12's two predictions are graded against fixed answers: those answers are what the
    library measures (the frozen entries by autograd above; the control's loss on the shifted
    repeat against chance, and not merely near it)."""
    from attnlab.cards import card

    kq, pv = learned.frozen_entries(5)
    assert card("prediction_frozen_count").prediction.answer == kq.sum() + pv.sum()
    shifted = tl.interventions(positional_model, {"shifted": LAYOUTS["shifted"]}, 32, 24)["shifted"]["intact"][1]
    assert card("prediction_control_shifted_loss").prediction.answer == "worse than chance"
    assert shifted > np.log(32) + 0.3, "the control's loss on the shifted repeat is not clearly worse than chance"


def test_target_key_weight_counts_every_earlier_copy_of_the_target():
    """The keys that hold the target are found from the layout; on tokens with no chance repeats
    (a huge vocabulary) they are exactly the earlier positions whose token equals the target."""
    rng = np.random.default_rng(0)
    for period, start in ((2, 0), (3, 4), (5, 1), (1, 3)):
        tokens = tl.repeat_sequences(4, 13, 10**9, period, start, torch.Generator().manual_seed(period)).numpy()
        x = tokens[:, :-1]                                                  # the model's input, L = 12
        w = rng.random((4, 12, 12)) * np.tril(np.ones((12, 12)))
        w /= w.sum(-1, keepdims=True)
        rows = range(start + period, 12)
        expected = np.mean([[w[b, t, :t + 1][x[b, :t + 1] == tokens[b, t + 1]].sum() for t in rows] for b in range(4)])
        assert learned.target_key_weight(w, period, start) == pytest.approx(expected)
    ideal = np.zeros((12, 12))
    ideal[np.arange(12), np.maximum(np.arange(12) - 2, 0)] = 1.0           # period 3: t reads t - 2 = t - 3 + 1
    assert learned.target_key_weight(ideal, 3, 0) == pytest.approx(1.0)
    assert learned.target_key_weight(np.eye(12), 3, 0) == pytest.approx(0.0)   # the current token is not the target
    with pytest.raises(ValueError, match="start"):
        learned.target_key_weight(np.eye(4), 2, 2)


def test_the_new_predictions_answers_are_what_the_induction_model_does(induction_run):
    """Notebook 12's period questions are graded against fixed answers: the model trained as in
    the notebook lands inside the answer's band, away from its edges."""
    from attnlab.cards import card

    model = induction_run[0]
    p2 = tl.interventions(model, {"period 2": (2, 0)}, 32, 24)["period 2"]
    assert card("prediction_period2_prev_ablated").prediction.answer == "between 1 and 3"
    assert 1.3 < p2["layer 1 mean"][1] < 2.7, p2
    assert p2["intact"][1] < 1.2                               # the intact model copies period 2
    tokens = tl.repeat_sequences(512, 24, 32, 15, 0, torch.Generator().manual_seed(9))
    assert card("prediction_period15_copying").prediction.answer == "partly"
    assert 1.3 < tl.copying_losses(model, tokens, 0, 15)[1] < 2.7
