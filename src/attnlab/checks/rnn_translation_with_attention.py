"""Checks of notebook 07, rnn_translation_with_attention: what its cards (:mod:`attnlab.cards`) share,
and what the cards share.

The torch exercises are classes. Each check builds the learner's class with the constructor of
the stub, copies known weights into the attributes the stub names (``W_q``, ``W_k``, ``v``;
``W``; ``embedding``, ``gru``, ``attention``, ``out``), runs it in float64 and compares with the
reference computed from the same weights. The weights of the decoder and of the whole model are
drawn from a seed (:class:`DecoderSpec`, :class:`ModelSpec`), so a case stays small, plain data
that can travel to the grading sandbox. Every ``invoke_*`` below is the ``run_check(invoke=...)``
hook that calls the learner's object (and a mistake's code, which is such an object);
:func:`_softmax_context` is the softmax-then-average both attention cards' references (and their
flag-style mistakes) are built of.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..masks import masked_softmax as _masked_softmax
from ..toylang import EOS
from ._core import CheckRaised
from ._modules import materialise, run_eval, weight_shape


# ---------------------------------------------------------------------------------------------
# Structural mistakes: the learner's class is not built as the stub says.

class NotAModule(CheckRaised, TypeError):
    """The learner's class does not build an ``nn.Module``."""


class LayerMissing(CheckRaised, AttributeError):
    """A layer the stub names is missing or of the wrong type."""


class LayerShape(CheckRaised, ValueError):
    """A layer of the wrong size."""


class LayerBias(CheckRaised, ValueError):
    """A layer with a bias where the stub has none, or without the bias the stub gives it."""


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


def _t(x):
    import torch

    return None if x is None else torch.from_numpy(np.ascontiguousarray(x))


def _lengths_mask(lengths, Lk):
    return np.arange(Lk)[None, :] < np.asarray(lengths)[:, None]  # (B, Lk)


# ---------------------------------------------------------------------------------------------
# The attention modules (AdditiveAttention, MultiplicativeAttention)

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
        # (imported here: attnlab.torch loads torch, which numpy-only notebooks never import)
        from ..torch.seq2seq import make_attention

        attention = make_attention(self.attention, self.hidden_dim, self.key_dim, self.attn_hidden).double()
        _fill(attention, self.seed + 1, self.scale)
        return attention

    def reference(self):
        """The reference decoder (float64), with its weights."""
        # (imported here: attnlab.torch loads torch, which numpy-only notebooks never import)
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


# ---------------------------------------------------------------------------------------------
# A whole model, for greedy_decode

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

        # (imported here: attnlab.torch loads torch, which numpy-only notebooks never import)
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


# ---------------------------------------------------------------------------------------------


__all__ = ["DecoderSpec", "ModelSpec", "invoke_additive", "invoke_decoder_step", "invoke_greedy", "invoke_multiplicative"]
