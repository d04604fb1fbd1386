"""Checks of notebook 09, transformer: what its cards (:mod:`attnlab.cards`) share, and what the cards
share.

The layers are classes: each check builds the learner's class with the stub's constructor,
copies seeded weights into the attributes the stub names (``self_attn``, ``cross_attn``,
``norm1..3``, ``linear1``, ``linear2``), runs ``forward`` in float64 and compares with the
library's layer holding the same weights (:class:`LayerSpec`, :func:`invoke_encoder_layer`,
:func:`invoke_decoder_layer`; the residual sublayers both layers' references are built of;
the large-score cases both mask checks draw). ``decode_with_cache`` runs on a small
:class:`~attnlab.torch.transformer.TransformerSeq2Seq` whose weights come from a seed
(:class:`TranslatorSpec`), with the mechanism watched (:func:`invoke_decode`). Cases are plain
data (the specs are frozen dataclasses), so that a check can be split across the grading sandbox
and the grader.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._core import Case, CheckRaised, seed_torch
from ._modules import run_eval
from .rnn_translation_with_attention import LayerMissing, _fill, _lengths_mask, _require_layer, _require_module, _t

lengths_mask = _lengths_mask  # (B, Lk) True at the first `lengths` keys: the cases' padding masks

# ---------------------------------------------------------------------------------------------
# The layers, with known weights

ENCODER_PARTS = ("self_attn", "norm1", "norm2", "linear1", "linear2")
DECODER_PARTS = ("self_attn", "cross_attn", "norm1", "norm2", "norm3", "linear1", "linear2")


@dataclass(frozen=True)
class LayerSpec:
    """A ``Transformer{Encoder,Decoder}Layer(d_model, num_heads, d_ff)`` whose weights come from ``seed``."""

    kind: str  # "encoder" or "decoder"
    d_model: int
    num_heads: int
    d_ff: int
    seed: int
    scale: float = 0.5
    attn_scale: float = 0.0  # the attentions' weights, when not ``scale`` (large: scores of ±1e4)

    def __repr__(self) -> str:
        name = "TransformerEncoderLayer" if self.kind == "encoder" else "TransformerDecoderLayer"
        return f"{name}({self.d_model}, {self.num_heads}, {self.d_ff}) with known weights"

    @property
    def parts(self) -> tuple[str, ...]:
        return ENCODER_PARTS if self.kind == "encoder" else DECODER_PARTS

    def load_into(self, module) -> None:
        """Copy the seeded weights into the stub's attributes, part by part."""
        import torch

        for k, name in enumerate(self.parts):
            part = getattr(module, name)
            _fill(part, self.seed + 10 * k, self.attn_scale if self.attn_scale and name.endswith("attn") else self.scale)
            if name.startswith("norm"):  # gains around 1, so that the norm's place matters
                with torch.no_grad():
                    part.weight.add_(1.0)

    def reference(self):
        """The library's layer (float64, eval mode) with the seeded weights."""
        # (imported here: attnlab.torch loads torch, which numpy-only notebooks never import)
        from ..torch.transformer import TransformerDecoderLayer, TransformerEncoderLayer

        cls = TransformerEncoderLayer if self.kind == "encoder" else TransformerDecoderLayer
        layer = cls(self.d_model, self.num_heads, self.d_ff).double()
        self.load_into(layer)
        return layer.eval()


def _require_parts(module, spec: LayerSpec, call: str) -> None:
    from torch import nn

    D, F = spec.d_model, spec.d_ff
    _require_module(module, call)
    for name in spec.parts:
        if name.endswith("attn"):
            attn = getattr(module, name, None)
            if attn is None or not isinstance(attn, nn.Module):
                raise LayerMissing(f"{call} needs the attribute `self.{name}` (MultiHeadAttention) of the stub")
            for proj in ("W_q", "W_k", "W_v", "W_o"):
                _require_layer(attn, proj, nn.Linear, (D, D), f"{call}.{name}", bias=True)
        elif name.startswith("norm"):
            _require_layer(module, name, nn.LayerNorm, (D,), call)
        elif name == "linear1":
            _require_layer(module, name, nn.Linear, (F, D), call, bias=True)
        else:
            _require_layer(module, name, nn.Linear, (D, F), call, bias=True)


