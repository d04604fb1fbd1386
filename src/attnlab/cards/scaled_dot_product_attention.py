"""scaled_dot_product_attention (notebook 02): ``softmax(Q Kᵀ / √Dk) V`` and its weights, for one
sequence or a batch, with an optional boolean mask (True = may attend).

The inputs keep the sizes apart (``Lq != Lk``, ``Dk != Dv``, ``Dk != Lk``) so that every mistake
gives a different answer from the right one and from the other mistakes.
"""
from __future__ import annotations

import numpy as np

from .. import attention as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example

_ALL = ("test_sdpa", "test_sdpa_batched", "test_sdpa_mask", "test_sdpa_fully_masked")
_MASKS = ("test_sdpa_mask", "test_sdpa_fully_masked")
_BATCHES = ("test_sdpa_batched", "test_sdpa_mask", "test_sdpa_fully_masked")  # these have a batched case

_AXIS0 = '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = attnlab.softmax(scores, axis=0)
    return weights @ V, weights
'''
_SHIFT_ALL = '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))   # the max over every key
    if mask is not None:
        e = e * mask
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V, weights
'''

_SHIFT_PRINCIPLE = ("Shift each row by the largest score among its allowed keys only: a masked "
                    "key may hold any score, and a shift by it can push every allowed "
                    "exponential below the smallest float.")
_SHIFT_FIX = ("mask first, then shift: `s = np.where(mask, scores, -np.inf)`, "
              "`m = s.max(axis=-1, keepdims=True)`, `m = np.where(np.isfinite(m), m, 0.0)`.")

