"""MultiplicativeAttention (notebook 07): Luong's multiplicative attention as a torch module,
score(q, k) = qᵀ k (``kind="dot"``) or qᵀ W k (``kind="general"``), softmax over the real source
words, the context the weighted sum of the keys.

The check builds the learner's class with the stub's constructor, copies known weights into
``W`` (general) and runs ``forward`` in float64
(:func:`attnlab.checks.rnn_translation_with_attention.invoke_multiplicative`). A mistake's code is a whole class
and is run the same way; the flag-style mistakes (``partial(_mult_variant, ...)``, which the
checks combine) compute their answer from the known weights in numpy.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..checks._core import Case, Mistake, case_rng
from ..checks._modules import DROPOUT_FIX, DROPOUT_PRINCIPLE
from ..checks.rnn_translation_with_attention import NotApplicable, _lengths_mask, _softmax_context, invoke_multiplicative
from ._card import Card, Contract


def _uses() -> dict:
    import attnlab.torch as at

    return {"at": at}  # the notebook's setup cell: `import attnlab.torch as at`


def _mult_scores(query, keys, kind, W, *, scaled=False, w_on_query=False, general_as_dot=False):
    if kind == "general" and not general_as_dot:
        if w_on_query:  # self.W(query): needs Dq == Dk, gives qᵀ Wᵀ k
            if query.shape[1] != keys.shape[2]:
                raise NotApplicable("W(query) needs Dq == Dk")
            query = query @ W.T  # (B, Dq) -> (B, Dk)
        else:
            query = query @ W  # (B, Dq) x (Dq, Dk) -> (B, Dk): qᵀ W
    elif query.shape[1] != keys.shape[2]:
        raise NotApplicable("a dot product needs Dq == Dk")
    scores = np.einsum("bd,bjd->bj", query, keys)  # (B, Lk)
    return scores / np.sqrt(keys.shape[2]) if scaled else scores


def reference(query, keys, kind, W, mask=None):
    """``(context (B, Dk), weights (B, Lk))`` of dot or general attention with this ``W``."""
    return _softmax_context(_mult_scores(query, keys, kind, W), keys, mask)


def _mult_variant(query, keys, kind, W, mask=None, *, scaled=False, w_on_query=False,
                  general_as_dot=False, mode="ok", axis="keys", projected_values=False, swap=False):
    """Multiplicative attention with its known slips as flags."""
    scores = _mult_scores(query, keys, kind, W, scaled=scaled, w_on_query=w_on_query,
                          general_as_dot=general_as_dot)
    if projected_values and kind != "general":
        raise NotApplicable("no W for kind='dot'")
    values = keys @ W.T if projected_values else None  # W(keys): (B, Lk, Dq)
    context, w = _softmax_context(scores, keys, mask, mode=mode, axis=axis, values=values)
    return (w, context) if swap else (context, w)


# The stub's class and constructor, as the learner keeps them.
INIT = '''
class MultiplicativeAttention(nn.Module):
    def __init__(self, query_dim, key_dim, kind="general"):
        super().__init__()
        self.kind = kind
        if kind == "general":
            self.W = nn.Linear(key_dim, query_dim, bias=False)
'''
_FORWARD = '''
    def forward(self, query, keys, mask=None):
'''
_SCORES = '''\
        k = self.W(keys) if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1)
'''
_CONTEXT = '''\
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
'''
_RIGHT = _SCORES + '''\
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT


def _cell(body: str, init: str = INIT) -> str:
    """A learner's cell: the stub's constructor (or ``init``) and a forward with this body."""
    return init + _FORWARD + body


_M = "test_multiplicative_attention"
_MM = "test_multiplicative_attention_mask"
_BOTH = (_M, _MM)

CARD = Card(
    "MultiplicativeAttention", "07_rnn_translation_with_attention",
    summary="Luong's multiplicative attention: scores qᵀ k (dot) or qᵀ W k (general), softmax over "
            "the real source words, the context the weighted sum of the keys",
    contract=Contract(
        args=("query", "keys", "kind", "W.weight", "mask"),
        reference=reference, invoke=invoke_multiplicative, outputs=("context", "weights"),
        shapes="MultiplicativeAttention(query_dim, key_dim, kind) keeps the stub's W = nn.Linear(key_dim, "
               "query_dim, bias=False) for kind='general' (none for 'dot', where Dq == Dk); forward "
               "takes query (B, Dq), keys (B, Lk, Dk) and mask None or bool (B, Lk), True at real words",
        returns="(context (B, Dk), weights (B, Lk)): the weights are the softmax of the unscaled "
                "scores over the real words (0 at padding, all 0 for a sentence with no real word), "
                "the context the weighted sum of the keys"),
    uses=_uses,
    mistakes=[
        Mistake(
            "a class that is not an nn.Module",
            principle="The class must be a torch module, initialised as one.",
            fix="keep the stub's `class ...(nn.Module)` and its `super().__init__()`.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace("(nn.Module)", "").replace(
                "        super().__init__()\n", ""))),
        Mistake(
            "the layers are not the attributes the stub creates",
            principle="Keep the stub's layers under their names: the check fills them with known weights.",
            fix="keep the stub's `__init__` as it is: the check copies known weights into exactly "
                "those attributes.",
            fails=_BOTH, code=_cell('''\
        k = keys @ self.W.T if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT, init=INIT.replace("nn.Linear(key_dim, query_dim, bias=False)",
                                  "nn.Parameter(torch.randn(key_dim, query_dim))"))),
        Mistake(
            "a layer of the wrong size",
            principle="Keep the layer sizes the stub's __init__ gives.",
            fix="keep the stub's `__init__` as it is.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace(
                "nn.Linear(key_dim, query_dim", "nn.Linear(query_dim, key_dim"))),
        Mistake(
            "a layer with a bias the stub does not have",
            principle="The score layers have no bias term, as in the stub.",
            fix="keep `bias=False` as in the stub: the scores have no bias term.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace(", bias=False)", ")"))),
        Mistake(
            "dropout left active in eval mode",
            principle=DROPOUT_PRINCIPLE, fix=DROPOUT_FIX,
            fails=_BOTH, code=_cell(_SCORES + '''\
        weights = nn.functional.dropout(at.masked_softmax(scores, mask), p=0.1)  # training=True by default
''' + _CONTEXT)),
        Mistake(
            "scores scaled by √Dk (Luong's scores are not scaled)",
            principle="Luong's scores are plain dot products, unscaled.",
            fix="use the plain products `qᵀ k` and `qᵀ W k`; the 1/√Dk of notebook 02 belongs to "
                "scaled dot-product attention.",
            fails=_BOTH, impl=partial(_mult_variant, scaled=True), code=_cell('''\
        k = self.W(keys) if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1) / keys.shape[-1] ** 0.5
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT)),
        Mistake(
            "W applied to the query (qᵀ Wᵀ k) instead of the keys (qᵀ W k)",
            principle="In the general score the matrix transforms the keys, then meets the query.",
            fix="`self.W` maps a key (Dk) to the query's width (Dq): score = q · W(k), e.g. "
                "`(self.W(keys) @ query.unsqueeze(-1)).squeeze(-1)`.",
            fails=(_M,), impl=partial(_mult_variant, w_on_query=True), code=_cell('''\
        q = self.W(query) if self.kind == "general" else query
        scores = (keys @ q.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT)),
        Mistake(
            "kind='general' computed as a plain dot product (W unused)",
            principle="The general score uses the learned matrix; only kind='dot' does without.",
            fix="for kind='general' the score is qᵀ W k: use `self.W(keys)` instead of `keys`.",
            fails=(_M,), impl=partial(_mult_variant, general_as_dot=True), code=_cell('''\
        scores = (keys @ query.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT)),
        Mistake(
            "the context averages W k instead of the keys",
            principle="The weights average the keys themselves, not their transforms.",
            fix="W only enters the score; the weights average the encoder outputs themselves: "
                "`context = (weights.unsqueeze(1) @ keys).squeeze(1)`.",
            fails=_BOTH, impl=partial(_mult_variant, projected_values=True), code=_cell(_SCORES + '''\
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ k).squeeze(1), weights
''')),
        Mistake(
            "a softmax over the batch (dim=0) instead of over the keys",
            principle="Each query's weights over its keys sum to one: normalise over the key dimension.",
            fix="each query's weights must sum to one over its source words: softmax over the last dim "
                "(`at.masked_softmax` does that).",
            fails=(_M,), impl=partial(_mult_variant, axis="batch"), code=_cell(_SCORES + '''\
        weights = torch.softmax(scores, dim=0)
''' + _CONTEXT)),
        Mistake(
            "no softmax: the scores used as weights",
            principle="Scores go through a softmax over the keys to become weights.",
            fix="turn the scores (B, Lk) into weights with `at.masked_softmax(scores, mask)`.",
            fails=_BOTH, impl=partial(_mult_variant, axis="none"), code=_cell(_SCORES + '''\
        weights = scores if mask is None else scores * mask
''' + _CONTEXT)),
        Mistake(
            "returning (weights, context) instead of (context, weights)",
            principle="The contract returns the context first, then the weights.",
            fix="return the context first: `return context, weights`.",
            fails=_BOTH, impl=partial(_mult_variant, swap=True), code=_cell(_SCORES + '''\
        weights = at.masked_softmax(scores, mask)
        context = (weights.unsqueeze(1) @ keys).squeeze(1)
        return weights, context
''')),
        Mistake(
            "the mask is ignored",
            principle="Masked-out keys must get weight exactly zero.",
            fix="pass it on: `weights = at.masked_softmax(scores, mask)` (mask None means no mask).",
            fails=(_MM,), impl=partial(_mult_variant, mode="ignored"), code=_cell(_SCORES + '''\
        weights = torch.softmax(scores, dim=-1)
''' + _CONTEXT)),
        Mistake(
            "the mask is inverted (True treated as padding)",
            principle="True marks real source tokens, which may be attended to.",
            fix="True means a real source word that may be attended to: keep the scores where the mask is True.",
            fails=(_MM,), impl=partial(_mult_variant, mode="inverted"), code=_cell(_SCORES + '''\
        weights = at.masked_softmax(scores, None if mask is None else ~mask)
''' + _CONTEXT)),
        Mistake(
            "the mask applied after the softmax (weights * mask) without renormalising",
            principle="Block the scores before the softmax so the remaining weights still sum to one.",
            fix="mask the scores before the softmax; `at.masked_softmax(scores, mask)` does it.",
            fails=(_MM,), impl=partial(_mult_variant, mode="after"), code=_cell(_SCORES + '''\
        weights = torch.softmax(scores, dim=-1)
        if mask is not None:
            weights = weights.masked_fill(~mask, 0.0)
''' + _CONTEXT)),
        Mistake(
            "a fully masked row becomes NaN (masked_fill with -inf, then softmax)",
            principle="A row with no allowed key needs its own rule: all-zero weights, never 0/0.",
            fix="a sentence with no word to attend to must get zero weights: use `at.masked_softmax(scores, "
                "mask)`, which handles it.",
            fails=(_MM,), impl=partial(_mult_variant, mode="nan"), code=_cell(_SCORES + '''\
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
''' + _CONTEXT)),
        Mistake(
            "padding filled with a large negative number: a fully masked row gets uniform weights instead of zeros",
            principle="A row with no allowed key must get zero weights, not a uniform spread; handle it explicitly.",
            fix="use `at.masked_softmax(scores, mask)`: masked weights exactly 0, a fully masked row all 0.",
            fails=(_MM,), impl=partial(_mult_variant, mode="big"), code=_cell(_SCORES + '''\
        if mask is not None:
            scores = scores.masked_fill(~mask, -1e9)
        weights = torch.softmax(scores, dim=-1)
''' + _CONTEXT)),
    ],
)

# The check calls the learner's class through invoke_multiplicative (build it, copy known weights
# in, run forward); a mistake's code is such a class, and is called the same way. The flag-style
# mistakes keep their variant (the checks combine two of them).
for _mistake in CARD.mistakes:
    if not isinstance(_mistake.impl, partial):
        object.__setattr__(_mistake, "impl", partial(invoke_multiplicative, _mistake.impl))
del _mistake


def _case(rng, B, Lk, Dq, Dk, kind, lengths=None, why=""):
    query, keys = rng.normal(size=(B, Dq)), rng.normal(size=(B, Lk, Dk))
    W = rng.normal(size=(Dq, Dk)) if kind == "general" else None
    mask = None if lengths is None else _lengths_mask(lengths, Lk)
    return Case((query, keys, kind, W, mask),
                why=why or f"MultiplicativeAttention({Dq}, {Dk}, kind={kind!r}) with known weights")


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(717 if hidden else 87, hidden)
    # the square `general` case comes first: there W on the wrong side still runs, and is named
    if hidden:
        return [_case(rng, 3, 5, 3, 3, "dot"), _case(rng, 4, 3, 3, 3, "general"),
                _case(rng, 2, 4, 5, 3, "general")]
    return [_case(rng, 2, 5, 4, 4, "dot"), _case(rng, 2, 6, 4, 4, "general"),
            _case(rng, 3, 4, 3, 5, "general")]


def mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(718 if hidden else 88, hidden)
    if hidden:
        return [_case(rng, 4, 5, 3, 3, "dot", lengths=[5, 1, 3, 0], why="dot, padding masks, one empty row"),
                _case(rng, 3, 6, 2, 4, "general", lengths=[2, 6, 4], why="general, padding masks")]
    return [_case(rng, 3, 5, 4, 4, "dot", lengths=[5, 2, 3], why="dot, padding masks (True = a real word)"),
            _case(rng, 3, 4, 3, 5, "general", lengths=[4, 0, 2],
                  why="general, padding masks; the second row has no word to attend to")]


def check_multiplicative_attention(MultiplicativeAttention, hidden: bool = False) -> None:
    """Check ``MultiplicativeAttention(query_dim, key_dim, kind)`` for ``dot`` and ``general``."""
    CARD.check(MultiplicativeAttention, cases(hidden), hidden=hidden,
               passed="qᵀ k and qᵀ W k, softmax over the keys, weighted keys")


def check_multiplicative_attention_mask(MultiplicativeAttention, hidden: bool = False) -> None:
    """Check ``MultiplicativeAttention.forward(query, keys, mask)``: padding gets weight 0."""
    CARD.check(MultiplicativeAttention, mask_cases(hidden), hidden=hidden,
               passed="padding gets weight 0, a sentence with no word gets zeros")
