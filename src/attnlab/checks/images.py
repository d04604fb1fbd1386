"""Checks for notebook 10, attention_on_images: ``image_to_tokens``, ``tokens_to_image``,
``positional_encoding_2d``, ``spatial_self_attention``, the torch module ``ChannelAttention``
and ``patchify``.

Each check takes the learner's function (or class) and ``hidden=False``; nbgrader's hidden tests
call it with ``hidden=True`` (other seeds and shapes). Images have ``C``, ``H`` and ``W`` all
different (except one channel-attention case built so that ``C == H == W``, where a squeeze over
the wrong axes runs instead of crashing), so that every mistake below gives a different answer.
"""
from __future__ import annotations

import numpy as np

from .. import images as _ref
from ..averages import softmax as _softmax
from ._contract import invoke_numpy
from ._core import Case, CheckRaised, Mistake, case_rng, run_check
from . import _divergence
from ._modules import in_out, materialise, run_eval

# ---------------------------------------------------------------------------------------------
# image_to_tokens(X), tokens_to_image(T, H, W)


def _batch_front(exc_text: str):
    """A mistake that works on one map but indexes axes from the front: fails on a batch."""

    def fails_on_batch(ndim: int) -> None:
        if ndim != 3:
            raise ValueError(exc_text)
    return fails_on_batch


def _itt_swapped(X):
    *b, C, H, W = X.shape
    return X.reshape(*b, H * W, C)  # reshape alone: channels and positions mixed up


def _itt_column_major(X):
    *b, C, H, W = X.shape
    return np.swapaxes(np.swapaxes(X, -1, -2).reshape(*b, C, H * W), -1, -2)  # token j * H + i


def _itt_no_transpose(X):
    *b, C, H, W = X.shape
    return X.reshape(*b, C, H * W)


def _itt_front(X):
    C, H, W = X.shape  # one map only: a batch does not unpack
    return X.transpose(1, 2, 0).reshape(H * W, C)


def _itt_hw_only(X):
    *b, C, H, W = X.shape
    return X.reshape(*b, C * H * W)


IMAGE_TO_TOKENS_MISTAKES = [
    Mistake("channels and positions swapped: a reshape to (H*W, C) without moving the channel axis",
            "`reshape` keeps the memory order, in which the channel axis comes first: bring the "
            "channels last (a transpose of the axes) before, or after, merging H and W.",
            _itt_swapped),
    Mistake("column-major positions (token j*H + i instead of i*W + j)",
            "the contract numbers pixels row by row: token p is pixel (p // W, p % W); merge the "
            "axes in the order (H, W), as a C-ordered reshape does, without swapping them first.",
            _itt_column_major),
    Mistake("positions merged but the channel axis not moved: shape (..., C, H*W)",
            "a token is one pixel with its C channel values: the result is (..., H*W, C), so the "
            "two last axes must change places.", _itt_no_transpose),
    Mistake("axes counted from the front (e.g. `X.transpose(1, 2, 0)`): right for one map, wrong "
            "for a batch",
            "a batch adds axes in front; name the image's axes from the end (-3, -2, -1), e.g. "
            "`np.moveaxis(X, -3, -1)` or `np.swapaxes(..., -1, -2)`.", _itt_front),
    Mistake("everything flattened into one vector per image",
            "keep one token per pixel: H*W tokens of C features each.", _itt_hw_only),
]


def _tti_plain(T, H, W):
    *b, L, C = T.shape
    return T.reshape(*b, C, H, W)


def _tti_column_major(T, H, W):
    *b, L, C = T.shape
    return np.swapaxes(np.swapaxes(T, -1, -2).reshape(*b, C, W, H), -1, -2)


def _tti_hw_swapped(T, H, W):
    *b, L, C = T.shape
    return np.swapaxes(T, -1, -2).reshape(*b, C, W, H)


def _tti_channels_last(T, H, W):
    *b, L, C = T.shape
    return T.reshape(*b, H, W, C)


def _tti_front(T, H, W):
    return T.T.reshape(T.shape[-1], H, W)  # T.T reverses every axis of a batch


TOKENS_TO_IMAGE_MISTAKES = [
    Mistake("channels and positions swapped: a reshape to (C, H, W) without moving the channel axis first",
            "the tokens hold their channels last; bring the channel axis to the front (swap the "
            "two last axes) before splitting H*W into (H, W).", _tti_plain),
    Mistake("column-major positions (token p read as pixel (p % H, p // H))",
            "token p is pixel (p // W, p % W): split the position axis into (H, W) in that order.",
            _tti_column_major),
    Mistake("H and W swapped (shape (..., C, W, H))",
            "split the H*W positions into (H, W): rows first, then columns.", _tti_hw_swapped),
    Mistake("channels left last: shape (..., H, W, C)",
            "the result is a feature map (..., C, H, W): channels before the positions.",
            _tti_channels_last),
    Mistake("axes counted from the front (e.g. `T.T` or `transpose(1, 0)`): right for one map, "
            "wrong for a batch",
            "name the axes from the end: `np.swapaxes(T, -1, -2)`.", _tti_front),
]