CARD = Card(
    "scaled_dot_product_attention", "02_query_key_value",
    summary="softmax(Q Kᵀ / √Dk) V and the weights, batched, masked keys weighted 0",
    contract=Contract(
        args=("Q", "K", "V"), reference=_ref.scaled_dot_product_attention, invoke=invoke_numpy,
        outputs=("output", "weights"),
        shapes="Q (..., Lq, Dk), K (..., Lk, Dk), V (..., Lk, Dv); mask None or boolean "
               "(..., Lq, Lk), True = query i may attend to key j",
        returns="(output, weights): output (..., Lq, Dv), weights (..., Lq, Lk) = softmax(Q Kᵀ / √Dk) "
                "over the keys; masked weights exactly 0, a query with no key to attend to all-zero "
                "weights and a zero output; finite for scores of ±1e4"),
    mistakes=[
        # equal to the reference except on the range case: tried first
        Mistake(
            "the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score makes every allowed exp underflow, and the row comes out all zero",
            principle=_SHIFT_PRINCIPLE, fix=_SHIFT_FIX,
            fails=("test_sdpa_mask",), code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    e = np.exp(scores - scores.max(axis=-1, keepdims=True))   # the max over every key
                    if mask is not None:
                        e = e * mask
                    total = e.sum(axis=-1, keepdims=True)
                    weights = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
                    return weights @ V, weights
                '''),
        Mistake(
            "`K.T` on a batch: it reverses every axis, not just the last two",
            principle='Transpose only the last two axes, so that leading batch axes stay where they are.',
            fix="use `np.swapaxes(K, -1, -2)` (or `K.swapaxes(-1, -2)`), which transposes only the "
                "last two axes and keeps the batch axes in front.",
            fails=_BATCHES, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ K.T / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    m = scores.max(axis=-1, keepdims=True)
                    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1)
                    return weights @ V, weights
                '''),
        Mistake(
            "no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dk)",
            principle='Scores are divided by √Dk before the softmax.',
            fix="divide the scores by `np.sqrt(Dk)`, with `Dk = Q.shape[-1]`.",
            fails=_ALL, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2)
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    m = scores.max(axis=-1, keepdims=True)
                    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1)
                    return weights @ V, weights
                '''),
        Mistake(
            "scaling by Dk instead of √Dk",
            principle='The scale is the square root of Dk, not Dk itself.',
            fix="divide by `np.sqrt(Q.shape[-1])`: the standard deviation of q·k grows like √Dk.",
            fails=_ALL, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    d_k = Q.shape[-1]
                    scores = Q @ np.swapaxes(K, -1, -2) / d_k
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    m = scores.max(axis=-1, keepdims=True)
                    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1)
                    return weights @ V, weights
                '''),
        Mistake(
            "scaling by √Dv (the value width) instead of √Dk",
            principle='The scale comes from the width of the dot product, the query/key width Dk, not the value width.',
            fix="the scale belongs to the dot product of queries and keys: `np.sqrt(Q.shape[-1])`.",
            fails=_ALL, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(V.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    m = scores.max(axis=-1, keepdims=True)
                    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1)
                    return weights @ V, weights
                '''),
        Mistake(
            "scaling by √Lk (the number of keys) instead of √Dk",
            principle='The scale comes from the width of the dot product (Dk), not from the number of keys.',
            fix="use the key *width* `Q.shape[-1]`, not the number of keys `K.shape[-2]`.",
            fails=_ALL, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-2])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    m = scores.max(axis=-1, keepdims=True)
                    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1)
                    return weights @ V, weights
                '''),
        Mistake(
            "a softmax over the queries (axis -2) instead of over the keys",
            principle="Each query's weights over the keys sum to one: normalise over the last axis.",
            fix="each query's weights over the keys must sum to one: softmax over the last axis.",
            fails=_ALL, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
                    weights = e / e.sum(axis=-2, keepdims=True)
                    return weights @ V, weights
                '''),
        Mistake(
            "a softmax over axis 0 (the batch axis when there is a batch)",
            principle='Normalise over the keys, the last axis, whatever the leading dimensions.',
            fix="normalise over the keys, the last axis: `axis=-1`, whatever the batch dimensions.",
            fails=_BATCHES, code=_AXIS0),
        Mistake(
            "the returned pair in the wrong order: (weights, output) instead of (output, weights)",
            principle='The contract returns the output first, then the weights.',
            fix="return the output first: `return weights @ V, weights`.",
            fails=_ALL, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    m = scores.max(axis=-1, keepdims=True)
                    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1)
                    return weights, weights @ V
                '''),
        Mistake(
            "averaging the keys instead of the values",
            principle='Keys decide the weights; the weights then average the values.',
            fix="the output is `weights @ V`; the keys only decide the weights.",
            fails=_ALL, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    m = scores.max(axis=-1, keepdims=True)
                    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1)
                    return weights @ K, weights
                '''),
        Mistake(
            "the mask is ignored",
            principle='Masked-out keys must get weight exactly zero.',
            fix="block the keys where `mask` is False: set their scores to `-np.inf` before the softmax "
                "(`np.where(mask, scores, -np.inf)`).",
            fails=_MASKS, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    weights = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))
                    return weights @ V, weights
                '''),
        Mistake(
            "the mask is inverted (True treated as blocked)",
            principle='True means "may attend": keep the scores where the mask is True.',
            fix="in this course `True` means *may attend* (as in torch's "
                "`F.scaled_dot_product_attention`): keep the scores where `mask` is True.",
            fails=_MASKS, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores[mask] = -np.inf
                    m = scores.max(axis=-1, keepdims=True)
                    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1)
                    return weights @ V, weights
                '''),
        Mistake(
            "the mask applied after the softmax (weights * mask) without renormalising",
            principle='Block the scores before the softmax so the remaining weights still sum to one.',
            fix="mask the *scores* before the softmax, so the remaining weights still sum to one.",
            fails=_MASKS, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    weights = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))
                    if mask is not None:
                        weights = weights * mask
                    return weights @ V, weights
                '''),
        Mistake(
            "masked scores set to 0 instead of -inf (masked keys still get weight)",
            principle='A masked score must contribute nothing after the exponential, not e⁰ = 1.',
            fix="a score of 0 is an ordinary score; use `-np.inf`, whose exponential is exactly 0.",
            fails=_MASKS, code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, 0.0)
                    weights = attnlab.softmax(scores)
                    return weights @ V, weights
                '''),
        Mistake(
            "a fully masked row becomes NaN: with every score -inf, the softmax computes "
            "-inf - (-inf) and 0 / 0",
            principle='A row with no allowed key needs its own rule: all-zero weights (and output), never 0/0.',
            fix="a row with no key to attend to must get all-zero weights: replace a row maximum of "
                "-inf by 0 before subtracting it, and divide by the row sum only where it is > 0 "
                "(e.g. `np.where(total > 0, total, 1.0)`).",
            fails=("test_sdpa_fully_masked",), code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    weights = attnlab.softmax(scores)
                    return weights @ V, weights
                '''),
        Mistake(
            "masked scores filled with a large negative number (e.g. -1e9): a fully masked row gets "
            "uniform weights instead of zeros",
            principle='A row with no allowed key must get zero weights, not a uniform spread; handle it explicitly.',
            fix="a row with no key to attend to must get weight 0 everywhere and a zero output: fill "
                "with `-np.inf`, then set the weights of fully masked rows to 0 (see the hint).",
            fails=("test_sdpa_fully_masked",), code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -1e9)
                    weights = attnlab.softmax(scores)
                    return weights @ V, weights
                '''),
        Mistake(
            "an additive mask (`scores + (1 - mask) * -1e9`): a fully masked row gets the softmax "
            "of its raw scores instead of zeros",
            principle="A row with no allowed key must get zero weights: shifting every score of a row "
                      "changes nothing after the softmax, so zero such rows explicitly.",
            fix="adding -1e9 to every score of a row shifts the whole row, which the softmax ignores: "
                "fill with `-np.inf` (`np.where(mask, scores, -np.inf)`) and set the weights of fully "
                "masked rows to 0.",
            fails=("test_sdpa_fully_masked",), code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = scores + (1.0 - mask) * -1e9
                    weights = attnlab.softmax(scores)
                    return weights @ V, weights
                '''),
        Mistake(
            "the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score makes every allowed exp underflow, 0/0 = NaN",
            principle=_SHIFT_PRINCIPLE, fix=_SHIFT_FIX,
            fails=("test_sdpa_mask",), code=_SHIFT_ALL),
        Mistake(
            "a softmax without the max subtraction: exp overflows for scores of 1e4 (inf / inf = NaN)",
            principle="Shift each row by its largest allowed score before exponentiating; the shift "
                      "cancels in the ratio and keeps exp below overflow.",
            fix="subtract each row's largest allowed score before `np.exp`; the shift cancels in the ratio.",
            fails=("test_sdpa", "test_sdpa_mask"), code='''
                def scaled_dot_product_attention(Q, K, V, mask=None):
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    e = np.exp(scores)   # exp(1e4) = inf
                    total = e.sum(axis=-1, keepdims=True)
                    weights = e / np.where(total > 0, total, 1.0)
                    return weights @ V, weights
                '''),
    ],
    examples=[
        Example('''
            import torch

            def scaled_dot_product_attention(Q, K, V, mask=None):
                Q, K, V = (torch.as_tensor(a, dtype=torch.float32) for a in (Q, K, V))
                scores = Q @ K.T / K.shape[-1] ** 0.5
                if mask is not None:
                    scores = scores.masked_fill(~torch.as_tensor(mask), float("-inf"))
                weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
                return (weights @ V).numpy(), weights.numpy()
            ''', _BATCHES, "`K.T` on a batch", label="torch K.T"),
        # on one sequence, axis 0 is the queries' axis
        Example(_AXIS0, ("test_sdpa",), "a softmax over the queries (axis -2)", label="axis 0, one sequence"),
        # without the guard, a fully masked row is 0 / 0 as well
        Example(_SHIFT_ALL, ("test_sdpa_fully_masked",), "a fully masked row becomes NaN",
                label="max over every key, fully masked row"),
    ],
)


