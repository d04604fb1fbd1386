"""MultiHeadAttention (notebook 05): multi-head attention as a torch module, with four
``nn.Linear(d_model, d_model)`` projections ``W_q, W_k, W_v, W_o`` and an optional mask.

The check builds the learner's class with known weights (:func:`attnlab.checks.multi_head_attention.invoke_module`)
and compares ``forward`` with the numpy reference. A structural mistake's code (the projections'
names, sizes and biases, the class itself, dropout) is run the same way: its ``impl`` is its class
called through ``invoke_module``. The others are flag-style (``partial(_module_variant, flag=...)``,
built on :func:`attnlab.cards.multi_head_attention.variant`), so that the checks can name two at
once; each carries its learner code too.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from .. import masks as _masks
from ..checks import _divergence
from ..checks._core import Case, Mistake, case_rng
from ..checks._modules import DROPOUT_FIX, DROPOUT_PRINCIPLE
from ..checks.multi_head_attention import MODULE_ARGS, invoke_module, module_reference
from .multi_head_attention import variant
from ._card import Card, Contract


def _uses() -> dict:
    import attnlab.torch as at

    return {"at": at}  # the notebook's setup cell: `import attnlab.torch as at`


def _module_variant(X_q, X_kv, num_heads, mask, W_q, W_k, W_v, W_o,
                    b_q=None, b_k=None, b_v=None, b_o=None, **flags):
    """The module's answer with one deliberate change (the flags of ``variant``)."""
    return variant(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask, (b_q, b_k, b_v, b_o), **flags)


def _flags(**flags):
    return partial(_module_variant, **flags)


_INIT = '''        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)'''

_RIGHT = dict(
    header="class MultiHeadAttention(nn.Module):", init=_INIT,
    split_q="at.split_heads(self.W_q(X_q), H)", split_k="at.split_heads(self.W_k(X_kv), H)",
    split_v="at.split_heads(self.W_v(X_kv), H)",
    scores="Q @ K.transpose(-1, -2) / math.sqrt(self.d_model // H)",
    softmax="at.masked_softmax(scores, mask)", out="self.W_o(at.merge_heads(Z))", weights="weights")


def _cell(**changes: str) -> str:
    """A learner's MultiHeadAttention cell, with ``changes`` to its pieces."""
    p = {**_RIGHT, **changes}
    return f'''import math

{p["header"]}
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.d_model = d_model
{p["init"]}

    def forward(self, X_q, X_kv, mask=None):
        B, Lq, D = X_q.shape
        Lk = X_kv.shape[1]
        H = self.num_heads
        Q = {p["split_q"]}
        K = {p["split_k"]}
        V = {p["split_v"]}
        scores = {p["scores"]}
        weights = {p["softmax"]}
        Z = weights @ V
        return {p["out"]}, {p["weights"]}
'''


_BOTH = ("test_mha_module", "test_mha_module_bias_mask")
_PLAIN = ("test_mha_module",)
_MASKED = ("test_mha_module_bias_mask",)

