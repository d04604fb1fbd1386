"""Checks for notebook 07, rnn_translation_with_attention: ``AdditiveAttention``,
``MultiplicativeAttention``, ``AttentionDecoder.step``, ``greedy_decode`` and
``alignment_accuracy``.

The torch exercises are classes. Each check builds the learner's class with the constructor of
the stub, copies known weights into the attributes the stub names (``W_q``, ``W_k``, ``v``;
``W``; ``embedding``, ``gru``, ``attention``, ``out``), runs it in float64 and compares with the
reference computed from the same weights. The weights of the decoder and of the whole model are
drawn from a seed (:class:`DecoderSpec`, :class:`ModelSpec`), so a case stays small, plain data
that can travel to the grading sandbox. Every ``invoke_*`` below is the ``run_check(invoke=...)``
hook that calls the learner's object.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from ..masks import masked_softmax as _masked_softmax
from ..translation_metrics import alignment_accuracy as _alignment_accuracy
from ._contract import invoke_float
from ._core import Case, CheckRaised, Mistake, case_rng, run_check
from ._predict import Prediction, WrongPrediction
from ._modules import DROPOUT_FIX, DROPOUT_PRINCIPLE, DropoutActive, materialise, run_eval, weight_shape


# ---------------------------------------------------------------------------------------------
# Structural mistakes: the learner's class is not built as the stub says.

class NotAModule(CheckRaised, TypeError):
    """The learner's class does not build an ``nn.Module``."""


class LayerMissing(CheckRaised, AttributeError):
    """A layer the stub names is missing or of the wrong type."""


class LayerShape(CheckRaised, ValueError):
    """A layer of the wrong size."""


class LayerBias(CheckRaised, ValueError):
    """A layer with a bias where the stub has none."""


def _raises(exc_type, *args, **kwargs):
    raise exc_type("a known structural mistake")


class NotApplicable(Exception):
    """A known mistake that does not apply to this input (the learner's code would crash here);
    raised rather than returning None, which would look like a NaN answer."""


def _require_module(module, call: str) -> None:
    from torch import nn

    if not isinstance(module, nn.Module):
        raise NotAModule(f"{call} is a {type(module).__name__}, not an nn.Module: keep "
                         "`class ...(nn.Module)` and `super().__init__()` from the stub")


def _require_layer(module, name: str, kind, shape: tuple, call: str, bias: bool | None = None) -> None:
    layer = getattr(module, name, None)
    if not isinstance(layer, kind):
        found = "nothing" if layer is None else f"a {type(layer).__name__}"
        raise LayerMissing(f"{call} needs the attribute `self.{name}` ({kind.__name__}) of the stub; "
                           f"found {found}")
    got = weight_shape(layer)
    if got is not None and got != shape:
        raise LayerShape(f"in {call}, `self.{name}.weight` has shape {got}, expected {shape}")
    if bias is not None and (getattr(layer, "bias", None) is not None) != bias:
        raise LayerBias(f"in {call}, `self.{name}` {'has a' if not bias else 'has no'} bias; "
                        f"the stub's layer has {'one' if bias else 'none'}")


STRUCTURE_MISTAKES = [
    Mistake("a class that is not an nn.Module",
            "keep the stub's `class ...(nn.Module)` and its `super().__init__()`.",
            partial(_raises, NotAModule)),
    Mistake("the layers are not the attributes the stub creates",
            "keep the stub's `__init__` as it is: the check copies known weights into exactly "
            "those attributes.", partial(_raises, LayerMissing)),
    Mistake("a layer of the wrong size", "keep the stub's `__init__` as it is.", partial(_raises, LayerShape)),
    Mistake("a layer with a bias the stub does not have",
            "keep `bias=False` as in the stub: the scores have no bias term.", partial(_raises, LayerBias)),
    Mistake("dropout left active in eval mode", DROPOUT_FIX, partial(_raises, DropoutActive), DROPOUT_PRINCIPLE),
]


def _t(x):
    import torch

    return None if x is None else torch.from_numpy(np.ascontiguousarray(x))


# ---------------------------------------------------------------------------------------------
# Attention modules: numpy references and their variants (the known mistakes)

def _softmax_context(scores, keys, mask, *, mode: str = "ok", axis: str = "keys", values=None):
    """Weights from scores (masked as ``mode`` says) and the context ``Σ_j w_j values_j``."""
    values = keys if values is None else values
    if axis == "none":  # the scores used as weights
        w = scores if mask is None else np.where(mask, scores, 0.0)
    elif axis == "batch":
        w = _masked_softmax(scores.T, None if mask is None else mask.T).T
    elif mask is None or mode == "ignored":
        w = _masked_softmax(scores)
    elif mode == "ok":
        w = _masked_softmax(scores, mask)
    elif mode == "inverted":
        w = _masked_softmax(scores, ~mask)
    elif mode == "after":  # softmax first, then zero the padding, no renormalising
        w = _masked_softmax(scores) * mask
    elif mode == "nan":  # masked_fill(-inf) then softmax: a fully masked row is NaN
        s = np.where(mask, scores, -np.inf)
        with np.errstate(invalid="ignore"):
            e = np.exp(s - s.max(axis=-1, keepdims=True))
            w = e / e.sum(axis=-1, keepdims=True)
    elif mode == "big":  # masked_fill(-1e9): a fully masked row gets uniform weights
        w = _masked_softmax(np.where(mask, scores, -1e9))
    else:
        raise ValueError(mode)
    return np.einsum("bj,bjd->bd", w, values), w  # (B, Dv), (B, Lk)


