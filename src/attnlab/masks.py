"""Masks and the masked softmax (numpy reference).

Convention (as ``torch.nn.functional.scaled_dot_product_attention``): a boolean mask with
``True`` where a query **may attend** to a key. ``torch.nn.MultiheadAttention`` uses the
opposite convention for ``key_padding_mask`` and boolean ``attn_mask`` (``True`` = blocked).
"""
from __future__ import annotations

import numpy as np

from ._validate import fmt, require_broadcastable, require_int, require_ndim


def causal_mask(Lq: int, Lk: int) -> np.ndarray:
    """``(Lq, Lk)`` boolean, ``True`` where ``j <= i``: query ``i`` sees keys ``0..i``.

    Top-left aligned, as ``is_causal=True`` in ``F.scaled_dot_product_attention``.
    """
    Lq, Lk = require_int(Lq, "Lq"), require_int(Lk, "Lk")
    return np.arange(Lk)[None, :] <= np.arange(Lq)[:, None]  # (1, Lk) <= (Lq, 1) -> (Lq, Lk)


def padding_mask(lengths: np.ndarray, Lk: int) -> np.ndarray:
    """``(B, Lk)`` boolean, ``True`` where ``j < lengths[b]``: the real (unpadded) keys.

    To use it as an attention mask for ``(B, Lq, Lk)`` scores, add a query axis:
    ``padding_mask(lengths, Lk)[:, None, :]``.
    """
    Lk = require_int(Lk, "Lk")
    lengths = np.asarray(lengths)
    require_ndim(lengths, "lengths", ("B",), batch=False)
    if lengths.dtype.kind not in "iu":
        raise ValueError(f"lengths: expected integers, got dtype {lengths.dtype}")
    if np.any(lengths < 0) or np.any(lengths > Lk):
        raise ValueError(f"lengths: expected values in [0, Lk={Lk}], got {lengths.tolist()}")
    return np.arange(Lk)[None, :] < lengths[:, None]  # (1, Lk) < (B, 1) -> (B, Lk)


def check_mask(mask, target_shape, name: str = "mask") -> None:
    """Check that ``mask`` is boolean and broadcasts to the score shape ``target_shape``."""
    if getattr(mask, "dtype", None) is None or str(mask.dtype) not in ("bool", "torch.bool"):
        raise ValueError(
            f"{name}: expected a boolean array (True = may attend), got dtype "
            f"{getattr(mask, 'dtype', type(mask).__name__)}"
        )
    require_broadcastable(mask.shape, target_shape, name, "the scores (..., Lq, Lk)")


def masked_softmax(scores: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Softmax over the last axis of ``scores`` where ``mask`` is ``True``.

    Masked entries get weight exactly 0; a row with no ``True`` entry gets all-zero weights
    (never NaN), so it contributes a zero output.

    Args:
        scores: ``(..., Lq, Lk)``.
        mask: boolean, broadcastable to ``scores``; ``None`` means no mask.

    Returns:
        Weights of the shape of ``scores``.
    """
    scores = np.asarray(scores, dtype=float)
    require_ndim(scores, "scores", ("Lq", "Lk"))
    if mask is None:  # the same arithmetic as below with an all-True mask, without the mask
        return _softmax_rows(scores, np.empty(scores.shape))
    mask = np.asarray(mask)
    check_mask(mask, scores.shape)
    mask = np.broadcast_to(mask, scores.shape)
    blocked = np.where(mask, scores, -np.inf)
    row_max = blocked.max(axis=-1, keepdims=True)  # (..., Lq, 1); -inf on a fully masked row
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    e = np.where(mask, np.exp(blocked - row_max), 0.0)  # masked -> exactly 0
    total = e.sum(axis=-1, keepdims=True)  # (..., Lq, 1)
    return e * (1.0 / np.where(total > 0, total, 1.0))  # a fully masked row stays all zero


_BLOCK_BYTES = 1 << 20  # rows processed at a time by `_softmax_rows`: 1 MiB stays in cache


def _softmax_rows(src: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out = softmax(src)`` over the last axis, unmasked; ``out`` may be ``src``.

    Exactly the arithmetic of :func:`masked_softmax` with no mask (a non-finite row maximum is
    replaced by 0, an all-zero row stays zero), done in place a block of rows at a time so
    that each of the five passes (divide, max, subtract, exp, sum and normalise) reads data
    that is still in cache instead of allocating a new ``(..., Lq, Lk)`` temporary per step.
    ``src`` and ``out``: float64 arrays of the same shape, ``out`` C-contiguous.
    """
    Lk = src.shape[-1]
    if Lk == 0:
        src.max(axis=-1)  # raises numpy's ValueError for an empty reduction, as masked_softmax does
    rows_in = src.reshape(-1, Lk)  # (R, Lk); a copy only if src is not contiguous (read-only use)
    rows = out.reshape(-1, Lk)  # (R, Lk), a view: out is C-contiguous
    step = max(1, _BLOCK_BYTES // (8 * max(Lk, 1)))
    for r0 in range(0, rows.shape[0], step):
        block = rows[r0:r0 + step]  # (r, Lk)
        src_block = rows_in[r0:r0 + step]
        row_max = src_block.max(axis=-1, keepdims=True)  # (r, 1)
        row_max = np.where(np.isfinite(row_max), row_max, 0.0)
        np.subtract(src_block, row_max, out=block)
        np.exp(block, out=block)
        total = block.sum(axis=-1, keepdims=True)  # (r, 1)
        np.multiply(block, 1.0 / np.where(total > 0, total, 1.0), out=block)  # one divide per row
    return out


__all__ = ["causal_mask", "padding_mask", "masked_softmax", "check_mask", "fmt"]