CARD = Card(
    "MultiHeadAttention", "05_multi_head_attention", solution="mha_module",
    summary="multi-head attention with learned projections: nn.Linear layers W_q, W_k, W_v, W_o, and "
            "forward(X_q, X_kv, mask) returning (output, weights)",
    contract=Contract(
        args=MODULE_ARGS, reference=module_reference, invoke=invoke_module, outputs=("output", "weights"),
        reference_module=_divergence.multi_head_attention_class,
        shapes="MultiHeadAttention(d_model, num_heads, bias=False) has four nn.Linear(d_model, d_model, "
               "bias=bias) layers W_q, W_k, W_v, W_o; forward takes X_q (B, Lq, D), X_kv (B, Lk, D) and "
               "a boolean mask broadcastable to (B, H, Lq, Lk), True = may attend",
        returns="(output (B, Lq, D), weights (B, H, Lq, Lk)), the weights softmax(Q Kᵀ / √(D/H)) of "
                "every head, a fully masked row all 0"),
    uses=_uses,
    mistakes=[
        Mistake(
            "the projections not stored as self.W_q, self.W_k, self.W_v, self.W_o (nn.Linear)",
            principle="The four projections are linear layers stored under the names the stub gives.",
            fix="in __init__, create exactly these four attributes: "
                "`self.W_q = nn.Linear(d_model, d_model, bias=bias)` and likewise W_k, W_v, W_o (the "
                "check copies known weights into them).",
            fails=_BOTH, code=_cell(
                init='''        self.q_proj = nn.Linear(d_model, d_model, bias=bias)
        self.k_proj = nn.Linear(d_model, d_model, bias=bias)
        self.v_proj = nn.Linear(d_model, d_model, bias=bias)
        self.out_proj = nn.Linear(d_model, d_model, bias=bias)''',
                split_q="at.split_heads(self.q_proj(X_q), H)", split_k="at.split_heads(self.k_proj(X_kv), H)",
                split_v="at.split_heads(self.v_proj(X_kv), H)", out="self.out_proj(at.merge_heads(Z))")),
        Mistake(
            "projections that are not (d_model, d_model)",
            principle="Every projection maps d_model to d_model; heads are cut from its output.",
            fix="every projection maps d_model to d_model: `nn.Linear(d_model, d_model, bias=bias)`; "
                "the heads are cut out of its output by split_heads.",
            fails=_BOTH, code=_cell(
                init='''        self.W_q = nn.Linear(d_model, d_model // num_heads, bias=bias)
        self.W_k = nn.Linear(d_model, d_model // num_heads, bias=bias)
        self.W_v = nn.Linear(d_model, d_model // num_heads, bias=bias)
        self.W_o = nn.Linear(d_model // num_heads, d_model, bias=bias)''')),
        Mistake(
            "nn.Linear's default bias=True used although bias=False",
            principle="The constructor's bias setting must reach every projection.",
            fix="pass the constructor's argument on: `nn.Linear(d_model, d_model, bias=bias)`.",
            fails=_PLAIN, code=_cell(
                init='''        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)''')),
        Mistake(
            "the `bias` argument ignored (no bias although bias=True)",
            principle="The constructor's bias setting must reach every projection.",
            fix="pass the constructor's argument on: `nn.Linear(d_model, d_model, bias=bias)`.",
            fails=_MASKED, code=_cell(
                init='''        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.W_o = nn.Linear(d_model, d_model, bias=False)''')),
        Mistake(
            "not an nn.Module",
            principle="The class must be a torch module, initialised as one.",
            fix="declare `class MultiHeadAttention(nn.Module)` and call `super().__init__()` first in __init__.",
            fails=_BOTH, code=_cell(header="class MultiHeadAttention:")),
        Mistake(
            "dropout left active in eval mode",
            principle=DROPOUT_PRINCIPLE, fix=DROPOUT_FIX,
            fails=_BOTH, code=_cell(weights="torch.nn.functional.dropout(weights, 0.1)")),
        Mistake(
            "`X @ self.W_q.weight`: nn.Linear stores its weight as (out, in)",
            principle="A linear layer's weight is stored (out, in): let the layer apply itself, or transpose.",
            fix="call the layer, `self.W_q(X)`, which computes `X @ weight.T + bias`.",
            impl=_flags(transposed=True), fails=_PLAIN, code=_cell(
                split_q="at.split_heads(X_q @ self.W_q.weight, H)",
                split_k="at.split_heads(X_kv @ self.W_k.weight, H)",
                split_v="at.split_heads(X_kv @ self.W_v.weight, H)",
                out="at.merge_heads(Z) @ self.W_o.weight")),
        Mistake(
            "the projections' biases left out (`X @ self.W_q.weight.T` without `+ self.W_q.bias`)",
            principle="A linear layer is weight and bias: apply both.",
            fix="call the layers (`self.W_q(X_q)`), which add their biases.",
            impl=_flags(use_bias=False), fails=_MASKED, code=_cell(
                split_q="at.split_heads(X_q @ self.W_q.weight.T, H)",
                split_k="at.split_heads(X_kv @ self.W_k.weight.T, H)",
                split_v="at.split_heads(X_kv @ self.W_v.weight.T, H)",
                out="at.merge_heads(Z) @ self.W_o.weight.T")),
        Mistake(
            "scaling by √D (the model width) instead of √(D/H) (the head width)",
            principle="Each head's dot product has Dh = D/H terms: the scale is √Dh.",
            fix="each head's dot products have Dh = D / H terms: divide the scores by `math.sqrt(D // H)`.",
            impl=_flags(scale="model"), fails=_BOTH,
            code=_cell(scores="Q @ K.transpose(-1, -2) / math.sqrt(self.d_model)")),
        Mistake(
            "scaling by D/H instead of √(D/H)",
            principle="The scale is the square root of the head width.",
            fix="divide by the square root of the head width, `math.sqrt(D // num_heads)`.",
            impl=_flags(scale="ratio"), fails=_BOTH,
            code=_cell(scores="Q @ K.transpose(-1, -2) / (self.d_model / H)")),
        Mistake(
            "no scaling of the scores",
            principle="Scores are divided by the square root of the width of the dot product.",
            fix="divide every head's scores by `√(D/H)`.",
            impl=_flags(scale="none"), fails=_BOTH,
            code=_cell(scores="Q @ K.transpose(-1, -2)")),
        Mistake(
            "no output projection (W_o unused)",
            principle="After merging the heads, project with W_o.",
            fix="after merging the heads, multiply by `W_o`: `merge_heads(Z) @ W_o`.",
            impl=_flags(out_proj=False), fails=_BOTH,
            code=_cell(out="at.merge_heads(Z)")),
        Mistake(
            "W_o transposed (`@ W_o.T`)",
            principle="Weights are (in, out) and multiply on the right, as they are.",
            fix="the course multiplies `X @ W` with W of shape (in, out): `merge_heads(Z) @ W_o`.",
            impl=_flags(W_o_T=True), fails=_BOTH,
            code=_cell(out="nn.functional.linear(at.merge_heads(Z), self.W_o.weight.T, self.W_o.bias)")),
        Mistake(
            "heads split without the transpose (a reshape straight to (B, H, L, Dh))",
            principle="Cut the features into heads, then move the head axis in front of the sequence.",
            fix="use `attnlab.torch.split_heads` (or reshape to (B, L, H, Dh) and swap axes 1 and 2).",
            impl=_flags(split_mode="no_transpose"), fails=_BOTH,
            code=_cell(split_q="self.W_q(X_q).reshape(B, H, Lq, -1)",
                       split_k="self.W_k(X_kv).reshape(B, H, Lk, -1)",
                       split_v="self.W_v(X_kv).reshape(B, H, Lk, -1)")),
        Mistake(
            "heads merged without transposing back (a reshape straight to (B, L, D))",
            principle="Move the head axis back behind the sequence before joining the heads.",
            fix="use `attnlab.torch.merge_heads` (or swap axes 1 and 2 back before reshaping to (B, L, D)).",
            impl=_flags(merge_mode="no_transpose"), fails=_BOTH,
            code=_cell(out="self.W_o(Z.reshape(B, Lq, D))")),
        Mistake(
            "heads split and merged without the transposes (plain reshapes to (B, H, L, Dh) and back)",
            principle="A reshape alone cuts the sequence, not the features: move the head axis explicitly "
                      "both ways.",
            fix="a reshape alone cuts the sequence, not the features: use `attnlab.torch.split_heads` and "
                "`attnlab.torch.merge_heads` (reshape to (B, L, H, Dh), then swap axes 1 and 2; and back).",
            impl=_flags(split_mode="no_transpose", merge_mode="no_transpose"), fails=_BOTH,
            code=_cell(split_q="self.W_q(X_q).reshape(B, H, Lq, -1)",
                       split_k="self.W_k(X_kv).reshape(B, H, Lk, -1)",
                       split_v="self.W_v(X_kv).reshape(B, H, Lk, -1)",
                       out="self.W_o(Z.reshape(B, Lq, D))")),
        Mistake(
            "interleaved heads (columns h, h+H, ... instead of h*Dh:(h+1)*Dh)",
            principle="Head h owns a contiguous block of Dh columns.",
            fix="head h owns the contiguous columns h*Dh:(h+1)*Dh: use `attnlab.torch.split_heads` and "
                "`attnlab.torch.merge_heads`.",
            impl=_flags(split_mode="interleaved"), fails=_BOTH,
            code=_cell(split_q="self.W_q(X_q).reshape(B, Lq, -1, H).permute(0, 3, 1, 2)",
                       split_k="self.W_k(X_kv).reshape(B, Lk, -1, H).permute(0, 3, 1, 2)",
                       split_v="self.W_v(X_kv).reshape(B, Lk, -1, H).permute(0, 3, 1, 2)",
                       out="self.W_o(Z.permute(0, 2, 3, 1).reshape(B, Lq, D))")),
        Mistake(
            "a softmax over the heads (axis 1) instead of the keys",
            principle="In every head, each query's weights over the keys sum to one: normalise over the "
                      "last axis.",
            fix="each query's weights over the keys must sum to one, in every head: softmax over the last axis.",
            impl=_flags(axis=1), fails=_PLAIN,
            code=_cell(softmax="torch.softmax(scores if mask is None else scores.masked_fill(~mask, -1e9), dim=1)")),
        Mistake(
            "a softmax over the queries (axis -2) instead of the keys",
            principle="Each query's weights over the keys sum to one: normalise over the last axis.",
            fix="softmax over the last axis (the keys).",
            impl=_flags(axis=-2), fails=_PLAIN,
            code=_cell(softmax="torch.softmax(scores if mask is None else scores.masked_fill(~mask, -1e9), dim=-2)")),
        Mistake(
            "one head of width D instead of H heads",
            principle="Split into num_heads heads and attend in each; the weights have a head axis.",
            fix="split Q, K and V into `num_heads` heads (`attnlab.torch.split_heads`), attend in each head, "
                "then merge; the weights have shape (B, H, Lq, Lk).",
            impl=_flags(one_head=True), fails=_PLAIN, code='''
                import math

                class MultiHeadAttention(nn.Module):
                    def __init__(self, d_model, num_heads, bias=False):
                        super().__init__()
                        self.num_heads = num_heads
                        self.W_q = nn.Linear(d_model, d_model, bias=bias)
                        self.W_k = nn.Linear(d_model, d_model, bias=bias)
                        self.W_v = nn.Linear(d_model, d_model, bias=bias)
                        self.W_o = nn.Linear(d_model, d_model, bias=bias)

                    def forward(self, X_q, X_kv, mask=None):
                        Q, K, V = self.W_q(X_q), self.W_k(X_kv), self.W_v(X_kv)  # one wide head
                        Z, weights = at.scaled_dot_product_attention(Q, K, V, mask)
                        return self.W_o(Z), weights
                '''),
        Mistake(
            "weights averaged over the heads, shape (B, Lq, Lk)",
            principle="Return every head's weights, with the head axis.",
            fix="return every head's weights, shape (B, H, Lq, Lk) (nn.MultiheadAttention averages them; "
                "this course does not).",
            impl=_flags(weights_mode="mean"), fails=_BOTH,
            code=_cell(weights="weights.mean(dim=1)")),
        Mistake(
            "ignoring the mask",
            principle="Masked-out keys must get weight exactly zero.",
            fix="pass `mask` to the attention of every head "
                "(`attnlab.torch.scaled_dot_product_attention(Q, K, V, mask)` broadcasts it over the heads).",
            impl=_flags(mask_mode="ignored"), fails=_MASKED,
            code=_cell(softmax="torch.softmax(scores, dim=-1)")),
        Mistake(
            "the mask inverted (True treated as blocked)",
            principle='True means "may attend": keep the scores where the mask is True.',
            fix="True = may attend: pass the mask as it is.",
            impl=_flags(mask_mode="inverted"), fails=_MASKED,
            code=_cell(softmax="at.masked_softmax(scores, None if mask is None else ~mask)")),
        Mistake(
            "the query length used for the keys too (code that assumes Lq == Lk)",
            principle="Queries and keys may have different lengths: read each length from its own sequence.",
            fix="take each sequence's length from its own array: `Lk = X_kv.shape[1]` for the keys and values.",
            impl=_flags(query_length=True), fails=_BOTH,
            code=_cell(split_k="self.W_k(X_kv).reshape(B, Lq, H, D // H).transpose(1, 2)",
                       split_v="self.W_v(X_kv).reshape(B, Lq, H, D // H).transpose(1, 2)")),
        Mistake(
            "a mask with an axis added in the wrong place (`mask.unsqueeze(1)` / `mask[:, None]`)",
            principle="A mask lines up with the scores from the right (keys last, queries before them): "
                      "add no axis that shifts them.",
            fix="the mask already broadcasts against (B, H, Lq, Lk) (it comes as (Lq, Lk) or (B, 1, 1, Lk)): "
                "pass it as it is; an extra axis shifts its query and key axes onto the wrong ones.",
            impl=_flags(mask_mode="unsqueeze1"), fails=_MASKED,
            code=_cell(softmax="at.masked_softmax(scores, None if mask is None else mask.unsqueeze(1))")),
        Mistake(
            "masked scores filled with a finite number (`masked_fill(~mask, -10000)`, -1e9): a finite fill "
            "value; a fully masked row must give zero weights, not uniform weights and the mean of the values",
            principle="A row with no key to attend to has no weights to share: every weight 0 and a "
                      "zero output. A finite fill leaves a softmax over equal scores, which is uniform; "
                      "mask with -inf and zero the rows that have no allowed key.",
            fix="fill with `-inf` and set the weights of fully masked rows to 0 (`attnlab.torch.masked_softmax` "
                "does both), or zero them with `torch.where(mask.any(-1, keepdim=True), weights, 0)` after "
                "the softmax.",
            impl=_flags(mask_mode="finite"), fails=_MASKED,
            code=_cell(softmax="torch.softmax(scores if mask is None else scores.masked_fill(~mask, -10000.0), "
                               "dim=-1)")),
        Mistake(
            "masked scores filled with -inf: a fully masked row becomes 0/0 = NaN",
            principle="A fully masked row has no allowed key: its softmax divides 0 by 0. Give such "
                      "rows zero weights after the softmax instead of NaN.",
            fix="after the softmax, set the weights of fully masked rows to 0 (`attnlab.torch.masked_softmax` "
                "does it).",
            impl=_flags(mask_mode="nan"), fails=_MASKED,
            code=_cell(softmax="torch.softmax(scores if mask is None else scores.masked_fill(mask == 0, "
                               "float('-inf')), dim=-1)")),
    ],
)