def _qkv(rng, batch, Lq, Lk, Dk, Dv):
    return (rng.normal(size=(*batch, Lq, Dk)), rng.normal(size=(*batch, Lk, Dk)),
            rng.normal(size=(*batch, Lk, Dv)))


def _partial_mask(rng, shape, fully_masked_rows=0):
    """A boolean mask where every row has a True and a False entry; then ``fully_masked_rows``
    rows (of the first batch item) are set all False."""
    *batch, Lq, Lk = shape
    mask = rng.random(shape) < 0.5
    flat = mask.reshape(-1, Lk)
    for row in flat:
        i, j = rng.choice(Lk, size=2, replace=False)
        row[i], row[j] = True, False
    mask = flat.reshape(shape)
    for r in range(fully_masked_rows):
        mask[(0,) * len(batch) + (1 + r,)] = False
    return mask


def _large_case(rng, Lq, Lk, Dv):
    """Scores of +-1e4 and no mask (Q holds them, K = √Dk I): exp overflows without the shift."""
    sign = np.resize([1.0, -1.0], Lq).reshape(Lq, 1)  # rows of +1e4 and of -1e4
    Q = sign * 1e4 + rng.normal(size=(Lq, Lk)) * 2
    K = np.sqrt(Lk) * np.eye(Lk)  # Dk = Lk: Q Kᵀ / √Dk = Q
    return Case((Q, K, rng.normal(size=(Lk, Dv))), why="scores of +-1e4 (no mask)")


