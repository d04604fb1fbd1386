"""Attention on images: a feature map as a sequence of pixel tokens (numpy reference for
notebook 10).

Shape letters: ``C`` channels, ``H`` image height, ``W`` image width, ``P`` patch side,
``D`` encoding width, ``Dk`` query/key width, ``Dv`` value width, ``Cr`` the hidden width of
channel attention. Any leading batch dimensions ``...`` are allowed on images ``(..., C, H, W)``.

Conventions fixed by the course contract:

* **Row-major positions**: pixel ``(i, j)`` of an ``H x W`` map is token ``p = i * W + j``
  (the order ``reshape`` reads a C-ordered array in), and a token holds the ``C`` channel values
  of its pixel.
* **2-D positional encoding**: the first ``D/2`` features of pixel ``(i, j)`` are the 1-D
  sinusoidal encoding (notebook 09) of its row ``i``, the last ``D/2`` that of its column ``j``.
* **Patches**: ``P x P`` non-overlapping patches, numbered row-major over the patch grid; a patch
  token lists its values channel first, then row, then column inside the patch (the order of
  ``torch.nn.functional.unfold`` and of a ``Conv2d`` weight ``(out, C, P, P)``).
"""
from __future__ import annotations

import numpy as np

from ._validate import fmt, require_int, require_ndim
from .averages import softmax
from .positional import sinusoidal_positional_encoding


def _image(X, name: str = "X") -> np.ndarray:
    X = np.asarray(X, dtype=float)
    require_ndim(X, name, ("C", "H", "W"))
    return X


def image_to_tokens(X: np.ndarray) -> np.ndarray:
    """A feature map as a sequence of pixel tokens: ``(..., C, H, W) -> (..., H*W, C)``.

    Token ``p = i * W + j`` (row-major) is pixel ``(i, j)``; its ``C`` features are that pixel's
    channel values. ``tokens_to_image`` is the inverse.
    """
    X = _image(X)
    *batch, C, H, W = X.shape
    flat = X.reshape(*batch, C, H * W)  # (..., C, H, W) -> (..., C, H*W), row-major positions
    return np.swapaxes(flat, -1, -2).copy()  # (..., C, H*W) -> (..., H*W, C)


def tokens_to_image(T: np.ndarray, H: int, W: int) -> np.ndarray:
    """Pixel tokens back to a feature map: ``(..., H*W, C) -> (..., C, H, W)``.

    The inverse of ``image_to_tokens``: token ``p`` becomes pixel ``(p // W, p % W)``.
    ``ValueError`` if the number of tokens is not ``H * W``.
    """
    T = np.asarray(T, dtype=float)
    H, W = require_int(H, "H", minimum=1), require_int(W, "W", minimum=1)
    require_ndim(T, "T", ("H*W", "C"))
    if T.shape[-2] != H * W:
        raise ValueError(f"T: expected shape (..., H*W={H * W}, C) for H={H}, W={W}, got {fmt(T.shape)}")
    *batch, L, C = T.shape
    channels_first = np.swapaxes(T, -1, -2)  # (..., H*W, C) -> (..., C, H*W)
    return channels_first.reshape(*batch, C, H, W).copy()  # (..., C, H*W) -> (..., C, H, W)


def _sinusoids(L: int, D: int) -> np.ndarray:
    """Notebook 09's 1-D sinusoidal encoding ``(L, D)``."""
    return sinusoidal_positional_encoding(L, D)