def invoke_encoder_layer(cls, spec: LayerSpec, X, mask=None):
    """Build ``cls(D, H, F)``, copy known weights, run ``forward(X, mask)``."""
    import torch

    call = f"TransformerEncoderLayer({spec.d_model}, {spec.num_heads}, {spec.d_ff})"
    seed_torch(0)
    module = cls(spec.d_model, spec.num_heads, spec.d_ff)
    _require_parts(module, spec, call)
    module = module.double().eval()
    spec.load_into(module)
    return run_eval(module, lambda m: m(_t(X), _t(mask)), "TransformerEncoderLayer")


def invoke_decoder_layer(cls, spec: LayerSpec, X, memory, memory_mask=None):
    """Build ``cls(D, H, F)``, copy known weights, run ``forward(X, memory, memory_mask)``."""
    import torch

    call = f"TransformerDecoderLayer({spec.d_model}, {spec.num_heads}, {spec.d_ff})"
    seed_torch(0)
    module = cls(spec.d_model, spec.num_heads, spec.d_ff)
    _require_parts(module, spec, call)
    module = module.double().eval()
    spec.load_into(module)
    return run_eval(module, lambda m: m(_t(X), _t(memory), _t(memory_mask)), "TransformerDecoderLayer")


# ---------------------------------------------------------------------------------------------
# The pieces of both layers' references: a residual sublayer in a given arrangement

def feed_forward(m, h, relu=True):
    """``m.linear2(relu(m.linear1(h)))`` (without the ReLU when ``relu`` is False)."""
    import torch

    hidden = m.linear1(h)
    return m.linear2(torch.relu(hidden) if relu else hidden)


def padding_mask(mask, mode):
    """A (B, L) padding mask as the attention takes it, (B, 1, 1, L): as it is (``"ok"``),
    inverted (``"inverted"``) or left out (``"ignored"``)."""
    if mask is None or mode == "ignored":
        return None
    m = mask if mode == "ok" else ~mask
    return m[:, None, None, :]  # (B, 1, 1, L)


def sublayer(m, X, norm, branch, order):
    """One residual sublayer in the given arrangement; ``branch(h) -> (out, weights)``."""
    if order == "pre":
        out, w = branch(norm(X))
        return X + out, w
    if order == "post":
        out, w = branch(X)
        return norm(X + out), w
    if order == "after_norm":  # the residual taken from the normalised input
        h = norm(X)
        out, w = branch(h)
        return h + out, w
    if order == "no_residual":
        out, w = branch(norm(X))
        return out, w
    if order == "no_norm":
        out, w = branch(X)
        return X + out, w
    raise ValueError(order)


# ---------------------------------------------------------------------------------------------
# The mask checks' large-score cases (both layers)

def masked_top(spec: LayerSpec, attn: str, args: tuple) -> tuple[float, float]:
    """Run the reference layer on ``args``; of the attention ``attn``: the largest |score| and,
    over the rows that have a masked key, the smallest fraction (per sentence) of rows whose
    largest score sits on a masked key."""
    import torch

    m, seen = spec.reference(), {}
    hook = getattr(m, attn).register_forward_hook(lambda mod, a, out: seen.update(a=a))
    with torch.no_grad():
        m(*(_t(a) for a in args))
    hook.remove()
    X_q, X_kv, mask = seen["a"]
    sub = getattr(m, attn)
    B, Lq, D = X_q.shape
    H = spec.num_heads
    Dh = D // H
    Q = sub.W_q(X_q).reshape(B, Lq, H, Dh).transpose(1, 2)  # (B, H, Lq, Dh)
    K = sub.W_k(X_kv).reshape(B, -1, H, Dh).transpose(1, 2)  # (B, H, Lk, Dh)
    scores = (Q @ K.transpose(-1, -2) / Dh ** 0.5).detach()  # (B, H, Lq, Lk)
    allowed = torch.ones_like(scores, dtype=torch.bool) if mask is None else mask.expand(scores.shape)
    on_masked = ~allowed.gather(-1, scores.argmax(-1, keepdim=True))[..., 0]  # (B, H, Lq)
    padded = ~allowed.all(-1)  # rows with a masked key
    fractions = [float(on_masked[b][padded[b]].float().mean()) for b in range(B) if padded[b].any()]
    return float(scores.abs().max()), min(fractions, default=0.0)


def large_case(spec: LayerSpec, attn: str, build, why: str) -> Case:
    """The first of ``build(rng)``'s draws (seeded: the same case in every process) on which the
    scores of ``attn`` reach the ±1e4 range and in every sentence with masked keys at least half of
    those rows have their largest score on a masked key."""
    for t in range(200):
        case = build(np.random.default_rng(spec.seed + t))
        largest, fraction = masked_top(spec, attn, case.args[1:])
        if largest > 2e3 and fraction >= 0.5:
            return Case(case.args, why=why)
    raise RuntimeError(f"no draw for {spec!r} puts the largest scores on masked keys")


