"""Checks for notebook 12, what_attention_learns: ``icl_prompt``, ``linear_self_attention``,
``gd_step_prediction``, ``previous_token_score``, ``prefix_matching_score`` and ``soft_align``.

Each check takes the learner's function and ``hidden=False``; nbgrader's hidden tests call it
with ``hidden=True`` (other seeds and shapes). Prompts have ``N``, ``d`` and the batch sizes all
different, preconditioners and weight matrices are not symmetric, and attention weights are
random rows that sum to one (not causal), so that every mistake below gives another answer.
"""
from __future__ import annotations

import numpy as np

from .. import learned as _ref
from ..averages import softmax as _softmax
from ._core import Case, Mistake, case_rng, run_check

# ---------------------------------------------------------------------------------------------
# icl_prompt(X, y, x_query)


def _ip_y_first(X, y, x_query):
    Z = _ref.icl_prompt(X, y, x_query)
    return np.concatenate([Z[..., -1:], Z[..., :-1]], axis=-1)


def _ip_query_first(X, y, x_query):
    Z = _ref.icl_prompt(X, y, x_query)
    return np.concatenate([Z[..., -1:, :], Z[..., :-1, :]], axis=-2)


def _ip_no_query(X, y, x_query):
    return _ref.icl_prompt(X, y, x_query)[..., :-1, :]


def _ip_transposed(X, y, x_query):
    return np.swapaxes(_ref.icl_prompt(X, y, x_query), -1, -2)


def _ip_query_target_mean(X, y, x_query):
    Z = _ref.icl_prompt(X, y, x_query)
    Z[..., -1, -1] = np.asarray(y).mean(axis=-1)
    return Z


ICL_PROMPT_MISTAKES = [
    Mistake("the target put first in each row ([y_i, x_i] instead of [x_i, y_i])",
            "`np.concatenate([X, y[..., None]], axis=-1)`: the inputs first, the target last.",
            _ip_y_first, "Each row holds the input's d features first and its target last, so the "
            "prediction is read from the last column."),
    Mistake("the query row put first instead of last",
            "append the row [x_query, 0] after the N example rows.", _ip_query_first,
            "The N examples come first, in order; the query is the last row."),
    Mistake("the query row forgotten: shape (..., N, d+1)",
            "add a last row [x_query, 0]: the result has N+1 rows.", _ip_no_query,
            "The prompt has N+1 rows: the N examples and the query."),
    Mistake("the prompt transposed: shape (..., d+1, N+1)",
            "stack the examples as rows: one row per example, d+1 columns.", _ip_transposed,
            "One row per token (example or query), one column per feature."),
    Mistake("the query's unknown target filled with the mean of y instead of 0",
            "the query row ends with 0: its target is unknown.", _ip_query_target_mean,
            "The unknown target is written as zero: the layer must compute it, not be given a guess."),
]


def _ip_cases(hidden: bool) -> list[Case]:
    rng = case_rng(121, hidden)
    specs = [((), 6, 3), ((), 4, 2), ((2,), 5, 3), ((3, 2), 2, 4), ((), 1, 1)] if hidden else \
        [((), 5, 3), ((), 3, 4), ((2,), 4, 2), ((2, 3), 3, 2), ((), 1, 2)]
    cases = []
    for batch, N, d in specs:
        why = f"N={N} examples of d={d} inputs" + (f", a batch {batch}" if batch else "")
        cases.append(Case((rng.normal(size=(*batch, N, d)), rng.normal(size=(*batch, N)),
                           rng.normal(size=(*batch, d))), why=why))
    return cases


def check_icl_prompt(icl_prompt, hidden: bool = False) -> None:
    """Check ``icl_prompt(X, y, x_query)``: rows ``[x_i, y_i]`` then ``[x_query, 0]``."""
    run_check(icl_prompt, exercise="icl_prompt", reference=_ref.icl_prompt, cases=_ip_cases(hidden),
              mistakes=ICL_PROMPT_MISTAKES, arg_names=("X", "y", "x_query"), show_values=not hidden,
              passed="rows [x_i, y_i] and a last row [x_query, 0], with and without a batch")


