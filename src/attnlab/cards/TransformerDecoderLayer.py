"""TransformerDecoderLayer (notebook 09): a pre-norm decoder layer as a torch module, causal
self-attention, cross-attention to the encoder's output (``memory``, source padding masked) and
the feed-forward network, each ``X + Sublayer(LN(X))``.

The check builds the learner's class with the stub's constructor, copies seeded weights into the
attributes the stub names and runs ``forward`` in float64
(:func:`attnlab.checks.transformer.invoke_decoder_layer`). A mistake's code is a whole class and
is run the same way; the flag-style mistakes (``partial(_dec_variant, ...)``, which the checks
combine) compute their answer from the library's layer holding the same weights.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..checks import _divergence
from ..checks._core import Case, Mistake, case_seed
from ..checks._modules import DROPOUT_FIX, DROPOUT_PRINCIPLE
from ..checks.rnn_translation_with_attention import _t
from ..checks.transformer import (
    LayerSpec, feed_forward, invoke_decoder_layer, large_case, lengths_mask, padding_mask, sublayer,
)
from ._card import Card, Contract, Example


def _uses() -> dict:
    import attnlab.torch as at

    return {"at": at}  # the notebook's setup cell: `import attnlab.torch as at`


def _causal(Lt, mode):
    import torch

    i = torch.arange(Lt)[:, None]
    j = torch.arange(Lt)[None, :]
    if mode == "ok":
        return j <= i
    if mode == "none":
        return None
    if mode == "strict":  # the diagonal left out: a token cannot see itself
        return j < i
    if mode == "ahead":  # one future token let in
        return j <= i + 1
    if mode == "inverted":
        return j >= i
    if mode == "blocked":  # the other convention: True where a token may NOT look
        return j > i
    raise ValueError(mode)


def _dec_variant(spec: LayerSpec, X, memory, memory_mask=None, *, order="pre", ff_order=None, causal="ok",
                 cross="memory", padding="ok", relu=True, same_norm=False, final_norm=False, returns="ok"):
    """The layer with its known slips as flags, on the library's layer holding ``spec``'s weights."""
    import torch

    m = spec.reference()
    X, memory, memory_mask = _t(X), _t(memory), _t(memory_mask)
    Lt = X.shape[1]
    cm = _causal(Lt, causal)
    pm = padding_mask(memory_mask, padding)

    def cross_branch(h):
        if cross == "normed_memory":
            return m.cross_attn(h, m.norm2(memory), pm)
        return m.cross_attn(h, memory, pm)

    with torch.no_grad():
        X, w_self = sublayer(m, X, m.norm1, lambda h: m.self_attn(h, h, cm), order)
        X, w_cross = sublayer(m, X, m.norm1 if same_norm else m.norm2, cross_branch, order)
        X, _ = sublayer(m, X, m.norm1 if same_norm else m.norm3, lambda h: (feed_forward(m, h, relu), None),
                        ff_order or order)
        if final_norm:
            X = m.norm3(X)
        out = (X.numpy(), w_self.numpy(), w_cross.numpy())
        if returns == "swapped":
            return out[0], out[2], out[1]
        if returns == "two":
            return out[0], out[2]
        return out


def reference(spec, X, memory, memory_mask=None):
    """What the library's pre-norm layer with ``spec``'s weights returns:
    ``(output, self_weights, cross_weights)``."""
    return _dec_variant(spec, X, memory, memory_mask)


# The stub's class and constructor, as the learner keeps them (tests/uncatalogued reads INIT).
INIT = '''
class TransformerDecoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.cross_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
'''
_FORWARD = '''
    def forward(self, X, memory, memory_mask=None):
        Lt = X.shape[1]
        cross_mask = None if memory_mask is None else memory_mask[:, None, None, :]
'''
_SELF = '''\
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + a
'''
_TAIL = '''\
        h = self.norm2(X)
        c, cross_weights = self.cross_attn(h, memory, cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
'''
_RIGHT = _SELF + _TAIL


def _cell(body: str, init: str = INIT, forward: str = _FORWARD) -> str:
    """A learner's cell: the stub's constructor (or ``init``) and a forward with this body."""
    return init + forward + body


def _causal_cell(mask: str) -> str:
    """The right layer with ``mask`` (code defining ``causal``) as the self-attention's mask."""
    return _cell(mask + _SELF.replace("at.causal_mask(Lt, Lt)", "causal") + _TAIL)


