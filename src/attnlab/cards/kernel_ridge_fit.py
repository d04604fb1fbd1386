"""kernel_ridge_fit (notebook 06): the coefficients ``alpha = (K + reg I)⁻¹ y`` of kernel ridge
regression with the Gaussian kernel. Its solution cell, ``kernel_ridge``, also defines
``kernel_ridge_predict`` (:mod:`attnlab.cards.kernel_ridge_predict`): each mistake's code is the
whole cell, with the right ``kernel_ridge_predict``."""
from __future__ import annotations

import textwrap

import numpy as np

from .. import kernels as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example

_FIT = ("test_kernel_ridge_fit",)

# The right kernel_ridge_predict of the same cell, after a wrong kernel_ridge_fit.
PREDICT_OK = '''
def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / (2 * bandwidth**2))
    return K @ alpha
'''


def _with_predict(fit: str) -> str:
    """The whole cell: a (wrong) kernel_ridge_fit, then the right kernel_ridge_predict."""
    return textwrap.dedent(fit).strip("\n") + "\n\n" + PREDICT_OK

CARD = Card(
    "kernel_ridge_fit", "06_attention_as_kernel_machine", solution="kernel_ridge",
    summary="alpha = (K + reg I)⁻¹ y with the Gaussian kernel K_ij = exp(-(x_i - x_j)² / (2σ²))",
    contract=Contract(
        args=("x", "y", "bandwidth", "reg"), reference=_ref.kernel_ridge_fit, invoke=invoke_numpy,
        rtol=1e-6, atol=1e-8,
        shapes="x (N,), y (N,), bandwidth σ > 0, reg λ >= 0",
        returns="a float array of shape (N,): the coefficients alpha, one per training input"),
    mistakes=[
        Mistake(
            "no regularisation (reg is ignored)",
            principle="The ridge adds reg to the diagonal of K before solving.",
            fix="add the ridge to the diagonal before solving: `np.linalg.solve(K + reg * np.eye(N), y)`.",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
                    return np.linalg.solve(K, y)
                ''')),
        Mistake(
            "reg added outside the inverse (K⁻¹ y + reg y)",
            principle="The ridge shifts the matrix being inverted, not the result.",
            fix="the ridge goes *inside* the inverse: alpha = (K + reg I)⁻¹ y.",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
                    return np.linalg.inv(K) @ y + reg * y
                ''')),
        Mistake(
            "reg added to every entry of K (K + reg) instead of to its diagonal",
            principle="The ridge is reg times the identity: the diagonal only.",
            fix="`K + reg` broadcasts the number over the whole matrix; add `reg * np.eye(N)`.",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
                    return np.linalg.solve(K + reg, y)
                ''')),
        Mistake(
            "the kernel matrix scaled by (1 + reg) instead of shifted by reg I",
            principle="The ridge adds reg to the diagonal; it does not scale K.",
            fix="add `reg * np.eye(N)` to K.",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
                    return np.linalg.solve((1 + reg) * K, y)
                ''')),
        Mistake(
            "a softmax-normalised kernel (attention weights) instead of the raw Gaussian kernel",
            principle="Kernel ridge uses the raw Gaussian kernel, not weights normalised over the keys.",
            fix="kernel ridge regression uses K_ij = exp(-(x_i - x_j)² / (2σ²)) itself, without "
                "dividing the rows by their sums.",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = attnlab.gaussian_attention_weights(x, x, bandwidth)
                    return np.linalg.solve(K + reg * np.eye(len(x)), y)
                ''')),
        Mistake(
            "the factor 2 missing from the kernel's exponent: exp(-d²/σ²) instead of exp(-d²/(2σ²))",
            principle="The Gaussian exponent is the squared distance over twice the squared bandwidth.",
            fix="K_ij = exp(-(x_i - x_j)**2 / (2 * bandwidth**2)).",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-(x[:, None] - x[None, :])**2 / bandwidth**2)
                    return np.linalg.solve(K + reg * np.eye(len(x)), y)
                ''')),
        Mistake(
            "σ not squared in the kernel",
            principle="The bandwidth enters squared in the exponent's denominator.",
            fix="divide by `2 * bandwidth**2`, not `2 * bandwidth`.",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth))
                    return np.linalg.solve(K + reg * np.eye(len(x)), y)
                ''')),
        Mistake(
            "the bandwidth used as a precision γ (exp(-σ d²))",
            principle="The bandwidth is a length: it divides the squared distance (as 2σ²).",
            fix="σ is a width: the exponent is `-(x_i - x_j)**2 / (2 * bandwidth**2)` "
                "(sklearn's γ would be 1 / (2σ²)).",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-bandwidth * (x[:, None] - x[None, :])**2)
                    return np.linalg.solve(K + reg * np.eye(len(x)), y)
                ''')),
        Mistake(
            "distances not squared (a Laplacian kernel)",
            principle="The Gaussian kernel uses the squared distance.",
            fix="square the differences: `(x[:, None] - x[None, :])**2`.",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-np.abs(x[:, None] - x[None, :]) / (2 * bandwidth**2))
                    return np.linalg.solve(K + reg * np.eye(len(x)), y)
                ''')),
        Mistake(
            "returning the fitted values K alpha instead of the coefficients alpha",
            principle="Fitting returns the coefficients alpha; predicting multiplies by the kernel later.",
            fix="return alpha = (K + reg I)⁻¹ y itself; predictions are the job of kernel_ridge_predict.",
            fails=_FIT, code=_with_predict('''
                def kernel_ridge_fit(x, y, bandwidth, reg):
                    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
                    alpha = np.linalg.solve(K + reg * np.eye(len(x)), y)
                    return K @ alpha
                ''')),
    ],
    examples=[
        Example('''
            def kernel_ridge_fit(x, y, bandwidth, reg):
                K = np.exp(-(x[:, None] - x[None, :])**2 / bandwidth**2)
                return np.linalg.solve(K + reg * np.eye(len(x)), y)


            def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
                K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / bandwidth**2)
                return K @ alpha
            ''', ("test_kernel_ridge_fit", "test_kernel_ridge_predict"), "the factor 2 missing",
            label="in both functions"),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(631 if hidden else 91, hidden)
    setups = [(8, 0.65, 0.3), (6, 1.4, 0.05)] if hidden else [(7, 0.6, 0.5), (9, 1.3, 0.1)]
    out = []
    for N, s, reg in setups:
        x = np.sort(rng.uniform(-3.0, 3.0, size=N))
        y = np.sin(x) + 0.2 * rng.normal(size=N)
        out.append(Case((x, y, s, reg), why=f"N={N} points, reg={reg}"))
    return out


def check_kernel_ridge_fit(kernel_ridge_fit, hidden: bool = False) -> None:
    """Check that ``kernel_ridge_fit`` returns ``alpha = (K + reg I)⁻¹ y``."""
    CARD.check(kernel_ridge_fit, cases(hidden), hidden=hidden,
               passed="alpha matches for two bandwidths and ridges")