def _range_case(rng, Lq, Lk, Dv):
    """Scores of +-1e4 (Q holds them, K = √Dk I) whose masked keys hold the row's largest score."""
    mask = _partial_mask(rng, (Lq, Lk))
    sign = np.resize([1.0, -1.0], Lq).reshape(Lq, 1)  # rows of +1e4 and of -1e4
    Q = np.where(mask, sign * 1e4 + rng.normal(size=(Lq, Lk)) * 2, 3e4)
    K = np.sqrt(Lk) * np.eye(Lk)  # Dk = Lk: Q Kᵀ / √Dk = Q
    return Case((Q, K, rng.normal(size=(Lk, Dv))), {"mask": mask},
                why="scores of +-1e4, masked keys holding each row's largest score")


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(221 if hidden else 61, hidden)
    sizes = [(2, 6, 3, 5), (5, 3, 6, 2), (1, 4, 4, 3)] if hidden else [(3, 5, 4, 2), (4, 2, 3, 6), (1, 3, 5, 4)]
    out = [Case(_qkv(rng, (), *s), why="one sequence, Lq != Lk, Dk != Dv") for s in sizes]
    out.append(_large_case(rng, *((3, 5) if hidden else (4, 3)), 2))
    return out


def batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(222 if hidden else 62, hidden)
    shapes = [((3,), 2, 5, 4, 2), ((2, 3), 4, 3, 2, 5)] if hidden else [((2,), 3, 5, 4, 6), ((3, 2), 4, 3, 5, 6)]
    return [Case(_qkv(rng, b, *s), why="leading batch dimensions") for b, *s in shapes]


def mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(223 if hidden else 63, hidden)
    shapes = [((), 5, 4, 3, 2), ((3,), 3, 6, 2, 5)] if hidden else [((), 4, 5, 3, 2), ((2,), 3, 4, 5, 3)]
    out = []
    for b, Lq, Lk, Dk, Dv in shapes:
        Q, K, V = _qkv(rng, b, Lq, Lk, Dk, Dv)
        out.append(Case((Q, K, V), {"mask": _partial_mask(rng, (*b, Lq, Lk))},
                        why="every query may attend to some keys but not all"))
    out.append(_range_case(rng, *((3, 5) if hidden else (4, 4)), 3))  # K = √Lk I: a size of its own when hidden
    return out


def fully_masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(224 if hidden else 64, hidden)
    shapes = [((2,), 4, 3, 5, 2), ((), 3, 6, 2, 5)] if hidden else [((), 4, 5, 3, 2), ((2,), 3, 5, 2, 6)]
    out = []
    for b, Lq, Lk, Dk, Dv in shapes:
        Q, K, V = _qkv(rng, b, Lq, Lk, Dk, Dv)
        out.append(Case((Q, K, V), {"mask": _partial_mask(rng, (*b, Lq, Lk), fully_masked_rows=1)},
                        why="query 1 may attend to no key: it needs zero weights and a zero output"))
    return out


def check_sdpa(scaled_dot_product_attention, hidden: bool = False) -> None:
    """Check ``softmax(Q Kᵀ / √Dk) V`` and its weights on one sequence ``(Lq, Dk)``."""
    CARD.check(scaled_dot_product_attention, cases(hidden), hidden=hidden,
               passed="output and weights match on one sequence")


def check_sdpa_batched(scaled_dot_product_attention, hidden: bool = False) -> None:
    """Check ``scaled_dot_product_attention`` with leading batch dimensions ``(..., Lq, Dk)``."""
    CARD.check(scaled_dot_product_attention, batched_cases(hidden), hidden=hidden, passed="works on batches")


def check_sdpa_mask(scaled_dot_product_attention, hidden: bool = False) -> None:
    """Check that masked keys (mask False) get weight exactly 0 and the rest renormalise."""
    CARD.check(scaled_dot_product_attention, mask_cases(hidden), hidden=hidden,
               passed="masked keys get zero weight")


def check_sdpa_fully_masked(scaled_dot_product_attention, hidden: bool = False) -> None:
    """Check that a query with no key to attend to gets zero weights and a zero output (no NaN)."""
    CARD.check(scaled_dot_product_attention, fully_masked_cases(hidden), hidden=hidden,
               passed="a fully masked row gives zeros, not NaN")
