"""masked_softmax (notebook 04): a softmax over the last axis restricted to the allowed keys
(True = may attend); masked weights are exactly 0 and a row with no allowed key is all 0."""
from __future__ import annotations

import numpy as np

from .. import masks as _masks
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ..checks.masks_and_cross_attention import random_mask, range_case
from ._card import Card, Contract, Example

_MAIN, _FULL = "test_masked_softmax", "test_masked_softmax_fully_masked"
_BOTH = (_MAIN, _FULL)

_SHIFT_PRINCIPLE = ("Shift each row by the largest score among its allowed keys only: a masked key "
                    "may hold any score, and a shift by it can push every allowed exponential "
                    "below the smallest float (0/0).")

CARD = Card(
    "masked_softmax", "04_masks_and_cross_attention",
    summary="softmax over the keys where the mask is True; masked weights 0, an empty row all 0",
    contract=Contract(
        args=("scores", "mask"), reference=_masks.masked_softmax, invoke=invoke_numpy,
        shapes="scores (..., Lq, Lk) of any size (up to +-1e4 and beyond on masked keys), "
               "mask boolean and broadcastable to the scores (True = may attend)",
        returns="weights of the shape of the scores: 0 where the mask is False, each row summing to "
                "one over its allowed keys; a row with no allowed key all 0 (never NaN)"),
    mistakes=[
        Mistake(
            "the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score (far above the allowed ones) makes every allowed exp underflow, and the "
            "row comes out all zero",
            principle=_SHIFT_PRINCIPLE,
            fix="take the max after masking: `s = np.where(mask, scores, -np.inf)`, then "
                "`s - s.max(axis=-1, keepdims=True)`.",
            fails=(_MAIN,), code='''
                def masked_softmax(scores, mask):
                    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask   # the max over every key
                    total = e.sum(axis=-1, keepdims=True)
                    return np.where(total > 0, e / np.where(total > 0, total, 1), 0.0)
                '''),
        Mistake(
            "the mask applied after the softmax, without renormalising (rows no longer sum to 1)",
            principle="Block the scores before the softmax so the remaining weights still sum to one.",
            fix="mask the *scores* before the softmax (`np.where(mask, scores, -np.inf)`), so the "
                "allowed weights are renormalised among themselves; or divide by the new row sums.",
            fails=_BOTH, code='''
                def masked_softmax(scores, mask):
                    return attnlab.softmax(scores) * mask
                '''),
        Mistake(
            "the mask inverted (True treated as blocked)",
            principle="True means \"may attend\": keep the scores where the mask is True.",
            fix="True = may attend: keep the scores where `mask` is True and block the others.",
            fails=_BOTH, code='''
                def masked_softmax(scores, mask):
                    weights = attnlab.softmax(np.where(mask, -1e9, scores))
                    return weights * ~mask
                '''),
        Mistake(
            "filling masked scores with -inf: a fully masked row becomes 0/0 = NaN",
            principle="A row with no allowed key needs its own rule: all-zero weights, never 0/0.",
            fix="keep the weights only where the mask is True: `np.where(mask, weights, 0.0)` turns "
                "the NaN of a fully masked row into zeros (or divide by a row sum that you replace by 1 "
                "where it is 0).",
            fails=(_FULL,), code='''
                def masked_softmax(scores, mask):
                    return attnlab.softmax(np.where(mask, scores, -np.inf))
                '''),
        Mistake(
            "filling masked scores with a big negative number (-1e9): a fully masked row gets "
            "uniform weights instead of zeros",
            principle="A row with no allowed key must get zero weights, not a uniform spread; masked "
                      "entries must be exactly zero.",
            fix="on a row where every score is -1e9 the softmax is uniform (shift invariance); "
                "multiply the weights by the mask afterwards (`weights * mask`), which zeroes such rows "
                "and changes nothing elsewhere.",
            fails=(_FULL,), code='''
                def masked_softmax(scores, mask):
                    return attnlab.softmax(np.where(mask, scores, -1e9))
                '''),
        Mistake(
            "ignoring the mask",
            principle="Masked-out keys must get weight exactly zero.",
            fix="block the scores where `mask` is False before the softmax.",
            fails=_BOTH, code='''
                def masked_softmax(scores, mask):
                    return attnlab.softmax(scores)
                '''),
        Mistake(
            "setting masked scores to 0 instead of -inf (a score of 0 still gets weight e^0)",
            principle="A masked score must contribute nothing after the exponential, not e⁰ = 1.",
            fix="a masked key must get weight exactly 0: fill its score with -inf (or -1e9), not 0.",
            fails=_BOTH, code='''
                def masked_softmax(scores, mask):
                    return attnlab.softmax(scores * mask)
                '''),
        Mistake(
            "a softmax over the wrong axis (over the queries, axis -2)",
            principle="Each query's weights over the keys sum to one: normalise over the last axis.",
            fix="each query's weights over the keys sum to one: take the softmax over the last axis.",
            fails=_BOTH, code='''
                def masked_softmax(scores, mask):
                    weights = attnlab.softmax(np.where(mask, scores, -1e9), axis=-2)
                    return weights * mask
                '''),
        Mistake(
            "boolean indexing `scores[~mask] = ...`, which fails when the mask only broadcasts",
            principle="The mask may be smaller than the scores and only broadcast: combine them with "
                      "an operation that broadcasts.",
            fix="use `np.where(mask, scores, fill)`: it broadcasts a (B, 1, Lk) or (Lq, Lk) mask "
                "against (B, Lq, Lk) scores (and does not modify the input).",
            fails=_BOTH, code='''
                def masked_softmax(scores, mask):
                    scores = scores.copy()
                    scores[~mask] = -1e9
                    return attnlab.softmax(scores) * mask
                '''),
        Mistake(
            "an additive mask (`scores + (1 - mask) * -1e9`): a fully masked row gets the softmax "
            "of its raw scores instead of zeros",
            principle="A row with no allowed key must get zero weights: shifting every score of a row "
                      "changes nothing after the softmax, so zero such rows explicitly.",
            fix="adding -1e9 everywhere on a row shifts the whole row, which the softmax ignores; "
                "multiply the weights by the mask afterwards (`weights * mask`), or use "
                "`np.where(mask, weights, 0.0)`.",
            fails=(_FULL,), code='''
                def masked_softmax(scores, mask):
                    return attnlab.softmax(scores + (~mask) * -1e9, axis=-1)
                '''),
        Mistake(
            "the mask inverted and masked scores filled with -inf: a row that may see every key "
            "becomes NaN",
            principle="True means \"may attend\": block the scores where the mask is False, and give a "
                      "row with no allowed key zero weights, never 0/0.",
            fix="True = may attend: `np.where(mask, scores, -np.inf)`, then zero the weights where the "
                "mask is False (`np.where(mask, weights, 0.0)`).",
            fails=(_FULL,), code='''
                def masked_softmax(scores, mask):
                    scores = np.where(mask, -np.inf, scores)
                    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
                    return e / e.sum(axis=-1, keepdims=True)
                '''),
        Mistake(
            "the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score (far above the allowed ones) makes every allowed exp underflow, 0/0 = NaN",
            principle=_SHIFT_PRINCIPLE,
            fix="take the max after masking: `s = np.where(mask, scores, -np.inf)`, then "
                "`s - s.max(axis=-1, keepdims=True)` (and zero the rows with no allowed key).",
            fails=(_MAIN,), code='''
                def masked_softmax(scores, mask):
                    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
                    return e / e.sum(axis=-1, keepdims=True)
                '''),
        Mistake(
            "a masked softmax without the max subtraction: exp overflows for scores of 1e4 "
            "(inf / inf = NaN)",
            principle="Shift each row by its largest allowed score before exponentiating; the shift "
                      "cancels in the ratio and keeps exp below overflow.",
            fix="subtract each row's largest allowed score before `np.exp` (fill masked scores with "
                "-inf first); the shift cancels in the ratio.",
            fails=(_MAIN,), code='''
                def masked_softmax(scores, mask):
                    e = np.where(mask, np.exp(scores), 0.0)
                    total = e.sum(axis=-1, keepdims=True)
                    return np.where(total > 0, e / np.where(total > 0, total, 1), 0.0)
                '''),
    ],
    examples=[
        Example('''
            def masked_softmax(scores, mask):
                scores = np.where(mask, -np.inf, scores)
                e = np.exp(scores - scores.max(axis=-1, keepdims=True))
                return e / e.sum(axis=-1, keepdims=True)
            ''', (_MAIN,), "the mask inverted (True treated as blocked)", label="inverted, -inf"),
        Example('''
            def masked_softmax(scores, mask):
                scores[~np.broadcast_to(mask, scores.shape)] = -1e9
                return attnlab.softmax(scores) * mask
            ''', _BOTH, "changed its input arrays in place", label="in place"),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(141 if hidden else 41, hidden)
    Lq, Lk = (5, 3) if hidden else (4, 6)
    lengths = np.array([2, 4, 1]) if hidden else np.array([3, 5])
    B = len(lengths)
    return [
        Case((rng.normal(size=(Lq, Lk)) * 2, random_mask(rng, (Lq, Lk))),
             why="a random mask, every row keeps at least one key"),
        Case((rng.normal(size=(B, 3, 5)) * 2, _masks.padding_mask(lengths, 5)[:, None, :]),
             why="a padding mask (B, 1, Lk) broadcast over the queries"),
        Case((rng.normal(size=(2, 4, 4)) * 2, _masks.causal_mask(4, 4)),
             why="a causal mask (Lq, Lk) broadcast over the batch"),
        range_case(rng, (3, 6) if hidden else (4, 5)),
    ]


def fully_masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(142 if hidden else 42, hidden)
    mask = random_mask(rng, (4, 5))
    mask[1 if hidden else 2] = False  # a row with no key ...
    mask[3 if hidden else 0] = True   # ... and one that sees every key
    lengths = np.array([4, 0, 2]) if hidden else np.array([0, 4])
    B = len(lengths)
    Lq, Lk = (6, 4) if hidden else (5, 3)
    bottom_right = np.tril(np.ones((Lq, Lk), dtype=bool), k=Lk - Lq)  # first Lq - Lk rows empty
    return [
        Case((rng.normal(size=(4, 5)) * 2, mask),
             why="one row with no key to attend to, one that sees every key"),
        Case((rng.normal(size=(B, 3, 4)) * 2, _masks.padding_mask(lengths, 4)[:, None, :]),
             why="a sequence of length 0: every row of it is fully masked"),
        Case((rng.normal(size=(2, Lq, Lk)) * 2, bottom_right),
             why="a bottom-right causal mask with Lq > Lk: the first rows see no key"),
    ]


def check_masked_softmax(masked_softmax, hidden: bool = False) -> None:
    """Check that ``masked_softmax(scores, mask)`` renormalises over the allowed keys."""
    CARD.check(masked_softmax, cases(hidden), hidden=hidden,
               passed="masked weights are 0, the others renormalised")


def check_masked_softmax_fully_masked(masked_softmax, hidden: bool = False) -> None:
    """Check that ``masked_softmax`` gives a fully masked row all-zero weights (never NaN)."""
    CARD.check(masked_softmax, fully_masked_cases(hidden), hidden=hidden,
               passed="fully masked rows get zero weights")