_BOTH = ("test_decoder_layer", "test_decoder_layer_mask")
_MASK = ("test_decoder_layer_mask",)
_PRE_FIX = ("pre-norm: normalise a copy for the branch and add the branch to the un-normalised "
            "input, `h = self.norm1(X); a, w = self.self_attn(h, h, mask); X = X + a`, and the "
            "same with norm3 around the feed-forward network.")
_OWN_STATES = "the cross-attention reading the decoder's own states instead of the encoder's output"

CARD = Card(
    "TransformerDecoderLayer", "09_transformer",
    summary="a pre-norm decoder layer: causal self-attention, cross-attention to memory, "
            "feed-forward, each X + Sublayer(LN(X))",
    contract=Contract(
        args=("layer", "X", "memory", "memory_mask"), reference=reference, invoke=invoke_decoder_layer,
        outputs=("output", "self_weights", "cross_weights"),
        reference_module=_divergence.decoder_layer_class,
        shapes="TransformerDecoderLayer(d_model, num_heads, d_ff) keeps the stub's self_attn and "
               "cross_attn (at.MultiHeadAttention with bias), norm1, norm2, norm3 (nn.LayerNorm), "
               "linear1 (d_model -> d_ff) and linear2 (d_ff -> d_model); forward takes X (B, Lt, D), "
               "memory (B, Ls, D) and memory_mask None or bool (B, Ls), True at real source tokens",
        returns="(output (B, Lt, D), self_weights (B, H, Lt, Lt) with no weight on later positions, "
                "cross_weights (B, H, Lt, Ls) with no weight on source padding)"),
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
            fails=_BOTH, code=_cell(_SELF + '''\
        h = self.norm2(X)
        c, cross_weights = self.cross_attn(h, memory, cross_mask)
        X = X + c
        X = X + self.ffn(self.norm3(X))
        return X, self_weights, cross_weights
''', init=INIT.replace('''        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
''', '''        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
'''))),
        Mistake(
            "a layer of the wrong size",
            principle="Keep the layer sizes the stub's __init__ gives.",
            fix="keep the stub's `__init__` as it is.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace('''        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
''', '''        self.linear1 = nn.Linear(d_ff, d_model)  # (in, out) swapped
        self.linear2 = nn.Linear(d_model, d_ff)
'''))),
        Mistake(
            "a layer without the bias the stub gives it (`bias=True` left out)",
            principle="Build every layer as the stub does: these layers all have a bias term.",
            fix="keep the stub's `__init__` as it is: `at.MultiHeadAttention(d_model, num_heads, "
                "bias=True)` (its default is no bias), and `nn.Linear` with its default bias.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace(", bias=True)", ")"))),
        Mistake(
            "dropout left active in eval mode",
            principle=DROPOUT_PRINCIPLE, fix=DROPOUT_FIX,
            fails=_BOTH, code=_cell(_SELF + '''\
        h = self.norm2(X)
        c, cross_weights = self.cross_attn(h, memory, cross_mask)
        X = X + nn.functional.dropout(c, p=0.1)  # training=True by default
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''')),
        Mistake(
            "the causal mask missing: every target token sees the tokens after it",
            principle="Decoder self-attention sees only the past and the present.",
            fix="the self-attention must not look ahead: pass `at.causal_mask(Lt, Lt)` (True where "
                "j <= i) as its mask.",
            fails=_BOTH, impl=partial(_dec_variant, causal="none"),
            code=_cell(_SELF.replace("h, h, at.causal_mask(Lt, Lt)", "h, h") + _TAIL)),
        Mistake(
            "the causal mask off by one: the diagonal left out (j < i), so a token cannot see itself",
            principle="A token may attend to its own position.",
            fix="position t may attend to positions 0..t, itself included: True where j <= i "
                "(`at.causal_mask(Lt, Lt)`).",
            fails=_BOTH, impl=partial(_dec_variant, causal="strict"), code=_causal_cell('''\
        causal = torch.tril(torch.ones(Lt, Lt, dtype=torch.bool), diagonal=-1)
''')),
        Mistake(
            "the causal mask off by one: one future token let in (j <= i + 1)",
            principle="No future position may be seen: keys j <= i only.",
            fix="position t may attend to positions 0..t only: True where j <= i "
                "(`at.causal_mask(Lt, Lt)`).",
            fails=_BOTH, impl=partial(_dec_variant, causal="ahead"), code=_causal_cell('''\
        causal = torch.tril(torch.ones(Lt, Lt, dtype=torch.bool), diagonal=1)
''')),
        Mistake(
            "the causal mask transposed (the upper triangle): every token sees only itself and the future",
            principle="Causal means the past and the present, not the future.",
            fix="True where j <= i (the past and the token itself) may be attended to.",
            fails=_BOTH, impl=partial(_dec_variant, causal="inverted"), code=_causal_cell('''\
        causal = torch.triu(torch.ones(Lt, Lt, dtype=torch.bool))
''')),
        Mistake(
            "the causal mask in the other convention, True = blocked (as nn.MultiheadAttention's "
            "attn_mask): each token sees only the tokens after it, and the last sees none",
            principle="The course's convention: True means \"may attend\"; the causal mask is True "
                      "where j <= i.",
            fix="pass `at.causal_mask(Lt, Lt)` (True where j <= i), not `torch.triu(..., diagonal=1)`, "
                "which marks the positions to hide.",
            fails=_BOTH, impl=partial(_dec_variant, causal="blocked"), code=_causal_cell('''\
        causal = torch.triu(torch.ones(Lt, Lt, dtype=torch.bool), diagonal=1)
''')),
        Mistake(
            _OWN_STATES,
            principle="Cross-attention takes its keys and values from the encoder's output.",
            fix="in cross-attention the queries come from the decoder and the keys and values from "
                "`memory`: `self.cross_attn(self.norm2(X), memory, ...)`.",
            fails=_BOTH, code=_cell(_SELF + '''\
        h = self.norm2(X)
        c, cross_weights = self.cross_attn(h, h)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''')),
        Mistake(
            "the encoder's output normalised again by norm2 before the cross-attention",
            principle="Only the decoder's stream is normalised; the encoder's output is used as it is.",
            fix="norm2 normalises the decoder's queries only; `memory` is used as it is (the encoder "
                "normalised it already).",
            fails=_BOTH, impl=partial(_dec_variant, cross="normed_memory"), code=_cell(_SELF + '''\
        c, cross_weights = self.cross_attn(self.norm2(X), self.norm2(memory), cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''')),
        Mistake(
            "the source mask ignored in the cross-attention",
            principle="Source padding must get no weight in the cross-attention.",
            fix="pass `memory_mask[:, None, None, :]`, (B, 1, 1, Ls), to the cross-attention.",
            fails=_MASK, impl=partial(_dec_variant, padding="ignored"), code=_cell(_SELF + '''\
        c, cross_weights = self.cross_attn(self.norm2(X), memory)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''')),
        Mistake(
            "the source mask inverted (True treated as padding)",
            principle="True marks real source tokens, which may be attended to.",
            fix="True marks a real source token that may be attended to.",
            fails=_MASK, impl=partial(_dec_variant, padding="inverted"), code=_cell(_RIGHT, forward='''
    def forward(self, X, memory, memory_mask=None):
        Lt = X.shape[1]
        cross_mask = None if memory_mask is None else ~memory_mask[:, None, None, :]
''')),
        Mistake(
            "returning the self-attention weights where the cross-attention weights go (or the reverse)",
            principle="Return each attention's weights in its own slot.",
            fix="return `X, self_weights, cross_weights`, in that order.",
            fails=_BOTH, impl=partial(_dec_variant, returns="swapped"),
            code=_cell(_RIGHT.replace("return X, self_weights, cross_weights", "return X, cross_weights, self_weights"))),
        Mistake(
            "returning two items instead of (output, self_weights, cross_weights)",
            principle="The contract returns three items: output, self-attention weights, cross-attention weights.",
            fix="return all three: `X, self_weights, cross_weights`.",
            fails=_BOTH, impl=partial(_dec_variant, returns="two"),
            code=_cell(_RIGHT.replace("return X, self_weights, cross_weights", "return X, cross_weights"))),
        Mistake(
            "the residual added after the norm (X = LN(X) + Sublayer(LN(X))), not around it",
            principle="Pre-norm: the residual carries the un-normalised input past the normalised sublayer.",
            fix="the residual path must carry X itself, untouched: " + _PRE_FIX,
            fails=_BOTH, impl=partial(_dec_variant, order="after_norm"), code=_cell('''\
        X = self.norm1(X)
        a, self_weights = self.self_attn(X, X, at.causal_mask(Lt, Lt))
        X = X + a
        X = self.norm2(X)
        c, cross_weights = self.cross_attn(X, memory, cross_mask)
        X = X + c
        X = self.norm3(X)
        X = X + self.linear2(torch.relu(self.linear1(X)))
        return X, self_weights, cross_weights
''')),
        Mistake(
            "post-norm (LN(X + Sublayer(X))) instead of pre-norm",
            principle="Normalise the sublayer's input, not the sum after the residual.",
            fix="this block is pre-norm, the norm comes first and only on the branch: " + _PRE_FIX,
            fails=_BOTH, impl=partial(_dec_variant, order="post"), code=_cell('''\
        a, self_weights = self.self_attn(X, X, at.causal_mask(Lt, Lt))
        X = self.norm1(X + a)
        c, cross_weights = self.cross_attn(X, memory, cross_mask)
        X = self.norm2(X + c)
        X = self.norm3(X + self.linear2(torch.relu(self.linear1(X))))
        return X, self_weights, cross_weights
''')),
        Mistake(
            "a residual connection missing (X = Sublayer(LN(X)))",
            principle="Each sublayer adds its output to its input.",
            fix="add the branch's output to its input: `X = X + a`.",
            fails=_BOTH, impl=partial(_dec_variant, order="no_residual"), code=_cell('''\
        h = self.norm1(X)
        X, self_weights = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X, cross_weights = self.cross_attn(self.norm2(X), memory, cross_mask)
        X = self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''')),
        Mistake(
            "the residual connection around the feed-forward network missing",
            principle="The feed-forward sublayer also adds its output to its input.",
            fix="`X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))` (norm3 in the decoder).",
            fails=_BOTH, impl=partial(_dec_variant, ff_order="no_residual"), code=_cell(_RIGHT.replace(
                "X = X + self.linear2(", "X = self.linear2("))),
        Mistake(
            "the layer norms not applied",
            principle="Each sublayer's input is layer-normalised first.",
            fix="pre-norm normalises the input of every branch: `self.self_attn(h, h, ...)` with "
                "`h = self.norm1(X)`.",
            fails=_BOTH, impl=partial(_dec_variant, order="no_norm"), code=_cell('''\
        a, self_weights = self.self_attn(X, X, at.causal_mask(Lt, Lt))
        X = X + a
        c, cross_weights = self.cross_attn(X, memory, cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(X)))
        return X, self_weights, cross_weights
''')),
        Mistake(
            "the ReLU missing between linear1 and linear2",
            principle="The feed-forward network has a nonlinearity between its two layers.",
            fix="the feed-forward network is `linear2(relu(linear1(h)))`: without the ReLU the two layers "
                "collapse into one linear map.",
            fails=_BOTH, impl=partial(_dec_variant, relu=False), code=_cell(_RIGHT.replace(
                "self.linear2(torch.relu(self.linear1(self.norm3(X))))", "self.linear2(self.linear1(self.norm3(X)))"))),
        Mistake(
            "one layer norm used for two sublayers",
            principle="Each sublayer has its own layer norm with its own parameters.",
            fix="each sublayer has its own norm (its own gain and bias): norm1 before the self-attention, "
                "norm2 before the next sublayer.",
            fails=_BOTH, impl=partial(_dec_variant, same_norm=True), code=_cell(_RIGHT.replace(
                "self.norm2(X)", "self.norm1(X)").replace("self.norm3(X)", "self.norm1(X)"))),
        Mistake(
            "an extra layer norm on the block's output",
            principle="A pre-norm block returns the residual stream without a final norm.",
            fix="a pre-norm block returns the residual stream without normalising it (the model normalises "
                "once after the last block).",
            fails=_BOTH, impl=partial(_dec_variant, final_norm=True), code=_cell(_RIGHT.replace(
                "return X, self_weights", "return self.norm3(X), self_weights"))),
    ],
    examples=[
        # the decoder's own states as keys and values, with the source mask: the same answer as
        # the mistake where there is no mask; with one, the mask does not fit the decoder's length
        Example(_cell(_SELF + '''\
        h = self.norm2(X)
        c, cross_weights = self.cross_attn(h, h, cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
'''), ("test_decoder_layer",), _OWN_STATES, label="own states, with the source mask"),
    ],
)

# The check calls the learner's class through invoke_decoder_layer (build it, copy known weights
# in, run forward); a mistake's code is such a class, and is called the same way. The flag-style
# mistakes keep their variant (the checks combine two of them).
for _mistake in CARD.mistakes:
    if not isinstance(_mistake.impl, partial):
        object.__setattr__(_mistake, "impl", partial(invoke_decoder_layer, _mistake.impl))
del _mistake


def _case(spec: LayerSpec, B, Lt, Ls, lengths=None, why=""):
    rng = np.random.default_rng(spec.seed)
    X = rng.normal(size=(B, Lt, spec.d_model))
    memory = rng.normal(size=(B, Ls, spec.d_model))
    mask = None if lengths is None else lengths_mask(lengths, Ls)
    return Case((spec, X, memory, mask), why=why or f"B={B}, Lt={Lt}, Ls={Ls}")


def _large(spec: LayerSpec, B, Lt, Ls, lengths) -> Case:
    def build(rng):
        return Case((spec, rng.normal(size=(B, Lt, spec.d_model)), rng.normal(size=(B, Ls, spec.d_model)),
                     lengths_mask(lengths, Ls)))

    return large_case(spec, "cross_attn", build,
                      f"source padding, cross-attention scores of ±1e4 with most rows' largest score on a "
                      f"padding key (B={B}, Lt={Lt}, Ls={Ls}, lengths {list(lengths)})")


def cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_case(LayerSpec("decoder", 6, 3, 10, case_seed(925, True)), 2, 5, 3),
                _case(LayerSpec("decoder", 8, 2, 5, case_seed(926, True)), 1, 4, 6, why="Lt < Ls")]
    return [_case(LayerSpec("decoder", 8, 2, 12, 921), 2, 5, 4, why="B=2, Lt=5, Ls=4, D=8, H=2, d_ff=12"),
            _case(LayerSpec("decoder", 12, 3, 7, 922), 1, 3, 6, why="one sentence, Lt=3 < Ls=6, H=3"),
            _case(LayerSpec("decoder", 6, 2, 5, 923), 1, 1, 3,
                  why="B=1, one target token, Ls=3, D=6: 2 heads of odd width 3")]


def mask_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_case(LayerSpec("decoder", 6, 2, 8, case_seed(935, True)), 3, 4, 5, lengths=[5, 2, 1],
                      why="source padding"),
                _case(LayerSpec("decoder", 10, 2, 7, case_seed(936, True)), 2, 3, 4, lengths=[4, 0],
                      why="a source of length 0: its cross-attention rows are fully masked"),
                _large(LayerSpec("decoder", 6, 3, 8, case_seed(937, True), attn_scale=20.0), 2, 4, 6, [6, 3])]
    return [_case(LayerSpec("decoder", 8, 2, 10, 931), 3, 4, 6, lengths=[6, 3, 1],
                  why="padded source sentences (memory_mask True at real tokens)"),
            _case(LayerSpec("decoder", 8, 2, 6, 933), 2, 3, 4, lengths=[0, 4],
                  why="a source of length 0: its cross-attention rows are fully masked"),
            _case(LayerSpec("decoder", 8, 4, 6, 932), 2, 5, 5, lengths=[5, 2],
                  why="Lt = Ls = 5, padded source"),
            _large(LayerSpec("decoder", 6, 2, 9, 934, attn_scale=20.0), 2, 3, 5, [5, 2])]


def check_decoder_layer(TransformerDecoderLayer, hidden: bool = False) -> None:
    """Check ``TransformerDecoderLayer(d_model, num_heads, d_ff).forward(X, memory)``."""
    CARD.check(TransformerDecoderLayer, cases(hidden), hidden=hidden,
               passed="causal self-attention, cross-attention to memory, feed-forward, all pre-norm")


def check_decoder_layer_mask(TransformerDecoderLayer, hidden: bool = False) -> None:
    """Check ``TransformerDecoderLayer.forward(X, memory, memory_mask)`` with source padding."""
    CARD.check(TransformerDecoderLayer, mask_cases(hidden), hidden=hidden,
               passed="source padding gets no cross-attention")