def _image_cases(hidden: bool, batched: bool) -> list[Case]:
    rng = case_rng(103 + batched, hidden)
    if batched:
        shapes = [(3, 2, 4, 5), (2, 1, 3, 2, 6)] if hidden else [(2, 3, 4, 5), (2, 3, 2, 5, 3)]
        why = "a batch of feature maps (..., C, H, W)"
    else:
        shapes = [(2, 5, 3), (4, 2, 6), (3, 1, 4)] if hidden else [(3, 4, 5), (2, 5, 3), (5, 2, 2)]
        why = "one feature map (C, H, W); C, H and W differ"
    return [Case((rng.normal(size=s),), why=why) for s in shapes]


def _token_cases(hidden: bool) -> list[Case]:
    rng = case_rng(104, hidden)
    specs = ([((), 3, 5, 2), ((2,), 4, 2, 3), ((2, 3), 2, 3, 5)] if hidden
             else [((), 4, 5, 3), ((), 2, 3, 6), ((3,), 5, 2, 4), ((2, 2), 3, 4, 2)])
    cases = []
    for batch, H, W, C in specs:
        why = f"tokens of a {H} x {W} map with {C} channels" + (", a batch" if batch else "")
        cases.append(Case((rng.normal(size=(*batch, H * W, C)), H, W), why=why))
    return cases


def check_image_to_tokens(image_to_tokens, hidden: bool = False) -> None:
    """Check ``image_to_tokens(X)``: ``(C, H, W) -> (H*W, C)``, row-major, on single maps and batches."""
    run_check(image_to_tokens, exercise="image_to_tokens", reference=_ref.image_to_tokens,
              cases=_image_cases(hidden, False) + _image_cases(hidden, True),
              mistakes=IMAGE_TO_TOKENS_MISTAKES, arg_names=("X",), show_values=not hidden,
              passed="row-major pixel tokens of C features, with and without a batch",
              invoke=invoke_numpy)