def _additive_scores(query, keys, W_q, W_k, v, *, tanh=True, use_v=True):
    hidden = (query @ W_q)[:, None, :] + keys @ W_k  # (B, 1, Dh) + (B, Lk, Dh) -> (B, Lk, Dh)
    if tanh:
        hidden = np.tanh(hidden)
    return hidden @ v if use_v else hidden.sum(axis=-1)  # (B, Lk)


def _additive_reference(query, keys, W_q, W_k, v, mask=None):
    return _softmax_context(_additive_scores(query, keys, W_q, W_k, v), keys, mask)


def _additive_variant(query, keys, W_q, W_k, v, mask=None, *, tanh=True, use_v=True, mode="ok",
                      axis="keys", projected_values=False, swap=False):
    scores = _additive_scores(query, keys, W_q, W_k, v, tanh=tanh, use_v=use_v)
    context, w = _softmax_context(scores, keys, mask, mode=mode, axis=axis,
                                  values=keys @ W_k if projected_values else None)
    return (w, context) if swap else (context, w)


MASK_MISTAKES = [  # (name, fix, flags), shared by both attention modules
    ("the mask is ignored",
     "pass it on: `weights = at.masked_softmax(scores, mask)` (mask None means no mask).",
     {"mode": "ignored"}),
    ("the mask is inverted (True treated as padding)",
     "True means a real source word that may be attended to: keep the scores where the mask is True.",
     {"mode": "inverted"}),
    ("the mask applied after the softmax (weights * mask) without renormalising",
     "mask the scores before the softmax; `at.masked_softmax(scores, mask)` does it.", {"mode": "after"}),
    ("a fully masked row becomes NaN (masked_fill with -inf, then softmax)",
     "a sentence with no word to attend to must get zero weights: use `at.masked_softmax(scores, "
     "mask)`, which handles it.", {"mode": "nan"}),
    ("padding filled with a large negative number: a fully masked row gets uniform weights instead of zeros",
     "use `at.masked_softmax(scores, mask)`: masked weights exactly 0, a fully masked row all 0.",
     {"mode": "big"}),
]
SOFTMAX_MISTAKES = [
    ("a softmax over the batch (dim=0) instead of over the keys",
     "each query's weights must sum to one over its source words: softmax over the last dim "
     "(`at.masked_softmax` does that).", {"axis": "batch"}),
    ("no softmax: the scores used as weights",
     "turn the scores (B, Lk) into weights with `at.masked_softmax(scores, mask)`.", {"axis": "none"}),
    ("returning (weights, context) instead of (context, weights)",
     "return the context first: `return context, weights`.", {"swap": True}),
]

ADDITIVE_MISTAKES = STRUCTURE_MISTAKES + [
    Mistake("tanh missing: vᵀ(W_q q + W_k k) instead of vᵀ tanh(W_q q + W_k k)",
            "apply `torch.tanh` to the sum before `self.v`: without it the score is linear and "
            "the query's term is the same for every key, so it cancels in the softmax.",
            partial(_additive_variant, tanh=False)),
    Mistake("v missing: the hidden units summed instead of weighted by v",
            "score = `self.v(torch.tanh(...)).squeeze(-1)`, a learned weighting of the hidden units.",
            partial(_additive_variant, use_v=False)),
    Mistake("the context averages the projected keys W_k k instead of the keys",
            "the weights average the encoder outputs themselves: `context = (weights.unsqueeze(1) "
            "@ keys).squeeze(1)`, of width Dk.", partial(_additive_variant, projected_values=True)),
] + [Mistake(n, f, partial(_additive_variant, **flags)) for n, f, flags in SOFTMAX_MISTAKES + MASK_MISTAKES]


def invoke_additive(cls, query, keys, W_q, W_k, v, mask=None):
    """Build ``cls(Dq, Dk, Dh)``, copy ``W_q, W_k, v`` into its layers, run ``forward``."""
    import torch
    from torch import nn

    (Dq, Dh), Dk = W_q.shape, W_k.shape[0]
    call = f"AdditiveAttention({Dq}, {Dk}, {Dh})"
    module = cls(Dq, Dk, Dh)
    _require_module(module, call)
    materialise(module, lambda m: m(_t(query).float(), _t(keys).float(), _t(mask)))
    _require_layer(module, "W_q", nn.Linear, (Dh, Dq), call, bias=False)
    _require_layer(module, "W_k", nn.Linear, (Dh, Dk), call, bias=False)
    _require_layer(module, "v", nn.Linear, (1, Dh), call, bias=False)
    module = module.double()
    with torch.no_grad():
        module.W_q.weight.copy_(_t(W_q.T))  # nn.Linear stores (out, in)
        module.W_k.weight.copy_(_t(W_k.T))
        module.v.weight.copy_(_t(v[None, :]))
    return run_eval(module, lambda m: m(_t(query), _t(keys), _t(mask)), "AdditiveAttention")


def _lengths_mask(lengths, Lk):
    return np.arange(Lk)[None, :] < np.asarray(lengths)[:, None]  # (B, Lk)


def _additive_case(rng, B, Lk, Dq, Dk, Dh, lengths=None, why=""):
    query, keys = rng.normal(size=(B, Dq)), rng.normal(size=(B, Lk, Dk))
    W_q, W_k = rng.normal(size=(Dq, Dh)), rng.normal(size=(Dk, Dh))
    v = rng.normal(size=Dh)
    mask = None if lengths is None else _lengths_mask(lengths, Lk)
    return Case((query, keys, W_q, W_k, v, mask),
                why=why or f"AdditiveAttention({Dq}, {Dk}, {Dh}) with known weights")


def _additive_cases(hidden: bool) -> list[Case]:
    rng = case_rng(707 if hidden else 77, hidden)
    shapes = [(3, 4, 5, 2, 6), (2, 6, 3, 5, 4)] if hidden else [(2, 5, 3, 4, 6), (4, 3, 6, 2, 5)]
    return [_additive_case(rng, *s) for s in shapes]


