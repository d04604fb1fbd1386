"""Torch twins of ``attnlab.images`` (notebook 10), channel and spatial attention modules, and
the two small image classifiers that notebook 10 and ``benchmarks/bench_images.py`` compare.

Same shape letters and conventions as the numpy module: row-major pixel tokens, the 2-D
encoding as row half then column half, patch tokens channel first.
"""
from __future__ import annotations

import math
import time
from typing import Callable

import numpy as np
import torch
from torch import nn

from .._validate import fmt, require_int, require_ndim
from .. import images as _np_images


def _float(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def _image(X, name: str = "X") -> torch.Tensor:
    X = _float(X)
    require_ndim(X, name, ("C", "H", "W"))
    return X


def image_to_tokens(X: torch.Tensor) -> torch.Tensor:
    """A feature map as a sequence of pixel tokens: ``(..., C, H, W) -> (..., H*W, C)``.

    Token ``p = i * W + j`` (row-major) is pixel ``(i, j)``; its ``C`` features are that pixel's
    channel values. ``tokens_to_image`` is the inverse.
    """
    X = _image(X)
    return X.flatten(-2).transpose(-1, -2)  # (..., C, H, W) -> (..., C, H*W) -> (..., H*W, C)


def tokens_to_image(T: torch.Tensor, H: int, W: int) -> torch.Tensor:
    """Pixel tokens back to a feature map: ``(..., H*W, C) -> (..., C, H, W)``.

    The inverse of ``image_to_tokens``: token ``p`` becomes pixel ``(p // W, p % W)``.
    ``ValueError`` if the number of tokens is not ``H * W``.
    """
    T = _float(T)
    H, W = require_int(H, "H", minimum=1), require_int(W, "W", minimum=1)
    require_ndim(T, "T", ("H*W", "C"))
    if T.shape[-2] != H * W:
        raise ValueError(f"T: expected shape (..., H*W={H * W}, C) for H={H}, W={W}, got {fmt(T.shape)}")
    return T.transpose(-1, -2).unflatten(-1, (H, W))  # (..., C, H*W) -> (..., C, H, W)


def positional_encoding_2d(H: int, W: int, D: int) -> torch.Tensor:
    """Sinusoidal positional encodings for the ``H*W`` pixels of an ``H x W`` map: ``(H*W, D)``.

    Row ``p = i * W + j`` (row-major, as ``image_to_tokens``) encodes pixel ``(i, j)``: its first
    ``D/2`` features are the 1-D sinusoidal encoding of width ``D/2`` (notebook 09) of the row
    index ``i``, its last ``D/2`` features that of the column index ``j``. ``D`` must be a
    multiple of 4. Float32 (torch's default dtype).
    """
    return torch.as_tensor(_np_images.positional_encoding_2d(H, W, D), dtype=torch.get_default_dtype())


def spatial_self_attention(
    X: torch.Tensor, W_q: torch.Tensor, W_k: torch.Tensor, W_v: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Self-attention over the pixels of a feature map (spatial attention).

    Args:
        X: ``(..., C, H, W)``; W_q, W_k: ``(C, Dk)``; W_v: ``(C, Dv)``.

    Returns:
        ``(Z (..., Dv, H, W), A (..., H*W, H*W))``, row ``p = i * W + j`` of ``A`` holding the
        weights pixel ``(i, j)`` gives to every pixel (scale ``sqrt(Dk)``, rows sum to one).
    """
    X = _image(X)
    W_q, W_k, W_v = (_float(a).to(X.dtype) for a in (W_q, W_k, W_v))
    _np_images._check_spatial(np.empty(X.shape[-3:]), np.empty(W_q.shape), np.empty(W_k.shape),
                              np.empty(W_v.shape))
    H, W = X.shape[-2:]
    tokens = image_to_tokens(X)  # (..., H*W, C)
    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v  # (..., H*W, Dk), (..., H*W, Dk), (..., H*W, Dv)
    A = torch.softmax(Q @ K.transpose(-1, -2) / math.sqrt(W_q.shape[1]), dim=-1)  # (..., H*W, H*W)
    return tokens_to_image(A @ V, H, W), A  # (..., Dv, H, W), (..., H*W, H*W)


def channel_attention(
    X: torch.Tensor, W_1: torch.Tensor, b_1: torch.Tensor, W_2: torch.Tensor, b_2: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Channel attention (squeeze-and-excitation) with given weights: ``(Y (..., C, H, W), s (..., C))``.

    The functional form of ``ChannelAttention`` (``W_1 = fc1.weight.T``, ``W_2 = fc2.weight.T``).
    """
    X = _image(X)
    W_1, b_1, W_2, b_2 = (_float(a).to(X.dtype) for a in (W_1, b_1, W_2, b_2))
    C, Cr = X.shape[-3], W_1.shape[-1]
    for name, M, want in (("W_1", W_1, (C, Cr)), ("b_1", b_1, (Cr,)), ("W_2", W_2, (Cr, C)), ("b_2", b_2, (C,))):
        if tuple(M.shape) != want:
            raise ValueError(f"{name}: expected shape {fmt(want)} for X {fmt(X.shape)}, got {fmt(M.shape)}")
    z = X.mean(dim=(-2, -1))  # squeeze: (..., C)
    s = torch.sigmoid(torch.relu(z @ W_1 + b_1) @ W_2 + b_2)  # excitation: (..., C)
    return X * s[..., :, None, None], s  # (..., C, H, W), (..., C)


def patchify(X: torch.Tensor, patch: int) -> torch.Tensor:
    """Cut a feature map into non-overlapping ``P x P`` patches: ``(..., C, H, W) ->
    (..., (H/P)*(W/P), C*P*P)``, patches row-major, values channel first, then row, then column
    (as ``torch.nn.functional.unfold(X, P, stride=P)`` transposed). ``ValueError`` if ``P`` does
    not divide ``H`` and ``W``."""
    X = _image(X)
    P = require_int(patch, "patch", minimum=1)
    *batch, C, H, W = X.shape
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    grid = X.reshape(*batch, C, H // P, P, W // P, P)  # (..., C, H/P, P, W/P, P)
    n = len(batch)
    order = list(range(n)) + [n + 1, n + 3, n, n + 2, n + 4]  # (..., H/P, W/P, C, P, P)
    return grid.permute(order).reshape(*batch, (H // P) * (W // P), C * P * P)  # (..., L, C*P*P)


class ChannelAttention(nn.Module):
    """Channel attention, squeeze-and-excitation (Hu et al., 2018).

    ``ChannelAttention(channels, reduction)`` holds ``fc1 = nn.Linear(channels, Cr)`` and
    ``fc2 = nn.Linear(Cr, channels)`` with ``Cr = max(1, channels // reduction)``.
    ``forward(X)`` takes ``X (..., C, H, W)`` and returns ``(Y (..., C, H, W), s (..., C))``:
    ``s`` holds one weight in ``(0, 1)`` per channel, computed from the mean of each channel
    over all positions by ``fc1``, a ReLU, ``fc2`` and a sigmoid; ``Y`` is ``X`` with every
    channel multiplied by its weight.
    """

    def __init__(self, channels: int, reduction: int = 4) -> None:
        super().__init__()
        self.channels = require_int(channels, "channels", minimum=1)
        self.reduction = require_int(reduction, "reduction", minimum=1)
        hidden = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, hidden)
        self.fc2 = nn.Linear(hidden, channels)

    def forward(self, X: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        require_ndim(X, "X", ("C", "H", "W"))
        if X.shape[-3] != self.channels:
            raise ValueError(f"X: expected shape (..., C={self.channels}, H, W), got {fmt(X.shape)}")
        z = X.mean(dim=(-2, -1))  # squeeze: (..., C, H, W) -> (..., C)
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))  # excitation: (..., C) -> (..., C)
        return X * s[..., :, None, None], s  # scale: (..., C, H, W) * (..., C, 1, 1)

    def extra_repr(self) -> str:
        return f"channels={self.channels}, reduction={self.reduction}"


class SpatialSelfAttention(nn.Module):
    """One spatial self-attention layer with a residual connection, for ``(B, C, H, W)`` maps.

    The pixels become tokens (``image_to_tokens``), a fixed 2-D sinusoidal encoding
    (``positional_encoding_2d``) is added so that attention can tell where a token is, and each
    pixel's output is the pixel plus the attention-weighted average of the values of all pixels.
    ``forward`` returns ``(Y (B, C, H, W), A (B, H*W, H*W))``. ``W_q, W_k, W_v`` are
    ``nn.Linear(C, C)`` layers.
    """

    def __init__(self, channels: int, height: int, width: int) -> None:
        super().__init__()
        self.channels = require_int(channels, "channels", minimum=4)
        self.W_q = nn.Linear(channels, channels)
        self.W_k = nn.Linear(channels, channels)
        self.W_v = nn.Linear(channels, channels)
        self.register_buffer("pe", positional_encoding_2d(height, width, channels), persistent=False)

    def forward(self, X: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        H, W = X.shape[-2:]
        tokens = image_to_tokens(X) + self.pe  # (B, H*W, C) + (H*W, C)
        Q, K, V = self.W_q(tokens), self.W_k(tokens), self.W_v(tokens)  # (B, H*W, C) each
        A = torch.softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.channels), dim=-1)  # (B, H*W, H*W)
        return tokens_to_image(tokens + A @ V, H, W), A  # (B, C, H, W), (B, H*W, H*W)


class CornerNet(nn.Module):
    """The small classifier of notebook 10, with or without one spatial-attention layer.

    Both variants: a patch embedding (a 2x2 convolution with stride 2, 3 -> C channels: each
    2x2 patch becomes one pixel of a map of half the side), a layer norm over the channels, the
    **middle layer**, a pointwise MLP
    (1x1 convolutions C -> 2C -> C), a global average over the positions and a linear read-out
    to two logits. ``CornerNet(channels, attention=False)``: the middle layer is one more 3x3
    convolution (the plain CNN); ``attention=True``: a ``SpatialSelfAttention`` layer instead.
    ``forward(images (B, 3, S, S))`` returns logits ``(B, 2)``; ``self.last_attention`` keeps the
    attention weights ``(B, S²/4, S²/4)`` of the last forward (``None`` without attention).
    """

    def __init__(self, channels: int = 32, attention: bool = False, size: int = 16) -> None:
        super().__init__()
        C = require_int(channels, "channels", minimum=4)
        self.features = nn.Sequential(nn.Conv2d(3, C, 2, stride=2), nn.ReLU())  # (B, 3, S, S) -> (B, C, S/2, S/2)
        self.norm = nn.LayerNorm(C)
        self.attention = SpatialSelfAttention(C, size // 2, size // 2) if attention else None
        self.middle = None if attention else nn.Sequential(nn.Conv2d(C, C, 3, padding=1), nn.ReLU())
        self.mlp = nn.Sequential(nn.Conv2d(C, 2 * C, 1), nn.ReLU(), nn.Conv2d(2 * C, C, 1), nn.ReLU())
        self.head = nn.Linear(C, 2)
        self.last_attention: torch.Tensor | None = None

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        F = self.features(images)  # (B, 3, S, S) -> (B, C, S/2, S/2)
        F = self.norm(F.movedim(-3, -1)).movedim(-1, -3)  # normalise each pixel's C features
        if self.attention is not None:
            F, self.last_attention = self.attention(F)  # (B, C, S/2, S/2), (B, S²/4, S²/4)
        else:
            F = self.middle(F)  # (B, C, S/2, S/2)
        return self.head(self.mlp(F).mean(dim=(-2, -1)))  # (B, C) -> (B, 2)


def count_parameters(model: nn.Module) -> int:
    """The number of trainable parameters."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def accuracy(model: nn.Module, images, labels, batch_size: int = 500) -> float:
    """The share of ``images`` whose predicted class (the larger logit) is ``labels``."""
    model.eval()
    images, labels = torch.as_tensor(images), torch.as_tensor(labels)
    correct = 0
    with torch.no_grad():
        for start in range(0, len(images), batch_size):
            logits = model(images[start:start + batch_size])
            correct += int((logits.argmax(-1) == labels[start:start + batch_size]).sum())
    return correct / len(images)


def train_classifier(
    model: nn.Module, images, labels, *, epochs: int = 10, batch_size: int = 64, lr: float = 3e-3,
    seed: int = 0, progress: Callable[[int, float, float], None] | None = None,
) -> dict:
    """Train ``model`` with Adam on cross-entropy; return ``{"seconds", "loss"}``.

    ``progress(epoch, loss, seconds)`` is called after each epoch (e.g. to print or to update a
    progress bar).
    """
    images, labels = torch.as_tensor(images), torch.as_tensor(labels)
    generator = torch.Generator().manual_seed(seed)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    start, loss_value = time.perf_counter(), float("nan")
    for epoch in range(1, epochs + 1):
        model.train()
        order = torch.randperm(len(images), generator=generator)
        total, seen = 0.0, 0
        for first in range(0, len(images), batch_size):
            idx = order[first:first + batch_size]
            loss = loss_fn(model(images[idx]), labels[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total, seen = total + loss.item() * len(idx), seen + len(idx)
        loss_value = total / seen
        if progress is not None:
            progress(epoch, loss_value, time.perf_counter() - start)
    return {"seconds": time.perf_counter() - start, "loss": loss_value}