# The check calls the learner's class through invoke_module (build it, copy known weights in, run
# forward); a structural mistake's code is such a class, and is called the same way.
for _mistake in CARD.mistakes:
    if not isinstance(_mistake.impl, partial):
        object.__setattr__(_mistake, "impl", partial(invoke_module, _mistake.impl))
del _mistake


def _case(rng, B, Lq, Lk, D, H, bias=False, mask=None, why=""):
    X_q, X_kv = rng.normal(size=(B, Lq, D)), rng.normal(size=(B, Lk, D))
    Ws = tuple(rng.normal(size=(D, D)) / np.sqrt(D) * 1.5 for _ in range(4))
    bs = tuple(rng.normal(size=D) * 0.5 for _ in range(4)) if bias else (None,) * 4
    return Case((X_q, X_kv, H, mask, *Ws, *bs),
                why=why or f"d_model={D}, {H} heads of width {D // H}, bias={bias}")


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(155 if hidden else 55, hidden)
    if hidden:
        return [_case(rng, 2, 4, 2, 12, 3), _case(rng, 1, 3, 6, 8, 2)]
    return [_case(rng, 2, 3, 5, 8, 2), _case(rng, 3, 4, 2, 12, 4),
            _case(rng, 1, 1, 3, 9, 3, why="B=1, one query token, d_model=9 (odd), 3 heads of width 3")]


