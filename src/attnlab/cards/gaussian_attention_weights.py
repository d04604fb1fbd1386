"""gaussian_attention_weights (notebook 06): Nadaraya-Watson weights, the softmax over the keys
of the Gaussian scores ``-(x_q - x_k)² / (2 σ²)``.

The cases are chosen so that the mistakes give different answers: ``Lq != Lk``, bandwidths away
from 1 (so that ``σ``, ``σ²`` and ``2σ²`` all differ), queries far from every key.
"""
from __future__ import annotations

import numpy as np

from .. import kernels as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_BOTH = ("test_gaussian_weights", "test_gaussian_weights_stable")

CARD = Card(
    "gaussian_attention_weights", "06_attention_as_kernel_machine",
    summary="softmax over the keys of -(x_q - x_k)² / (2σ²): attention with a Gaussian kernel",
    contract=Contract(
        args=("x_query", "x_keys", "bandwidth"), reference=_ref.gaussian_attention_weights,
        invoke=invoke_numpy,
        shapes="x_query (Lq,), x_keys (Lk,), bandwidth σ > 0",
        returns="a float array of shape (Lq, Lk), finite, each row summing to one over the keys"),
    mistakes=[
        Mistake(
            "the factor 2 missing from the exponent: exp(-d²/σ²) instead of exp(-d²/(2σ²))",
            principle="The Gaussian exponent is the squared distance over twice the squared bandwidth.",
            fix="the Gaussian kernel is exp(-(x_q - x_k)² / (2 σ²)): divide by `2 * bandwidth**2`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    return attnlab.softmax(-d**2 / bandwidth**2, axis=-1)
                '''),
        Mistake(
            "σ not squared (dividing by 2σ instead of 2σ²)",
            principle="The bandwidth enters squared in the exponent's denominator.",
            fix="square the bandwidth: `/ (2 * bandwidth**2)`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    return attnlab.softmax(-d**2 / (2 * bandwidth), axis=-1)
                '''),
        Mistake(
            "the bandwidth multiplies instead of divides (σ² d² / 2)",
            principle="A wider bandwidth must flatten the kernel: divide the squared distance by it.",
            fix="a wider kernel must give *smaller* scores for the same distance: divide by `2 σ²`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    return attnlab.softmax(-d**2 * bandwidth**2 / 2, axis=-1)
                '''),
        Mistake(
            "the bandwidth used as a precision γ (exp(-σ d²))",
            principle="The bandwidth is a length: it divides the squared distance (as 2σ²).",
            fix="σ is a width, not sklearn's γ: the exponent is `-(x_q - x_k)**2 / (2 * bandwidth**2)`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    return attnlab.softmax(-bandwidth * d**2, axis=-1)
                '''),
        Mistake(
            "distances not squared (|x_q - x_k| instead of (x_q - x_k)²)",
            principle="The Gaussian kernel uses the squared distance.",
            fix="square the difference: `(x_query[:, None] - x_keys[None, :])**2`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = np.abs(x_query[:, None] - x_keys[None, :])
                    return attnlab.softmax(-d / (2 * bandwidth**2), axis=-1)
                '''),
        Mistake(
            "normalising over the queries (axis 0) instead of over the keys",
            principle="Each query's weights over the keys sum to one: normalise along the keys' axis.",
            fix="each query's weights must sum to one over the keys: softmax over the last axis "
                "(axis=-1), so that every *row* sums to one.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    return attnlab.softmax(-d**2 / (2 * bandwidth**2), axis=0)
                '''),
        Mistake(
            "no normalisation (the raw kernel exp(-d²/2σ²), not a softmax)",
            principle="Attention weights are the kernel values normalised over the keys.",
            fix="divide each row by its sum, i.e. take `attnlab.softmax(scores, axis=-1)`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    return np.exp(-d**2 / (2 * bandwidth**2))
                '''),
        Mistake(
            "a plus sign in the exponent (far keys get the largest weights)",
            principle="Weights decay with distance: the exponent is negative.",
            fix="the score is minus the scaled squared distance: `-(x_q - x_k)**2 / (2 σ²)`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    return attnlab.softmax(d**2 / (2 * bandwidth**2), axis=-1)
                '''),
        Mistake(
            "the weight matrix transposed (keys down the rows, shape (Lk, Lq))",
            principle="Rows are queries, columns are keys: shape (Lq, Lk).",
            fix="put the queries down the rows: `x_query[:, None] - x_keys[None, :]` gives (Lq, Lk).",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    weights = attnlab.softmax(-d**2 / (2 * bandwidth**2), axis=-1)
                    return weights.T
                '''),
        Mistake(
            "queries and keys swapped (shape (Lk, Lq))",
            principle="Rows are queries, columns are keys: shape (Lq, Lk).",
            fix="the queries index the rows: `x_query[:, None] - x_keys[None, :]`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_keys[:, None] - x_query[None, :]
                    return attnlab.softmax(-d**2 / (2 * bandwidth**2), axis=-1)
                '''),
        Mistake(
            "no max subtraction: exp underflows to 0/0 for a query far from every key",
            principle="Shift each query's exponents by their maximum before exponentiating; the shift cancels.",
            fix="use `attnlab.softmax(scores, axis=-1)`, which subtracts each row's maximum first.",
            fails=("test_gaussian_weights_stable",), code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    d = x_query[:, None] - x_keys[None, :]
                    e = np.exp(-d**2 / (2 * bandwidth**2))
                    return e / e.sum(axis=1, keepdims=True)
                '''),
        Mistake(
            "the bandwidth ignored (σ fixed to 1)",
            principle="The kernel's width is the `bandwidth` argument; no fixed width.",
            fix="use the `bandwidth` argument in the exponent: `-(x_q - x_k)**2 / (2 * bandwidth**2)`.",
            fails=_BOTH, code='''
                def gaussian_attention_weights(x_query, x_keys, bandwidth):
                    scores = -(x_query[:, None] - x_keys[None, :]) ** 2 / 2  # sigma = 1
                    return attnlab.softmax(scores, axis=-1)
                '''),
    ],
)


def _points(rng, n, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=n)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(601 if hidden else 61, hidden)
    setups = ([(5, 3, 0.45), (3, 8, 2.5), (6, 4, 0.8)] if hidden
              else [(4, 6, 0.7), (5, 3, 1.8), (3, 7, 0.3)])
    return [Case((_points(rng, Lq), _points(rng, Lk), s), why=f"Lq={Lq} queries, Lk={Lk} keys")
            for Lq, Lk, s in setups]


def stable_cases(hidden: bool) -> list[Case]:
    rng = case_rng(602 if hidden else 62, hidden)
    keys = np.sort(rng.uniform(0.0, 1.0, size=5))
    far = np.array([0.5, 14.0, -9.0] if hidden else [0.3, 12.0, -8.0])
    return [
        Case((far, keys, 0.1 if hidden else 0.12), why="queries far from every key, narrow kernel"),
        Case((np.array([40.0, 41.0]), keys, 0.5), why="every query far from every key"),
    ]


def check_gaussian_attention_weights(gaussian_attention_weights, hidden: bool = False) -> None:
    """Check that ``gaussian_attention_weights`` returns the softmax over keys of ``-(x_q-x_k)²/2σ²``."""
    CARD.check(gaussian_attention_weights, cases(hidden), hidden=hidden,
               passed="weights match for several bandwidths, Lq != Lk")


def check_gaussian_attention_weights_stable(gaussian_attention_weights, hidden: bool = False) -> None:
    """Check that ``gaussian_attention_weights`` stays finite for queries far from every key."""
    CARD.check(gaussian_attention_weights, stable_cases(hidden), hidden=hidden,
               passed="finite rows on the simplex, even far from the data")