def _additive_mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(708 if hidden else 78, hidden)
    if hidden:
        return [_additive_case(rng, 4, 6, 3, 5, 4, lengths=[6, 2, 4, 1], why="padding masks"),
                _additive_case(rng, 3, 5, 4, 3, 2, lengths=[3, 0, 5],
                               why="padding masks; the second row has no word to attend to")]
    return [_additive_case(rng, 3, 5, 4, 3, 6, lengths=[5, 2, 3], why="padding masks (True = a real word)"),
            _additive_case(rng, 3, 4, 2, 5, 3, lengths=[4, 1, 0],
                           why="padding masks; the last row has no word to attend to")]


ADDITIVE_ARGS = ("query", "keys", "W_q.weight.T", "W_k.weight.T", "v.weight[0]", "mask")


def check_additive_attention(AdditiveAttention, hidden: bool = False) -> None:
    """Check ``AdditiveAttention(query_dim, key_dim, hidden_dim).forward(query, keys)``."""
    run_check(AdditiveAttention, exercise="AdditiveAttention", reference=_additive_reference,
              cases=_additive_cases(hidden), mistakes=ADDITIVE_MISTAKES, arg_names=ADDITIVE_ARGS,
              outputs=("context", "weights"), show_values=not hidden, invoke=invoke_additive,
              passed="vᵀ tanh(W_q q + W_k k), softmax over the keys, weighted keys")


def check_additive_attention_mask(AdditiveAttention, hidden: bool = False) -> None:
    """Check ``AdditiveAttention.forward(query, keys, mask)``: padding gets weight 0."""
    run_check(AdditiveAttention, exercise="AdditiveAttention", reference=_additive_reference,
              cases=_additive_mask_cases(hidden), mistakes=ADDITIVE_MISTAKES, arg_names=ADDITIVE_ARGS,
              outputs=("context", "weights"), show_values=not hidden, invoke=invoke_additive,
              passed="padding gets weight 0, a sentence with no word gets zeros")


# ---------------------------------------------------------------------------------------------
# MultiplicativeAttention

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


def _mult_reference(query, keys, kind, W, mask=None):
    return _softmax_context(_mult_scores(query, keys, kind, W), keys, mask)


def _mult_variant(query, keys, kind, W, mask=None, *, scaled=False, w_on_query=False,
                  general_as_dot=False, mode="ok", axis="keys", projected_values=False, swap=False):
    scores = _mult_scores(query, keys, kind, W, scaled=scaled, w_on_query=w_on_query,
                          general_as_dot=general_as_dot)
    if projected_values and kind != "general":
        raise NotApplicable("no W for kind='dot'")
    values = keys @ W.T if projected_values else None  # W(keys): (B, Lk, Dq)
    context, w = _softmax_context(scores, keys, mask, mode=mode, axis=axis, values=values)
    return (w, context) if swap else (context, w)


MULT_MISTAKES = STRUCTURE_MISTAKES + [
    Mistake("scores scaled by √Dk (Luong's scores are not scaled)",
            "use the plain products `qᵀ k` and `qᵀ W k`; the 1/√Dk of notebook 02 belongs to "
            "scaled dot-product attention.", partial(_mult_variant, scaled=True)),
    Mistake("W applied to the query (qᵀ Wᵀ k) instead of the keys (qᵀ W k)",
            "`self.W` maps a key (Dk) to the query's width (Dq): score = q · W(k), e.g. "
            "`(self.W(keys) @ query.unsqueeze(-1)).squeeze(-1)`.", partial(_mult_variant, w_on_query=True)),
    Mistake("kind='general' computed as a plain dot product (W unused)",
            "for kind='general' the score is qᵀ W k: use `self.W(keys)` instead of `keys`.",
            partial(_mult_variant, general_as_dot=True)),
    Mistake("the context averages W k instead of the keys",
            "W only enters the score; the weights average the encoder outputs themselves: "
            "`context = (weights.unsqueeze(1) @ keys).squeeze(1)`.", partial(_mult_variant, projected_values=True)),
] + [Mistake(n, f, partial(_mult_variant, **flags)) for n, f, flags in SOFTMAX_MISTAKES + MASK_MISTAKES]


def invoke_multiplicative(cls, query, keys, kind, W, mask=None):
    """Build ``cls(Dq, Dk, kind=kind)``, copy ``W`` into ``self.W`` (general), run ``forward``."""
    import torch
    from torch import nn

    Dq, Dk = query.shape[1], keys.shape[2]
    call = f"MultiplicativeAttention({Dq}, {Dk}, kind={kind!r})"
    module = cls(Dq, Dk, kind=kind)
    _require_module(module, call)
    materialise(module, lambda m: m(_t(query).float(), _t(keys).float(), _t(mask)))
    if kind == "general":
        _require_layer(module, "W", nn.Linear, (Dq, Dk), call, bias=False)
    module = module.double()
    with torch.no_grad():
        if kind == "general":
            module.W.weight.copy_(_t(W))  # W(k) = W k, weight (Dq, Dk)
    return run_eval(module, lambda m: m(_t(query), _t(keys), _t(mask)), "MultiplicativeAttention")


def _mult_case(rng, B, Lk, Dq, Dk, kind, lengths=None, why=""):
    query, keys = rng.normal(size=(B, Dq)), rng.normal(size=(B, Lk, Dk))
    W = rng.normal(size=(Dq, Dk)) if kind == "general" else None
    mask = None if lengths is None else _lengths_mask(lengths, Lk)
    return Case((query, keys, kind, W, mask),
                why=why or f"MultiplicativeAttention({Dq}, {Dk}, kind={kind!r}) with known weights")


