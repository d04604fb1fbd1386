"""TransformerEncoderLayer (notebook 09): a pre-norm encoder layer as a torch module,
``X + SelfAttn(LN1(X))`` then ``X + FFN(LN2(X))``, with a padding mask.

The check builds the learner's class with the stub's constructor, copies seeded weights into the
attributes the stub names and runs ``forward`` in float64
(:func:`attnlab.checks.transformer.invoke_encoder_layer`). A mistake's code is a whole class and
is run the same way; the flag-style mistakes (``partial(_enc_variant, ...)``, which the checks
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
    LayerSpec, feed_forward, invoke_encoder_layer, large_case, lengths_mask, padding_mask, sublayer,
)
from ._card import Card, Contract


def _uses() -> dict:
    import attnlab.torch as at

    return {"at": at}  # the notebook's setup cell: `import attnlab.torch as at`


def _enc_variant(spec: LayerSpec, X, mask=None, *, order="pre", ff_order=None, padding="ok", relu=True,
                 same_norm=False, final_norm=False, swap=False):
    """The layer with its known slips as flags, on the library's layer holding ``spec``'s weights."""
    import torch

    m = spec.reference()
    X, mask = _t(X), _t(mask)
    am = padding_mask(mask, padding)
    with torch.no_grad():
        X, w = sublayer(m, X, m.norm1, lambda h: m.self_attn(h, h, am), order)
        X, _ = sublayer(m, X, m.norm1 if same_norm else m.norm2, lambda h: (feed_forward(m, h, relu), None),
                        ff_order or order)
        if final_norm:
            X = m.norm2(X)
        return (w.numpy(), X.numpy()) if swap else (X.numpy(), w.numpy())


def reference(spec, X, mask=None):
    """What the library's pre-norm layer with ``spec``'s weights returns: ``(output, weights)``."""
    return _enc_variant(spec, X, mask)


# The stub's class and constructor, as the learner keeps them (tests/uncatalogued reads INIT).
INIT = '''
class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
'''
_FORWARD = '''
    def forward(self, X, mask=None):
        attn_mask = None if mask is None else mask[:, None, None, :]
'''
_RIGHT = '''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
'''


def _cell(body: str, init: str = INIT) -> str:
    """A learner's cell: the stub's constructor (or ``init``) and a forward with this body."""
    return init + _FORWARD + body


_BOTH = ("test_encoder_layer", "test_encoder_layer_mask")
_MASK = ("test_encoder_layer_mask",)
_PRE_FIX = ("pre-norm: normalise a copy for the branch and add the branch to the un-normalised "
            "input, `h = self.norm1(X); a, w = self.self_attn(h, h, mask); X = X + a`, and the "
            "same with norm2 around the feed-forward network.")

CARD = Card(
    "TransformerEncoderLayer", "09_transformer",
    summary="a pre-norm encoder layer: X + SelfAttn(LN1(X)), then X + FFN(LN2(X)), padding keys "
            "masked",
    contract=Contract(
        args=("layer", "X", "mask"), reference=reference, invoke=invoke_encoder_layer,
        outputs=("output", "weights"), reference_module=_divergence.encoder_layer_class,
        shapes="TransformerEncoderLayer(d_model, num_heads, d_ff) keeps the stub's self_attn "
               "(at.MultiHeadAttention with bias), norm1, norm2 (nn.LayerNorm), linear1 (d_model -> "
               "d_ff) and linear2 (d_ff -> d_model); forward takes X (B, L, D) and mask None or "
               "bool (B, L), True at real tokens",
        returns="(output (B, L, D), weights (B, H, L, L)): padding keys get weight 0, a sentence "
                "of length 0 all-zero weights"),
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
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.ffn(self.norm2(X))
        return X, weights
''', init=INIT.replace('''        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
''', '''        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
'''))),
        Mistake(
            "a layer of the wrong size",
            principle="Keep the layer sizes the stub's __init__ gives.",
            fix="keep the stub's `__init__` as it is.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace(
                "nn.Linear(d_model, d_ff)", "nn.Linear(d_ff, d_model)  # (in, out) swapped").replace(
                "nn.Linear(d_ff, d_model)\n", "nn.Linear(d_model, d_ff)\n"))),
        Mistake(
            "a layer without the bias the stub gives it (`bias=True` left out)",
            principle="Build every layer as the stub does: these layers all have a bias term.",
            fix="keep the stub's `__init__` as it is: `at.MultiHeadAttention(d_model, num_heads, "
                "bias=True)` (its default is no bias), and `nn.Linear` with its default bias.",
            fails=_BOTH, code=_cell(_RIGHT, init=INIT.replace(", bias=True)", ")"))),
        Mistake(
            "dropout left active in eval mode",
            principle=DROPOUT_PRINCIPLE, fix=DROPOUT_FIX,
            fails=_BOTH, code=_cell('''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + nn.functional.dropout(a, p=0.1)  # training=True by default
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''')),
        Mistake(
            "the residual added after the norm (X = LN(X) + Sublayer(LN(X))), not around it",
            principle="Pre-norm: the residual carries the un-normalised input past the normalised sublayer.",
            fix="the residual path must carry X itself, untouched: " + _PRE_FIX,
            fails=_BOTH, impl=partial(_enc_variant, order="after_norm"), code=_cell('''\
        X = self.norm1(X)
        a, weights = self.self_attn(X, X, attn_mask)
        X = X + a
        X = self.norm2(X)
        X = X + self.linear2(torch.relu(self.linear1(X)))
        return X, weights
''')),
        Mistake(
            "post-norm (LN(X + Sublayer(X))) instead of pre-norm",
            principle="Normalise the sublayer's input, not the sum after the residual.",
            fix="this block is pre-norm, the norm comes first and only on the branch: " + _PRE_FIX,
            fails=_BOTH, impl=partial(_enc_variant, order="post"), code=_cell('''\
        a, weights = self.self_attn(X, X, attn_mask)
        X = self.norm1(X + a)
        X = self.norm2(X + self.linear2(torch.relu(self.linear1(X))))
        return X, weights
''')),
        Mistake(
            "a residual connection missing (X = Sublayer(LN(X)))",
            principle="Each sublayer adds its output to its input.",
            fix="add the branch's output to its input: `X = X + a`.",
            fails=_BOTH, impl=partial(_enc_variant, order="no_residual"), code=_cell('''\
        h = self.norm1(X)
        X, weights = self.self_attn(h, h, attn_mask)
        X = self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''')),
        Mistake(
            "the residual connection around the feed-forward network missing",
            principle="The feed-forward sublayer also adds its output to its input.",
            fix="`X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))` (norm3 in the decoder).",
            fails=_BOTH, impl=partial(_enc_variant, ff_order="no_residual"), code=_cell('''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''')),
        Mistake(
            "the layer norms not applied",
            principle="Each sublayer's input is layer-normalised first.",
            fix="pre-norm normalises the input of every branch: `self.self_attn(h, h, ...)` with "
                "`h = self.norm1(X)`.",
            fails=_BOTH, impl=partial(_enc_variant, order="no_norm"), code=_cell('''\
        a, weights = self.self_attn(X, X, attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(X)))
        return X, weights
''')),
        Mistake(
            "the ReLU missing between linear1 and linear2",
            principle="The feed-forward network has a nonlinearity between its two layers.",
            fix="the feed-forward network is `linear2(relu(linear1(h)))`: without the ReLU the two layers "
                "collapse into one linear map.",
            fails=_BOTH, impl=partial(_enc_variant, relu=False), code=_cell('''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(self.linear1(self.norm2(X)))
        return X, weights
''')),
        Mistake(
            "one layer norm used for two sublayers",
            principle="Each sublayer has its own layer norm with its own parameters.",
            fix="each sublayer has its own norm (its own gain and bias): norm1 before the self-attention, "
                "norm2 before the next sublayer.",
            fails=_BOTH, impl=partial(_enc_variant, same_norm=True), code=_cell('''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm1(X))))
        return X, weights
''')),
        Mistake(
            "an extra layer norm on the block's output",
            principle="A pre-norm block returns the residual stream without a final norm.",
            fix="a pre-norm block returns the residual stream without normalising it (the model normalises "
                "once after the last block).",
            fails=_BOTH, impl=partial(_enc_variant, final_norm=True), code=_cell('''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return self.norm2(X), weights
''')),
        Mistake(
            "the padding mask ignored",
            principle="Padding positions must get no attention.",
            fix="pass the mask to the attention as `mask[:, None, None, :]`, (B, 1, 1, L): every query of "
                "a sentence may attend to its real tokens only.",
            fails=_MASK, impl=partial(_enc_variant, padding="ignored"), code=_cell('''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''')),
        Mistake(
            "the padding mask inverted (True treated as padding)",
            principle="True marks real tokens, which may be attended to.",
            fix="True marks a real token that may be attended to; pass it as it is.",
            fails=_MASK, impl=partial(_enc_variant, padding="inverted"), code=_cell('''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, None if mask is None else ~attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''')),
        Mistake(
            "the returned pair in the wrong order: (weights, output) instead of (output, weights)",
            principle="The contract returns the output first, then the weights.",
            fix="return `X, weights`.",
            fails=_BOTH, impl=partial(_enc_variant, swap=True), code=_cell('''\
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return weights, X
''')),
    ],
)

# The check calls the learner's class through invoke_encoder_layer (build it, copy known weights
# in, run forward); a mistake's code is such a class, and is called the same way. The flag-style
# mistakes keep their variant (the checks combine two of them).
for _mistake in CARD.mistakes:
    if not isinstance(_mistake.impl, partial):
        object.__setattr__(_mistake, "impl", partial(invoke_encoder_layer, _mistake.impl))
del _mistake


def _case(spec: LayerSpec, B, L, lengths=None, why=""):
    rng = np.random.default_rng(spec.seed)
    X = rng.normal(size=(B, L, spec.d_model))
    mask = None if lengths is None else lengths_mask(lengths, L)
    return Case((spec, X, mask), why=why or f"B={B}, L={L}")


def _large(spec: LayerSpec, B, L, lengths) -> Case:
    def build(rng):
        return Case((spec, rng.normal(size=(B, L, spec.d_model)), lengths_mask(lengths, L)))

    return large_case(spec, "self_attn", build, f"padding, scores of ±1e4 with most padded rows' largest "
                                                f"score on a padding key (B={B}, L={L}, lengths {list(lengths)})")


def cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_case(LayerSpec("encoder", 6, 3, 10, case_seed(905, True)), 2, 5),
                _case(LayerSpec("encoder", 8, 1, 6, case_seed(906, True)), 3, 4, why="one head")]
    return [_case(LayerSpec("encoder", 8, 2, 12, 901), 2, 5, why="B=2, L=5, D=8, H=2, d_ff=12"),
            _case(LayerSpec("encoder", 12, 3, 7, 902), 1, 3, why="one sentence, H=3, d_ff < D"),
            _case(LayerSpec("encoder", 6, 2, 5, 903), 1, 1,
                  why="B=1, one token, D=6: 2 heads of odd width 3")]


def mask_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_case(LayerSpec("encoder", 6, 2, 9, case_seed(915, True)), 3, 5, lengths=[5, 1, 3], why="padding"),
                _case(LayerSpec("encoder", 10, 2, 7, case_seed(916, True)), 2, 3, lengths=[3, 0],
                      why="a sentence of length 0: its rows are fully masked"),
                _large(LayerSpec("encoder", 6, 3, 8, case_seed(917, True), attn_scale=20.0), 2, 6, [6, 3])]
    return [_case(LayerSpec("encoder", 8, 2, 10, 911), 3, 6, lengths=[6, 2, 4],
                  why="padded sentences (mask True at real tokens)"),
            _case(LayerSpec("encoder", 8, 2, 6, 912), 2, 4, lengths=[4, 0],
                  why="a sentence of length 0: its rows are fully masked"),
            _large(LayerSpec("encoder", 6, 2, 9, 913, attn_scale=20.0), 2, 5, [5, 2])]


def check_encoder_layer(TransformerEncoderLayer, hidden: bool = False) -> None:
    """Check ``TransformerEncoderLayer(d_model, num_heads, d_ff).forward(X)``."""
    CARD.check(TransformerEncoderLayer, cases(hidden), hidden=hidden,
               passed="X + SelfAttn(LN1(X)), then X + FFN(LN2(X))")


def check_encoder_layer_mask(TransformerEncoderLayer, hidden: bool = False) -> None:
    """Check ``TransformerEncoderLayer.forward(X, mask)`` with padding."""
    CARD.check(TransformerEncoderLayer, mask_cases(hidden), hidden=hidden, passed="padding keys get weight 0")