def bias_mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(156 if hidden else 56, hidden)
    D, H = (12, 3) if hidden else (8, 4)
    lengths = np.array([1, 4]) if hidden else np.array([5, 2])
    return [
        _case(rng, 2, 3, 5, D, H, bias=True),
        _case(rng, 2, 4, 5, D, H, bias=True,
              mask=_masks.padding_mask(lengths, 5)[:, None, None, :],
              why=f"d_model={D}, {H} heads, bias=True, a padding mask (B, 1, 1, Lk)"),
        _case(rng, 2, 3, 4, D, H, bias=True,
              mask=_masks.padding_mask(np.array([0, 3] if hidden else [4, 0]), 4)[:, None, None, :],
              why=f"d_model={D}, {H} heads, a sequence of length 0: its rows are fully masked"),
    ]


def check_mha_module(MultiHeadAttention, hidden: bool = False) -> None:
    """Check that ``MultiHeadAttention(d_model, num_heads)`` with known weights in ``W_q, W_k,
    W_v, W_o`` computes multi-head attention."""
    CARD.check(MultiHeadAttention, cases(hidden), hidden=hidden,
               passed="forward matches with the weights copied into W_q, W_k, W_v, W_o")


def check_mha_module_bias_mask(MultiHeadAttention, hidden: bool = False) -> None:
    """Check that ``MultiHeadAttention(d_model, num_heads, bias=True)`` uses its biases and masks."""
    CARD.check(MultiHeadAttention, bias_mask_cases(hidden), hidden=hidden, passed="biases and masks are used")
