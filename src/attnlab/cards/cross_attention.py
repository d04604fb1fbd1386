"""cross_attention (notebook 04): the tokens of ``X_q`` attend over the tokens of ``X_kv``,
``softmax(Q Kᵀ / √Dk) V`` with ``Q = X_q W_q``, ``K = X_kv W_k``, ``V = X_kv W_v`` and an optional
boolean mask (True = may attend)."""
from __future__ import annotations

import numpy as np

from .. import masks as _masks
from ..checks._contract import TORCH_FOR_ARRAY, invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ..checks.masks_and_cross_attention import random_mask, range_case
from ..cross_attention import cross_attention as _reference
from ._card import Card, Contract, Example

_MAIN, _MASKED = "test_cross_attention", "test_cross_attention_masked"
_BOTH = (_MAIN, _MASKED)

_SHIFT_PRINCIPLE = ("Shift each row by the largest score among its allowed keys only: a masked key "
                    "may hold any score, and a shift by it can push every allowed exponential "
                    "below the smallest float (0/0).")

CARD = Card(
    "cross_attention", "04_masks_and_cross_attention",
    summary="queries from X_q, keys and values from X_kv: softmax(Q Kᵀ / √Dk) V, masked where the "
            "mask is False",
    contract=Contract(
        args=("X_q", "X_kv", "W_q", "W_k", "W_v"), reference=_reference, invoke=invoke_numpy,
        outputs=("output", "weights"),
        shapes="X_q (..., Lq, Dq), X_kv (..., Lk, Dkv), W_q (Dq, Dk), W_k (Dkv, Dk), W_v (Dkv, Dv); "
               "mask (keyword, optional) boolean, broadcastable to (..., Lq, Lk), True = may attend",
        returns="(output (..., Lq, Dv), weights (..., Lq, Lk)): each weight row sums to one over its "
                "allowed keys; a query with no allowed key gets zero weights and a zero output"),
    mistakes=[
        Mistake(
            "the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score (far above the allowed ones) makes every allowed exp underflow, and the "
            "row comes out all zero",
            principle=_SHIFT_PRINCIPLE,
            fix="take the max after masking: `s = np.where(mask, scores, -np.inf)`, then "
                "`s - s.max(axis=-1, keepdims=True)`.",
            fails=(_MASKED,), code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
                    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
                    if mask is not None:
                        e = e * mask                      # masked after the shift: the max saw the masked keys
                    total = e.sum(axis=-1, keepdims=True)
                    weights = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
                    return weights @ V, weights
                '''),
        Mistake(
            "the mask applied after the softmax (weights * mask) without renormalising",
            principle="Masked keys are left out of the softmax itself, so that each row's allowed "
                      "weights still sum to one.",
            fix="mask the scores before the softmax (`np.where(mask, scores, -np.inf)`), or divide the "
                "masked weights by their row sum again.",
            fails=(_MASKED,), code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
                    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
                    weights = e / e.sum(axis=-1, keepdims=True)
                    if mask is not None:
                        weights = weights * mask          # zeroed after the softmax: rows no longer sum to 1
                    return weights @ V, weights
                '''),
        Mistake(
            "`X.T` on a batch: it reverses every axis, not just the last two",
            principle="Transpose only the last two axes, so that leading batch axes stay where they are.",
            fix="transpose only the last two axes: `np.swapaxes(K, -1, -2)` (or use "
                "`attnlab.scaled_dot_product_attention`).",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ K.T / np.sqrt(Q.shape[-1])
                    weights = attnlab.masked_softmax(scores, mask)
                    return weights @ V, weights
                '''),
        Mistake(
            "queries projected from X_kv instead of X_q",
            principle="Queries come from the query sequence X_q.",
            fix="queries come from the sequence that asks: `Q = X_q @ W_q`; only keys and values "
                "come from X_kv.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q = X_kv @ W_q
                    K = X_kv @ W_k
                    V = X_kv @ W_v
                    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
                '''),
        Mistake(
            "keys and values taken from X_q (self-attention, X_kv unused)",
            principle="Keys and values come from the other sequence, X_kv.",
            fix="cross-attention looks at the *other* sequence: `K = X_kv @ W_k`, `V = X_kv @ W_v`.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_q @ W_k, X_q @ W_v, mask)
                '''),
        Mistake(
            "W_k used for the values",
            principle="Values have their own projection, W_v.",
            fix="values have their own projection: `V = X_kv @ W_v` (of width Dv, which may differ from Dk).",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q = X_q @ W_q
                    K = X_kv @ W_k
                    V = X_kv @ W_k
                    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
                '''),
        Mistake(
            "scaling by √Dv instead of √Dk",
            principle="The scale comes from the query/key width Dk, not the value width.",
            fix="the scores are dot products of width-Dk queries and keys: divide by "
                "`np.sqrt(W_q.shape[1])`.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(V.shape[-1])
                    weights = attnlab.masked_softmax(scores, mask)
                    return weights @ V, weights
                '''),
        Mistake(
            "scaling by Dk instead of √Dk",
            principle="The scale is the square root of Dk, not Dk itself.",
            fix="divide the scores by `np.sqrt(Dk)`, not by Dk.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / Q.shape[-1]
                    weights = attnlab.masked_softmax(scores, mask)
                    return weights @ V, weights
                '''),
        Mistake(
            "no scaling of the scores",
            principle="Scores are divided by the square root of the width of the dot product.",
            fix="divide `Q Kᵀ` by `√Dk` before the softmax.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    weights = attnlab.masked_softmax(Q @ np.swapaxes(K, -1, -2), mask)
                    return weights @ V, weights
                '''),
        Mistake(
            "scaling by √Dq (the width of X_q) instead of √Dk",
            principle="The scale comes from the projected width Dk, not the input width of X_q.",
            fix="scale by the width of the projected queries and keys, `W_q.shape[1]`.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X_q.shape[-1])
                    weights = attnlab.masked_softmax(scores, mask)
                    return weights @ V, weights
                '''),
        Mistake(
            "a softmax over the queries (axis -2) instead of the keys",
            principle="Each query's weights over the keys sum to one: normalise over the last axis.",
            fix="each query's weights over the Lk keys must sum to one: softmax over the last axis.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    weights = attnlab.softmax(scores, axis=-2)
                    return weights @ V, weights
                '''),
        Mistake(
            "ignoring the mask",
            principle="Masked-out keys must get weight exactly zero.",
            fix="pass `mask` on to the attention (`attnlab.scaled_dot_product_attention(Q, K, V, mask)`).",
            fails=(_MASKED,), code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v)
                '''),
        Mistake(
            "the mask inverted (True treated as blocked)",
            principle="True means \"may attend\": keep the scores where the mask is True.",
            fix="True = may attend: pass the mask as it is, without `~`.",
            fails=(_MASKED,), code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    if mask is not None:
                        mask = ~mask
                    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
                '''),
        Mistake(
            "the mask transposed: applied along the query axis instead of the key axis (the wrong axis)",
            principle="A mask hides keys: it varies along the last (key) axis of the scores, one row per query.",
            fix="the mask is (..., Lq, Lk), one row per query: pass it as it is, without `.T` or "
                "`swapaxes`, so that it blocks keys.",
            fails=(_MASKED,), code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    if mask is not None:
                        mask = np.swapaxes(mask, -1, -2)
                    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
                '''),
        Mistake(
            "returning only the output, not (output, weights)",
            principle="The contract returns a pair: the output and the weights.",
            fix="return both: `return output, weights`.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    output, weights = attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
                    return output
                '''),
        Mistake(
            "returning (weights, output) in the wrong order",
            principle="The contract returns the output first, then the weights.",
            fix="return `output, weights`, in that order.",
            fails=_BOTH, code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    output, weights = attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
                    return weights, output
                '''),
        Mistake(
            "filling masked scores with -inf: a fully masked row becomes 0/0 = NaN",
            principle="A row with no allowed key needs its own rule: all-zero weights, never 0/0.",
            fix="keep the weights only where the mask is True: `np.where(mask, weights, 0.0)` "
                "turns the NaN of a fully masked row into zeros.",
            fails=(_MASKED,), code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
                    if mask is not None:
                        scores = np.where(mask, scores, -np.inf)
                    weights = attnlab.softmax(scores)
                    return weights @ V, weights
                '''),
        Mistake(
            "the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score (far above the allowed ones) makes every allowed exp underflow, 0/0 = NaN",
            principle=_SHIFT_PRINCIPLE,
            fix="take the max after masking: `s = np.where(mask, scores, -np.inf)`, then "
                "`s - s.max(axis=-1, keepdims=True)` (and zero the rows with no allowed key).",
            fails=(_MASKED,), code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
                    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
                    if mask is not None:
                        e = e * mask
                    weights = e / e.sum(axis=-1, keepdims=True)
                    if mask is not None:                  # a query with no key: zeros
                        weights = np.where(np.any(mask, axis=-1, keepdims=True), weights, 0.0)
                    return weights @ V, weights
                '''),
        Mistake(
            "a masked softmax without the max subtraction: exp overflows for scores of 1e4 "
            "(inf / inf = NaN)",
            principle="Shift each row by its largest allowed score before exponentiating; the shift "
                      "cancels in the ratio and keeps exp below overflow.",
            fix="subtract each row's largest allowed score before `np.exp` (fill masked scores with "
                "-inf first); the shift cancels in the ratio.",
            fails=(_MASKED,), code='''
                def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
                    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
                    e = np.exp(scores)
                    if mask is not None:
                        e = np.where(mask, e, 0.0)
                    total = e.sum(axis=-1, keepdims=True)
                    weights = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
                    return weights @ V, weights
                '''),
    ],
    examples=[
        Example('''
            import torch

            def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
                Q, K, V = (torch.as_tensor(a) for a in (X_q @ W_q, X_kv @ W_k, X_kv @ W_v))
                scores = Q @ K.transpose(-1, -2) / K.shape[-1] ** 0.5
                if mask is not None:
                    scores = scores.masked_fill(~torch.as_tensor(mask), float("-inf"))
                weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
                return weights @ V, weights
            ''', _BOTH, TORCH_FOR_ARRAY.name),
    ],
)


