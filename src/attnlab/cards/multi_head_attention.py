"""multi_head_attention (notebook 05): split Q, K and V into heads, attend in each head (scale
√(D/H)), merge the heads and project with W_o.

The mistakes are flag-style: each is :func:`variant` with one change (``partial(variant, flag=...)``),
so that the checks can name two of them at once; each also carries its learner code. The
module's card (``MultiHeadAttention``) builds its own mistakes on :func:`variant` too.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from .. import masks as _masks
from .. import multi_head as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example


def variant(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None, biases=(None,) * 4, *,
            scale="head", split_mode="ok", merge_mode="ok", axis=-1, out_proj=True, mask_mode="ok",
            weights_mode="heads", W_o_T=False, one_head=False, transposed=False,
            use_bias=True, query_length=False):
    """Multi-head attention with one deliberate change (the keyword arguments name it)."""
    X_q, X_kv = np.asarray(X_q, dtype=float), np.asarray(X_kv, dtype=float)
    Ws = [np.asarray(W, dtype=float) for W in (W_q, W_k, W_v, W_o)]
    if transposed:
        Ws = [W.T for W in Ws]
    W_q, W_k, W_v, W_o = Ws
    b_q, b_k, b_v, b_o = (np.zeros(W_q.shape[1]) if b is None or not use_bias else np.asarray(b)
                          for b in biases)
    B, Lq, D = X_q.shape
    H = 1 if one_head else num_heads
    Dh = D // H

    def split(X):
        B_, L, _ = X.shape
        if query_length:  # code that assumes Lq == Lk: every sequence reshaped with Lq
            L = Lq
        if split_mode == "no_transpose":
            return X.reshape(B_, H, L, Dh)
        if split_mode == "interleaved":
            return X.reshape(B_, L, Dh, H).transpose(0, 3, 1, 2)
        return X.reshape(B_, L, H, Dh).transpose(0, 2, 1, 3)

    def merge(Z):
        if merge_mode == "no_transpose":
            return Z.reshape(B, Lq, D)
        if merge_mode == "interleaved" or split_mode == "interleaved":
            return Z.transpose(0, 2, 3, 1).reshape(B, Lq, D)
        return Z.transpose(0, 2, 1, 3).reshape(B, Lq, D)

    Q, K, V = split(X_q @ W_q + b_q), split(X_kv @ W_k + b_k), split(X_kv @ W_v + b_v)
    scores = Q @ np.swapaxes(K, -1, -2)  # (B, H, Lq, Lk)
    scores = scores / {"head": np.sqrt(Dh), "model": np.sqrt(D), "ratio": D / num_heads,
                       "none": 1.0}[scale]
    if mask is not None and mask_mode == "unsqueeze1":  # a head axis added in the wrong place
        mask = np.asarray(mask)[:, None]
    if mask is not None and mask_mode != "ignored":
        mask = np.broadcast_to(~mask if mask_mode == "inverted" else mask, scores.shape)
    else:
        mask = np.ones(scores.shape, dtype=bool)
    if mask_mode in ("finite", "nan"):  # masked_fill(-10000) / masked_fill(-inf), then a softmax
        s = np.where(mask, scores, -1e4 if mask_mode == "finite" else -np.inf)
        e = np.exp(s - s.max(axis=-1, keepdims=True))  # NaN on a fully masked row with -inf
        weights = e / e.sum(axis=-1, keepdims=True)
    elif axis == -1:
        weights = _masks.masked_softmax(scores, mask)
    else:
        weights = np.moveaxis(_masks.masked_softmax(np.moveaxis(scores, axis, -1),
                                                    np.moveaxis(mask, axis, -1)), -1, axis)
    out = merge(weights @ V)
    if out_proj:
        out = out @ (W_o.T if W_o_T else W_o) + b_o
    if weights_mode == "mean" or one_head:
        weights = weights.mean(axis=1)
    return out, weights


def _flags(**flags):
    """A flag-style mistake's behaviour, with the signature of ``multi_head_attention``."""
    return partial(variant, **flags)