# ---------------------------------------------------------------------------------------------
# linear_self_attention(Z, W_kq, W_pv)


def _lsa(Z, W_kq, W_pv, *, keys="examples", norm="N", residual=True, kq_T=False):
    Z, W_kq, W_pv = (np.asarray(a, dtype=float) for a in (Z, W_kq, W_pv))
    N = Z.shape[-2] - 1
    Z_c = Z if keys == "all" else Z[..., :N, :]
    W = W_kq.T if kq_T else W_kq
    update = (Z @ W @ np.swapaxes(Z_c, -1, -2)) @ (Z_c @ W_pv)
    update = update / (N + 1 if norm == "N+1" else N)
    return Z + update if residual else update


def _lsa_query_key(Z, W_kq, W_pv):
    return _lsa(Z, W_kq, W_pv, keys="all")


def _lsa_n_plus_1(Z, W_kq, W_pv):
    return _lsa(Z, W_kq, W_pv, norm="N+1")


def _lsa_all_n_plus_1(Z, W_kq, W_pv):
    return _lsa(Z, W_kq, W_pv, keys="all", norm="N+1")


def _lsa_no_residual(Z, W_kq, W_pv):
    return _lsa(Z, W_kq, W_pv, residual=False)


def _lsa_kq_T(Z, W_kq, W_pv):
    return _lsa(Z, W_kq, W_pv, kq_T=True)


def _lsa_softmax(Z, W_kq, W_pv):
    Z = np.asarray(Z, dtype=float)
    N = Z.shape[-2] - 1
    Z_c = Z[..., :N, :]
    return Z + _softmax(Z @ W_kq @ np.swapaxes(Z_c, -1, -2), axis=-1) @ (Z_c @ W_pv)


LSA_MISTAKES = [
    Mistake("the query row used as a key and value (all N+1 rows summed)",
            "`Z_c = Z[..., :-1, :]`: only the first N rows are keys and values.", _lsa_query_key,
            "The query row's target is unknown: it may ask (be a query) but must not answer (be a key "
            "or a value). Sum over the N example rows only."),
    Mistake("the sum divided by N+1 instead of N",
            "divide by N, the number of examples (rows minus one).", _lsa_n_plus_1,
            "The update is an average over the N examples: divide by their number, not by the number "
            "of rows."),
    Mistake("the query row used as a key and value, and the sum divided by N+1",
            "keys and values are the first N rows, and the average divides by N.", _lsa_all_n_plus_1,
            "Only the N examples are keys and values, and the average is over those N."),
    Mistake("no residual: the update returned without Z",
            "return Z plus the attention update.", _lsa_no_residual,
            "The layer adds its update to its input (a residual connection): the query row keeps "
            "x_query and the prediction is written into its last entry."),
    Mistake("W_kq transposed (z W_kqᵀ · z_i)",
            "the query side multiplies W_kq on the left: `Z @ W_kq @ Z_c^T`.", _lsa_kq_T,
            "The score of row z with example z_i is z W_kq z_iᵀ: the query row times W_kq, then the key."),
    Mistake("a softmax over the scores (this layer is linear: no softmax, an average divided by N)",
            "drop the softmax; divide the raw products by N.", _lsa_softmax,
            "Linear self-attention uses the raw scores, averaged over the N examples."),
]


def _lsa_cases(hidden: bool) -> list[Case]:
    rng = case_rng(122, hidden)
    specs = [((), 5, 3), ((2,), 3, 2), ((3, 2), 4, 3), ((), 1, 2)] if hidden else \
        [((), 4, 3), ((), 6, 2), ((3,), 3, 4), ((2, 2), 5, 2), ((), 1, 1)]
    cases = []
    for batch, N, d in specs:
        Z = rng.normal(size=(*batch, N + 1, d + 1))
        why = f"N={N} examples, d+1={d + 1} columns" + (f", a batch {batch}" if batch else "")
        cases.append(Case((Z, rng.normal(size=(d + 1, d + 1)), rng.normal(size=(d + 1, d + 1))), why=why))
    return cases