def positional_encoding_2d(H: int, W: int, D: int) -> np.ndarray:
    """Sinusoidal positional encodings for the ``H*W`` pixels of an ``H x W`` map: ``(H*W, D)``.

    Row ``p = i * W + j`` (row-major, as ``image_to_tokens``) encodes pixel ``(i, j)``: its first
    ``D/2`` features are the 1-D sinusoidal encoding of width ``D/2`` (notebook 09) of the row
    index ``i``, its last ``D/2`` features that of the column index ``j``. Two pixels in the same
    row share the first half; two in the same column share the second. ``D`` must be a multiple
    of 4 (each half is made of sine/cosine pairs).
    """
    H, W = require_int(H, "H", minimum=1), require_int(W, "W", minimum=1)
    D = require_int(D, "D", minimum=4)
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4 (two halves of sine/cosine pairs), got {D}")
    rows = _sinusoids(H, D // 2)  # (H, D/2)
    cols = _sinusoids(W, D // 2)  # (W, D/2)
    grid_rows = np.broadcast_to(rows[:, None, :], (H, W, D // 2))  # (H, W, D/2): depends on i
    grid_cols = np.broadcast_to(cols[None, :, :], (H, W, D // 2))  # (H, W, D/2): depends on j
    return np.concatenate([grid_rows, grid_cols], axis=-1).reshape(H * W, D)  # (H, W, D) -> (H*W, D)


def _check_spatial(X, W_q, W_k, W_v):
    X = _image(X)
    W_q, W_k, W_v = (np.asarray(a, dtype=float) for a in (W_q, W_k, W_v))
    C = X.shape[-3]
    for name, M, out in (("W_q", W_q, "Dk"), ("W_k", W_k, "Dk"), ("W_v", W_v, "Dv")):
        require_ndim(M, name, ("C", out), batch=False)
        if M.shape[0] != C:
            raise ValueError(f"{name}: expected shape (C={C}, {out}) for X {fmt(X.shape)}, got {fmt(M.shape)}")
    if W_q.shape[1] != W_k.shape[1]:
        raise ValueError(f"W_k: expected shape (C, Dk={W_q.shape[1]}) like W_q, got {fmt(W_k.shape)}")
    return X, W_q, W_k, W_v


def spatial_self_attention(
    X: np.ndarray, W_q: np.ndarray, W_k: np.ndarray, W_v: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Self-attention over the pixels of a feature map (spatial attention).

    Every pixel is a token of ``C`` features (row-major, as ``image_to_tokens``); queries, keys
    and values are linear maps of the tokens, each pixel's output is the softmax-weighted
    average (scale ``sqrt(Dk)``) of the values of *all* pixels, and the outputs are laid out as a
    feature map again.

    Args:
        X: ``(..., C, H, W)`` a feature map, or a batch of them.
        W_q: ``(C, Dk)`` query projection.
        W_k: ``(C, Dk)`` key projection.
        W_v: ``(C, Dv)`` value projection.

    Returns:
        ``(Z (..., Dv, H, W), A (..., H*W, H*W))``: the output feature map and the attention
        weights, row ``p`` of ``A`` holding the weights pixel ``p = i * W + j`` gives to every
        pixel (each row sums to one).
    """
    X, W_q, W_k, W_v = _check_spatial(X, W_q, W_k, W_v)
    H, W = X.shape[-2:]
    tokens = image_to_tokens(X)  # (..., C, H, W) -> (..., H*W, C)
    Q = tokens @ W_q  # (..., H*W, C) x (C, Dk) -> (..., H*W, Dk)
    K = tokens @ W_k  # (..., H*W, C) x (C, Dk) -> (..., H*W, Dk)
    V = tokens @ W_v  # (..., H*W, C) x (C, Dv) -> (..., H*W, Dv)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1])  # (..., H*W, H*W)
    A = softmax(scores, axis=-1)  # (..., H*W, H*W), each row on the simplex
    Z = A @ V  # (..., H*W, H*W) x (..., H*W, Dv) -> (..., H*W, Dv)
    return tokens_to_image(Z, H, W), A  # (..., Dv, H, W), (..., H*W, H*W)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(x))  # never overflows
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def channel_attention(
    X: np.ndarray, W_1: np.ndarray, b_1: np.ndarray, W_2: np.ndarray, b_2: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Channel attention (squeeze-and-excitation, Hu et al. 2018) with given weights.

    *Squeeze*: each channel is summarised by its mean over all ``H*W`` positions. *Excitation*:
    the ``C`` means go through ``Linear(C, Cr)``, a ReLU, ``Linear(Cr, C)`` and a sigmoid, giving
    one weight in ``(0, 1)`` per channel (computed from the whole image, so input-dependent).
    *Scale*: every channel of ``X`` is multiplied by its weight.

    Args:
        X: ``(..., C, H, W)``.
        W_1: ``(C, Cr)``, b_1: ``(Cr,)``: the squeeze layer (weights multiply on the right).
        W_2: ``(Cr, C)``, b_2: ``(C,)``: the excitation layer.

    Returns:
        ``(Y (..., C, H, W), s (..., C))``: the reweighted map and the channel weights.

    ``attnlab.torch.ChannelAttention`` is the same with ``fc1.weight = W_1.T``, ``fc2.weight = W_2.T``.
    """
    X = _image(X)
    W_1, b_1, W_2, b_2 = (np.asarray(a, dtype=float) for a in (W_1, b_1, W_2, b_2))
    C = X.shape[-3]
    require_ndim(W_1, "W_1", ("C", "Cr"), batch=False)
    Cr = W_1.shape[1]
    for name, M, want in (("W_1", W_1, (C, Cr)), ("b_1", b_1, (Cr,)), ("W_2", W_2, (Cr, C)), ("b_2", b_2, (C,))):
        if M.shape != want:
            raise ValueError(f"{name}: expected shape {fmt(want)} for X {fmt(X.shape)}, got {fmt(M.shape)}")
    z = X.mean(axis=(-2, -1))  # squeeze: (..., C, H, W) -> (..., C)
    h = np.maximum(z @ W_1 + b_1, 0.0)  # (..., C) x (C, Cr) -> (..., Cr)
    s = _sigmoid(h @ W_2 + b_2)  # excitation: (..., Cr) x (Cr, C) -> (..., C), each in (0, 1)
    return X * s[..., :, None, None], s  # scale: (..., C, H, W) * (..., C, 1, 1)


def patchify(X: np.ndarray, patch: int) -> np.ndarray:
    """Cut a feature map into non-overlapping ``P x P`` patches, one token per patch.

    ``(..., C, H, W) -> (..., (H/P)*(W/P), C*P*P)`` with ``P = patch``. Patches are numbered
    row-major over the ``(H/P) x (W/P)`` grid; inside a token the values come channel first,
    then row, then column within the patch (as ``torch.nn.functional.unfold(X, P, stride=P)``
    transposed, and as a ``Conv2d`` weight ``(out, C, P, P)`` flattened). ``patch=1`` gives
    ``image_to_tokens``. ``ValueError`` if ``P`` does not divide ``H`` and ``W``.
    """
    X = _image(X)
    P = require_int(patch, "patch", minimum=1)
    *batch, C, H, W = X.shape
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    grid = X.reshape(*batch, C, H // P, P, W // P, P)  # (..., C, H/P, P, W/P, P)
    n = len(batch)
    order = list(range(n)) + [n + 1, n + 3, n, n + 2, n + 4]  # (..., H/P, W/P, C, P, P)
    return grid.transpose(order).reshape(*batch, (H // P) * (W // P), C * P * P)  # (..., L, C*P*P)


def attention_cost(H: int, W: int, patch: int = 1) -> int:
    """How many attention weights one map of ``H x W`` pixels needs with ``P x P`` patches:
    ``((H/P) * (W/P))^2`` (one per pair of tokens)."""
    H, W = require_int(H, "H", minimum=1), require_int(W, "W", minimum=1)
    P = require_int(patch, "patch", minimum=1)
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    return ((H // P) * (W // P)) ** 2
