"""Checks for notebook 09, transformer: ``sinusoidal_positional_encoding``,
``TransformerEncoderLayer``, ``TransformerDecoderLayer`` and ``decode_with_cache``.

The layers are classes: each check builds the learner's class with the stub's constructor,
copies seeded weights into the attributes the stub names (``self_attn``, ``cross_attn``,
``norm1..3``, ``linear1``, ``linear2``), runs ``forward`` in float64 and compares with the
library's layer holding the same weights. ``decode_with_cache`` runs on a small
:class:`~attnlab.torch.transformer.TransformerSeq2Seq` whose weights come from a seed
(:class:`TranslatorSpec`). Cases are plain data (the specs are frozen dataclasses), so that a
check can be split across the grading sandbox and the grader.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from ..positional import sinusoidal_positional_encoding as _pe_reference
from . import _divergence
from ._contract import invoke_numpy
from ._modules import run_eval
from ._core import Case, CheckRaised, Mistake, case_seed, run_check
from .rnn_translation import (
    STRUCTURE_MISTAKES, LayerMissing, LayerShape, NotApplicable, _fill, _lengths_mask, _require_layer,
    _require_module, _t,
)

# ---------------------------------------------------------------------------------------------
# sinusoidal_positional_encoding

def _pe_variant(L, D, *, swap=False, layout="interleaved", exponent="2i", start=0, sign=-1, transpose=False):
    positions = np.arange(start, start + L, dtype=float)[:, None]  # (L, 1)
    pairs = np.arange((D + 1) // 2, dtype=float)  # i = 0 .. ceil(D/2) - 1
    if exponent == "2i":
        power = 2 * pairs / D
    elif exponent == "i":  # the 2 forgotten
        power = pairs / D
    elif exponent == "4i":  # the 2 applied twice (arange(0, D, 2) and a 2 again)
        power = 4 * pairs / D
    else:
        raise ValueError(exponent)
    f1, f2 = (np.cos, np.sin) if swap else (np.sin, np.cos)
    angles = positions * 10000.0 ** (sign * power)[None, :]  # (L, ceil(D/2))
    PE = np.empty((L, D))
    if layout == "interleaved":
        PE[:, 0::2] = f1(angles)
        PE[:, 1::2] = f2(angles[:, : D // 2])
    elif layout == "halves":  # [sin | cos]: the pairs not interleaved
        h = (D + 1) // 2
        PE[:, :h] = f1(angles)
        PE[:, h:] = f2(angles[:, : D - h])
    return PE.T if transpose else PE


def _pe_per_column(L, D):
    """Every column its own frequency 10000^(-j/D), sine on even and cosine on odd columns."""
    angles = np.arange(L, dtype=float)[:, None] * 10000.0 ** (-np.arange(D) / D)[None, :]  # (L, D)
    PE = np.cos(angles)
    PE[:, 0::2] = np.sin(angles[:, 0::2])
    return PE


def _pe_even_only(L, D):
    """The cosine written for every pair, as if D were even: fails for an odd D."""
    angles = np.arange(L)[:, None] / 10000.0 ** (np.arange(0, D, 2) / D)  # (L, ceil(D/2))
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles)  # one column too many when D is odd: numpy refuses
    return PE


def _pe_stacked_rows(L, D):
    """One row per position, stacked: ``np.stack`` of no rows raises when L = 0."""
    return np.stack([_pe_reference(p + 1, D)[p] for p in range(L)])


PE_MISTAKES = [
    Mistake("sin and cos swapped (cosine in the even columns, sine in the odd ones)",
            "column 2i is the sine, column 2i+1 the cosine of the same angle: at position 0 the "
            "row reads 0, 1, 0, 1, ...", partial(_pe_variant, swap=True)),
    Mistake("sin and cos not interleaved: all the sines first, then all the cosines",
            "the sine and the cosine of one frequency sit side by side, in columns 2i and 2i+1 "
            "(even columns, then odd columns), not in two halves.", partial(_pe_variant, layout="halves")),
    Mistake("cos and sin swapped and not interleaved",
            "column 2i is the sine, 2i+1 the cosine of the same angle.",
            partial(_pe_variant, layout="halves", swap=True)),
    Mistake("the frequency exponent off by a factor of 2: 10000^(i/D) instead of 10000^(2i/D)",
            "with i the index of the pair (column 2i), the exponent is 2i/D, so that the last pair's "
            "wavelength reaches 2π·10000^((D-2)/D), close to 2π·10000.", partial(_pe_variant, exponent="i")),
    Mistake("the frequency exponent off by a factor of 2: 10000^(4i/D) (the 2 applied twice)",
            "if your exponents already run over the even column numbers 0, 2, 4, ... (that is 2i), "
            "divide them by D without another factor 2.", partial(_pe_variant, exponent="4i")),
    Mistake("every column its own frequency 10000^(j/D) (j the column), so a cosine does not share its sine's angle",
            "columns 2i and 2i+1 share one angle p / 10000^(2i/D): compute the angles once per pair.",
            _pe_per_column),
    Mistake("positions multiplied by 10000^(2i/D) instead of divided by it",
            "the angle is p / 10000^(2i/D): frequencies fall from 1 to about 1/10000.",
            partial(_pe_variant, sign=1)),
    Mistake("positions counted from 1 instead of 0",
            "the first position is p = 0, whose row is 0, 1, 0, 1, ...", partial(_pe_variant, start=1)),
    Mistake("the result transposed: (D, L) instead of (L, D)",
            "one row per position: return shape (L, D).", partial(_pe_variant, transpose=True)),
    Mistake("an odd D not handled (the cosine column of the last pair does not exist)",
            "for an odd D the last column is a sine with no cosine: fill the odd columns with the "
            "cosines of the first D // 2 angles only.", _pe_even_only),
    Mistake("L = 0 not handled: `np.stack` of an empty list of rows raises",
            "for L = 0 return an empty (0, D) array: build the whole table at once from "
            "`np.arange(L)` (or `np.zeros((L, D))`), which works for every L.", _pe_stacked_rows),
]


def _pe_cases(hidden: bool) -> list[Case]:
    shapes = [(7, 10, "L=7, D=10"), (40, 16, "40 positions, D=16"), (3, 2, "D=2: one pair")] if hidden else \
        [(6, 8, "L=6, D=8"), (50, 12, "50 positions, D=12: the slow pairs matter"), (1, 4, "one position")]
    shapes.append((0, 10 if hidden else 6, "L = 0: no positions, an empty (0, D) table"))
    return [Case((L, D), why=why) for L, D, why in shapes]


def _pe_odd_cases(hidden: bool) -> list[Case]:
    shapes = [(4, 9, "odd D=9"), (12, 1, "D=1: one sine column")] if hidden else \
        [(5, 7, "odd D=7: the last column is a sine"), (20, 3, "odd D=3, 20 positions")]
    return [Case((L, D), why=why) for L, D, why in shapes]


def check_sinusoidal_positional_encoding(sinusoidal_positional_encoding, hidden: bool = False) -> None:
    """Check ``sinusoidal_positional_encoding(L, D)`` for even ``D``."""
    run_check(sinusoidal_positional_encoding, exercise="sinusoidal_positional_encoding",
              reference=_pe_reference, cases=_pe_cases(hidden), mistakes=PE_MISTAKES, arg_names=("L", "D"),
              rtol=1e-5, atol=1e-5, show_values=not hidden,
              passed="sin in column 2i, cos in column 2i+1, angle p / 10000^(2i/D)", invoke=invoke_numpy)


def check_sinusoidal_positional_encoding_odd(sinusoidal_positional_encoding, hidden: bool = False) -> None:
    """Check ``sinusoidal_positional_encoding(L, D)`` for odd ``D``."""
    run_check(sinusoidal_positional_encoding, exercise="sinusoidal_positional_encoding",
              reference=_pe_reference, cases=_pe_odd_cases(hidden), mistakes=PE_MISTAKES, arg_names=("L", "D"),
              rtol=1e-5, atol=1e-5, show_values=not hidden, passed="an odd D ends with a sine column",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# Layers with known weights

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
    torch.manual_seed(0)
    module = cls(spec.d_model, spec.num_heads, spec.d_ff)
    _require_parts(module, spec, call)
    module = module.double().eval()
    spec.load_into(module)
    return run_eval(module, lambda m: m(_t(X), _t(mask)), "TransformerEncoderLayer")


def invoke_decoder_layer(cls, spec: LayerSpec, X, memory, memory_mask=None):
    """Build ``cls(D, H, F)``, copy known weights, run ``forward(X, memory, memory_mask)``."""
    import torch

    call = f"TransformerDecoderLayer({spec.d_model}, {spec.num_heads}, {spec.d_ff})"
    torch.manual_seed(0)
    module = cls(spec.d_model, spec.num_heads, spec.d_ff)
    _require_parts(module, spec, call)
    module = module.double().eval()
    spec.load_into(module)
    return run_eval(module, lambda m: m(_t(X), _t(memory), _t(memory_mask)), "TransformerDecoderLayer")


def _ffn(m, h, relu=True):
    import torch

    hidden = m.linear1(h)
    return m.linear2(torch.relu(hidden) if relu else hidden)


def _padding(mask, mode):
    if mask is None or mode == "ignored":
        return None
    m = mask if mode == "ok" else ~mask
    return m[:, None, None, :]  # (B, 1, 1, L)


def _sublayer(m, X, norm, branch, order):
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


def _enc_variant(spec: LayerSpec, X, mask=None, *, order="pre", ff_order=None, padding="ok", relu=True,
                 same_norm=False, final_norm=False, swap=False):
    import torch

    m = spec.reference()
    X, mask = _t(X), _t(mask)
    am = _padding(mask, padding)
    with torch.no_grad():
        X, w = _sublayer(m, X, m.norm1, lambda h: m.self_attn(h, h, am), order)
        X, _ = _sublayer(m, X, m.norm1 if same_norm else m.norm2, lambda h: (_ffn(m, h, relu), None),
                         ff_order or order)
        if final_norm:
            X = m.norm2(X)
        return (w.numpy(), X.numpy()) if swap else (X.numpy(), w.numpy())


def _enc_reference(spec, X, mask=None):
    return _enc_variant(spec, X, mask)


_PRE_FIX = ("pre-norm: normalise a copy for the branch and add the branch to the un-normalised "
            "input, `h = self.norm1(X); a, w = self.self_attn(h, h, mask); X = X + a`, and the "
            "same with norm2 around the feed-forward network.")
BLOCK_MISTAKES = [  # (name, fix, flags) shared by the encoder and the decoder
    ("the residual added after the norm (X = LN(X) + Sublayer(LN(X))), not around it",
     "the residual path must carry X itself, untouched: " + _PRE_FIX, {"order": "after_norm"}),
    ("post-norm (LN(X + Sublayer(X))) instead of pre-norm",
     "this block is pre-norm, the norm comes first and only on the branch: " + _PRE_FIX, {"order": "post"}),
    ("a residual connection missing (X = Sublayer(LN(X)))",
     "add the branch's output to its input: `X = X + a`.", {"order": "no_residual"}),
    ("the residual connection around the feed-forward network missing",
     "`X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))` (norm3 in the decoder).",
     {"ff_order": "no_residual"}),
    ("the layer norms not applied",
     "pre-norm normalises the input of every branch: `self.self_attn(h, h, ...)` with "
     "`h = self.norm1(X)`.", {"order": "no_norm"}),
    ("the ReLU missing between linear1 and linear2",
     "the feed-forward network is `linear2(relu(linear1(h)))`: without the ReLU the two layers "
     "collapse into one linear map.", {"relu": False}),
    ("one layer norm used for two sublayers",
     "each sublayer has its own norm (its own gain and bias): norm1 before the self-attention, "
     "norm2 before the next sublayer.", {"same_norm": True}),
    ("an extra layer norm on the block's output",
     "a pre-norm block returns the residual stream without normalising it (the model normalises "
     "once after the last block).", {"final_norm": True}),
]

ENCODER_MISTAKES = STRUCTURE_MISTAKES + [
    Mistake(n, f, partial(_enc_variant, **flags)) for n, f, flags in BLOCK_MISTAKES
] + [
    Mistake("the padding mask ignored", "pass the mask to the attention as `mask[:, None, None, :]`, "
            "(B, 1, 1, L): every query of a sentence may attend to its real tokens only.",
            partial(_enc_variant, padding="ignored")),
    Mistake("the padding mask inverted (True treated as padding)",
            "True marks a real token that may be attended to; pass it as it is.",
            partial(_enc_variant, padding="inverted")),
    Mistake("returning (weights, output) instead of (output, weights)", "return `X, weights`.",
            partial(_enc_variant, swap=True)),
]


def _enc_case(spec: LayerSpec, B, L, lengths=None, why=""):
    rng = np.random.default_rng(spec.seed)
    X = rng.normal(size=(B, L, spec.d_model))
    mask = None if lengths is None else _lengths_mask(lengths, L)
    return Case((spec, X, mask), why=why or f"B={B}, L={L}")


def _masked_top(spec: LayerSpec, attn: str, args: tuple) -> tuple[float, float]:
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


def _large_case(spec: LayerSpec, attn: str, build, why: str) -> Case:
    """The first of ``build(rng)``'s draws (seeded: the same case in every process) on which the
    scores of ``attn`` reach the ±1e4 range and in every sentence with masked keys at least half of
    those rows have their largest score on a masked key."""
    for t in range(200):
        case = build(np.random.default_rng(spec.seed + t))
        largest, fraction = _masked_top(spec, attn, case.args[1:])
        if largest > 2e3 and fraction >= 0.5:
            return Case(case.args, why=why)
    raise RuntimeError(f"no draw for {spec!r} puts the largest scores on masked keys")


def _enc_large_case(spec: LayerSpec, B, L, lengths) -> Case:
    def build(rng):
        return Case((spec, rng.normal(size=(B, L, spec.d_model)), _lengths_mask(lengths, L)))

    return _large_case(spec, "self_attn", build, f"padding, scores of ±1e4 with most padded rows' largest "
                                                 f"score on a padding key (B={B}, L={L}, lengths {list(lengths)})")


def _enc_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_enc_case(LayerSpec("encoder", 6, 3, 10, case_seed(905, True)), 2, 5),
                _enc_case(LayerSpec("encoder", 8, 1, 6, case_seed(906, True)), 3, 4, why="one head")]
    return [_enc_case(LayerSpec("encoder", 8, 2, 12, 901), 2, 5, why="B=2, L=5, D=8, H=2, d_ff=12"),
            _enc_case(LayerSpec("encoder", 12, 3, 7, 902), 1, 3, why="one sentence, H=3, d_ff < D"),
            _enc_case(LayerSpec("encoder", 6, 2, 5, 903), 1, 1,
                      why="B=1, one token, D=6: 2 heads of odd width 3")]


def _enc_mask_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_enc_case(LayerSpec("encoder", 6, 2, 9, case_seed(915, True)), 3, 5, lengths=[5, 1, 3], why="padding"),
                _enc_case(LayerSpec("encoder", 10, 2, 7, case_seed(916, True)), 2, 3, lengths=[3, 0],
                          why="a sentence of length 0: its rows are fully masked"),
                _enc_large_case(LayerSpec("encoder", 6, 3, 8, case_seed(917, True), attn_scale=20.0), 2, 6, [6, 3])]
    return [_enc_case(LayerSpec("encoder", 8, 2, 10, 911), 3, 6, lengths=[6, 2, 4],
                      why="padded sentences (mask True at real tokens)"),
            _enc_case(LayerSpec("encoder", 8, 2, 6, 912), 2, 4, lengths=[4, 0],
                      why="a sentence of length 0: its rows are fully masked"),
            _enc_large_case(LayerSpec("encoder", 6, 2, 9, 913, attn_scale=20.0), 2, 5, [5, 2])]


ENC_ARGS = ("layer", "X", "mask")


def check_encoder_layer(TransformerEncoderLayer, hidden: bool = False) -> None:
    """Check ``TransformerEncoderLayer(d_model, num_heads, d_ff).forward(X)``."""
    run_check(TransformerEncoderLayer, exercise="TransformerEncoderLayer", reference=_enc_reference,
              cases=_enc_cases(hidden), mistakes=ENCODER_MISTAKES, arg_names=ENC_ARGS,
              outputs=("output", "weights"), show_values=not hidden, invoke=invoke_encoder_layer,
              reference_module=_divergence.encoder_layer_class,
              passed="X + SelfAttn(LN1(X)), then X + FFN(LN2(X))")


def check_encoder_layer_mask(TransformerEncoderLayer, hidden: bool = False) -> None:
    """Check ``TransformerEncoderLayer.forward(X, mask)`` with padding."""
    run_check(TransformerEncoderLayer, exercise="TransformerEncoderLayer", reference=_enc_reference,
              cases=_enc_mask_cases(hidden), mistakes=ENCODER_MISTAKES, arg_names=ENC_ARGS,
              outputs=("output", "weights"), show_values=not hidden, invoke=invoke_encoder_layer,
              reference_module=_divergence.encoder_layer_class,
              passed="padding keys get weight 0")


# ---------------------------------------------------------------------------------------------
# TransformerDecoderLayer

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
    raise ValueError(mode)


def _dec_variant(spec: LayerSpec, X, memory, memory_mask=None, *, order="pre", ff_order=None, causal="ok",
                 cross="memory", padding="ok", relu=True, same_norm=False, final_norm=False, returns="ok"):
    import torch

    m = spec.reference()
    X, memory, memory_mask = _t(X), _t(memory), _t(memory_mask)
    Lt = X.shape[1]
    cm = _causal(Lt, causal)
    pm = _padding(memory_mask, padding)

    def cross_branch(h):
        if cross == "self":  # keys and values from the decoder's own (normalised) states
            return m.cross_attn(h, h)
        if cross == "self_masked":  # the same, with the source mask (runs only when Lt == Ls)
            return m.cross_attn(h, h, pm)
        if cross == "normed_memory":
            return m.cross_attn(h, m.norm2(memory), pm)
        return m.cross_attn(h, memory, pm)

    with torch.no_grad():
        X, w_self = _sublayer(m, X, m.norm1, lambda h: m.self_attn(h, h, cm), order)
        X, w_cross = _sublayer(m, X, m.norm1 if same_norm else m.norm2, cross_branch, order)
        X, _ = _sublayer(m, X, m.norm1 if same_norm else m.norm3, lambda h: (_ffn(m, h, relu), None),
                         ff_order or order)
        if final_norm:
            X = m.norm3(X)
        out = (X.numpy(), w_self.numpy(), w_cross.numpy())
        if returns == "swapped":
            return out[0], out[2], out[1]
        if returns == "two":
            return out[0], out[2]
        return out


def _dec_reference(spec, X, memory, memory_mask=None):
    return _dec_variant(spec, X, memory, memory_mask)


def _dec_cross_self(spec, X, memory, memory_mask=None):
    return _dec_variant(spec, X, memory, memory_mask, cross="self")


def _dec_cross_self_masked(spec, X, memory, memory_mask=None):
    if memory_mask is None or X.shape[1] != memory.shape[1]:
        raise NotApplicable("the source mask does not fit the decoder's own states")
    return _dec_variant(spec, X, memory, memory_mask, cross="self_masked")


DECODER_MISTAKES = STRUCTURE_MISTAKES + [
    Mistake("the causal mask missing: every target token sees the tokens after it",
            "the self-attention must not look ahead: pass `at.causal_mask(Lt, Lt)` (True where "
            "j <= i) as its mask.", partial(_dec_variant, causal="none")),
    Mistake("the causal mask off by one: the diagonal left out (j < i), so a token cannot see itself",
            "position t may attend to positions 0..t, itself included: True where j <= i "
            "(`at.causal_mask(Lt, Lt)`).", partial(_dec_variant, causal="strict")),
    Mistake("the causal mask off by one: one future token let in (j <= i + 1)",
            "position t may attend to positions 0..t only: True where j <= i "
            "(`at.causal_mask(Lt, Lt)`).", partial(_dec_variant, causal="ahead")),
    Mistake("the causal mask inverted: every token sees only itself and the future",
            "True where j <= i (the past and the token itself) may be attended to.",
            partial(_dec_variant, causal="inverted")),
    Mistake("the cross-attention reading the decoder's own states instead of the encoder's output",
            "in cross-attention the queries come from the decoder and the keys and values from "
            "`memory`: `self.cross_attn(self.norm2(X), memory, ...)`.", _dec_cross_self),
    Mistake("the cross-attention reading the decoder's own states instead of the encoder's output",
            "in cross-attention the queries come from the decoder and the keys and values from "
            "`memory`: `self.cross_attn(self.norm2(X), memory, ...)`.", _dec_cross_self_masked),
    Mistake("the encoder's output normalised again by norm2 before the cross-attention",
            "norm2 normalises the decoder's queries only; `memory` is used as it is (the encoder "
            "normalised it already).", partial(_dec_variant, cross="normed_memory")),
    Mistake("the source mask ignored in the cross-attention",
            "pass `memory_mask[:, None, None, :]`, (B, 1, 1, Ls), to the cross-attention.",
            partial(_dec_variant, padding="ignored")),
    Mistake("the source mask inverted (True treated as padding)",
            "True marks a real source token that may be attended to.", partial(_dec_variant, padding="inverted")),
    Mistake("returning the self-attention weights where the cross-attention weights go (or the reverse)",
            "return `X, self_weights, cross_weights`, in that order.", partial(_dec_variant, returns="swapped")),
    Mistake("returning two items instead of (output, self_weights, cross_weights)",
            "return all three: `X, self_weights, cross_weights`.", partial(_dec_variant, returns="two")),
] + [Mistake(n, f.replace("norm2 around the feed-forward", "norm3 around the feed-forward"),
             partial(_dec_variant, **flags)) for n, f, flags in BLOCK_MISTAKES]


def _dec_case(spec: LayerSpec, B, Lt, Ls, lengths=None, why=""):
    rng = np.random.default_rng(spec.seed)
    X = rng.normal(size=(B, Lt, spec.d_model))
    memory = rng.normal(size=(B, Ls, spec.d_model))
    mask = None if lengths is None else _lengths_mask(lengths, Ls)
    return Case((spec, X, memory, mask), why=why or f"B={B}, Lt={Lt}, Ls={Ls}")


def _dec_large_case(spec: LayerSpec, B, Lt, Ls, lengths) -> Case:
    def build(rng):
        return Case((spec, rng.normal(size=(B, Lt, spec.d_model)), rng.normal(size=(B, Ls, spec.d_model)),
                     _lengths_mask(lengths, Ls)))

    return _large_case(spec, "cross_attn", build,
                       f"source padding, cross-attention scores of ±1e4 with most rows' largest score on a "
                       f"padding key (B={B}, Lt={Lt}, Ls={Ls}, lengths {list(lengths)})")


def _dec_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_dec_case(LayerSpec("decoder", 6, 3, 10, case_seed(925, True)), 2, 5, 3),
                _dec_case(LayerSpec("decoder", 8, 2, 5, case_seed(926, True)), 1, 4, 6, why="Lt < Ls")]
    return [_dec_case(LayerSpec("decoder", 8, 2, 12, 921), 2, 5, 4, why="B=2, Lt=5, Ls=4, D=8, H=2, d_ff=12"),
            _dec_case(LayerSpec("decoder", 12, 3, 7, 922), 1, 3, 6, why="one sentence, Lt=3 < Ls=6, H=3"),
            _dec_case(LayerSpec("decoder", 6, 2, 5, 923), 1, 1, 3,
                      why="B=1, one target token, Ls=3, D=6: 2 heads of odd width 3")]


def _dec_mask_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_dec_case(LayerSpec("decoder", 6, 2, 8, case_seed(935, True)), 3, 4, 5, lengths=[5, 2, 1], why="source padding"),
                _dec_case(LayerSpec("decoder", 10, 2, 7, case_seed(936, True)), 2, 3, 4, lengths=[4, 0],
                          why="a source of length 0: its cross-attention rows are fully masked"),
                _dec_large_case(LayerSpec("decoder", 6, 3, 8, case_seed(937, True), attn_scale=20.0), 2, 4, 6, [6, 3])]
    return [_dec_case(LayerSpec("decoder", 8, 2, 10, 931), 3, 4, 6, lengths=[6, 3, 1],
                      why="padded source sentences (memory_mask True at real tokens)"),
            _dec_case(LayerSpec("decoder", 8, 2, 6, 933), 2, 3, 4, lengths=[0, 4],
                      why="a source of length 0: its cross-attention rows are fully masked"),
            _dec_case(LayerSpec("decoder", 8, 4, 6, 932), 2, 5, 5, lengths=[5, 2],
                      why="Lt = Ls = 5, padded source"),
            _dec_large_case(LayerSpec("decoder", 6, 2, 9, 934, attn_scale=20.0), 2, 3, 5, [5, 2])]


DEC_ARGS = ("layer", "X", "memory", "memory_mask")


def check_decoder_layer(TransformerDecoderLayer, hidden: bool = False) -> None:
    """Check ``TransformerDecoderLayer(d_model, num_heads, d_ff).forward(X, memory)``."""
    run_check(TransformerDecoderLayer, exercise="TransformerDecoderLayer", reference=_dec_reference,
              cases=_dec_cases(hidden), mistakes=DECODER_MISTAKES, arg_names=DEC_ARGS,
              outputs=("output", "self_weights", "cross_weights"), show_values=not hidden,
              invoke=invoke_decoder_layer,
              reference_module=_divergence.decoder_layer_class,
              passed="causal self-attention, cross-attention to memory, feed-forward, all pre-norm")


def check_decoder_layer_mask(TransformerDecoderLayer, hidden: bool = False) -> None:
    """Check ``TransformerDecoderLayer.forward(X, memory, memory_mask)`` with source padding."""
    run_check(TransformerDecoderLayer, exercise="TransformerDecoderLayer", reference=_dec_reference,
              cases=_dec_mask_cases(hidden), mistakes=DECODER_MISTAKES, arg_names=DEC_ARGS,
              outputs=("output", "self_weights", "cross_weights"), show_values=not hidden,
              invoke=invoke_decoder_layer,
              reference_module=_divergence.decoder_layer_class, passed="source padding gets no cross-attention")


# ---------------------------------------------------------------------------------------------
# decode_with_cache

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


def _decode_variant(model: TranslatorSpec, src, src_mask, max_len, **flags):
    return _watched(partial(_decode_on_model, **flags), model, src, src_mask, max_len)


def _decode_on_model(m, src, src_mask, max_len, *, cache="before", offset="t",
                     feed_back=True, probabilities=False, padding=True, final_norm=True):
    import torch

    from ..toylang import BOS
    from ..torch.functional import scaled_dot_product_attention
    from ..torch.multi_head import merge_heads, split_heads

    if cache == "recompute":  # the library's recomputation: the whole prefix at every step
        from ..torch.transformer import decode_by_recomputation

        tokens, logits = decode_by_recomputation(m, src, src_mask, max_len)
        return tokens.numpy(), logits.numpy()
    with torch.no_grad():
        memory = m.encode(src, src_mask)
        cross_mask = src_mask[:, None, None, :] if padding else None
        B = src.shape[0]
        caches = [None] * len(m.decoder_layers)
        token = torch.full((B, 1), BOS, dtype=torch.long)
        tokens, logits = [], []
        for t in range(max_len):
            pos = {"t": t, "zero": 0, "next": t + 1}[offset]
            X = m.embed_target(token, offset=pos)
            for i, layer in enumerate(m.decoder_layers):
                attn, H = layer.self_attn, layer.self_attn.num_heads
                h = layer.norm1(X)
                k_new, v_new = attn.W_k(h), attn.W_v(h)
                old = caches[i]
                if old is None:
                    k_all, v_all = k_new, v_new
                else:
                    k_all, v_all = torch.cat([old[0], k_new], 1), torch.cat([old[1], v_new], 1)
                if cache == "before":
                    k_use, v_use = k_all, v_all
                elif cache == "after":  # the new token attends to the old cache only
                    if old is None:
                        k_use, v_use = k_new[:, :0], v_new[:, :0]
                    else:
                        k_use, v_use = old
                elif cache == "none":  # only the new token's own key and value
                    k_use, v_use = k_new, v_new
                else:
                    raise ValueError(cache)
                caches[i] = (k_all, v_all)
                z, _ = scaled_dot_product_attention(split_heads(attn.W_q(h), H), split_heads(k_use, H),
                                                    split_heads(v_use, H))
                X = X + attn.W_o(merge_heads(z))
                c, _ = layer.cross_attn(layer.norm2(X), memory, cross_mask)
                X = X + c
                X = X + layer.feed_forward(layer.norm3(X))
            step = m.out(m.decoder_norm(X) if final_norm else X)[:, 0]
            if probabilities:
                step = torch.softmax(step, dim=-1)
            best = step.argmax(dim=-1, keepdim=True)
            tokens.append(best)
            logits.append(step)
            if feed_back:
                token = best
        return torch.cat(tokens, 1).numpy(), torch.stack(logits, 1).numpy()


def _decode_reference(model, src, src_mask, max_len):
    return _decode_variant(model, src, src_mask, max_len)


DECODE_MISTAKES = [
    Mistake("recomputes the prefix each step; it keeps no cache: at every step the whole prefix "
            "goes through every decoder layer again (as `at.decode_by_recomputation` does)",
            "keep, for every decoder layer, the keys and values of the positions seen so far "
            "(`cache_k[i] = torch.cat([cache_k[i], k], dim=1)`) and run only the new token, "
            "`model.embed_target(token, offset=t)` of shape (B, 1, D), through the layers.",
            partial(_decode_variant, cache="recompute"),
            "a key-value cache runs one new position per step through each decoder layer and "
            "reads the keys and values it stored at earlier steps; the work of a step must not "
            "grow with the prefix."),
    Mistake("the cache appended after the attention: the new token does not attend to itself",
            "first add the new token's key and value to the cache, then attend over the whole "
            "cache, itself included (recomputation lets position t see 0..t).",
            partial(_decode_variant, cache="after")),
    Mistake("positions restarted at 0: every new token gets the positional vector of position 0",
            "the token decoded at step t sits at position t: `model.embed_target(token, offset=t)`.",
            partial(_decode_variant, offset="zero")),
    Mistake("positions off by one: the token of step t gets the positional vector of t + 1",
            "<bos> is at position 0, the token fed at step t at position t: `offset=t`.",
            partial(_decode_variant, offset="next")),
    Mistake("the cache not kept: each new token attends to its own key and value only",
            "keep every layer's keys and values from step to step and concatenate the new ones: "
            "`cache_k = torch.cat([cache_k, k], dim=1)`.", partial(_decode_variant, cache="none")),
    Mistake("the previous prediction is not fed back (every step reads <bos>)",
            "the token chosen at step t is the decoder's input at step t + 1.",
            partial(_decode_variant, feed_back=False)),
    Mistake("returning probabilities (a softmax) instead of logits",
            "return `model.out(...)` as it is.", partial(_decode_variant, probabilities=True)),
    Mistake("the source mask not passed to the cross-attention",
            "cross-attend with `src_mask[:, None, None, :]` so that padding gets no weight.",
            partial(_decode_variant, padding=False)),
    Mistake("the final norm (model.decoder_norm) skipped before the output layer",
            "a pre-norm stack ends with one more layer norm: `model.out(model.decoder_norm(X))`.",
            partial(_decode_variant, final_norm=False)),
]


def _decode_case(spec: TranslatorSpec, lengths, max_len, why):
    rng = np.random.default_rng(spec.seed)
    B, Ls = len(lengths), max(lengths)
    mask = _lengths_mask(lengths, Ls)
    src = np.where(mask, rng.integers(4, spec.src_vocab, size=(B, Ls)), 0).astype(np.int64)
    return Case((spec, src, mask, max_len), why=why)


def _decode_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_decode_case(TranslatorSpec(9, 11, 8, 2, 2, "sinusoidal", case_seed(1903, True)), [4, 2, 5], 7, "three sentences"),
                _decode_case(TranslatorSpec(8, 10, 6, 3, 1, "sinusoidal", case_seed(1904, True)), [3], 5, "one layer")]
    return [_decode_case(TranslatorSpec(9, 10, 8, 2, 2, "sinusoidal", 1901), [5, 3, 4, 2], 6,
                         "four sentences, two layers, sinusoidal positions"),
            _decode_case(TranslatorSpec(8, 12, 12, 3, 1, "sinusoidal", 1902), [3, 6], 8, "one layer, 3 heads")]


def _decode_learned_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_decode_case(TranslatorSpec(9, 9, 8, 4, 2, "learned", case_seed(1913, True)), [5, 1, 3], 7, "learned positions")]
    return [_decode_case(TranslatorSpec(10, 11, 8, 2, 3, "learned", 1911), [6, 2, 4], 7,
                         "three layers, learned positions"),
            _decode_case(TranslatorSpec(9, 10, 8, 2, 1, "sinusoidal", 1912), [2, 5], 10, "10 steps")]


DECODE_ARGS = ("model", "src", "src_mask", "max_len")
DECODE_OUTPUTS = ("tokens", "logits",
                  "work per step (positions through each decoder layer at once)",
                  "logits of a run whose first cached key and value are shifted")


def check_decode_with_cache(decode_with_cache, hidden: bool = False) -> None:
    """Check ``decode_with_cache(model, src, src_mask, max_len)`` against recomputation."""
    run_check(decode_with_cache, exercise="decode_with_cache", reference=_decode_reference,
              cases=_decode_cases(hidden), mistakes=DECODE_MISTAKES, arg_names=DECODE_ARGS,
              outputs=DECODE_OUTPUTS, rtol=1e-6, atol=1e-8, show_values=not hidden,
              invoke=invoke_decode, passed="the same tokens and logits as recomputing every step")


def check_decode_with_cache_positions(decode_with_cache, hidden: bool = False) -> None:
    """Check ``decode_with_cache`` on deeper models, learned positions and longer outputs."""
    run_check(decode_with_cache, exercise="decode_with_cache", reference=_decode_reference,
              cases=_decode_learned_cases(hidden), mistakes=DECODE_MISTAKES, arg_names=DECODE_ARGS,
              outputs=DECODE_OUTPUTS, rtol=1e-6, atol=1e-8, show_values=not hidden,
              invoke=invoke_decode, passed="positions and caches right over many steps and layers")


__all__ = [
    "check_decode_with_cache", "check_decode_with_cache_positions", "check_decoder_layer",
    "check_decoder_layer_mask", "check_encoder_layer", "check_encoder_layer_mask",
    "check_sinusoidal_positional_encoding", "check_sinusoidal_positional_encoding_odd",
]


# ---------------------------------------------------------------------------------------------
# Predict, then run

from ._predict import Prediction, WrongPrediction  # noqa: E402

REVERSED_SENTENCE = Prediction(
    "prediction_reversed_sentence", "choice", "the same",
    "Without positions every token is its word's embedding alone, so the encoder's self-attention "
    "is permutation-equivariant: swapping 'dog' and 'man' swaps their output vectors and changes "
    "nothing else. Cross-attention then takes weighted sums over that set of vectors, and a sum "
    "does not depend on the order of its terms: the decoder receives exactly the same "
    "information for both sentences and writes the same translation, word for word.",
    options=("the same", "different"),
    wrong=(
        WrongPrediction("different", "attention sees the word order",
                        "Attention compares contents, not places: nothing in q·k depends on where a "
                        "token sits unless its vector says so. The two sentences are the same set of "
                        "vectors to this model."),
    ),
)


def check_prediction_reversed_sentence(prediction_reversed_sentence, hidden: bool = False) -> None:
    """Check the prediction of whether a model without positions translates a sentence and its
    role-swapped version differently."""
    REVERSED_SENTENCE.check(prediction_reversed_sentence, hidden=hidden)


OFFSET_DOT = Prediction(
    "prediction_offset_dot", "choice", "equal",
    "Each column pair of PE_p is the point (sin θ_i p, cos θ_i p) on a circle; moving k positions "
    "turns it by θ_i k whatever p is. The dot product of two encodings sums cos(θ_i (q - p)) over "
    "the pairs, a function of the offset q - p alone: PE_3 · PE_10 and PE_40 · PE_47 are equal "
    "(offset 7 both times).",
    options=("PE_3 · PE_10", "PE_40 · PE_47", "equal"),
    wrong=(
        WrongPrediction("PE_3 · PE_10", "positions near the start look more alike",
                        "Small positions have small angles, but the dot product compares the two "
                        "angles' difference, not their size."),
        WrongPrediction("PE_40 · PE_47", "far positions blur together",
                        "The slow hands barely move between 40 and 47, but they barely move between "
                        "3 and 10 either: every hand turns by the same angle over the same offset."),
    ),
)


def check_prediction_offset_dot(prediction_offset_dot, hidden: bool = False) -> None:
    """Check the prediction of which of PE_3 · PE_10 and PE_40 · PE_47 is larger."""
    OFFSET_DOT.check(prediction_offset_dot, hidden=hidden)


__all__ += ["check_prediction_offset_dot", "check_prediction_reversed_sentence"]