def _mult_cases(hidden: bool) -> list[Case]:
    rng = case_rng(717 if hidden else 87, hidden)
    # the square `general` case comes first: there W on the wrong side still runs, and is named
    if hidden:
        return [_mult_case(rng, 3, 5, 3, 3, "dot"), _mult_case(rng, 4, 3, 3, 3, "general"),
                _mult_case(rng, 2, 4, 5, 3, "general")]
    return [_mult_case(rng, 2, 5, 4, 4, "dot"), _mult_case(rng, 2, 6, 4, 4, "general"),
            _mult_case(rng, 3, 4, 3, 5, "general")]


def _mult_mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(718 if hidden else 88, hidden)
    if hidden:
        return [_mult_case(rng, 4, 5, 3, 3, "dot", lengths=[5, 1, 3, 0], why="dot, padding masks, one empty row"),
                _mult_case(rng, 3, 6, 2, 4, "general", lengths=[2, 6, 4], why="general, padding masks")]
    return [_mult_case(rng, 3, 5, 4, 4, "dot", lengths=[5, 2, 3], why="dot, padding masks (True = a real word)"),
            _mult_case(rng, 3, 4, 3, 5, "general", lengths=[4, 0, 2],
                       why="general, padding masks; the second row has no word to attend to")]


MULT_ARGS = ("query", "keys", "kind", "W.weight", "mask")


def check_multiplicative_attention(MultiplicativeAttention, hidden: bool = False) -> None:
    """Check ``MultiplicativeAttention(query_dim, key_dim, kind)`` for ``dot`` and ``general``."""
    run_check(MultiplicativeAttention, exercise="MultiplicativeAttention", reference=_mult_reference,
              cases=_mult_cases(hidden), mistakes=MULT_MISTAKES, arg_names=MULT_ARGS,
              outputs=("context", "weights"), show_values=not hidden, invoke=invoke_multiplicative,
              passed="qᵀ k and qᵀ W k, softmax over the keys, weighted keys")


def check_multiplicative_attention_mask(MultiplicativeAttention, hidden: bool = False) -> None:
    """Check ``MultiplicativeAttention.forward(query, keys, mask)``: padding gets weight 0."""
    run_check(MultiplicativeAttention, exercise="MultiplicativeAttention", reference=_mult_reference,
              cases=_mult_mask_cases(hidden), mistakes=MULT_MISTAKES, arg_names=MULT_ARGS,
              outputs=("context", "weights"), show_values=not hidden, invoke=invoke_multiplicative,
              passed="padding gets weight 0, a sentence with no word gets zeros")


# ---------------------------------------------------------------------------------------------
# Known weights for the decoder and for a whole model, drawn from a seed

def _fill(module, seed: int, scale: float) -> None:
    """Overwrite every parameter of ``module`` with seeded normal draws (numpy, so that every
    process gets the same weights), in the order of ``named_parameters``."""
    import torch

    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for _, p in module.named_parameters():
            p.copy_(torch.from_numpy(rng.normal(size=tuple(p.shape)) * scale))


@dataclass(frozen=True)
class DecoderSpec:
    """An ``AttentionDecoder(vocab_size, emb_dim, hidden_dim, key_dim, attention)`` whose weights
    come from ``seed``."""

    vocab_size: int
    emb_dim: int
    hidden_dim: int
    key_dim: int
    attention: str
    attn_hidden: int
    seed: int
    scale: float = 0.6

    def __repr__(self) -> str:
        return (f"AttentionDecoder({self.vocab_size}, {self.emb_dim}, {self.hidden_dim}, {self.key_dim}, "
                f"<{self.attention} attention>) with known weights")

    def attention_module(self):
        """The reference attention module (float64), with its weights."""
        from ..torch.seq2seq import make_attention

        attention = make_attention(self.attention, self.hidden_dim, self.key_dim, self.attn_hidden).double()
        _fill(attention, self.seed + 1, self.scale)
        return attention

    def reference(self):
        """The reference decoder (float64), with its weights."""
        from ..torch.seq2seq import AttentionDecoder

        decoder = AttentionDecoder(self.vocab_size, self.emb_dim, self.hidden_dim, self.key_dim,
                                   self.attention_module()).double()
        self.load_into(decoder)
        return decoder

    def load_into(self, decoder) -> None:
        """Copy the seeded weights into ``embedding``, ``gru`` and ``out`` of ``decoder``."""
        for k, name in enumerate(("embedding", "gru", "out")):
            _fill(getattr(decoder, name), self.seed + 10 + k, self.scale)


DECODER_LAYERS = ("embedding", "gru", "out")


def invoke_decoder_step(cls, decoder, prev_token, hidden, encoder_outputs, src_mask):
    """Build ``cls(V, E, H, Dk, attention)`` with the reference attention module, copy known
    weights into ``embedding``, ``gru`` and ``out``, and run ``step``."""
    import torch
    from torch import nn

    V, E, H, Dk = decoder.vocab_size, decoder.emb_dim, decoder.hidden_dim, decoder.key_dim
    call = f"AttentionDecoder({V}, {E}, {H}, {Dk}, attention)"
    attention = decoder.attention_module()
    module = cls(V, E, H, Dk, attention)
    _require_module(module, call)
    _require_layer(module, "embedding", nn.Embedding, (V, E), call)
    _require_layer(module, "gru", nn.GRUCell, (3 * H, E), call)
    _require_layer(module, "out", nn.Linear, (V, H + Dk + E), call, bias=True)
    if getattr(module, "attention", None) is not attention:
        raise LayerMissing(f"{call} must keep the attention module it is given as `self.attention`")
    module = module.double()
    decoder.load_into(module)
    return run_eval(module, lambda m: m.step(_t(prev_token), _t(hidden), _t(encoder_outputs), _t(src_mask)),
                    "AttentionDecoder")


