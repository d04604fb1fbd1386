"""linear_attention (notebook 06): attention with the kernel φ(q)·φ(k), computed as
``φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K)`` (prefix sums with ``causal=True``), linear in the length.

The cases have ``Lq != Lk``, ``Dk != Dv``, feature maps that change the width, batched and
unbatched sequences, and one long case on which the call may hold only a fraction of the
``(Lq, Lk)`` kernel matrix (the mechanism, not only the values: issue 27).
"""
from __future__ import annotations

from .. import linearised_attention as _lin
from ..checks._core import Case, Mistake, case_rng
from ..checks.efficient_attention import TooMuchMemory  # the name the grader's own measurement reports
from ..checks.attention_as_kernel_machine import (
    MEMORY_FRACTION, elu_plus_one, invoke_linear_measuring_memory, qkv, random_feature_map,
)
from ._card import Card, Contract

_BOTH = ("test_linear_attention", "test_linear_attention_causal")
_CAUSAL = ("test_linear_attention_causal",)


def _la_quadratic(Q, K, V, feature_map, causal=False):
    """What the check's memory measurement says of code that builds the kernel matrix."""
    raise TooMuchMemory("the (Lq, Lk) kernel matrix")


CARD = Card(
    "linear_attention", "06_attention_as_kernel_machine",
    summary="φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K): attention with the kernel φ(q)·φ(k), never forming the "
            "(Lq, Lk) matrix; causal=True uses prefix sums over j <= i",
    contract=Contract(
        args=("Q", "K", "V", "feature_map"), reference=_lin.linear_attention,
        invoke=invoke_linear_measuring_memory,
        shapes="Q (..., Lq, Dk), K (..., Lk, Dk), V (..., Lk, Dv); feature_map φ maps (..., L, Dk) "
               "to positive (..., L, M); causal=True (with Lq == Lk) lets query i use keys j <= i",
        returns=f"a float array of shape (..., Lq, Dv); on long sequences the call holds less than "
                f"1/{MEMORY_FRACTION} of the (Lq, Lk) kernel matrix at once"),
    mistakes=[
        Mistake(
            "no normaliser (φ(Q)(φ(K)ᵀV) not divided by φ(Q)Σφ(K))",
            principle="Linear attention divides by each query's total feature-space similarity to the keys.",
            fix="divide each output row by φ(q_i)·Σ_j φ(k_j), so that the implicit weights sum to one.",
            fails=_BOTH, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    A = phi_Q @ np.swapaxes(phi_K, -1, -2)
                    if causal:
                        A = np.tril(A)
                    return A @ V
                '''),
        Mistake(
            "feature map not applied to the queries",
            principle="Queries and keys both go through the feature map.",
            fix="use φ(Q) in the numerator *and* the normaliser: `phi_Q = feature_map(Q)`.",
            fails=_BOTH, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    phi_K = feature_map(K)
                    A = Q @ np.swapaxes(phi_K, -1, -2)
                    if causal:
                        A = np.tril(A)
                    return A / A.sum(axis=-1, keepdims=True) @ V
                '''),
        Mistake(
            "feature map not applied to the keys",
            principle="Queries and keys both go through the feature map.",
            fix="use φ(K) in both sums: `phi_K = feature_map(K)`.",
            fails=_BOTH, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    phi_Q = feature_map(Q)
                    A = phi_Q @ np.swapaxes(K, -1, -2)
                    if causal:
                        A = np.tril(A)
                    return A / A.sum(axis=-1, keepdims=True) @ V
                '''),
        Mistake(
            "normaliser without the feature map (Q ΣK instead of φ(Q) Σφ(K))",
            principle="The normaliser uses the same mapped queries and keys as the numerator.",
            fix="the normaliser is the same kernel summed over the keys: `phi_Q @ phi_K.sum(-2)`.",
            fails=_BOTH, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    A = feature_map(Q) @ np.swapaxes(feature_map(K), -1, -2)
                    B = Q @ np.swapaxes(K, -1, -2)
                    if causal:
                        A, B = np.tril(A), np.tril(B)
                    return (A @ V) / B.sum(axis=-1, keepdims=True)
                '''),
        Mistake(
            "feature map applied to the values too",
            principle="Only queries and keys are mapped; values stay as they are.",
            fix="only queries and keys go through φ; the values are averaged as they are.",
            fails=_BOTH, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    A = feature_map(Q) @ np.swapaxes(feature_map(K), -1, -2)
                    if causal:
                        A = np.tril(A)
                    return A / A.sum(axis=-1, keepdims=True) @ feature_map(V)
                '''),
        Mistake(
            "normalising over the queries instead of over the keys",
            principle="Each query's weights over the keys sum to one: the normaliser sums over the keys.",
            fix="every query's weights must sum to one over the keys: divide row i by "
                "φ(q_i)·Σ_j φ(k_j).",
            fails=_BOTH, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    A = phi_Q @ np.swapaxes(phi_K, -1, -2)
                    if causal:
                        A = np.tril(A)
                    return A / A.sum(axis=-2, keepdims=True) @ V
                '''),
        Mistake(
            "softmax attention exp(q·k) instead of the feature map",
            principle="The point of linear attention: similarities come from the feature map, no exponential.",
            fix="replace the softmax by the kernel φ(q)·φ(k): `feature_map(Q)`, `feature_map(K)`.",
            fails=_BOTH, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    scores = Q @ np.swapaxes(K, -1, -2)
                    if causal:
                        scores = np.where(np.tril(np.ones(scores.shape[-2:], dtype=bool)), scores, -np.inf)
                    return attnlab.softmax(scores, axis=-1) @ V
                '''),
        Mistake(
            "`.T` on a batch: it reverses every axis",
            principle="Transpose only the last two axes, so that leading batch axes stay where they are.",
            fix="use `np.swapaxes(phi_K, -1, -2)`, which transposes only the last two axes.",
            fails=_BOTH, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    S = phi_K.T @ V
                    return phi_Q @ S / (phi_Q @ phi_K.sum(axis=-2)[..., None])
                '''),
        Mistake(
            "causal ignored: every query sees every key",
            principle="With causal=True, query i sums over keys 0..i only (prefix sums).",
            fix="with causal=True query i may only use keys j <= i: use prefix sums "
                "(`np.cumsum(..., axis=-3)` of the outer products φ(k_j) v_jᵀ and `np.cumsum(phi_K, axis=-2)`).",
            fails=_CAUSAL, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    S = np.swapaxes(phi_K, -1, -2) @ V
                    return phi_Q @ S / (phi_Q @ phi_K.sum(axis=-2)[..., None])
                '''),
        Mistake(
            "prefix sum off by one: the current token is left out",
            principle="The prefix for query i includes key i itself.",
            fix="query i sees keys 0..i *including* i: the prefix sums are inclusive (`np.cumsum` as it is).",
            fails=_CAUSAL, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    if not causal:
                        S = np.swapaxes(phi_K, -1, -2) @ V
                        return phi_Q @ S / (phi_Q @ phi_K.sum(axis=-2)[..., None])
                    S = np.cumsum(phi_K[..., :, :, None] * V[..., :, None, :], axis=-3) - phi_K[..., :, :, None] * V[..., :, None, :]
                    z = np.cumsum(phi_K, axis=-2) - phi_K
                    return np.einsum("...lm,...lmv->...lv", phi_Q, S) / np.sum(phi_Q * z, axis=-1, keepdims=True)
                '''),
        Mistake(
            "causal mask applied after normalising over all keys",
            principle="Both numerator and normaliser must be prefix sums over the past keys.",
            fix="sum only over j <= i in the numerator *and* the normaliser (prefix sums of both).",
            fails=_CAUSAL, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    A = feature_map(Q) @ np.swapaxes(feature_map(K), -1, -2)
                    A = A / A.sum(axis=-1, keepdims=True)
                    if causal:
                        A = np.tril(A)
                    return A @ V
                '''),
        Mistake(
            "the future instead of the past (keys j >= i)",
            principle="Causal means keys j <= i.",
            fix="causal means j <= i: accumulate from the start of the sequence.",
            fails=_CAUSAL, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    A = feature_map(Q) @ np.swapaxes(feature_map(K), -1, -2)
                    if causal:
                        A = np.triu(A)  # keys from i on
                    return A / A.sum(axis=-1, keepdims=True) @ V
                '''),
        Mistake(
            "the (Lq, Lk) kernel matrix φ(Q)φ(K)ᵀ built: quadratic memory, not linear attention",
            principle="Multiply in the order that never forms the query-by-key matrix: the keys' "
                      "features with the values first (a small matrix, the same for every length); "
                      "with causal=True, running (prefix) sums of the same.",
            fix="multiply in the other order: `phi_K.swapaxes(-1, -2) @ V` first (an (M, Dv) matrix), then "
                "`phi_Q @` it; with causal=True, prefix sums (`np.cumsum`) of φ(k_j) v_jᵀ and of φ(k_j).",
            fails=_BOTH, impl=_la_quadratic, code='''
                def linear_attention(Q, K, V, feature_map, causal=False):
                    A = feature_map(Q) @ np.swapaxes(feature_map(K), -1, -2)  # (..., Lq, Lk)
                    if causal:
                        A = np.tril(A)
                    return A / A.sum(axis=-1, keepdims=True) @ V
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(641 if hidden else 101, hidden)
    if hidden:
        setups = [((), 3, 7, 2, 4, None), ((3,), 4, 6, 3, 2, None), ((), 5, 4, 3, 3, 9)]
    else:
        setups = [((), 4, 6, 3, 2, None), ((2,), 5, 7, 3, 4, None), ((), 4, 5, 3, 2, 8)]
    out = []
    for batch, Lq, Lk, Dk, Dv, M in setups:
        fm = elu_plus_one if M is None else random_feature_map(Dk, M, seed=7 + Dk + M)
        what = "elu(x)+1 features" if M is None else f"{M} random features of width {Dk} inputs"
        out.append(Case(qkv(rng, batch, Lq, Lk, Dk, Dv) + (fm,),
                        why=f"{'a batch, ' if batch else ''}Lq={Lq}, Lk={Lk}, {what}"))
    Lq, Lk = (2304, 3200) if hidden else (2048, 3072)  # a (Lq, Lk) float64 matrix: 48-56 MiB
    out.append(Case(qkv(rng, (), Lq, Lk, 16, 8) + (elu_plus_one,),
                    why=f"long sequences; the call may hold at most 1/{MEMORY_FRACTION} of the "
                    "(Lq, Lk) kernel matrix at once"))
    return out


def causal_cases(hidden: bool) -> list[Case]:
    rng = case_rng(642 if hidden else 102, hidden)
    setups = ([((), 6, 3, 2, None), ((2,), 4, 2, 3, None), ((), 5, 4, 2, 7)] if hidden
              else [((), 5, 3, 2, None), ((2,), 6, 4, 3, None), ((), 4, 3, 5, 6)])
    out = []
    for batch, L, Dk, Dv, M in setups:
        fm = elu_plus_one if M is None else random_feature_map(Dk, M, seed=11 + Dk + M)
        out.append(Case(qkv(rng, batch, L, L, Dk, Dv) + (fm,), {"causal": True},
                        why=f"causal, {'a batch, ' if batch else ''}L={L}"))
    L = 2816 if hidden else 2560  # a (L, L) float64 matrix: 50-60 MiB
    out.append(Case(qkv(rng, (), L, L, 16, 8) + (elu_plus_one,), {"causal": True},
                    why=f"causal, a long sequence; the call may hold at most 1/{MEMORY_FRACTION} "
                    "of the (L, L) kernel matrix at once"))
    return out


def check_linear_attention(linear_attention, hidden: bool = False) -> None:
    """Check that ``linear_attention`` computes φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K), batched or not."""
    CARD.check(linear_attention, cases(hidden), hidden=hidden,
               passed="matches the reference, batched and unbatched, Lq != Lk")


def check_linear_attention_causal(linear_attention, hidden: bool = False) -> None:
    """Check that ``linear_attention(..., causal=True)`` uses prefix sums over ``j <= i``."""
    CARD.check(linear_attention, causal_cases(hidden), hidden=hidden,
               passed="the causal version matches (prefix sums)")
