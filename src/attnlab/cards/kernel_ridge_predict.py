"""kernel_ridge_predict (notebook 06): kernel ridge predictions ``K(x_query, x_train) @ alpha``.
Its solution cell, ``kernel_ridge``, also defines ``kernel_ridge_fit``
(:mod:`attnlab.cards.kernel_ridge_fit`): each mistake's code is the whole cell, with the right
``kernel_ridge_fit``."""
from __future__ import annotations

import textwrap

import numpy as np

from .. import kernels as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_PREDICT = ("test_kernel_ridge_predict",)

# The right kernel_ridge_fit of the same cell, before a wrong kernel_ridge_predict.
FIT_OK = '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
    return np.linalg.solve(K + reg * np.eye(len(x)), y)
'''


def _with_fit(predict: str) -> str:
    """The whole cell: the right kernel_ridge_fit, then a (wrong) kernel_ridge_predict."""
    return FIT_OK.lstrip("\n") + "\n\n" + textwrap.dedent(predict).strip("\n") + "\n"


CARD = Card(
    "kernel_ridge_predict", "06_attention_as_kernel_machine", solution="kernel_ridge",
    summary="K(x_query, x_train) @ alpha: the raw Gaussian kernel between queries and stored "
            "inputs, weighted by the coefficients",
    contract=Contract(
        args=("x_query", "x_train", "alpha", "bandwidth"), reference=_ref.kernel_ridge_predict,
        invoke=invoke_numpy,
        shapes="x_query (Lq,), x_train (N,), alpha (N,), bandwidth σ > 0 (the σ of the fit)",
        returns="a float array of shape (Lq,), one prediction per query"),
    mistakes=[
        Mistake(
            "K(x_train, x_query) used without transposing it (shape (N, Lq))",
            principle="One row per query: the kernel between queries and training points is (Lq, N).",
            fix="the rows of the kernel must be the queries: K(x_query, x_train) has shape (Lq, N), "
                "then `@ alpha` gives (Lq,).",
            fails=_PREDICT, code=_with_fit('''
                def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                    K = np.exp(-(x_train[:, None] - x_query[None, :])**2 / (2 * bandwidth**2))
                    return K @ alpha
                ''')),
        Mistake(
            "attention weights (a softmax-normalised kernel) instead of the raw kernel",
            principle="Kernel ridge uses the raw Gaussian kernel, not weights normalised over the keys.",
            fix="kernel ridge predictions use the unnormalised K(x_query, x_train) @ alpha: the "
                "coefficients alpha already carry the scale.",
            fails=_PREDICT, code=_with_fit('''
                def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                    return attnlab.gaussian_attention_weights(x_query, x_train, bandwidth) @ alpha
                ''')),
        Mistake(
            "alpha ignored (a sum of kernel values)",
            principle="Each training point's kernel value is weighted by its coefficient alpha.",
            fix="weight each stored key's kernel value by its coefficient: `K @ alpha`.",
            fails=_PREDICT, code=_with_fit('''
                def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / (2 * bandwidth**2))
                    return K.sum(axis=1)
                ''')),
        Mistake(
            "returning the kernel matrix instead of the predictions",
            principle="Return one prediction per query: the kernel times alpha.",
            fix="multiply K(x_query, x_train) (Lq, N) by alpha (N,).",
            fails=_PREDICT, code=_with_fit('''
                def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / (2 * bandwidth**2))
                    return K
                ''')),
        Mistake(
            "the factor 2 missing from the kernel's exponent: exp(-d²/σ²) instead of exp(-d²/(2σ²))",
            principle="The Gaussian exponent is the squared distance over twice the squared bandwidth.",
            fix="exp(-(x_q - x_i)**2 / (2 * bandwidth**2)).",
            fails=_PREDICT, code=_with_fit('''
                def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / bandwidth**2)
                    return K @ alpha
                ''')),
        Mistake(
            "σ not squared in the kernel",
            principle="The bandwidth enters squared in the exponent's denominator.",
            fix="divide by `2 * bandwidth**2`, not `2 * bandwidth`.",
            fails=_PREDICT, code=_with_fit('''
                def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / (2 * bandwidth))
                    return K @ alpha
                ''')),
        Mistake(
            "the bandwidth used as a precision γ (exp(-σ d²))",
            principle="The bandwidth is a length: it divides the squared distance (as 2σ²).",
            fix="σ is a width: divide the squared distance by `2 * bandwidth**2`.",
            fails=_PREDICT, code=_with_fit('''
                def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                    K = np.exp(-bandwidth * (x_query[:, None] - x_train[None, :])**2)
                    return K @ alpha
                ''')),
        Mistake(
            "distances not squared (a Laplacian kernel)",
            principle="The Gaussian kernel uses the squared distance.",
            fix="square the differences `x_query[:, None] - x_train[None, :]`.",
            fails=_PREDICT, code=_with_fit('''
                def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                    K = np.exp(-np.abs(x_query[:, None] - x_train[None, :]) / (2 * bandwidth**2))
                    return K @ alpha
                ''')),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(632 if hidden else 92, hidden)
    setups = [(3, 8, 0.65), (9, 5, 1.4)] if hidden else [(5, 7, 0.6), (11, 6, 1.3)]
    out = []
    for Lq, N, s in setups:
        x_train = np.sort(rng.uniform(-3.0, 3.0, size=N))
        out.append(Case((rng.uniform(-3.5, 3.5, size=Lq), x_train, rng.normal(size=N), s),
                        why=f"Lq={Lq} queries, N={N} stored keys"))
    return out


def check_kernel_ridge_predict(kernel_ridge_predict, hidden: bool = False) -> None:
    """Check that ``kernel_ridge_predict`` returns ``K(x_query, x_train) @ alpha``."""
    CARD.check(kernel_ridge_predict, cases(hidden), hidden=hidden, passed="predictions match, Lq != N")