def _step_variant(decoder, prev_token, hidden, encoder_outputs, src_mask, *, query="new",
                  use_mask=True, order=("hidden", "context", "emb"), return_old=False,
                  probabilities=False, mean_context=False):
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


def _step_reference(decoder, prev_token, hidden, encoder_outputs, src_mask):
    return _step_variant(decoder, prev_token, hidden, encoder_outputs, src_mask)


_ORDER_FIX = ("concatenate in the order of the stub: `torch.cat([hidden, context, emb], dim=-1)` "
              "(the new state, the context, the embedding), which is the order `self.out`'s weights expect.")
DECODER_MISTAKES = STRUCTURE_MISTAKES + [
    Mistake("the decoder querying with the wrong state: the previous state s_{t-1} instead of the new state s_t",
            "update the GRU first, `hidden = self.gru(emb, hidden)`, then query with that new "
            "hidden state: `self.attention(hidden, encoder_outputs, src_mask)`.",
            partial(_step_variant, query="old")),
    Mistake("the source mask not passed to the attention: padding gets attention",
            "call `self.attention(hidden, encoder_outputs, src_mask)`.", partial(_step_variant, use_mask=False)),
    Mistake("returning the previous state instead of the new one",
            "return the state the GRU just computed: the next step starts from s_t.",
            partial(_step_variant, return_old=True)),
    Mistake("returning probabilities (a softmax) instead of logits",
            "return `self.out(...)` as it is; the loss (cross-entropy) and argmax take logits.",
            partial(_step_variant, probabilities=True)),
    Mistake("the context is the plain average of the encoder outputs (no attention)",
            "get the context and the weights from `self.attention(hidden, encoder_outputs, src_mask)`.",
            partial(_step_variant, mean_context=True)),
] + [Mistake("the output layer's inputs concatenated in the wrong order", _ORDER_FIX,
             partial(_step_variant, order=order))
     for order in (("context", "hidden", "emb"), ("emb", "hidden", "context"), ("hidden", "emb", "context"),
                   ("emb", "context", "hidden"), ("context", "emb", "hidden"))]


def _step_case(rng, spec: DecoderSpec, B, Ls, lengths, why):
    prev = rng.integers(0, spec.vocab_size, size=B).astype(np.int64)
    hidden = np.tanh(rng.normal(size=(B, spec.hidden_dim)))
    enc = rng.normal(size=(B, Ls, spec.key_dim))
    mask = _lengths_mask(lengths, Ls)
    enc = enc * mask[:, :, None]  # the encoder's outputs are zero at padding
    return Case((spec, prev, hidden, enc, mask), why=why)


def _step_cases(hidden: bool) -> list[Case]:
    rng = case_rng(727 if hidden else 97, hidden)
    if hidden:
        return [_step_case(rng, DecoderSpec(11, 3, 5, 6, "additive", 4, 1727), 4, 6, [6, 3, 5, 2], "padding masks"),
                _step_case(rng, DecoderSpec(7, 5, 4, 8, "additive", 3, 1728), 2, 5, [5, 1], "padding masks")]
    return [_step_case(rng, DecoderSpec(9, 4, 6, 8, "additive", 5, 97), 3, 5, [5, 3, 2], "padding masks"),
            _step_case(rng, DecoderSpec(8, 3, 5, 4, "additive", 6, 98), 2, 6, [4, 6], "padding masks")]


def _step_luong_cases(hidden: bool) -> list[Case]:
    rng = case_rng(728 if hidden else 98, hidden)
    if hidden:
        return [_step_case(rng, DecoderSpec(9, 3, 5, 5, "dot", 0, 1729), 3, 4, [2, 4, 3], "dot attention"),
                _step_case(rng, DecoderSpec(8, 4, 3, 6, "general", 0, 1730), 3, 5, [5, 4, 1], "general attention")]
    return [_step_case(rng, DecoderSpec(9, 4, 6, 6, "dot", 0, 99), 3, 5, [5, 2, 4], "dot attention"),
            _step_case(rng, DecoderSpec(10, 3, 4, 6, "general", 0, 100), 2, 4, [3, 4], "general attention")]


STEP_ARGS = ("decoder", "prev_token", "hidden", "encoder_outputs", "src_mask")


def check_decoder_step(AttentionDecoder, hidden: bool = False) -> None:
    """Check ``AttentionDecoder.step`` with additive attention and padded sentences."""
    run_check(AttentionDecoder, exercise="AttentionDecoder", reference=_step_reference,
              cases=_step_cases(hidden), mistakes=DECODER_MISTAKES, arg_names=STEP_ARGS,
              outputs=("logits", "hidden", "weights"), show_values=not hidden, invoke=invoke_decoder_step,
              passed="step returns (logits, new state, weights) with the new state as the query")


def check_decoder_step_luong(AttentionDecoder, hidden: bool = False) -> None:
    """Check ``AttentionDecoder.step`` with Luong's dot and general attention."""
    run_check(AttentionDecoder, exercise="AttentionDecoder", reference=_step_reference,
              cases=_step_luong_cases(hidden), mistakes=DECODER_MISTAKES, arg_names=STEP_ARGS,
              outputs=("logits", "hidden", "weights"), show_values=not hidden, invoke=invoke_decoder_step,
              passed="step works with any attention module")


# ---------------------------------------------------------------------------------------------
# greedy_decode