def check_linear_self_attention(linear_self_attention, hidden: bool = False) -> None:
    """Check ``linear_self_attention(Z, W_kq, W_pv)``: ``Z + (1/N)(Z W_kq Z_cᵀ)(Z_c W_pv)``."""
    run_check(linear_self_attention, exercise="linear_self_attention", reference=_ref.linear_self_attention,
              cases=_lsa_cases(hidden), mistakes=LSA_MISTAKES, arg_names=("Z", "W_kq", "W_pv"),
              show_values=not hidden,
              passed="the average over the N examples, the query row no key, plus the residual")


# ---------------------------------------------------------------------------------------------
# gd_step_prediction(X, y, x_query, Gamma)


def _gd(X, y, x_query, Gamma, *, transpose=False, norm="N", sign=1.0):
    X, y, x_query, Gamma = (np.asarray(a, dtype=float) for a in (X, y, x_query, Gamma))
    N = X.shape[-2]
    G = Gamma.T if transpose else Gamma
    div = {"N": N, "N+1": N + 1, "1": 1}[norm]
    w = np.einsum("ij,...nj,...n->...i", G, X, y) / div
    return sign * np.einsum("...i,...i->...", x_query, w)


def _gd_transposed(X, y, x_query, Gamma):
    return _gd(X, y, x_query, Gamma, transpose=True)


def _gd_n_plus_1(X, y, x_query, Gamma):
    return _gd(X, y, x_query, Gamma, norm="N+1")


def _gd_sum(X, y, x_query, Gamma):
    return _gd(X, y, x_query, Gamma, norm="1")


def _gd_sign(X, y, x_query, Gamma):
    return _gd(X, y, x_query, Gamma, sign=-1.0)


def _gd_weights(X, y, x_query, Gamma):
    X, y, Gamma = (np.asarray(a, dtype=float) for a in (X, y, Gamma))
    return np.einsum("ij,...nj,...n->...i", Gamma, X, y) / X.shape[-2]


GD_MISTAKES = [
    Mistake("Γ transposed (x_query Γᵀ Xᵀ y / N)",
            "`w = Gamma @ X.T @ y / N`, then `x_query @ w`: Γ acts on the gradient.", _gd_transposed,
            "The step is w = Γ Xᵀ y / N (Γ applied to the negative gradient); the prediction is "
            "x_query · w. For a non-symmetric Γ the order matters."),
    Mistake("the sum divided by N+1 instead of N",
            "the loss averages over the N examples: divide by N.", _gd_n_plus_1,
            "The gradient of the average loss over N examples carries 1/N."),
    Mistake("no 1/N: the gradient of the summed loss",
            "divide Xᵀ y by N.", _gd_sum,
            "The loss is an average over the N examples, so its gradient is too."),
    Mistake("the step taken up the gradient (the sign flipped)",
            "from w = 0 the gradient is −Xᵀ y / N; a descent step subtracts it.", _gd_sign,
            "Gradient descent moves against the gradient: w = 0 − Γ ∇L(0) = Γ Xᵀ y / N."),
    Mistake("the weights w returned instead of the prediction x_query · w",
            "return the dot product of x_query with w.", _gd_weights,
            "The function predicts the query's target: one number per prompt."),
]


def _gd_cases(hidden: bool) -> list[Case]:
    rng = case_rng(123, hidden)
    specs = [((), 6, 3), ((2,), 4, 2), ((3, 2), 5, 4), ((), 1, 2)] if hidden else \
        [((), 5, 3), ((), 7, 2), ((3,), 4, 3), ((2, 2), 3, 2), ((), 1, 1)]
    cases = []
    for batch, N, d in specs:
        why = f"N={N} examples, d={d}, a non-symmetric Γ" + (f", a batch {batch}" if batch else "")
        cases.append(Case((rng.normal(size=(*batch, N, d)), rng.normal(size=(*batch, N)),
                           rng.normal(size=(*batch, d)), rng.normal(size=(d, d))), why=why))
    return cases


