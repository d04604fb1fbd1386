"""gd_step_prediction (notebook 12): the prediction for ``x_query`` after one gradient step from
``w = 0`` on the prompt's least squares, preconditioned by ``Γ``."""
from __future__ import annotations

from .. import learned as _ref
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_FAILS = ("test_gd_step_prediction",)

CARD = Card(
    "gd_step_prediction", "12_what_attention_learns",
    summary="one gradient step of least squares from w = 0, preconditioned by Γ, then x_query · w",
    contract=Contract(
        args=("X", "y", "x_query", "Gamma"), reference=_ref.gd_step_prediction,
        shapes="X (..., N, d), y (..., N), x_query (..., d), Gamma (d, d) not symmetric",
        returns="x_query · w_1, w_1 the weights after one step from w = 0 preconditioned by Γ: one "
                "number per prompt, an array of shape (...) for a batch"),
    mistakes=[
        Mistake(
            "Γ transposed (x_query Γᵀ Xᵀ y / N)",
            principle="The step is w = Γ Xᵀ y / N (Γ applied to the negative gradient); the prediction "
                      "is x_query · w. For a non-symmetric Γ the order matters.",
            fix="`w = Gamma @ X.T @ y / N`, then `x_query @ w`: Γ acts on the gradient.",
            fails=_FAILS, code='''
                def gd_step_prediction(X, y, x_query, Gamma):
                    N = X.shape[-2]
                    w = np.einsum("...nd,...n->...d", X, y) @ Gamma / N
                    return (x_query * w).sum(-1)
                '''),
        Mistake(
            "the sum divided by N+1 instead of N",
            principle="The gradient of the average loss over N examples carries 1/N.",
            fix="the loss averages over the N examples: divide by N.",
            fails=_FAILS, code='''
                def gd_step_prediction(X, y, x_query, Gamma):
                    N = X.shape[-2]
                    w = np.einsum("...nd,...n->...d", X, y) @ Gamma.T / (N + 1)
                    return (x_query * w).sum(-1)
                '''),
        Mistake(
            "no 1/N: the gradient of the summed loss",
            principle="The loss is an average over the N examples, so its gradient is too.",
            fix="divide Xᵀ y by N.",
            fails=_FAILS, code='''
                def gd_step_prediction(X, y, x_query, Gamma):
                    w = np.einsum("...nd,...n->...d", X, y) @ Gamma.T
                    return (x_query * w).sum(-1)
                '''),
        Mistake(
            "the step taken up the gradient (the sign flipped)",
            principle="Gradient descent moves against the gradient: w = 0 − Γ ∇L(0) = Γ Xᵀ y / N.",
            fix="from w = 0 the gradient is −Xᵀ y / N; a descent step subtracts it.",
            fails=_FAILS, code='''
                def gd_step_prediction(X, y, x_query, Gamma):
                    N = X.shape[-2]
                    w = -np.einsum("...nd,...n->...d", X, y) @ Gamma.T / N
                    return (x_query * w).sum(-1)
                '''),
        Mistake(
            "the weights w returned instead of the prediction x_query · w",
            principle="The function predicts the query's target: one number per prompt.",
            fix="return the dot product of x_query with w.",
            fails=_FAILS, code='''
                def gd_step_prediction(X, y, x_query, Gamma):
                    N = X.shape[-2]
                    return np.einsum("...nd,...n->...d", X, y) @ Gamma.T / N
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(123, hidden)
    specs = [((), 6, 3), ((2,), 4, 2), ((3, 2), 5, 4), ((), 1, 2)] if hidden else \
        [((), 5, 3), ((), 7, 2), ((3,), 4, 3), ((2, 2), 3, 2), ((), 1, 1)]
    out = []
    for batch, N, d in specs:
        why = f"N={N} examples, d={d}, a non-symmetric Γ" + (f", a batch {batch}" if batch else "")
        out.append(Case((rng.normal(size=(*batch, N, d)), rng.normal(size=(*batch, N)),
                         rng.normal(size=(*batch, d)), rng.normal(size=(d, d))), why=why))
    return out


def check_gd_step_prediction(gd_step_prediction, hidden: bool = False) -> None:
    """Check ``gd_step_prediction(X, y, x_query, Gamma)``: the prediction after one preconditioned
    gradient step from ``w = 0`` on the prompt's least squares."""
    CARD.check(gd_step_prediction, cases(hidden), hidden=hidden,
               passed="one preconditioned gradient step from w = 0, then x_query · w")
