"""nadaraya_watson (notebook 06): Nadaraya-Watson regression, the Gaussian attention weights'
average of the training targets."""
from __future__ import annotations

import numpy as np

from .. import kernels as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_NW = ("test_nadaraya_watson",)

CARD = Card(
    "nadaraya_watson", "06_attention_as_kernel_machine",
    summary="attention pooling of the targets: the Gaussian weights (Lq, Lk) times y_values (Lk,)",
    contract=Contract(
        args=("x_query", "x_keys", "y_values", "bandwidth"), reference=_ref.nadaraya_watson,
        invoke=invoke_numpy,
        shapes="x_query (Lq,), x_keys (Lk,), y_values (Lk,), bandwidth σ > 0",
        returns="a float array of shape (Lq,), one prediction per query"),
    mistakes=[
        Mistake(
            "a kernel-weighted sum instead of an average (weights not normalised)",
            principle="Nadaraya-Watson averages: the weights over the keys must sum to one.",
            fix="the weights must sum to one over the keys: use "
                "`attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth) @ y_values`.",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    K = np.exp(-(x_query[:, None] - x_keys[None, :])**2 / (2 * bandwidth**2))
                    return K @ y_values
                '''),
        Mistake(
            "weights normalised over the queries (axis 0) instead of over the keys",
            principle="Each query's weights over the keys sum to one: normalise along the keys' axis.",
            fix="each prediction averages the *training targets*: normalise over the keys (the last axis).",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    scores = -(x_query[:, None] - x_keys[None, :])**2 / (2 * bandwidth**2)
                    return attnlab.softmax(scores, axis=0) @ y_values
                '''),
        Mistake(
            "weighting the values without summing them (shape (Lq, Lk))",
            principle="Each query's prediction is one number: sum the weighted targets over the keys.",
            fix="sum the weighted targets over the keys: a matrix product `weights @ y_values` gives (Lq,).",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    return attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth) * y_values
                '''),
        Mistake(
            "returning the weights instead of the prediction",
            principle="Return one prediction per query, the weighted average of the targets.",
            fix="multiply the (Lq, Lk) weights by the (Lk,) targets.",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    weights = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
                    return weights
                '''),
        Mistake(
            "the plain mean of the targets (the weights are ignored)",
            principle="Each target must count in proportion to its weight.",
            fix="each query gets its own weighted average: `weights @ y_values`.",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    return np.full(len(x_query), np.mean(y_values))
                '''),
        Mistake(
            "weights and values multiplied the wrong way round",
            principle="Contract the weights' key axis with the targets.",
            fix="the weights are (Lq, Lk) and the values (Lk,): `weights @ y_values`, with the keys "
                "as the shared axis.",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    return y_values @ attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
                '''),
        Mistake(
            "the factor 2 missing from the exponent: exp(-d²/σ²) instead of exp(-d²/(2σ²))",
            principle="The Gaussian exponent is the squared distance over twice the squared bandwidth.",
            fix="use `attnlab.gaussian_attention_weights`, or divide by `2 * bandwidth**2`.",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    scores = -(x_query[:, None] - x_keys[None, :])**2 / bandwidth**2
                    return attnlab.softmax(scores, axis=-1) @ y_values
                '''),
        Mistake(
            "σ not squared",
            principle="The bandwidth enters squared in the exponent's denominator.",
            fix="use `attnlab.gaussian_attention_weights`, or divide by `2 * bandwidth**2`.",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    scores = -(x_query[:, None] - x_keys[None, :])**2 / (2 * bandwidth)
                    return attnlab.softmax(scores) @ y_values
                '''),
        Mistake(
            "the bandwidth ignored (σ fixed to 1)",
            principle="The kernel's width is the `bandwidth` argument; no fixed width.",
            fix="use the `bandwidth` argument in the exponent: `-(x_q - x_k)**2 / (2 * bandwidth**2)`.",
            fails=_NW, code='''
                def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
                    return attnlab.gaussian_attention_weights(x_query, x_keys, 1.0) @ y_values
                '''),
    ],
)


def _points(rng, n, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=n)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(611 if hidden else 71, hidden)
    setups = ([(6, 4, 0.55), (3, 9, 1.6), (8, 5, 0.35)] if hidden
              else [(4, 6, 0.7), (5, 3, 1.3), (7, 9, 0.4)])
    out = []
    for Lq, Lk, s in setups:
        x_keys = _points(rng, Lk)
        y = 1.0 + np.sin(2 * x_keys) + 0.3 * rng.normal(size=Lk)
        out.append(Case((_points(rng, Lq), x_keys, y, s), why=f"Lq={Lq} queries, Lk={Lk} keys"))
    return out


def check_nadaraya_watson(nadaraya_watson, hidden: bool = False) -> None:
    """Check that ``nadaraya_watson`` returns the attention-weighted average of the targets."""
    CARD.check(nadaraya_watson, cases(hidden), hidden=hidden,
               passed="predictions match for several bandwidths, Lq != Lk")