_RIGHT = dict(split_q="attnlab.split_heads(X_q @ W_q, num_heads)",
              split_k="attnlab.split_heads(X_kv @ W_k, num_heads)",
              split_v="attnlab.split_heads(X_kv @ W_v, num_heads)",
              scores="Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)",
              softmax="attnlab.masked_softmax(scores, mask)",
              out="attnlab.merge_heads(Z) @ W_o", weights="weights")


def _cell(**changes: str) -> str:
    """A learner's multi_head_attention cell written from the pieces, with ``changes``."""
    p = {**_RIGHT, **changes}
    return f'''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    B, Lq, D = X_q.shape
    Lk = X_kv.shape[1]
    Dh = D // num_heads
    Q = {p["split_q"]}
    K = {p["split_k"]}
    V = {p["split_v"]}
    scores = {p["scores"]}
    weights = {p["softmax"]}
    Z = weights @ V
    return {p["out"]}, {p["weights"]}
'''


_BOTH = ("test_multi_head_attention", "test_multi_head_attention_masked")
_PLAIN = ("test_multi_head_attention",)
_MASKED = ("test_multi_head_attention_masked",)

CARD = Card(
    "multi_head_attention", "05_multi_head_attention",
    summary="split Q, K, V into H heads, attend in each with scale √(D/H), merge, project with W_o",
    contract=Contract(
        args=("X_q", "X_kv", "W_q", "W_k", "W_v", "W_o", "num_heads"),
        reference=_ref.multi_head_attention, invoke=invoke_numpy, outputs=("output", "weights"),
        shapes="X_q (B, Lq, D), X_kv (B, Lk, D), W_q, W_k, W_v, W_o (D, D), num_heads = H a divisor "
               "of D; mask (optional, keyword) boolean, broadcastable to (B, H, Lq, Lk), True = may attend",
        returns="(output (B, Lq, D), weights (B, H, Lq, Lk)); a fully masked row has zero weights"),
    mistakes=[
        Mistake(
            "scaling by √D (the model width) instead of √(D/H) (the head width)",
            principle="Each head's dot product has Dh = D/H terms: the scale is √Dh.",
            fix="each head's dot products have Dh = D / H terms: divide the scores by `np.sqrt(D // H)`.",
            impl=_flags(scale="model"), fails=_BOTH,
            code=_cell(scores="Q @ np.swapaxes(K, -1, -2) / np.sqrt(D)")),
        Mistake(
            "scaling by D/H instead of √(D/H)",
            principle='The scale is the square root of the head width.',
            fix="divide by the square root of the head width, `np.sqrt(D // num_heads)`.",
            impl=_flags(scale="ratio"), fails=_BOTH,
            code=_cell(scores="Q @ np.swapaxes(K, -1, -2) / (D / num_heads)")),
        Mistake(
            "no scaling of the scores",
            principle='Scores are divided by the square root of the width of the dot product.',
            fix="divide every head's scores by `√(D/H)`.",
            impl=_flags(scale="none"), fails=_BOTH,
            code=_cell(scores="Q @ np.swapaxes(K, -1, -2)")),
        Mistake(
            "no output projection (W_o unused)",
            principle='After merging the heads, project with W_o.',
            fix="after merging the heads, multiply by `W_o`: `merge_heads(Z) @ W_o`.",
            impl=_flags(out_proj=False), fails=_BOTH,
            code=_cell(out="attnlab.merge_heads(Z)")),
        Mistake(
            "W_o transposed (`@ W_o.T`)",
            principle='Weights are (in, out) and multiply on the right, as they are.',
            fix="the course multiplies `X @ W` with W of shape (in, out): `merge_heads(Z) @ W_o`.",
            impl=_flags(W_o_T=True), fails=_BOTH,
            code=_cell(out="attnlab.merge_heads(Z) @ W_o.T")),
        Mistake(
            "heads split without the transpose (a reshape straight to (B, H, L, Dh))",
            principle='Cut the features into heads, then move the head axis in front of the sequence.',
            fix="use `attnlab.split_heads` (or reshape to (B, L, H, Dh) and swap axes 1 and 2).",
            impl=_flags(split_mode="no_transpose"), fails=_BOTH,
            code=_cell(split_q="(X_q @ W_q).reshape(B, num_heads, Lq, Dh)",
                       split_k="(X_kv @ W_k).reshape(B, num_heads, Lk, Dh)",
                       split_v="(X_kv @ W_v).reshape(B, num_heads, Lk, Dh)")),
        Mistake(
            "heads merged without transposing back (a reshape straight to (B, L, D))",
            principle='Move the head axis back behind the sequence before joining the heads.',
            fix="use `attnlab.merge_heads` (or swap axes 1 and 2 back before reshaping to (B, L, D)).",
            impl=_flags(merge_mode="no_transpose"), fails=_BOTH,
            code=_cell(out="Z.reshape(B, Lq, D) @ W_o")),
        Mistake(
            "heads split and merged without the transposes (plain reshapes to (B, H, L, Dh) and back)",
            principle='A reshape alone cuts the sequence, not the features: move the head axis explicitly both '
                       'ways.',
            fix="a reshape alone cuts the sequence, not the features: use `attnlab.split_heads` and "
                "`attnlab.merge_heads` (reshape to (B, L, H, Dh), then swap axes 1 and 2; and back).",
            impl=_flags(split_mode="no_transpose", merge_mode="no_transpose"), fails=_BOTH,
            code=_cell(split_q="(X_q @ W_q).reshape(B, num_heads, Lq, Dh)",
                       split_k="(X_kv @ W_k).reshape(B, num_heads, Lk, Dh)",
                       split_v="(X_kv @ W_v).reshape(B, num_heads, Lk, Dh)",
                       out="Z.reshape(B, Lq, D) @ W_o")),
        Mistake(
            "interleaved heads (columns h, h+H, ... instead of h*Dh:(h+1)*Dh)",
            principle='Head h owns a contiguous block of Dh columns.',
            fix="head h owns the contiguous columns h*Dh:(h+1)*Dh: use `attnlab.split_heads` and "
                "`attnlab.merge_heads`.",
            impl=_flags(split_mode="interleaved"), fails=_BOTH,
            code=_cell(split_q="(X_q @ W_q).reshape(B, Lq, Dh, num_heads).transpose(0, 3, 1, 2)",
                       split_k="(X_kv @ W_k).reshape(B, Lk, Dh, num_heads).transpose(0, 3, 1, 2)",
                       split_v="(X_kv @ W_v).reshape(B, Lk, Dh, num_heads).transpose(0, 3, 1, 2)",
                       out="Z.transpose(0, 2, 3, 1).reshape(B, Lq, D) @ W_o")),
        Mistake(
            "a softmax over the heads (axis 1) instead of the keys",
            principle="In every head, each query's weights over the keys sum to one: normalise over the last "
                       'axis.',
            fix="each query's weights over the keys must sum to one, in every head: softmax over the "
                "last axis.",
            impl=_flags(axis=1), fails=_PLAIN,
            code=_cell(softmax="attnlab.softmax(np.where(mask, scores, -1e9) if mask is not None "
                               "else scores, axis=1)")),
        Mistake(
            "a softmax over the queries (axis -2) instead of the keys",
            principle="Each query's weights over the keys sum to one: normalise over the last axis.",
            fix="softmax over the last axis (the keys).",
            impl=_flags(axis=-2), fails=_PLAIN,
            code=_cell(softmax="attnlab.softmax(np.where(mask, scores, -1e9) if mask is not None "
                               "else scores, axis=-2)")),
        Mistake(
            "one head of width D instead of H heads",
            principle='Split into num_heads heads and attend in each; the weights have a head axis.',
            fix="split Q, K and V into `num_heads` heads (`attnlab.split_heads`), attend in each head, "
                "then merge; the weights have shape (B, H, Lq, Lk).",
            impl=_flags(one_head=True), fails=_PLAIN, code='''
                def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
                    out, weights = attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
                    return out @ W_o, weights
                '''),
        Mistake(
            "weights averaged over the heads, shape (B, Lq, Lk)",
            principle="Return every head's weights, with the head axis.",
            fix="return every head's weights, shape (B, H, Lq, Lk) (nn.MultiheadAttention averages them; "
                "this course does not).",
            impl=_flags(weights_mode="mean"), fails=_BOTH,
            code=_cell(weights="weights.mean(axis=1)")),
        Mistake(
            "ignoring the mask",
            principle='Masked-out keys must get weight exactly zero.',
            fix="pass `mask` to the attention of every head "
                "(`attnlab.scaled_dot_product_attention(Q, K, V, mask)` broadcasts it over the heads).",
            impl=_flags(mask_mode="ignored"), fails=_MASKED,
            code=_cell(softmax="attnlab.softmax(scores)")),
        Mistake(
            "the mask inverted (True treated as blocked)",
            principle='True means "may attend": keep the scores where the mask is True.',
            fix="True = may attend: pass the mask as it is.",
            impl=_flags(mask_mode="inverted"), fails=_MASKED,
            code=_cell(softmax="attnlab.masked_softmax(scores, None if mask is None else ~mask)")),
        Mistake(
            "the query length used for the keys too (code that assumes Lq == Lk)",
            principle='Queries and keys may have different lengths: read each length from its own sequence.',
            fix="take each sequence's length from its own array: `Lk = X_kv.shape[1]` for the keys and "
                "values.",
            impl=_flags(query_length=True), fails=_BOTH,
            code=_cell(split_k="(X_kv @ W_k).reshape(B, Lq, num_heads, Dh).transpose(0, 2, 1, 3)",
                       split_v="(X_kv @ W_v).reshape(B, Lq, num_heads, Dh).transpose(0, 2, 1, 3)")),
        Mistake(
            "a mask with an axis added in the wrong place (`mask.unsqueeze(1)` / `mask[:, None]`)",
            principle='A mask lines up with the scores from the right (keys last, queries before them): add no '
                       'axis that shifts them.',
            fix="the mask already broadcasts against (B, H, Lq, Lk) (it comes as (Lq, Lk) or (B, 1, 1, Lk)): "
                "pass it as it is; an extra axis shifts its query and key axes onto the wrong ones.",
            impl=_flags(mask_mode="unsqueeze1"), fails=_MASKED,
            code=_cell(softmax="attnlab.masked_softmax(scores, mask[:, None] if mask is not None else None)")),
        Mistake(
            "masked scores filled with a finite number (`masked_fill(~mask, -10000)`, -1e9): a finite fill "
            "value; a fully masked row must give zero weights, not uniform weights and the mean of the values",
            principle="A row with no key to attend to has no weights to share: every weight 0 and a "
                      "zero output. A finite fill leaves a softmax over equal scores, which is uniform; "
                      "mask with -inf and zero the rows that have no allowed key.",
            fix="fill with `-inf` and set the weights of fully masked rows to 0 (`attnlab.masked_softmax` does "
                "both), or zero them with `torch.where(mask.any(-1, keepdim=True), weights, 0)` after the softmax.",
            impl=_flags(mask_mode="finite"), fails=_MASKED,
            code=_cell(softmax="attnlab.softmax(scores if mask is None else np.where(mask, scores, -1e4))")),
        Mistake(
            "masked scores filled with -inf: a fully masked row becomes 0/0 = NaN",
            principle="A fully masked row has no allowed key: its softmax divides 0 by 0. Give such "
                      "rows zero weights after the softmax instead of NaN.",
            fix="after the softmax, set the weights of fully masked rows to 0 (`attnlab.masked_softmax` does it).",
            impl=_flags(mask_mode="nan"), fails=_MASKED,
            code=_cell(softmax="attnlab.softmax(scores if mask is None else np.where(mask, scores, -np.inf))")),
    ],
    examples=[
        Example(_cell(scores="Q @ np.swapaxes(K, -1, -2)", out="attnlab.merge_heads(Z)"), _BOTH,
                "two known mistakes at once: no scaling of the scores; and no output projection (W_o unused)"),
    ],
)