def _case(rng, batch, Lq, Lk, Dq, Dkv, Dk, Dv, mask=None, why=""):
    args = (rng.normal(size=(*batch, Lq, Dq)), rng.normal(size=(*batch, Lk, Dkv)),
            rng.normal(size=(Dq, Dk)), rng.normal(size=(Dkv, Dk)), rng.normal(size=(Dkv, Dv)))
    return Case(args, {} if mask is None else {"mask": mask}, why=why)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(143 if hidden else 43, hidden)
    if hidden:
        return [
            _case(rng, (), 2, 5, 3, 3, 4, 2, why="Lq != Lk, Dk != Dv, one sequence"),
            _case(rng, (), 5, 3, 6, 4, 2, 3, why="Dq != Dkv"),
            _case(rng, (3,), 4, 2, 2, 5, 3, 6, why="a batch of 3"),
            _case(rng, (2, 2), 3, 4, 4, 3, 5, 2, why="two batch dimensions"),
        ]
    return [
        _case(rng, (), 3, 5, 5, 5, 3, 6, why="Lq != Lk, Dk != Dv, one sequence"),
        _case(rng, (), 4, 2, 3, 5, 4, 2, why="Dq != Dkv: X_q and X_kv live in different spaces"),
        _case(rng, (2,), 3, 6, 5, 3, 4, 2, why="a batch of 2"),
        _case(rng, (2, 3), 2, 4, 3, 4, 3, 5, why="two batch dimensions"),
    ]


def masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(144 if hidden else 44, hidden)
    lengths = np.array([2, 5, 3]) if hidden else np.array([5, 2])
    B = len(lengths)
    row_mask = random_mask(rng, (3, 4) if hidden else (4, 3))
    row_mask[0 if hidden else 2] = False
    return [
        _case(rng, (), row_mask.shape[0], row_mask.shape[1], 6, 6, 3, 5, mask=row_mask,
              why="one query with no key to attend to: zero weights and a zero output"),
        _case(rng, (B,), 3, 5, 4, 6, 3, 2, mask=_masks.padding_mask(lengths, 5)[:, None, :],
              why="a padding mask (B, 1, Lk) on the keys"),
        _range_case(rng, 3 if hidden else 2, 4, 3),
    ]


def _range_case(rng, Lq, Lk, Dv):
    """Scores of +-1e4 whose masked keys hold the row's largest score: X_q holds the scores,
    W_q = I, X_kv = I and W_k = √Dk I (Dq = Dkv = Dk = Lk), so Q Kᵀ / √Dk = X_q."""
    scores, mask = range_case(rng, (Lq, Lk)).args
    args = (scores, np.eye(Lk), np.eye(Lk), np.sqrt(Lk) * np.eye(Lk), rng.normal(size=(Lk, Dv)))
    return Case(args, {"mask": mask}, why="scores of +-1e4, masked keys holding each row's largest score")


def check_cross_attention(cross_attention, hidden: bool = False) -> None:
    """Check that ``cross_attention`` attends from ``X_q`` over ``X_kv`` (no mask)."""
    CARD.check(cross_attention, cases(hidden), hidden=hidden,
               passed="output and weights match, batched and not")


def check_cross_attention_masked(cross_attention, hidden: bool = False) -> None:
    """Check that ``cross_attention`` applies a boolean mask (True = may attend)."""
    CARD.check(cross_attention, masked_cases(hidden), hidden=hidden,
               passed="masks are applied, fully masked queries give zeros")