@dataclass(frozen=True)
class ModelSpec:
    """A tiny ``Seq2Seq`` (target words 0-3 are ``<pad> <bos> <eos> <unk>``) whose weights come
    from ``seed``; ``eos_bias`` is added to the ``<eos>`` logit so that sentences end at
    different steps."""

    src_vocab: int
    tgt_vocab: int
    attention: str
    seed: int
    eos_bias: float = 0.0
    scale: float = 0.8

    def __repr__(self) -> str:
        return (f"a Seq2Seq model with {self.attention} attention, {self.tgt_vocab} target words "
                f"and known weights")

    def build(self):
        import torch

        from ..toylang import EOS
        from ..torch.seq2seq import Seq2Seq

        model = Seq2Seq(self.src_vocab, self.tgt_vocab, emb_dim=4, enc_hidden=3, dec_hidden=6,
                        attention=self.attention, attn_hidden=5).double()
        _fill(model, self.seed, self.scale)
        with torch.no_grad():
            model.decoder.out.bias[EOS] += self.eos_bias
        return model.eval()


def invoke_greedy(fn, model, src, src_mask, max_len):
    """Call ``fn(model, src, src_mask, max_len)`` on the model ``ModelSpec`` describes."""
    return fn(model.build(), _t(src), _t(src_mask), max_len)


def _greedy_variant(model, src, src_mask, max_len, *, feed_back=True, carry=True, stop="all",
                    pad_after=True, zero_weights=True, keep_eos=True, include_bos=False):
    import torch

    from ..toylang import BOS, EOS, PAD

    m = model.build()
    src, mask = _t(src), _t(src_mask)
    with torch.no_grad():
        enc, h0 = m.encode(src, mask)  # (B, Ls, Dk), (B, H)
        B = src.shape[0]
        prev = torch.full((B,), BOS, dtype=torch.long)
        hidden = h0
        done = torch.zeros(B, dtype=torch.bool)
        tokens, weights = [], []
        if include_bos:
            tokens.append(prev.clone())
            weights.append(torch.zeros_like(mask, dtype=enc.dtype))
        for _ in range(max_len):
            logits, new_hidden, w = m.decoder.step(prev, hidden, enc, mask)
            hidden = new_hidden if carry else h0
            best = logits.argmax(dim=-1)  # (B,)
            out = best
            if not keep_eos:
                out = torch.where(best == EOS, torch.full_like(best, PAD), out)
            if pad_after:
                out = torch.where(done, torch.full_like(best, PAD), out)
            tokens.append(out)
            weights.append(w.masked_fill(done.unsqueeze(-1), 0.0) if zero_weights else w)
            done = done | (best == EOS)
            if feed_back:
                prev = out
            if (stop == "all" and bool(done.all())) or (stop == "any" and bool(done.any())):
                break
        return torch.stack(tokens, 1).numpy(), torch.stack(weights, 1).numpy()


def _greedy_reference(model, src, src_mask, max_len):
    return _greedy_variant(model, src, src_mask, max_len)


GREEDY_MISTAKES = [
    Mistake("the previous prediction is not fed back (every step reads <bos>)",
            "after each step, the word just chosen becomes the next input: `prev_token = next_token`.",
            partial(_greedy_variant, feed_back=False)),
    Mistake("the hidden state is not carried from step to step",
            "keep the state `step` returns: `logits, hidden, weights = model.decoder.step(prev_token, "
            "hidden, ...)`.", partial(_greedy_variant, carry=False)),
    Mistake("not stopping once every sentence has produced <eos> (always max_len steps)",
            "after each step, `if finished.all(): break`.", partial(_greedy_variant, stop="never")),
    Mistake("stopping as soon as one sentence ends, instead of when all have ended",
            "stop when *every* sentence is finished: `finished.all()`, not `finished.any()`.",
            partial(_greedy_variant, stop="any")),
    Mistake("tokens after <eos> are not replaced by <pad>",
            "once a sentence is finished, write `pad` for it: `next_token = torch.where(finished, "
            "pad, next_token)`.", partial(_greedy_variant, pad_after=False)),
    Mistake("tokens after <eos> are not replaced by <pad> (and their weights not zeroed)",
            "once a sentence is finished, write `pad` for it, `next_token = torch.where(finished, "
            "pad, next_token)`, and zero its weights, `weights.masked_fill(finished.unsqueeze(-1), 0.0)`.",
            partial(_greedy_variant, pad_after=False, zero_weights=False)),
    Mistake("the weights of finished sentences are not zeroed",
            "zero the weights of finished sentences: `weights.masked_fill(finished.unsqueeze(-1), 0.0)`.",
            partial(_greedy_variant, zero_weights=False)),
    Mistake("the <eos> token is dropped (replaced by <pad>)",
            "keep the <eos> a sentence produces in `tokens`; only the steps after it are <pad>.",
            partial(_greedy_variant, keep_eos=False)),
    Mistake("the <bos> token included in the output",
            "`tokens` holds the words the decoder produced, starting with the first one, not <bos>.",
            partial(_greedy_variant, include_bos=True)),
]


def _greedy_case(spec: ModelSpec, lengths, max_len, why):
    rng = np.random.default_rng(spec.seed)
    B, Ls = len(lengths), max(lengths)
    mask = _lengths_mask(lengths, Ls)
    src = np.where(mask, rng.integers(4, spec.src_vocab, size=(B, Ls)), 0).astype(np.int64)
    return Case((spec, src, mask, max_len), why=why)


# Seeds chosen (tests/test_translation.py checks it) so that sentences end at different steps,
# some never within max_len (main cases) or all before it (<eos> cases), and every known mistake
# gives another answer than the reference.
def _greedy_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_greedy_case(ModelSpec(9, 10, "general", 1740, 0.0, 1.5), [4, 2, 6, 3, 5], 7,
                             "five sentences, some never produce <eos>"),
                _greedy_case(ModelSpec(8, 9, "dot", 1755, 3.0, 1.5), [3, 4, 1], 6, "dot attention")]
    return [_greedy_case(ModelSpec(8, 9, "additive", 110, 1.0, 1.5), [3, 5, 2, 4], 8,
                         "four sentences, some never produce <eos> within max_len"),
            _greedy_case(ModelSpec(9, 8, "general", 112, 0.0, 1.5), [5, 2, 4], 6, "general attention")]