def check_tokens_to_image(tokens_to_image, hidden: bool = False) -> None:
    """Check ``tokens_to_image(T, H, W)``: the inverse of ``image_to_tokens``."""
    run_check(tokens_to_image, exercise="tokens_to_image", reference=_ref.tokens_to_image,
              cases=_token_cases(hidden), mistakes=TOKENS_TO_IMAGE_MISTAKES,
              arg_names=("T", "H", "W"), show_values=not hidden,
              passed="the inverse of image_to_tokens, with and without a batch",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# positional_encoding_2d(H, W, D)

_sin = _ref._sinusoids


def _pe_grid(H, W, D, first, second):
    """(H*W, D) from two per-pixel halves given as (H, W, D/2) arrays."""
    return np.concatenate([first, second], axis=-1).reshape(H * W, D)


def _pe_halves(H, W, D):
    rows = np.broadcast_to(_sin(H, D // 2)[:, None, :], (H, W, D // 2))
    cols = np.broadcast_to(_sin(W, D // 2)[None, :, :], (H, W, D // 2))
    return rows, cols


def _pe_rows_twice(H, W, D):
    rows, _ = _pe_halves(H, W, D)
    return _pe_grid(H, W, D, rows, rows)


def _pe_cols_twice(H, W, D):
    _, cols = _pe_halves(H, W, D)
    return _pe_grid(H, W, D, cols, cols)


def _pe_swapped(H, W, D):
    rows, cols = _pe_halves(H, W, D)
    return _pe_grid(H, W, D, cols, rows)


def _pe_column_major(H, W, D):
    rows, cols = _pe_halves(H, W, D)
    both = np.concatenate([rows, cols], axis=-1)  # (H, W, D)
    return np.swapaxes(both, 0, 1).reshape(H * W, D)  # pixel (i, j) at j * H + i


def _pe_flat_index(H, W, D):
    return _sin(H * W, D)


def _pe_width_D(H, W, D):
    rows = np.broadcast_to(_sin(H, D)[:, None, : D // 2], (H, W, D // 2))
    cols = np.broadcast_to(_sin(W, D)[None, :, : D // 2], (H, W, D // 2))
    return _pe_grid(H, W, D, rows, cols)


def _pe_interleaved(H, W, D):
    rows, cols = _pe_halves(H, W, D)
    out = np.empty((H, W, D))
    out[..., 0::2], out[..., 1::2] = rows, cols
    return out.reshape(H * W, D)


def _pe_sin_cos_swapped(H, W, D):
    rows, cols = _pe_halves(H, W, D)
    flip = lambda half: half.reshape(H, W, -1, 2)[..., ::-1].reshape(H, W, D // 2)  # noqa: E731
    return _pe_grid(H, W, D, flip(rows), flip(cols))


def _pe_grid_shape(H, W, D):
    return _ref.positional_encoding_2d(H, W, D).reshape(H, W, D)


POSITIONAL_MISTAKES = [
    Mistake("the 2-D encoding uses one axis twice (the row index in both halves)",
            "the second half must encode the column index j: two pixels of the same row should "
            "differ there.", _pe_rows_twice),
    Mistake("the 2-D encoding uses one axis twice (the column index in both halves)",
            "the first half must encode the row index i: two pixels of the same column should "
            "differ there.", _pe_cols_twice),
    Mistake("the halves swapped (the column first, then the row)",
            "the first D/2 features encode the row i, the last D/2 the column j.", _pe_swapped),
    Mistake("column-major positions (pixel (i, j) at row j*H + i)",
            "row p of the result is pixel (p // W, p % W), the order of image_to_tokens: lay the "
            "(H, W) grid out row by row.", _pe_column_major),
    Mistake("a 1-D encoding of the flat index p = i*W + j instead of a 2-D one",
            "encode the row and the column separately, each with D/2 features, and put the two "
            "halves side by side.", _pe_flat_index),
    Mistake("each half built with the frequencies of width D (then cut to D/2)",
            "each half is a full sinusoidal encoding of width D/2: its frequencies are "
            "1 / 10000^(2k / (D/2)).", _pe_width_D),
    Mistake("the row and column features interleaved instead of in two halves",
            "put the D/2 row features first and the D/2 column features after them.",
            _pe_interleaved),
    Mistake("sine and cosine swapped (cos on the even features)",
            "even features 2k hold the sine, odd features 2k+1 the cosine.", _pe_sin_cos_swapped),
    Mistake("the result left as a grid (H, W, D)",
            "one row per pixel token: reshape the grid to (H*W, D), row-major.", _pe_grid_shape),
]


def _pe_cases(hidden: bool) -> list[Case]:
    sizes = ([(5, 3, 8), (2, 6, 12), (1, 4, 4), (3, 3, 16)] if hidden
             else [(3, 5, 8), (4, 2, 12), (2, 3, 4), (6, 7, 16)])
    cases = [Case(s, why="H, W and D differ" if len(set(s)) == 3 else "a square map") for s in sizes]
    cases.append(Case((3, 4, 9), why="D = 9 is not a multiple of 4", raises=ValueError))
    cases.append(Case((3, 4, 6), why="D = 6 is even but not a multiple of 4", raises=ValueError))
    return cases


def check_positional_encoding_2d(positional_encoding_2d, hidden: bool = False) -> None:
    """Check ``positional_encoding_2d(H, W, D)``: ``(H*W, D)``, the row half then the column half."""
    run_check(positional_encoding_2d, exercise="positional_encoding_2d",
              reference=_ref.positional_encoding_2d, cases=_pe_cases(hidden),
              mistakes=POSITIONAL_MISTAKES, arg_names=("H", "W", "D"), show_values=not hidden,
              passed="row half, column half, row-major pixels; D must be a multiple of 4",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# spatial_self_attention(X, W_q, W_k, W_v)

def _T(x):
    return np.swapaxes(x, -1, -2)


def _ssa(tokens_fn, image_fn, scale="sqrt", axis=-1):
    """A spatial self-attention built from the given token maps (for the mistakes)."""

    def impl(X, W_q, W_k, W_v):
        H, W = X.shape[-2:]
        t = tokens_fn(X)
        Q, K, V = t @ W_q, t @ W_k, t @ W_v
        s = Q @ _T(K)
        Dk = W_q.shape[1]
        s = {"sqrt": s / np.sqrt(Dk), "none": s, "C": s / np.sqrt(X.shape[-3]), "Dk": s / Dk}[scale]
        A = _softmax(s, axis=axis)
        return image_fn(A @ V, H, W), A
    return impl


def _ssa_channels(X, W_q, W_k, W_v):
    """Attention over the C channels (tokens = channels of H*W values)."""
    *b, C, H, W = X.shape
    t = X.reshape(*b, C, H * W)
    A = _softmax(t @ _T(t) / np.sqrt(W_q.shape[1]))  # (..., C, C)
    return A @ t, A


def _ssa_swapped(X, W_q, W_k, W_v):
    Z, A = _ref.spatial_self_attention(X, W_q, W_k, W_v)
    return A, Z


def _ssa_values_tokens(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    t = _ref.image_to_tokens(X)
    A = _softmax(t @ W_q @ _T(t @ W_k) / np.sqrt(W_q.shape[1]))
    return _ref.tokens_to_image(A @ t, H, W), A


def _ssa_kt(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    t = _ref.image_to_tokens(X)
    Q, K, V = t @ W_q, t @ W_k, t @ W_v
    A = _softmax(Q @ K.T / np.sqrt(W_q.shape[1]))
    return _ref.tokens_to_image(A @ V, H, W), A


SPATIAL_MISTAKES = [
    Mistake("channels and positions swapped when flattening (a reshape to (H*W, C) without a transpose)",
            "the tokens are the pixels, each with its C channel values: use "
            "`attnlab.image_to_tokens(X)`, (..., C, H, W) -> (..., H*W, C).",
            _ssa(_itt_swapped, _ref.tokens_to_image)),
    Mistake("column-major pixel order (token j*H + i)",
            "pixel (i, j) is token i*W + j: use `attnlab.image_to_tokens` and "
            "`attnlab.tokens_to_image`, which follow the contract.",
            _ssa(_itt_column_major, lambda Z, H, W: _tti_column_major(Z, H, W))),
    Mistake("the output put back with a plain reshape (channels and positions mixed up)",
            "the outputs are (..., H*W, Dv) tokens: turn them back into a map with "
            "`attnlab.tokens_to_image(Z, H, W)`.", _ssa(_ref.image_to_tokens, _tti_plain)),
    Mistake("the output left as tokens (..., H*W, Dv) instead of a feature map (..., Dv, H, W)",
            "turn the outputs back into a map: `attnlab.tokens_to_image(Z, H, W)`.",
            _ssa(_ref.image_to_tokens, lambda Z, H, W: Z)),
    Mistake("attention over the channels (C x C weights) instead of over the pixels",
            "spatial attention mixes positions: the tokens are the H*W pixels, so A is "
            "(..., H*W, H*W).", _ssa_channels),
    Mistake("no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dk)",
            "divide the scores by `np.sqrt(Dk)`, `Dk = W_q.shape[1]`.",
            _ssa(_ref.image_to_tokens, _ref.tokens_to_image, scale="none")),
    Mistake("scaling by √C (the number of channels) instead of √Dk",
            "the scores are dot products of Dk-dimensional queries and keys: divide by "
            "`np.sqrt(W_q.shape[1])`.", _ssa(_ref.image_to_tokens, _ref.tokens_to_image, scale="C")),
    Mistake("scaling by Dk instead of √Dk", "divide by `np.sqrt(W_q.shape[1])`.",
            _ssa(_ref.image_to_tokens, _ref.tokens_to_image, scale="Dk")),
    Mistake("a softmax over the wrong axis (over the queries)",
            "row p of A holds pixel p's weights over all pixels: softmax over the last axis.",
            _ssa(_ref.image_to_tokens, _ref.tokens_to_image, axis=-2)),
    Mistake("the tokens used as the values (no W_v)",
            "the values are a learned map of the tokens too: `V = tokens @ W_v`.", _ssa_values_tokens),
    Mistake("returning (A, Z) instead of (Z, A)", "return the output map first: `return Z, A`.",
            _ssa_swapped),
    Mistake("`K.T` on a batch: it reverses every axis, not just the last two",
            "use `np.swapaxes(K, -1, -2)`, which transposes only the last two axes.", _ssa_kt),
]


def _ssa_case(rng, batch, C, H, W, Dk, Dv, why):
    X = rng.normal(size=(*batch, C, H, W))
    Ws = tuple(rng.normal(size=(C, d)) / np.sqrt(C) * 1.5 for d in (Dk, Dk, Dv))
    return Case((X, *Ws), why=why)


def _ssa_cases(hidden: bool, batched: bool) -> list[Case]:
    rng = case_rng(105 + batched, hidden)
    if batched:
        specs = [((2,), 3, 2, 4, 5, 2), ((2, 2), 4, 3, 2, 3, 2)] if hidden else [((2,), 3, 4, 5, 4, 2), ((3, 2), 3, 2, 3, 4, 2)]
        why = "a batch of feature maps"
    else:
        specs = [((), 5, 2, 3, 4, 2), ((), 3, 4, 2, 2, 5)] if hidden else [((), 5, 3, 4, 2, 3), ((), 3, 2, 4, 5, 2)]
        why = "one feature map (C, H, W); C, H, W, Dk and Dv differ"
    return [_ssa_case(rng, *s, why=why) for s in specs]


def check_spatial_self_attention(spatial_self_attention, hidden: bool = False) -> None:
    """Check ``spatial_self_attention(X, W_q, W_k, W_v)`` on one feature map."""
    run_check(spatial_self_attention, exercise="spatial_self_attention",
              reference=_ref.spatial_self_attention, cases=_ssa_cases(hidden, False),
              mistakes=SPATIAL_MISTAKES, arg_names=("X", "W_q", "W_k", "W_v"),
              outputs=("Z", "A"), show_values=not hidden,
              passed="Z (Dv, H, W) and A (H*W, H*W) match on one feature map",
              invoke=invoke_numpy)


def check_spatial_self_attention_batched(spatial_self_attention, hidden: bool = False) -> None:
    """Check ``spatial_self_attention`` on a batch ``(..., C, H, W)``."""
    run_check(spatial_self_attention, exercise="spatial_self_attention",
              reference=_ref.spatial_self_attention, cases=_ssa_cases(hidden, True),
              mistakes=SPATIAL_MISTAKES, arg_names=("X", "W_q", "W_k", "W_v"),
              outputs=("Z", "A"), show_values=not hidden, passed="works on batches", invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# ChannelAttention (torch): built with known weights, compared with the numpy reference.


class NotAModule(CheckRaised, TypeError):
    """The learner's class does not build an ``nn.Module``."""


class LayerMissing(CheckRaised, AttributeError):
    """``fc1`` or ``fc2`` is missing or not an ``nn.Linear``."""


class LayerShape(CheckRaised, ValueError):
    """``fc1`` or ``fc2`` maps the wrong number of features."""


def invoke_channel_attention(cls, X, W_1, b_1, W_2, b_2, reduction):
    """Build ``cls(C, reduction)``, copy the known weights into its ``fc1`` and ``fc2``
    (``nn.Linear``) and return ``forward(X)`` in float64."""
    import torch
    from torch import nn

    C, Cr = W_1.shape
    call = f"ChannelAttention({C}, reduction={reduction})"
    torch.manual_seed(0)
    module = cls(C, reduction)
    if not isinstance(module, nn.Module):
        raise NotAModule(f"{call} is a {type(module).__name__}, not an nn.Module")
    X_t = torch.from_numpy(X)
    for name in ("fc1", "fc2"):
        layer = getattr(module, name, None)
        if not isinstance(layer, nn.Linear):
            raise LayerMissing(f"{call} has no nn.Linear attribute `self.{name}` (found "
                               f"{type(layer).__name__ if layer is not None else 'nothing'})")
    materialise(module, lambda m: m(X_t.float()))
    for name, want in (("fc1", (C, Cr)), ("fc2", (Cr, C))):
        layer = getattr(module, name)
        got = in_out(layer)
        if got != want or layer.bias is None:
            raise LayerShape(f"in {call}, `self.{name}` maps {got[0]} -> {got[1]} "
                             f"features{'' if layer.bias is not None else ' without a bias'}, expected "
                             f"{want[0]} -> {want[1]} with a bias (Cr = max(1, {C} // {reduction}) = {Cr})")
    module = module.double()
    with torch.no_grad():
        for name, W, b in (("fc1", W_1, b_1), ("fc2", W_2, b_2)):
            layer = getattr(module, name)
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(W.T)))  # nn.Linear: (out, in)
            layer.bias.copy_(torch.from_numpy(b))
    return run_eval(module, lambda m: m(X_t), "ChannelAttention")


def _ca_reference(X, W_1, b_1, W_2, b_2, reduction):
    return _ref.channel_attention(X, W_1, b_1, W_2, b_2)


def _ca_variant(X, W_1, b_1, W_2, b_2, reduction, *, squeeze="mean", relu=True, gate="sigmoid",
                scale=True):
    if squeeze == "channels":
        z = X.mean(axis=(1, 2))  # (B, C, H, W): over C and H, leaving W
    elif squeeze == "front":
        z = X.mean(axis=(2, 3))  # right for (B, C, H, W), out of range for (C, H, W)
    elif squeeze == "max":
        z = X.max(axis=(-2, -1))
    elif squeeze == "sum":
        z = X.sum(axis=(-2, -1))
    else:
        z = X.mean(axis=(-2, -1))
    h = z @ W_1 + b_1
    if relu:
        h = np.maximum(h, 0.0)
    e = h @ W_2 + b_2
    s = {"sigmoid": _ref._sigmoid(e), "none": e, "softmax": _softmax(e, axis=-1)}[gate]
    return (X * s[..., :, None, None] if scale else X), s


def _raises(exc_type):
    def impl(*args, **kwargs):
        raise exc_type("a known structural mistake")
    return impl


def _ca(**flags):
    return lambda *args: _ca_variant(*args, **flags)


def _ca_swapped(*args):
    Y, s = _ca_reference(*args)
    return s, Y


CHANNEL_MISTAKES = [
    Mistake("a class that is not an nn.Module",
            "write `class ChannelAttention(nn.Module):` and call `super().__init__()` first in __init__.",
            _raises(NotAModule)),
    Mistake("the two layers are not the nn.Linear attributes fc1 and fc2",
            "create them in __init__ under exactly these names, `self.fc1` (C -> Cr) and "
            "`self.fc2` (Cr -> C), both `nn.Linear` with a bias: the check copies known weights "
            "into them.", _raises(LayerMissing)),
    Mistake("a layer of the wrong size",
            "the hidden width is `Cr = max(1, channels // reduction)`: fc1 maps channels -> Cr, "
            "fc2 maps Cr -> channels (the bottleneck is smaller, and never empty).",
            _raises(LayerShape)),
    Mistake("the squeeze taken over the channels instead of over the positions",
            "squeeze means one number per channel: average each channel over its H*W positions, "
            "the two last axes.", _ca(squeeze="channels")),
    Mistake("axes counted from the front (e.g. `X.mean(dim=(2, 3))`): right for a batch, wrong "
            "for one map (C, H, W)",
            "name the spatial axes from the end: `X.mean(dim=(-2, -1))`.", _ca(squeeze="front")),
    Mistake("a max over the positions instead of the mean (global max pooling)",
            "squeeze-and-excitation summarises each channel by its mean over all positions.",
            _ca(squeeze="max")),
    Mistake("a sum over the positions instead of the mean",
            "divide by the number of positions: `X.mean(dim=(-2, -1))`.", _ca(squeeze="sum")),
    Mistake("the sigmoid forgotten: the raw outputs of fc2 used as channel weights",
            "each channel's weight is a gate in (0, 1): apply `torch.sigmoid` to fc2's output.",
            _ca(gate="none")),
    Mistake("a softmax over the channels instead of a sigmoid",
            "channels do not compete for one unit of weight: each gets its own sigmoid gate in "
            "(0, 1), independently of the others.", _ca(gate="softmax")),
    Mistake("no ReLU between fc1 and fc2",
            "the excitation is fc1, then a ReLU, then fc2, then the sigmoid.", _ca(relu=False)),
    Mistake("X returned unscaled (the channel weights computed but not applied)",
            "multiply every channel of X by its weight, broadcasting s (..., C) as (..., C, 1, 1).",
            _ca(scale=False)),
    Mistake("returning (s, Y) instead of (Y, s)", "return the reweighted map first: `return Y, s`.",
            _ca_swapped),
]


def _ca_case(rng, batch, C, H, W, reduction, why):
    Cr = max(1, C // reduction)
    X = rng.normal(size=(*batch, C, H, W)) + rng.normal(size=(*batch, C, 1, 1))  # channels differ in mean
    W_1, b_1 = rng.normal(size=(C, Cr)) / np.sqrt(C) * 2, rng.normal(size=Cr) * 0.3
    W_2, b_2 = rng.normal(size=(Cr, C)) / np.sqrt(Cr) * 2, rng.normal(size=C) * 0.3
    return Case((X, W_1, b_1, W_2, b_2, reduction),
                why=f"ChannelAttention({C}, reduction={reduction}) with known weights, {why}")


def _ca_cases(hidden: bool) -> list[Case]:
    rng = case_rng(106, hidden)
    specs = ([((2,), 4, 4, 4, 2, "C = H = W"), ((), 6, 3, 5, 3, "one map (C, H, W)"),
              ((2,), 8, 2, 3, 2, "a batch"), ((), 2, 4, 3, 4, "channels // reduction = 0")] if hidden
             else [((3,), 5, 5, 5, 2, "C = H = W"), ((), 6, 3, 4, 2, "one map (C, H, W)"),
                   ((2, 2), 8, 4, 6, 4, "a batch (B1, B2, C, H, W)"), ((), 3, 2, 5, 4, "channels // reduction = 0")])
    return [_ca_case(rng, *s) for s in specs]


def check_channel_attention(ChannelAttention, hidden: bool = False) -> None:
    """Check ``ChannelAttention(channels, reduction)``: its ``fc1``, ``fc2`` and ``forward``."""
    run_check(ChannelAttention, exercise="ChannelAttention", reference=_ca_reference,
              cases=_ca_cases(hidden), mistakes=CHANNEL_MISTAKES,
              arg_names=("X", "fc1.weight.T", "fc1.bias", "fc2.weight.T", "fc2.bias", "reduction"),
              outputs=("Y", "s"), show_values=not hidden, invoke=invoke_channel_attention,
              reference_module=_divergence.channel_attention_class,
              passed="squeeze, excitation and scale match with known weights")


# ---------------------------------------------------------------------------------------------
# patchify(X, patch)

def _grid(X, P):
    *b, C, H, W = X.shape
    return X.reshape(*b, C, H // P, P, W // P, P), len(b)


def _pf_plain(X, patch):
    *b, C, H, W = X.shape
    P = patch
    return X.reshape(*b, (H // P) * (W // P), C * P * P)


def _pf_order(order_tail, grid_major="row"):
    def impl(X, patch):
        P = patch
        g, n = _grid(X, P)  # (..., C, H/P, P, W/P, P): axes n..n+4
        axes = {"C": n, "gi": n + 1, "pi": n + 2, "gj": n + 3, "pj": n + 4}
        head = ["gi", "gj"] if grid_major == "row" else ["gj", "gi"]
        order = list(range(n)) + [axes[a] for a in head + list(order_tail)]
        out = g.transpose(order)
        *b, C, H, W = X.shape
        return out.reshape(*b, (H // P) * (W // P), C * P * P)
    return impl


def _pf_rows(X, patch):
    *b, C, H, W = X.shape
    P = patch
    strips = X.reshape(*b, C, H // P, P * W)  # strips of P whole rows
    return np.moveaxis(strips, -3, -2).reshape(*b, H // P, C * P * W)


def _pf_no_check(X, patch):
    *b, C, H, W = X.shape
    P = patch
    return _ref.patchify(X[..., : H - H % P, : W - W % P], P)


PATCHIFY_MISTAKES = [
    Mistake("patches cut by a plain reshape (each token mixes channels and rows of the image)",
            "split H into (H/P, P) and W into (W/P, P) first, then bring the two grid axes "
            "(H/P, W/P) in front of (C, P, P) before merging: a transpose is needed.", _pf_plain),
    Mistake("patches cut across the wrong axes: the patch grid numbered column by column",
            "number the patches row-major over the grid: grid row first, then grid column.",
            _pf_order(("C", "pi", "pj"), grid_major="column")),
    Mistake("values inside a patch ordered (row, column, channel) instead of channel first",
            "the contract orders a patch token as (C, P, P), channel first, as "
            "`torch.nn.functional.unfold` and a Conv2d weight do.", _pf_order(("pi", "pj", "C"))),
    Mistake("rows and columns swapped inside a patch (each patch transposed)",
            "inside a patch, values go row by row: (C, row, column).", _pf_order(("C", "pj", "pi"))),
    Mistake("patches cut across the wrong axes: the row and column axes of the image swapped",
            "the image's rows come first: split H into (H/P, P) and W into (W/P, P) without "
            "swapping H and W.", _pf_order(("C", "pj", "pi"), grid_major="column")),
    Mistake("strips of P whole rows instead of P x P squares",
            "cut W into (W/P, P) as well: a token is one P x P square of the image.", _pf_rows),
    Mistake("no error when P does not divide H and W (the edge silently cropped)",
            "raise a ValueError naming the patch size and the image's H and W.", _pf_no_check),
]


def _pf_cases(hidden: bool) -> list[Case]:
    rng = case_rng(107, hidden)
    specs = ([((), 2, 6, 4, 2), ((2,), 3, 6, 9, 3), ((2,), 1, 4, 6, 2), ((3,), 2, 3, 5, 1)] if hidden
             else [((), 3, 4, 6, 2), ((2,), 2, 6, 9, 3), ((2, 1), 3, 4, 2, 2), ((2,), 3, 2, 3, 1)])
    cases = [Case((rng.normal(size=(*b, C, H, W)), P),
                  why=f"{C} channels, a {H} x {W} map, {P} x {P} patches" + (", a batch" if b else ""))
             for b, C, H, W, P in specs]
    cases.append(Case((rng.normal(size=(2, 5, 6)), 2), why="2 does not divide H = 5", raises=ValueError))
    return cases


def check_patchify(patchify, hidden: bool = False) -> None:
    """Check ``patchify(X, patch)``: ``(..., C, H, W) -> (..., (H/P)*(W/P), C*P*P)``."""
    run_check(patchify, exercise="patchify", reference=_ref.patchify, cases=_pf_cases(hidden),
              mistakes=PATCHIFY_MISTAKES, arg_names=("X", "patch"), show_values=not hidden,
              passed="P x P patches, row-major, channel first inside; a ValueError when P does not divide",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# What to change, without code (shown before the code-level fix; see checks._principles)

PRINCIPLES = {
    "channels and positions swapped: a reshape to (H*W, C) without moving the channel axis":
        "A reshape keeps the memory order, where the channels come first: the channel axis must move "
        "behind the positions, not be cut into pieces.",
    "column-major positions (token j*H + i instead of i*W + j)":
        "Pixels are numbered row by row: the column index changes fastest.",
    "positions merged but the channel axis not moved: shape (..., C, H*W)":
        "A token is one pixel with its C values: positions first, channels last.",
    "axes counted from the front (e.g. `X.transpose(1, 2, 0)`): right for one map, wrong for a batch":
        "Leading batch axes shift every axis counted from the front: count the image's axes from the end.",
    "everything flattened into one vector per image":
        "Keep one token per pixel: H*W tokens of C features each.",
    "channels and positions swapped: a reshape to (C, H, W) without moving the channel axis first":
        "The tokens hold their channels last: move the channel axis in front before splitting the positions.",
    "column-major positions (token p read as pixel (p % H, p // H))":
        "Token p is pixel (p // W, p % W): the position axis splits into rows first, then columns.",
    "H and W swapped (shape (..., C, W, H))":
        "The positions split into H rows of W columns, in that order.",
    "channels left last: shape (..., H, W, C)":
        "A feature map has its channels before the two spatial axes.",
    "axes counted from the front (e.g. `T.T` or `transpose(1, 0)`): right for one map, wrong for a batch":
        "Swap only the last two axes, so that leading batch axes stay where they are.",
    "the 2-D encoding uses one axis twice (the row index in both halves)":
        "The two halves encode different coordinates: the first the row, the second the column.",
    "the 2-D encoding uses one axis twice (the column index in both halves)":
        "The two halves encode different coordinates: the first the row, the second the column.",
    "the halves swapped (the column first, then the row)":
        "The row's encoding comes first, the column's second.",
    "column-major positions (pixel (i, j) at row j*H + i)":
        "Row p of the encoding belongs to token p of image_to_tokens: pixels row by row.",
    "a 1-D encoding of the flat index p = i*W + j instead of a 2-D one":
        "Encode the row and the column separately, each with half of the features.",
    "each half built with the frequencies of width D (then cut to D/2)":
        "Each half is a complete sinusoidal encoding of width D/2, with that width in its frequencies.",
    "the row and column features interleaved instead of in two halves":
        "The row's features form one contiguous half and the column's the other.",
    "sine and cosine swapped (cos on the even features)":
        "Even features hold the sine, odd features the cosine.",
    "the result left as a grid (H, W, D)":
        "One row per pixel token: the result has H*W rows of D features.",
    "channels and positions swapped when flattening (a reshape to (H*W, C) without a transpose)":
        "The tokens of spatial attention are the pixels, each carrying its C channel values.",
    "column-major pixel order (token j*H + i)":
        "Pixels are numbered row by row, the order the weights A are read in.",
    "the output put back with a plain reshape (channels and positions mixed up)":
        "The outputs are tokens with their features last: the feature axis must move in front of the positions.",
    "the output left as tokens (..., H*W, Dv) instead of a feature map (..., Dv, H, W)":
        "Spatial attention maps a feature map to a feature map: lay the output tokens out as an image again.",
    "attention over the channels (C x C weights) instead of over the pixels":
        "Spatial attention mixes positions: one weight per pair of pixels.",
    "no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dk)":
        "Scores are divided by √Dk, the square root of the query/key width.",
    "scaling by √C (the number of channels) instead of √Dk":
        "The scale comes from the width of the dot product, the query/key width Dk.",
    "scaling by Dk instead of √Dk":
        "The scale is the square root of Dk, not Dk itself.",
    "a softmax over the wrong axis (over the queries)":
        "Each pixel's weights over all pixels sum to one: normalise along the keys, the last axis.",
    "the tokens used as the values (no W_v)":
        "Values are their own learned map of the tokens.",
    "returning (A, Z) instead of (Z, A)":
        "The contract returns the output first, then the weights.",
    "`K.T` on a batch: it reverses every axis, not just the last two":
        "Transpose only the last two axes, so that leading batch axes stay where they are.",
    "a class that is not an nn.Module":
        "The layer must be an nn.Module subclass whose __init__ first initialises the base class.",
    "the two layers are not the nn.Linear attributes fc1 and fc2":
        "The check loads known weights into two linear layers with fixed attribute names.",
    "a layer of the wrong size":
        "The bottleneck has max(1, channels // reduction) units: the first layer narrows to it, the second widens back.",
    "the squeeze taken over the channels instead of over the positions":
        "Squeeze means one summary number per channel: average each channel over its positions.",
    "axes counted from the front (e.g. `X.mean(dim=(2, 3))`): right for a batch, wrong for one map (C, H, W)":
        "Count the spatial axes from the end, so that the module works with or without a batch.",
    "a max over the positions instead of the mean (global max pooling)":
        "Squeeze-and-excitation summarises each channel by its average over the positions.",
    "a sum over the positions instead of the mean":
        "The summary is an average: independent of the number of positions.",
    "the sigmoid forgotten: the raw outputs of fc2 used as channel weights":
        "Each channel weight is a gate between 0 and 1.",
    "a softmax over the channels instead of a sigmoid":
        "Channels do not compete for one unit of weight: each gets its own independent gate.",
    "no ReLU between fc1 and fc2":
        "The excitation has a nonlinearity between its two layers.",
    "X returned unscaled (the channel weights computed but not applied)":
        "The output is the input with every channel multiplied by its weight.",
    "returning (s, Y) instead of (Y, s)":
        "The contract returns the reweighted map first, then the channel weights.",
    "patches cut by a plain reshape (each token mixes channels and rows of the image)":
        "A patch is a square of the image: split rows and columns into (grid, inside) first, then bring the grid axes to the front.",
    "patches cut across the wrong axes: the patch grid numbered column by column":
        "Patches are numbered row by row over the grid.",
    "values inside a patch ordered (row, column, channel) instead of channel first":
        "Inside a token the channel is the slowest index, then the row, then the column.",
    "rows and columns swapped inside a patch (each patch transposed)":
        "Inside a patch, values go row by row.",
    "patches cut across the wrong axes: the row and column axes of the image swapped":
        "The image's rows come before its columns, for the grid and inside each patch.",
    "strips of P whole rows instead of P x P squares":
        "A patch is P rows by P columns: the columns are cut as well.",
    "no error when P does not divide H and W (the edge silently cropped)":
        "Reject a patch size that does not tile the image, naming the sizes.",
}


def _with_principles(mistakes: list[Mistake]) -> list[Mistake]:
    return [Mistake(m.name, m.fix, m.impl, PRINCIPLES.get(m.name) or m.principle) for m in mistakes]


IMAGE_TO_TOKENS_MISTAKES = _with_principles(IMAGE_TO_TOKENS_MISTAKES)
TOKENS_TO_IMAGE_MISTAKES = _with_principles(TOKENS_TO_IMAGE_MISTAKES)
POSITIONAL_MISTAKES = _with_principles(POSITIONAL_MISTAKES)
SPATIAL_MISTAKES = _with_principles(SPATIAL_MISTAKES)
CHANNEL_MISTAKES = _with_principles(CHANNEL_MISTAKES)
PATCHIFY_MISTAKES = _with_principles(PATCHIFY_MISTAKES)


# ---------------------------------------------------------------------------------------------
# Predict, then run

from ._predict import Prediction, WrongPrediction  # noqa: E402

SHUFFLED_PIXELS = Prediction(
    "prediction_shuffled_output", "choice", "shuffled the same way",
    "Shuffling the pixels shuffles the tokens: the queries, keys and values are the same vectors in "
    "another order, so A has its rows and columns reordered the same way and every output is the "
    "same vector, now at its pixel's new place. Without positional encodings spatial attention "
    "cannot tell a corner from the centre.",
    options=("identical", "shuffled the same way", "changed completely"),
    wrong=(
        WrongPrediction("identical", "a weighted average over all pixels does not care about order",
                        "Each pixel's output is indeed the same vector as before, but it belongs to "
                        "that pixel, which has moved: the output map is shuffled along with the input."),
        WrongPrediction("changed completely", "moving pixels changes which pixels attend to which",
                        "The scores compare pairs of tokens by their contents only; a pair of pixels "
                        "has the same score wherever the two pixels are put."),
    ),
)


def check_prediction_shuffled_output(prediction_shuffled_output, hidden: bool = False) -> None:
    """Check the prediction of spatial attention's output on shuffled pixels (no positions)."""
    SHUFFLED_PIXELS.check(prediction_shuffled_output, hidden=hidden)


RECEPTIVE_FIELD = Prediction(
    "prediction_receptive_field", "number", 25,
    "The second convolution's output at the centre reads a 3 x 3 block of the first layer's "
    "outputs, and each of those reads a 3 x 3 block of the input, shifted by one pixel from its "
    "neighbour: together a 5 x 5 square, 25 pixels. Each layer adds one pixel on every side.",
    wrong=(
        WrongPrediction(9, "one 3 x 3 view", "That is one convolution; the second one reads nine "
                        "outputs of the first, each with its own 3 x 3 view."),
        WrongPrediction(18, "the two 3 x 3 views added",
                        "The views do not add up pixel counts: the second layer's nine inputs each "
                        "see a 3 x 3 square, and their union is a 5 x 5 square."),
        WrongPrediction(81, "the two 3 x 3 views multiplied",
                        "The nine 3 x 3 views overlap: neighbouring outputs of the first layer read "
                        "squares shifted by one pixel, so together they cover 5 x 5, not 9 x 9."),
        WrongPrediction(256, "every pixel, as for attention",
                        "A convolution only reads its neighbourhood, whatever the image: two layers "
                        "reach two pixels away in each direction."),
    ),
)


def check_prediction_receptive_field(prediction_receptive_field, hidden: bool = False) -> None:
    """Check the prediction of the receptive field of two stacked 3 x 3 convolutions."""
    RECEPTIVE_FIELD.check(prediction_receptive_field, hidden=hidden)
