"""AdditiveAttention (notebook 07): Bahdanau's additive attention as a torch module,
score(q, k) = vᵀ tanh(W_q q + W_k k), softmax over the real source words, the context the
weighted sum of the keys.

The check builds the learner's class with the stub's constructor, copies known weights into
``W_q``, ``W_k`` and ``v`` and runs ``forward`` in float64
(:func:`attnlab.checks.rnn_translation_with_attention.invoke_additive`). A mistake's code is a whole class and is
run the same way; the flag-style mistakes (``partial(_additive_variant, ...)``, which the checks
combine) compute their answer from the known weights in numpy.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..checks._core import Case, Mistake, case_rng
from ..checks._modules import DROPOUT_FIX, DROPOUT_PRINCIPLE
from ..checks.rnn_translation_with_attention import _lengths_mask, _softmax_context, invoke_additive
from ._card import Card, Contract


def _uses() -> dict:
    import attnlab.torch as at

    return {"at": at}  # the notebook's setup cell: `import attnlab.torch as at`


def _additive_scores(query, keys, W_q, W_k, v, *, tanh=True, use_v=True, tanh_after=False):
    hidden = (query @ W_q)[:, None, :] + keys @ W_k  # (B, 1, Dh) + (B, Lk, Dh) -> (B, Lk, Dh)
    if tanh_after:  # (a slip: tanh of the score, not of the hidden units)
        return np.tanh(hidden @ v)
    if tanh:
        hidden = np.tanh(hidden)
    return hidden @ v if use_v else hidden.sum(axis=-1)  # (B, Lk)


def reference(query, keys, W_q, W_k, v, mask=None):
    """``(context (B, Dk), weights (B, Lk))`` of additive attention with these weights."""
    return _softmax_context(_additive_scores(query, keys, W_q, W_k, v), keys, mask)


def _additive_variant(query, keys, W_q, W_k, v, mask=None, *, tanh=True, use_v=True, mode="ok",
                      axis="keys", projected_values=False, swap=False, tanh_after=False):
    """Additive attention with its known slips as flags."""
    scores = _additive_scores(query, keys, W_q, W_k, v, tanh=tanh, use_v=use_v, tanh_after=tanh_after)
    context, w = _softmax_context(scores, keys, mask, mode=mode, axis=axis,
                                  values=keys @ W_k if projected_values else None)
    return (w, context) if swap else (context, w)


# The stub's class and constructor, as the learner keeps them.
INIT = '''
class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)
'''
_FORWARD = '''
    def forward(self, query, keys, mask=None):
'''
_SCORES = '''\
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
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


_A = "test_additive_attention"
_AM = "test_additive_attention_mask"
_BOTH = (_A, _AM)

CARD = Card(
    "AdditiveAttention", "07_rnn_translation_with_attention",
    summary="Bahdanau's additive attention: scores vᵀ tanh(W_q q + W_k k), softmax over the real "
            "source words, the context the weighted sum of the keys",
    contract=Contract(
        args=("query", "keys", "W_q.weight.T", "W_k.weight.T", "v.weight[0]", "mask"),
        reference=reference, invoke=invoke_additive, outputs=("context", "weights"),
        shapes="AdditiveAttention(query_dim, key_dim, hidden_dim) keeps the stub's W_q (Dq -> Dh), "
               "W_k (Dk -> Dh) and v (Dh -> 1), nn.Linear without bias; forward takes query (B, Dq), "
               "keys (B, Lk, Dk) and mask None or bool (B, Lk), True at real words",
        returns="(context (B, Dk), weights (B, Lk)): the weights are the softmax of the scores over "
                "the real words (0 at padding, all 0 for a sentence with no real word), the context "
                "the weighted sum of the keys"),
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
        scores = self.score(torch.tanh(self.query_layer(query).unsqueeze(1) + self.key_layer(keys))).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT, init=INIT.replace("self.W_q =", "self.query_layer =").replace(
                "self.W_k =", "self.key_layer =").replace("self.v =", "self.score ="))),
        Mistake(
            "a layer of the wrong size",
            principle="Keep the layer sizes the stub's __init__ gives.",
            fix="keep the stub's `__init__` as it is.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace(
                "nn.Linear(key_dim, hidden_dim", "nn.Linear(query_dim, hidden_dim"))),
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
            "tanh missing: vᵀ(W_q q + W_k k) instead of vᵀ tanh(W_q q + W_k k)",
            principle="Additive attention passes the summed projections through tanh before v.",
            fix="apply `torch.tanh` to the sum before `self.v`: without it the score is linear and "
                "the query's term is the same for every key, so it cancels in the softmax.",
            fails=_BOTH, impl=partial(_additive_variant, tanh=False), code=_cell('''\
        scores = self.v(self.W_q(query).unsqueeze(1) + self.W_k(keys)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT)),
        Mistake(
            "tanh applied after v: tanh(vᵀ(W_q q + W_k k)) instead of vᵀ tanh(W_q q + W_k k)",
            principle="The non-linearity acts on each hidden unit, before v weighs them into one score.",
            fix="apply `torch.tanh` to `self.W_q(query).unsqueeze(1) + self.W_k(keys)`, then `self.v` "
                "to the result: `self.v(torch.tanh(...)).squeeze(-1)`.",
            fails=_BOTH, impl=partial(_additive_variant, tanh_after=True), code=_cell('''\
        scores = torch.tanh(self.v(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT)),
        Mistake(
            "v missing: the hidden units summed instead of weighted by v",
            principle="The score is v's weighted sum of the hidden units.",
            fix="score = `self.v(torch.tanh(...)).squeeze(-1)`, a learned weighting of the hidden units.",
            fails=_BOTH, impl=partial(_additive_variant, use_v=False), code=_cell('''\
        scores = torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys)).sum(dim=-1)
        weights = at.masked_softmax(scores, mask)
''' + _CONTEXT)),
        Mistake(
            "the context averages the projected keys W_k k instead of the keys",
            principle="The weights average the keys themselves (the encoder outputs), not their projections.",
            fix="the weights average the encoder outputs themselves: `context = (weights.unsqueeze(1) "
                "@ keys).squeeze(1)`, of width Dk.",
            fails=_BOTH, impl=partial(_additive_variant, projected_values=True), code=_cell('''\
        projected = self.W_k(keys)
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + projected)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ projected).squeeze(1), weights
''')),
        Mistake(
            "a softmax over the batch (dim=0) instead of over the keys",
            principle="Each query's weights over its keys sum to one: normalise over the key dimension.",
            fix="each query's weights must sum to one over its source words: softmax over the last dim "
                "(`at.masked_softmax` does that).",
            fails=_BOTH, impl=partial(_additive_variant, axis="batch"), code=_cell(_SCORES + '''\
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=0)
''' + _CONTEXT)),
        Mistake(
            "no softmax: the scores used as weights",
            principle="Scores go through a softmax over the keys to become weights.",
            fix="turn the scores (B, Lk) into weights with `at.masked_softmax(scores, mask)`.",
            fails=_BOTH, impl=partial(_additive_variant, axis="none"), code=_cell(_SCORES + '''\
        weights = scores if mask is None else scores.masked_fill(~mask, 0.0)
''' + _CONTEXT)),
        Mistake(
            "returning (weights, context) instead of (context, weights)",
            principle="The contract returns the context first, then the weights.",
            fix="return the context first: `return context, weights`.",
            fails=_BOTH, impl=partial(_additive_variant, swap=True), code=_cell(_SCORES + '''\
        weights = at.masked_softmax(scores, mask)
        return weights, (weights.unsqueeze(1) @ keys).squeeze(1)
''')),
        Mistake(
            "the mask is ignored",
            principle="Masked-out keys must get weight exactly zero.",
            fix="pass it on: `weights = at.masked_softmax(scores, mask)` (mask None means no mask).",
            fails=(_AM,), impl=partial(_additive_variant, mode="ignored"), code=_cell(_SCORES + '''\
        weights = torch.softmax(scores, dim=-1)
''' + _CONTEXT)),
        Mistake(
            "the mask is inverted (True treated as padding)",
            principle="True marks real source tokens, which may be attended to.",
            fix="True means a real source word that may be attended to: keep the scores where the mask is True.",
            fails=(_AM,), impl=partial(_additive_variant, mode="inverted"), code=_cell(_SCORES + '''\
        weights = at.masked_softmax(scores, None if mask is None else ~mask)
''' + _CONTEXT)),
        Mistake(
            "the mask applied after the softmax (weights * mask) without renormalising",
            principle="Block the scores before the softmax so the remaining weights still sum to one.",
            fix="mask the scores before the softmax; `at.masked_softmax(scores, mask)` does it.",
            fails=(_AM,), impl=partial(_additive_variant, mode="after"), code=_cell(_SCORES + '''\
        weights = torch.softmax(scores, dim=-1)
        if mask is not None:
            weights = weights * mask
''' + _CONTEXT)),
        Mistake(
            "a fully masked row becomes NaN (masked_fill with -inf, then softmax)",
            principle="A row with no allowed key needs its own rule: all-zero weights, never 0/0.",
            fix="a sentence with no word to attend to must get zero weights: use `at.masked_softmax(scores, "
                "mask)`, which handles it.",
            fails=(_AM,), impl=partial(_additive_variant, mode="nan"), code=_cell(_SCORES + '''\
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
''' + _CONTEXT)),
        Mistake(
            "padding filled with a large negative number: a fully masked row gets uniform weights instead of zeros",
            principle="A row with no allowed key must get zero weights, not a uniform spread; handle it explicitly.",
            fix="use `at.masked_softmax(scores, mask)`: masked weights exactly 0, a fully masked row all 0.",
            fails=(_AM,), impl=partial(_additive_variant, mode="big"), code=_cell(_SCORES + '''\
        if mask is not None:
            scores = scores.masked_fill(~mask, -1e9)
        weights = torch.softmax(scores, dim=-1)
''' + _CONTEXT)),
    ],
)

# The check calls the learner's class through invoke_additive (build it, copy known weights in,
# run forward); a mistake's code is such a class, and is called the same way. The flag-style
# mistakes keep their variant (the checks combine two of them).
for _mistake in CARD.mistakes:
    if not isinstance(_mistake.impl, partial):
        object.__setattr__(_mistake, "impl", partial(invoke_additive, _mistake.impl))
del _mistake


def _case(rng, B, Lk, Dq, Dk, Dh, lengths=None, why=""):
    query, keys = rng.normal(size=(B, Dq)), rng.normal(size=(B, Lk, Dk))
    W_q, W_k = rng.normal(size=(Dq, Dh)), rng.normal(size=(Dk, Dh))
    v = rng.normal(size=Dh)
    mask = None if lengths is None else _lengths_mask(lengths, Lk)
    return Case((query, keys, W_q, W_k, v, mask),
                why=why or f"AdditiveAttention({Dq}, {Dk}, {Dh}) with known weights")


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(707 if hidden else 77, hidden)
    shapes = [(3, 4, 5, 2, 6), (2, 6, 3, 5, 4)] if hidden else [(2, 5, 3, 4, 6), (4, 3, 6, 2, 5)]
    return [_case(rng, *s) for s in shapes]


def mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(708 if hidden else 78, hidden)
    if hidden:
        return [_case(rng, 4, 6, 3, 5, 4, lengths=[6, 2, 4, 1], why="padding masks"),
                _case(rng, 3, 5, 4, 3, 2, lengths=[3, 0, 5],
                      why="padding masks; the second row has no word to attend to")]
    return [_case(rng, 3, 5, 4, 3, 6, lengths=[5, 2, 3], why="padding masks (True = a real word)"),
            _case(rng, 3, 4, 2, 5, 3, lengths=[4, 1, 0],
                  why="padding masks; the last row has no word to attend to")]


def check_additive_attention(AdditiveAttention, hidden: bool = False) -> None:
    """Check ``AdditiveAttention(query_dim, key_dim, hidden_dim).forward(query, keys)``."""
    CARD.check(AdditiveAttention, cases(hidden), hidden=hidden,
               passed="vᵀ tanh(W_q q + W_k k), softmax over the keys, weighted keys")


def check_additive_attention_mask(AdditiveAttention, hidden: bool = False) -> None:
    """Check ``AdditiveAttention.forward(query, keys, mask)``: padding gets weight 0."""
    CARD.check(AdditiveAttention, mask_cases(hidden), hidden=hidden,
               passed="padding gets weight 0, a sentence with no word gets zeros")