def check_gd_step_prediction(gd_step_prediction, hidden: bool = False) -> None:
    """Check ``gd_step_prediction(X, y, x_query, Gamma)``: ``x_query Γ Xᵀ y / N``."""
    run_check(gd_step_prediction, exercise="gd_step_prediction", reference=_ref.gd_step_prediction,
              cases=_gd_cases(hidden), mistakes=GD_MISTAKES, arg_names=("X", "y", "x_query", "Gamma"),
              show_values=not hidden, passed="one preconditioned gradient step from w = 0, then x_query · w")


# ---------------------------------------------------------------------------------------------
# previous_token_score(weights), prefix_matching_score(weights, period)


def _diag_mean(weights, offset):
    """Mean of the diagonal ``weights[..., t, t + offset]`` over every ``t`` where it exists."""
    w = np.asarray(weights, dtype=float)
    return float(np.diagonal(w, offset=offset, axis1=-2, axis2=-1).mean())


def _pt_above(weights):
    return _diag_mean(weights, 1)


def _pt_self(weights):
    return _diag_mean(weights, 0)


def _pt_sum(weights):
    w = np.asarray(weights, dtype=float)
    return float(np.diagonal(w, offset=-1, axis1=-2, axis2=-1).sum())


def _pt_first_only(weights):
    w = np.asarray(weights, dtype=float)
    return float(np.diagonal(w.reshape(-1, *w.shape[-2:])[0], offset=-1).mean())


def _pt_two_back(weights):
    return _diag_mean(weights, -2)


PREVIOUS_MISTAKES = [
    Mistake("the score read one diagonal off: weights[t, t+1] (the next token) instead of weights[t, t-1]",
            "`np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)`: below the main diagonal.", _pt_above,
            "Row t holds what token t attends to; the previous token is column t−1, the diagonal just "
            "below the main one."),
    Mistake("the score read one diagonal off: weights[t, t] (the token itself)",
            "take the diagonal below the main one: offset −1.", _pt_self,
            "Attention to itself is the main diagonal; the previous token is one column to the left."),
    Mistake("the score read one diagonal off: weights[t, t-2]",
            "the previous token is column t−1: offset −1.", _pt_two_back,
            "The previous token is one step back, not two."),
    Mistake("a sum instead of a mean",
            "average over the L−1 positions (and the leading axes).", _pt_sum,
            "A score between 0 and 1 that does not grow with L: average the weights."),
    Mistake("only the first matrix of a batch used",
            "average over every leading axis too.", _pt_first_only,
            "The score averages over the whole batch (and heads) as well as over positions."),
]


def _pm(weights, period, shift):
    w = np.asarray(weights, dtype=float)
    L = w.shape[-1]
    t = np.arange(period, L)
    t = t[(t - period + 1 + shift >= 0) & (t - period + 1 + shift < L)]
    return float(w[..., t, t - period + 1 + shift].mean())


def _pm_same_token(weights, period):
    return _pm(weights, period, -1)


def _pm_plus_two(weights, period):
    return _pm(weights, period, 1)


def _pm_from_zero(weights, period):
    w = np.asarray(weights, dtype=float)
    return float(np.diagonal(w, offset=-(period - 1), axis1=-2, axis2=-1).mean())


def _pm_sum(weights, period):
    w = np.asarray(weights, dtype=float)
    t = np.arange(period, w.shape[-1])
    return float(w[..., t, t - period + 1].sum())


PREFIX_MISTAKES = [
    Mistake("the period off by one: weights[t, t-period] (the previous occurrence itself, not the token after it)",
            "the induction head attends to the token that followed the previous occurrence: column "
            "t − period + 1.", _pm_same_token,
            "An induction head copies what came next last time: the token after the previous "
            "occurrence, one column to the right of it."),
    Mistake("the period off by one: weights[t, t-period+2]",
            "the token after the previous occurrence is column t − period + 1.", _pm_plus_two,
            "The previous occurrence of token t is at t − period; the token after it at t − period + 1."),
    Mistake("the mean started at t = period-1 instead of t = period (a position of the first copy included)",
            "average over t = period .. L−1 only: the positions of the repeat.", _pm_from_zero,
            "Only tokens of the second copy have a previous occurrence: start at t = period."),
    Mistake("a sum instead of a mean",
            "average over the positions t = period .. L−1 (and the leading axes).", _pm_sum,
            "A score between 0 and 1: average the weights."),
]