def _greedy_eos_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_greedy_case(ModelSpec(9, 8, "additive", 1817, 0.0, 1.5), [5, 1, 3, 4], 12,
                             "every sentence ends before max_len"),
                _greedy_case(ModelSpec(8, 10, "dot", 1742, 0.0, 1.5), [2, 4, 3], 12, "every sentence ends")]
    return [_greedy_case(ModelSpec(8, 9, "additive", 110, 3.0, 2.0), [4, 2, 5, 3], 12,
                         "every sentence ends before max_len, at different steps"),
            _greedy_case(ModelSpec(9, 9, "dot", 110, 2.0, 1.0), [3, 5, 1], 12, "every sentence ends")]


GREEDY_ARGS = ("model", "src", "src_mask", "max_len")


def check_greedy_decode(greedy_decode, hidden: bool = False) -> None:
    """Check ``greedy_decode(model, src, src_mask, max_len)`` on models with known weights."""
    run_check(greedy_decode, exercise="greedy_decode", reference=_greedy_reference,
              cases=_greedy_cases(hidden), mistakes=GREEDY_MISTAKES, arg_names=GREEDY_ARGS,
              outputs=("tokens", "weights"), show_values=not hidden, invoke=invoke_greedy,
              passed="argmax fed back, state carried")


def check_greedy_decode_eos(greedy_decode, hidden: bool = False) -> None:
    """Check that ``greedy_decode`` pads after <eos> and stops when every sentence has ended."""
    run_check(greedy_decode, exercise="greedy_decode", reference=_greedy_reference,
              cases=_greedy_eos_cases(hidden), mistakes=GREEDY_MISTAKES, arg_names=GREEDY_ARGS,
              outputs=("tokens", "weights"), show_values=not hidden, invoke=invoke_greedy,
              passed="<eos> kept, <pad> after it, stops when all sentences have ended")


# ---------------------------------------------------------------------------------------------
# alignment_accuracy

def _aa_variant(weights, gold, *, denominator="aligned", hit="argmax", scale=1.0, average="pooled",
                first=0):
    weights, gold = np.asarray(weights, dtype=float), np.asarray(gold)
    Ls = weights.shape[-1]
    peak = np.argmax(weights, axis=-1)
    aligned = gold >= first
    if hit == "argmax":
        hits = (peak == gold) & aligned
    elif hit == "negative_index":  # weights[t, gold[t]] with gold = -1 picks the last word
        hits = peak == np.where(aligned, gold, Ls - 1)
    elif hit == "soft":
        hits = np.where(aligned, np.take_along_axis(weights, np.maximum(gold, 0)[..., None], -1)[..., 0], 0.0)
    elif hit == "half":
        hits = aligned & (np.take_along_axis(weights, np.maximum(gold, 0)[..., None], -1)[..., 0] > 0.5)
    else:
        raise ValueError(hit)
    if average == "sentences" and weights.ndim == 3:
        per = [np.sum(h[a]) / max(1, np.sum(a)) for h, a in zip(hits, aligned)]
        return scale * float(np.mean(per))
    if denominator == "aligned":
        return scale * float(np.sum(hits) / np.sum(aligned))
    if denominator == "all":
        return scale * float(np.sum(hits) / hits.size)
    return scale * float(np.sum(hits))  # a count


def _aa_argmax_over_targets(weights, gold):
    weights, gold = np.asarray(weights, dtype=float), np.asarray(gold)
    peak = np.argmax(weights, axis=-2)  # (..., Ls): the busiest target for every source word
    if peak.shape != gold.shape:
        raise NotApplicable("needs Lt == Ls")
    return float(np.sum((peak == gold) & (gold >= 0)) / np.sum(gold >= 0))


AA_MISTAKES = [
    Mistake("unaligned tokens (gold = -1) counted in the denominator",
            "divide by the number of aligned target tokens, `(gold >= 0).sum()`, not by Lt.",
            partial(_aa_variant, denominator="all")),
    Mistake("gold = -1 used as an index: it picks the last source word, so unaligned tokens count as hits",
            "leave unaligned tokens out altogether: `aligned = gold >= 0`, count hits only where "
            "`aligned` is True.", partial(_aa_variant, hit="negative_index", denominator="all")),
    Mistake("the weight on the gold word averaged instead of counting argmax hits",
            "a hit is `weights.argmax(axis=-1) == gold`: the peak must be the gold word.",
            partial(_aa_variant, hit="soft")),
    Mistake("counting a hit when the gold weight is above 0.5 instead of being the largest",
            "a hit is `weights.argmax(axis=-1) == gold`, whatever the peak's height.",
            partial(_aa_variant, hit="half")),
    Mistake("the number of hits instead of the fraction",
            "divide the hits by the number of aligned tokens.", partial(_aa_variant, denominator="count")),
    Mistake("a percentage (x 100) instead of a fraction in [0, 1]",
            "return the fraction itself.", partial(_aa_variant, scale=100.0)),
    Mistake("per-sentence accuracies averaged (every sentence weighs the same) instead of counting "
            "over the whole batch",
            "pool the counts: `hits.sum() / aligned.sum()` over every sentence together.",
            partial(_aa_variant, average="sentences")),
    Mistake("argmax over the target tokens (axis -2) instead of over the source words",
            "each target token's peak is `weights.argmax(axis=-1)`.", _aa_argmax_over_targets),
    Mistake("tokens aligned to source word 0 left out (`gold > 0`): word 0 is a real word",
            "only -1 means unaligned: `aligned = gold >= 0`.", partial(_aa_variant, first=1)),
]