# ---------------------------------------------------------------------------------------------
# decode_with_cache: a translator with known weights, the mechanism watched

@dataclass(frozen=True)
class TranslatorSpec:
    """A small ``TransformerSeq2Seq`` (target words 0-3 are ``<pad> <bos> <eos> <unk>``) whose
    weights come from ``seed``."""

    src_vocab: int
    tgt_vocab: int
    d_model: int
    num_heads: int
    num_layers: int
    positions: str
    seed: int
    scale: float = 0.7

    def __repr__(self) -> str:
        return (f"a TransformerSeq2Seq with {self.num_layers} layers, d_model={self.d_model}, "
                f"{self.positions} positions and known weights")

    def build(self):
        # (imported here: attnlab.torch loads torch, which numpy-only notebooks never import)
        from ..torch.transformer import TransformerSeq2Seq

        model = TransformerSeq2Seq(self.src_vocab, self.tgt_vocab, d_model=self.d_model, num_heads=self.num_heads,
                                   d_ff=2 * self.d_model - 2, num_layers=self.num_layers,
                                   positions=self.positions, max_len=32).double()
        _fill(model, self.seed, self.scale)
        return model.eval()


class DecodeResult(CheckRaised):
    """decode_with_cache returned something other than ``(tokens, logits)``."""


_WATCHED = ("norm1", "self_attn.W_q", "self_attn.W_k", "self_attn.W_v", "norm3")
_NUDGE_CACHE = 0.75  # added to the first key and value each decoder layer computes (position 0)


def _watched(decode, spec: TranslatorSpec, src, src_mask, max_len):
    """Run ``decode(model, src, src_mask, max_len)`` twice on the model ``spec`` describes,
    watching the mechanism, not only the result: ``(tokens, logits, positions, nudged_logits)``.

    * ``positions`` (one per decoder layer): the most positions of one sentence that reached the
      layer's sublayers (``norm1``, the self-attention's ``W_q``/``W_k``/``W_v``, ``norm3``) in
      one call, counted by forward hooks. A key-value cache runs each new token alone through the
      layers (1); a recomputation runs the whole prefix again (``max_len`` at the last step).
    * ``nudged_logits``: the logits of a second run in which the first key and value that each
      layer's self-attention computes (those of ``<bos>`` at step 0) are shifted by a constant.
      A cache keeps the shifted key and value and reads them at every later step; a
      recomputation recomputes them unshifted; code that keeps no cache never reads them.
    """
    import torch

    src_t, mask_t = _t(src), _t(src_mask)
    B = max(int(src_t.shape[0]), 1)

    def counter(seen, i):
        def hook(module, inputs, output):
            x = inputs[0] if inputs else None
            if isinstance(x, torch.Tensor) and x.dim() >= 1:  # (B, L, D): L; flattened: rows / B
                n = int(x.shape[-2]) if x.dim() >= 3 else -(-int(x.shape[:-1].numel()) // B)
                seen[i] = max(seen[i], n)
        return hook

    def two(result):
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            raise DecodeResult(f"it should return (tokens, logits), a tuple of 2, but returned "
                               f"{type(result).__name__}" + (f" of {len(result)} items"
                                                             if isinstance(result, (tuple, list)) else ""))
        return result

    def nudger():
        calls = []

        def hook(module, inputs, output):
            calls.append(1)
            return output + _NUDGE_CACHE if len(calls) == 1 else output
        return hook

    model = spec.build()
    seen = [0] * len(model.decoder_layers)
    for i, layer in enumerate(model.decoder_layers):
        for name in _WATCHED:
            layer.get_submodule(name).register_forward_hook(counter(seen, i))
    tokens, logits = two(decode(model, src_t, mask_t, max_len))
    nudged = spec.build()
    for layer in nudged.decoder_layers:
        layer.self_attn.W_k.register_forward_hook(nudger())
        layer.self_attn.W_v.register_forward_hook(nudger())
    _, nudged_logits = two(decode(nudged, src_t.clone(), mask_t.clone(), max_len))
    return tokens, logits, np.array(seen, dtype=float), nudged_logits


def invoke_decode(fn, model: TranslatorSpec, src, src_mask, max_len):
    """Call ``fn(model, src, src_mask, max_len)`` on the model ``TranslatorSpec`` describes,
    with the mechanism watched (:func:`_watched`)."""
    return _watched(fn, model, src, src_mask, max_len)