def _rows(rng, shape):
    return _softmax(2.0 * rng.normal(size=shape), axis=-1)


def _pt_cases(hidden: bool) -> list[Case]:
    rng = case_rng(124, hidden)
    shapes = [(6, 6), (2, 5, 5), (3, 2, 4, 4), (2, 2)] if hidden else [(5, 5), (3, 7, 7), (2, 3, 6, 6), (2, 2)]
    return [Case((_rows(rng, s),), why=f"softmax rows {s}" + (", one previous token only" if s[-1] == 2 else ""))
            for s in shapes]


def _pm_cases(hidden: bool) -> list[Case]:
    rng = case_rng(125, hidden)
    specs = [((8, 8), 4), ((2, 7, 7), 3), ((3, 2, 6, 6), 2), ((5, 5), 4)] if hidden else \
        [((8, 8), 4), ((3, 9, 9), 4), ((2, 3, 6, 6), 3), ((5, 5), 2), ((4, 4), 3)]
    return [Case((_rows(rng, s), p), why=f"softmax rows {s}, period {p}") for s, p in specs]


def check_previous_token_score(previous_token_score, hidden: bool = False) -> None:
    """Check ``previous_token_score(weights)``: the mean of ``weights[..., t, t-1]``."""
    run_check(previous_token_score, exercise="previous_token_score", reference=_ref.previous_token_score,
              cases=_pt_cases(hidden), mistakes=PREVIOUS_MISTAKES, arg_names=("weights",),
              show_values=not hidden, passed="the mean weight on the previous token, over positions and batch")


def check_prefix_matching_score(prefix_matching_score, hidden: bool = False) -> None:
    """Check ``prefix_matching_score(weights, period)``: the mean of ``weights[..., t, t-period+1]``."""
    run_check(prefix_matching_score, exercise="prefix_matching_score", reference=_ref.prefix_matching_score,
              cases=_pm_cases(hidden), mistakes=PREFIX_MISTAKES, arg_names=("weights", "period"),
              show_values=not hidden,
              passed="the mean weight on the token after the previous occurrence, over the repeat")


# ---------------------------------------------------------------------------------------------
# soft_align(A, B)


def _sa(A, B, *, beta_axis=-1, alpha_axis=-1, swap=False, scale=1.0):
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    E = A @ np.swapaxes(B, -1, -2) / scale  # (..., La, Lb)
    beta = _softmax(E, axis=beta_axis) @ B  # (..., La, D)
    alpha = _softmax(np.swapaxes(E, -1, -2), axis=alpha_axis) @ A  # (..., Lb, D)
    return (alpha, beta) if swap else (beta, alpha)


def _sa_beta_axis(A, B):
    return _sa(A, B, beta_axis=-2)


def _sa_alpha_axis(A, B):
    return _sa(A, B, alpha_axis=-2)


def _sa_swapped(A, B):
    return _sa(A, B, swap=True)


def _sa_scaled(A, B):
    return _sa(A, B, scale=np.sqrt(np.shape(A)[-1]))


SOFT_ALIGN_MISTAKES = [
    Mistake("softmax over the wrong axis of E for beta (over A's tokens instead of B's)",
            "beta[i] averages the tokens of B: softmax over the last axis of E (La, Lb).", _sa_beta_axis,
            "beta[i] is a weighted average of B's tokens, so A[i]'s weights over B sum to one: "
            "normalise each row of E."),
    Mistake("softmax over the wrong axis of E for alpha (over B's tokens instead of A's; e.g. the row softmax of E transposed)",
            "alpha[j] averages the tokens of A: softmax over the last axis of Eᵀ (Lb, La).", _sa_alpha_axis,
            "alpha[j] is a weighted average of A's tokens, so B[j]'s weights over A sum to one: "
            "normalise each column of E (each row of Eᵀ)."),
    Mistake("alpha and beta swapped: returning (alpha, beta)",
            "return (beta, alpha): beta (La, D) first, aligned to A.", _sa_swapped,
            "beta has one row per token of A (the part of B aligned to it), alpha one per token of B; "
            "the contract returns beta first."),
    Mistake("the scores scaled by √D (decomposable attention uses E = A Bᵀ unscaled)",
            "drop the scale: E = A Bᵀ.", _sa_scaled,
            "The alignment scores are the plain dot products of F's outputs."),
]


