"""AttentionDecoder (notebook 07): one step of a GRU decoder that attends to the encoder outputs,
``step(prev_token, hidden, encoder_outputs, src_mask) -> (logits, new state, weights)``: embed the
previous word, update the state, query the attention with the new state, and read the logits off
``[state, context, embedding]``.

The check builds the learner's class with the stub's constructor and the reference attention
module, copies seeded weights into ``embedding``, ``gru`` and ``out`` and runs ``step`` in float64
(:class:`attnlab.checks.rnn_translation_with_attention.DecoderSpec`,
:func:`attnlab.checks.rnn_translation_with_attention.invoke_decoder_step`). A mistake's code is a whole class and
is run the same way; the flag-style mistakes (``partial(_step_variant, ...)``, which the checks
combine) compute their answer with the reference decoder holding the same weights.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..checks._core import Case, Mistake, case_rng
from ..checks._modules import DROPOUT_FIX, DROPOUT_PRINCIPLE
from ..checks.rnn_translation_with_attention import DecoderSpec, _lengths_mask, _t, invoke_decoder_step
from ._card import Card, Contract


def _step_variant(decoder, prev_token, hidden, encoder_outputs, src_mask, *, query="new",
                  use_mask=True, order=("hidden", "context", "emb"), return_old=False,
                  probabilities=False, mean_context=False):
    """One step of the reference decoder holding ``decoder``'s weights, with its known slips as flags."""
    import torch

    m = decoder.reference()
    with torch.no_grad():
        old = _t(hidden)
        enc, mask = _t(encoder_outputs), _t(src_mask)
        emb = m.embedding(_t(prev_token))  # (B, E)
        new = m.gru(emb, old)  # (B, H)
        context, weights = m.attention(new if query == "new" else old, enc, mask if use_mask else None)
        if mean_context:
            w = mask.double() / mask.double().sum(dim=1, keepdim=True).clamp_min(1)  # (B, Ls)
            context, weights = (w.unsqueeze(1) @ enc).squeeze(1), w
        parts = {"hidden": new, "context": context, "emb": emb}
        logits = m.out(torch.cat([parts[p] for p in order], dim=-1))  # (B, V)
        if probabilities:
            logits = torch.softmax(logits, dim=-1)
        return logits.numpy(), (old if return_old else new).numpy(), weights.numpy()


def reference(decoder, prev_token, hidden, encoder_outputs, src_mask):
    """``(logits (B, V), new state (B, H), weights (B, Ls))`` of the reference decoder's step."""
    return _step_variant(decoder, prev_token, hidden, encoder_outputs, src_mask)


# The stub's class and constructor, as the learner keeps them.
INIT = '''
class AttentionDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)
'''
_STEP = '''
    def step(self, prev_token, hidden, encoder_outputs, src_mask):
'''
_STATE = '''\
        emb = self.embedding(prev_token)
        hidden = self.gru(emb, hidden)
'''
_ATTEND = _STATE + '''\
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
'''
_RIGHT = _ATTEND + '''\
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))
        return logits, hidden, weights
'''


def _cell(body: str, init: str = INIT) -> str:
    """A learner's cell: the stub's constructor (or ``init``) and a step with this body."""
    return init + _STEP + body


def _order_cell(order: tuple[str, str, str]) -> str:
    return _cell(_ATTEND + f'''\
        logits = self.out(torch.cat([{", ".join(order)}], dim=-1))
        return logits, hidden, weights
''')


_BOTH = ("test_decoder_step", "test_decoder_step_luong")
_ORDER_FIX = ("concatenate in the order of the stub: `torch.cat([hidden, context, emb], dim=-1)` "
              "(the new state, the context, the embedding), which is the order `self.out`'s weights expect.")
_ORDER_PRINCIPLE = "Concatenate the output layer's inputs in the order the stub gives."
_WRONG_ORDERS = (("context", "hidden", "emb"), ("emb", "hidden", "context"), ("hidden", "emb", "context"),
                 ("emb", "context", "hidden"), ("context", "emb", "hidden"))