def _case(rng, B, Lq, Lk, D, H, mask=None, why="", self_attention=False):
    X_q = rng.normal(size=(B, Lq, D))
    X_kv = X_q.copy() if self_attention else rng.normal(size=(B, Lk, D))
    Ws = tuple(rng.normal(size=(D, D)) / np.sqrt(D) * 1.5 for _ in range(4))
    return Case((X_q, X_kv, *Ws, H), {} if mask is None else {"mask": mask},
                why=why or f"{H} heads of width {D // H}, Lq={Lq}, Lk={Lk}")


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(153 if hidden else 53, hidden)
    if hidden:
        return [_case(rng, 2, 5, 3, 12, 4), _case(rng, 2, 3, 3, 6, 2, self_attention=True,
                                                  why="self-attention, 2 heads of width 3"),
                _case(rng, 1, 2, 7, 16, 4)]
    return [_case(rng, 2, 3, 5, 8, 2),
            _case(rng, 1, 4, 4, 8, 4, self_attention=True, why="self-attention, 4 heads of width 2"),
            _case(rng, 3, 2, 6, 12, 3),
            _case(rng, 1, 1, 3, 9, 3, why="B=1, one query token, D=9 (odd), 3 heads of width 3")]


def _large_case(rng, B, Lq, Lk, D, H, why=""):
    """Scores of the ±1e4 range, with every row's largest score (in every head) on a masked key:
    a softmax that takes its maximum over the masked keys too underflows to 0/0."""
    X_q, X_kv = rng.normal(size=(B, Lq, D)), rng.normal(size=(B, Lk, D))
    Ws = tuple(rng.normal(size=(D, D)) / np.sqrt(D) * 1.5 for _ in range(4))
    Dh = D // H

    def scores(X_q, X_kv):
        Q = (X_q @ Ws[0]).reshape(B, Lq, H, Dh).transpose(0, 2, 1, 3)  # (B, H, Lq, Dh)
        K = (X_kv @ Ws[1]).reshape(B, Lk, H, Dh).transpose(0, 2, 1, 3)  # (B, H, Lk, Dh)
        return Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)  # (B, H, Lq, Lk)

    factor = np.sqrt(1e4 / np.abs(scores(X_q, X_kv)).max())
    X_q, X_kv = X_q * factor, X_kv * factor  # now max |score| = 1e4
    top = scores(X_q, X_kv).argmax(axis=-1)  # (B, H, Lq)
    mask = np.ones((B, 1, Lq, Lk), dtype=bool)
    for b, h, q in np.ndindex(top.shape):
        mask[b, 0, q, top[b, h, q]] = False  # Lk > H: every row keeps an allowed key
    return Case((X_q, X_kv, *Ws, H), {"mask": mask},
                why=why or f"scores of ±1e4 with each row's largest score on a masked key, {H} heads "
                           f"of width {Dh}, a mask (B, 1, Lq, Lk)")


def masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(154 if hidden else 54, hidden)
    lengths = np.array([3, 0, 5]) if hidden else np.array([5, 0])
    Lq = 4 if hidden else 3
    return [
        _case(rng, 2, 5 if hidden else 4, 5 if hidden else 4, 12 if hidden else 8,
              3 if hidden else 2, mask=_masks.causal_mask(*(2 * (5 if hidden else 4,))),
              self_attention=True, why="a causal mask (Lq, Lk), the same for every head"),
        _case(rng, len(lengths), Lq, 5, 8, 4,
              mask=_masks.padding_mask(lengths, 5)[:, None, None, :],
              why="a padding mask (B, 1, 1, Lk) with a sequence of length 0"),
        _large_case(rng, *((2, 3, 6, 8, 4) if hidden else (1, 4, 5, 6, 2))),
    ]


def check_multi_head_attention(multi_head_attention, hidden: bool = False) -> None:
    """Check that ``multi_head_attention`` splits, attends per head, merges and projects."""
    CARD.check(multi_head_attention, cases(hidden), hidden=hidden,
               passed="output (B, Lq, D) and weights (B, H, Lq, Lk) match")


def check_multi_head_attention_masked(multi_head_attention, hidden: bool = False) -> None:
    """Check that ``multi_head_attention`` applies one boolean mask to every head."""
    CARD.check(multi_head_attention, masked_cases(hidden), hidden=hidden,
               passed="masks broadcast over the heads")