def _aa_weights(rng, shape, sharp=3.0):
    return _masked_softmax(rng.normal(size=shape) * sharp)


def _aa_case(rng, Lt, Ls, n_none, why):
    weights = _aa_weights(rng, (Lt, Ls))
    gold = np.argmax(weights, axis=-1)
    wrong = rng.random(Lt) < 0.4  # some peaks miss their gold word
    gold = np.where(wrong, (gold + rng.integers(1, Ls, size=Lt)) % Ls, gold)
    gold[rng.choice(Lt, size=n_none, replace=False)] = -1
    none = gold < 0
    weights[none, -1] += 5.0  # unaligned tokens peak on the last word
    first = np.flatnonzero(~none)[0]  # one token aligned to source word 0 (a hit there)
    gold[first] = 0
    weights[first, 0] += 5.0
    weights /= weights.sum(axis=-1, keepdims=True)
    return Case((weights, gold.astype(np.int64)), why=why)


def _aa_cases(hidden: bool) -> list[Case]:
    rng = case_rng(747 if hidden else 117, hidden)
    if hidden:
        return [_aa_case(rng, 9, 6, 3, "3 unaligned target tokens"), _aa_case(rng, 4, 7, 1, "Lt < Ls")]
    return [_aa_case(rng, 7, 5, 2, "2 unaligned target tokens (gold = -1)"),
            _aa_case(rng, 5, 8, 1, "Lt < Ls, 1 unaligned token")]


def _aa_batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(748 if hidden else 118, hidden)
    cases = []
    for B, Lt, Ls, lengths in ([(3, 6, 5, [6, 3, 4])] if hidden else [(3, 7, 5, [7, 3, 5]), (2, 4, 6, [4, 2])]):
        weights = _aa_weights(rng, (B, Lt, Ls))
        gold = np.argmax(weights, axis=-1)
        gold = np.where(rng.random((B, Lt)) < 0.35, (gold + 1) % Ls, gold)
        for b, n in enumerate(lengths):
            gold[b, n - 1:] = -1  # <eos> and padding are aligned to nothing
        weights[gold < 0, -1] += 5.0
        weights /= weights.sum(axis=-1, keepdims=True)
        cases.append(Case((weights, gold.astype(np.int64)),
                          why=f"a batch of {B} sentences of different lengths, padding aligned to -1"))
    return cases


def check_alignment_accuracy(alignment_accuracy, hidden: bool = False) -> None:
    """Check ``alignment_accuracy(weights (Lt, Ls), gold (Lt,))``."""
    run_check(alignment_accuracy, exercise="alignment_accuracy", reference=_alignment_accuracy,
              cases=_aa_cases(hidden), mistakes=AA_MISTAKES, arg_names=("weights", "gold"),
              show_values=not hidden, passed="argmax hits over the aligned tokens",
              invoke=invoke_float)


def check_alignment_accuracy_batched(alignment_accuracy, hidden: bool = False) -> None:
    """Check ``alignment_accuracy`` on a batch ``(B, Lt, Ls)``, counted over every sentence."""
    run_check(alignment_accuracy, exercise="alignment_accuracy", reference=_alignment_accuracy,
              cases=_aa_batched_cases(hidden), mistakes=AA_MISTAKES, arg_names=("weights", "gold"),
              show_values=not hidden, passed="hits counted over the whole batch",
              invoke=invoke_float)


# ---------------------------------------------------------------------------------------------
# Predict, then run


CLITIC_PEAK = Prediction(
    "prediction_clitic_peak", "choice", "love",
    "The full-size Bahdanau model writes t' with 96% of its weight on \"love\" and 4% on \"you\". "
    "The keys are bidirectional GRU states, not words: the backward GRU reaches \"love\" after it "
    "has read \"you\", so the state at \"love\" knows the object is \"you\" (and not \"him\"), and "
    "the verb is what the decoder must write next. Nothing in training rewards looking at the "
    "gold word itself.",
    options=("I", "love", "you"),
    wrong=(
        WrongPrediction("you", "attention follows the gold alignment",
                        "t' translates \"you\", but the model was never shown an alignment; it looks "
                        "wherever the encoder state holds what it needs, and the state at \"love\" "
                        "has read \"you\" too."),
        WrongPrediction("I", "attention lags one step behind",
                        "The query is the new state s_t, which has already read the previous word "
                        "\"je\"; the model has moved on from \"I\"."),
    ),
)


def check_prediction_clitic_peak(prediction_clitic_peak, hidden: bool = False) -> None:
    """Check the prediction of the source word the Bahdanau model's t' attends to most."""
    CLITIC_PEAK.check(prediction_clitic_peak, hidden=hidden)


DECODE_SHAPE = Prediction(
    "prediction_decode_shape", "shape", (3, 26),
    "One row per sentence, one column per step taken. Decoding stops when the *last* sentence "
    "has produced <eos>: the longest translation has 25 words, then its <eos> step, so 26 steps; "
    "the two shorter rows end in <eos> followed by <pad>.",
    wrong=(
        WrongPrediction((3, 60), "decoding always takes max_len steps",
                        "max_len is only the limit: the loop stops as soon as every sentence has "
                        "produced <eos>."),
        WrongPrediction((3, 25), "the <eos> step is not counted",
                        "<eos> is kept in tokens: the step that produces it is a column too."),
        WrongPrediction((3, 6), "decoding stops when the first sentence ends",
                        "A finished sentence is padded while the others go on; the batch stops when "
                        "all are finished."),
    ),
)


def check_prediction_decode_shape(prediction_decode_shape, hidden: bool = False) -> None:
    """Check the prediction of the shape of greedy_decode's tokens for three test sentences."""
    DECODE_SHAPE.check(prediction_decode_shape, hidden=hidden)