CARD = Card(
    "AttentionDecoder", "07_rnn_translation_with_attention",
    summary="one decoding step: embed the previous word, update the GRU state, attend with the new "
            "state, logits from [state, context, embedding]",
    contract=Contract(
        args=("decoder", "prev_token", "hidden", "encoder_outputs", "src_mask"),
        reference=reference, invoke=invoke_decoder_step, outputs=("logits", "hidden", "weights"),
        shapes="AttentionDecoder(vocab_size, emb_dim, hidden_dim, key_dim, attention) keeps the stub's "
               "embedding (nn.Embedding V x E), gru (nn.GRUCell E -> H), the attention module it is given "
               "and out (nn.Linear H + Dk + E -> V, with bias); step takes prev_token (B,) int64, hidden "
               "(B, H), encoder_outputs (B, Ls, Dk) and src_mask (B, Ls) bool, True at real words",
        returns="(logits (B, V), hidden (B, H), weights (B, Ls)): the scores of the next word, the new "
                "state s_t, and the attention weights of the query s_t"),
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
            fails=_BOTH, code=_cell(_RIGHT.replace("self.embedding(", "self.embed("),
                                    init=INIT.replace("self.embedding =", "self.embed ="))),
        Mistake(
            "a layer of the wrong size",
            principle="Keep the layer sizes the stub's __init__ gives.",
            fix="keep the stub's `__init__` as it is.",
            fails=_BOTH, code=_cell(_ATTEND + '''\
        logits = self.out(torch.cat([hidden, context], dim=-1))
        return logits, hidden, weights
''', init=INIT.replace("nn.Linear(hidden_dim + key_dim + emb_dim,", "nn.Linear(hidden_dim + key_dim,"))),
        Mistake(
            "the output layer without the bias the stub gives it (`bias=False`)",
            principle="Build every layer as the stub does: the output layer has a bias term.",
            fix="keep the stub's `self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)`, "
                "with its default bias.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace("vocab_size)\n", "vocab_size, bias=False)\n"))),
        Mistake(
            "dropout left active in eval mode",
            principle=DROPOUT_PRINCIPLE, fix=DROPOUT_FIX,
            fails=_BOTH, code=_cell(_RIGHT.replace(
                "emb = self.embedding(prev_token)",
                "emb = nn.functional.dropout(self.embedding(prev_token), p=0.1)  # training=True by default"))),
        Mistake(
            "the decoder querying with the wrong state: the previous state s_{t-1} instead of the new state s_t",
            principle="Luong-style: update the state first, then attend with the new state.",
            fix="update the GRU first, `hidden = self.gru(emb, hidden)`, then query with that new "
                "hidden state: `self.attention(hidden, encoder_outputs, src_mask)`.",
            fails=_BOTH, impl=partial(_step_variant, query="old"), code=_cell('''\
        emb = self.embedding(prev_token)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
        hidden = self.gru(emb, hidden)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))
        return logits, hidden, weights
''')),
        Mistake(
            "the source mask not passed to the attention: padding gets attention",
            principle="The source mask must reach the attention so padding gets no weight.",
            fix="call `self.attention(hidden, encoder_outputs, src_mask)`.",
            fails=_BOTH, impl=partial(_step_variant, use_mask=False), code=_cell(_STATE + '''\
        context, weights = self.attention(hidden, encoder_outputs)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))
        return logits, hidden, weights
''')),
        Mistake(
            "returning the previous state instead of the new one",
            principle="Return the state after this step's update.",
            fix="return the state the GRU just computed: the next step starts from s_t.",
            fails=_BOTH, impl=partial(_step_variant, return_old=True), code=_cell('''\
        emb = self.embedding(prev_token)
        new_hidden = self.gru(emb, hidden)
        context, weights = self.attention(new_hidden, encoder_outputs, src_mask)
        logits = self.out(torch.cat([new_hidden, context, emb], dim=-1))
        return logits, hidden, weights
''')),
        Mistake(
            "returning probabilities (a softmax) instead of logits",
            principle="The step returns unnormalised scores (logits) over the vocabulary.",
            fix="return `self.out(...)` as it is; the loss (cross-entropy) and argmax take logits.",
            fails=_BOTH, impl=partial(_step_variant, probabilities=True), code=_cell(_ATTEND + '''\
        return torch.softmax(self.out(torch.cat([hidden, context, emb], dim=-1)), dim=-1), hidden, weights
''')),
        Mistake(
            "the context is the plain average of the encoder outputs (no attention)",
            principle="The context is the attention-weighted average of the encoder outputs.",
            fix="get the context and the weights from `self.attention(hidden, encoder_outputs, src_mask)`.",
            fails=_BOTH, impl=partial(_step_variant, mean_context=True), code=_cell(_STATE + '''\
        real = src_mask.to(encoder_outputs.dtype)
        weights = real / real.sum(dim=1, keepdim=True).clamp_min(1)
        context = (weights.unsqueeze(1) @ encoder_outputs).squeeze(1)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))
        return logits, hidden, weights
''')),
    ] + [
        Mistake(
            f"the output layer's inputs concatenated in the wrong order ([{', '.join(order)}] "
            "instead of [hidden, context, emb])",
            principle=_ORDER_PRINCIPLE, fix=_ORDER_FIX,
            fails=_BOTH, impl=partial(_step_variant, order=order), code=_order_cell(order))
        for order in _WRONG_ORDERS
    ],
)

