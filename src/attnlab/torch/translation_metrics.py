"""Torch twin of :func:`attnlab.translation_metrics.alignment_accuracy` (same name, signature,
semantics and errors); BLEU works on token lists and has no tensor version."""
from __future__ import annotations

import torch

from .._validate import fmt, require_ndim


def alignment_accuracy(weights: torch.Tensor, gold: torch.Tensor) -> float:
    """The share of aligned target tokens whose attention peak is their gold source token.

    Args:
        weights: (..., Lt, Ls) attention weights, one row per target token.
        gold: (..., Lt) int, the gold source index of each target token; ``-1`` = aligned to
            nothing.

    Returns:
        ``#{t : gold[t] >= 0 and argmax_j weights[t, j] == gold[t]} / #{t : gold[t] >= 0}``,
        counted over the whole batch; ``nan`` if no token is aligned. Ties go to the first
        maximum.
    """
    weights = torch.as_tensor(weights)
    gold = torch.as_tensor(gold)
    require_ndim(weights, "weights", ("Lt", "Ls"))
    if tuple(gold.shape) != tuple(weights.shape[:-1]):
        raise ValueError(f"gold: expected shape (..., Lt) = {fmt(weights.shape[:-1])}, got {fmt(gold.shape)}")
    if gold.numel() and (gold.is_floating_point() or gold.dtype == torch.bool or int(gold.min()) < -1
                         or int(gold.max()) >= weights.shape[-1]):
        raise ValueError(f"gold: expected integers in [-1, Ls-1 = {weights.shape[-1] - 1}], got "
                         f"dtype {gold.dtype}, values in [{gold.min().item()}, {gold.max().item()}]")
    aligned = gold >= 0  # (..., Lt)
    if not bool(aligned.any()):
        return float("nan")
    peak = weights.argmax(dim=-1)  # (..., Lt), the first maximum as np.argmax
    return float(((peak == gold) & aligned).sum() / aligned.sum())