def _sa_cases(hidden: bool) -> list[Case]:
    rng = case_rng(126, hidden)
    specs = [((), 4, 6, 3), ((2,), 5, 3, 4), ((2, 2), 3, 4, 5), ((), 1, 3, 2)] if hidden else \
        [((), 3, 5, 4), ((), 6, 2, 3), ((2,), 4, 3, 5), ((2, 3), 2, 4, 3), ((), 3, 1, 2)]
    cases = []
    for batch, La, Lb, D in specs:
        why = f"La={La}, Lb={Lb}, D={D}" + (f", a batch {batch}" if batch else "")
        cases.append(Case((rng.normal(size=(*batch, La, D)), rng.normal(size=(*batch, Lb, D))), why=why))
    return cases


def check_soft_align(soft_align, hidden: bool = False) -> None:
    """Check ``soft_align(A, B)``: ``(softmax_rows(E) B, softmax_rows(Eᵀ) A)`` with ``E = A Bᵀ``."""
    run_check(soft_align, exercise="soft_align", reference=_ref.soft_align, cases=_sa_cases(hidden),
              mistakes=SOFT_ALIGN_MISTAKES, arg_names=("A", "B"), outputs=("beta", "alpha"),
              show_values=not hidden, passed="beta from B and alpha from A, each normalised over the other sentence")


# ---------------------------------------------------------------------------------------------
# Predict, then run

from ._predict import Prediction, WrongPrediction  # noqa: E402

LEAST_SQUARES = Prediction(
    "prediction_beats_least_squares", "choice", "least squares",
    "The targets have no noise and N = 20 > d = 5, so least squares recovers w exactly and its error "
    "is zero up to rounding. One gradient step from w = 0 cannot: the trained layer's error stays well "
    "above zero however long it trains, because one step of any preconditioner only gets w right on "
    "average over the prompt's inputs.",
    options=("the trained layer", "least squares", "the same"),
    wrong=(
        WrongPrediction("the trained layer", "it was trained on exactly this kind of prompt",
                        "Training makes it the best one-step method, but one step is not a solve: with "
                        "noiseless targets and N > d, least squares is exact."),
        WrongPrediction("the same", "both are linear in y",
                        "Both predictions are linear in y, but least squares inverts XᵀX while one step "
                        "only multiplies by a fixed Γ."),
    ),
)


def check_prediction_beats_least_squares(prediction_beats_least_squares, hidden: bool = False) -> None:
    """Check the prediction of which is more accurate at N = 20: the trained layer or least squares."""
    LEAST_SQUARES.check(prediction_beats_least_squares, hidden=hidden)


WORD_ORDER = Prediction(
    "prediction_reversed_hypothesis", "choice", "the same",
    "Nothing in decomposable attention knows where a token is: the alignment weights compare token "
    "vectors, the comparisons are summed over each sentence, and a sum does not depend on order. "
    "Reversing a sentence permutes the terms of the sums, so the logits are exactly the same.",
    options=("the same", "different"),
    wrong=(
        WrongPrediction("different", "the sentence means something else",
                        "It does for a reader, but the model has no positions and aggregates by summing: "
                        "it sees a bag of aligned words."),
    ),
)


def check_prediction_reversed_hypothesis(prediction_reversed_hypothesis, hidden: bool = False) -> None:
    """Check the prediction of decomposable attention's output on a reversed hypothesis."""
    WORD_ORDER.check(prediction_reversed_hypothesis, hidden=hidden)