# The check calls the learner's class through invoke_decoder_step (build it with the reference
# attention module, copy known weights in, run step); a mistake's code is such a class, and is
# called the same way. The flag-style mistakes keep their variant (the checks combine two of them).
for _mistake in CARD.mistakes:
    if not isinstance(_mistake.impl, partial):
        object.__setattr__(_mistake, "impl", partial(invoke_decoder_step, _mistake.impl))
del _mistake


def _case(rng, spec: DecoderSpec, B, Ls, lengths, why):
    prev = rng.integers(0, spec.vocab_size, size=B).astype(np.int64)
    hidden = np.tanh(rng.normal(size=(B, spec.hidden_dim)))
    enc = rng.normal(size=(B, Ls, spec.key_dim))
    mask = _lengths_mask(lengths, Ls)
    enc = enc * mask[:, :, None]  # the encoder's outputs are zero at padding
    return Case((spec, prev, hidden, enc, mask), why=why)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(727 if hidden else 97, hidden)
    if hidden:
        return [_case(rng, DecoderSpec(11, 3, 5, 6, "additive", 4, 1727), 4, 6, [6, 3, 5, 2], "padding masks"),
                _case(rng, DecoderSpec(7, 5, 4, 8, "additive", 3, 1728), 2, 5, [5, 1], "padding masks")]
    return [_case(rng, DecoderSpec(9, 4, 6, 8, "additive", 5, 97), 3, 5, [5, 3, 2], "padding masks"),
            _case(rng, DecoderSpec(8, 3, 5, 4, "additive", 6, 98), 2, 6, [4, 6], "padding masks")]


def luong_cases(hidden: bool) -> list[Case]:
    rng = case_rng(728 if hidden else 98, hidden)
    if hidden:
        return [_case(rng, DecoderSpec(9, 3, 5, 5, "dot", 0, 1729), 3, 4, [2, 4, 3], "dot attention"),
                _case(rng, DecoderSpec(8, 4, 3, 6, "general", 0, 1730), 3, 5, [5, 4, 1], "general attention")]
    return [_case(rng, DecoderSpec(9, 4, 6, 6, "dot", 0, 99), 3, 5, [5, 2, 4], "dot attention"),
            _case(rng, DecoderSpec(10, 3, 4, 6, "general", 0, 100), 2, 4, [3, 4], "general attention")]


def check_decoder_step(AttentionDecoder, hidden: bool = False) -> None:
    """Check ``AttentionDecoder.step`` with additive attention and padded sentences."""
    CARD.check(AttentionDecoder, cases(hidden), hidden=hidden,
               passed="step returns (logits, new state, weights) with the new state as the query")


def check_decoder_step_luong(AttentionDecoder, hidden: bool = False) -> None:
    """Check ``AttentionDecoder.step`` with Luong's dot and general attention."""
    CARD.check(AttentionDecoder, luong_cases(hidden), hidden=hidden,
               passed="step works with any attention module")
