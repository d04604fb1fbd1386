"""Plots shared by the notebooks: attention heatmaps with token labels."""
from __future__ import annotations

from typing import Sequence

import numpy as np


def _numpy(x):
    if type(x).__module__.startswith("torch"):
        return x.detach().cpu().numpy()
    return np.asarray(x)


def plot_attention(
    weights,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    mask=None,
    ax=None,
    title: str | None = None,
    annotate: bool | None = None,
    cmap: str = "viridis",
    colorbar: bool = True,
    vmax: float | None = None,
    xlabel: str = "keys (attended to)",
    ylabel: str = "queries (attending)",
):
    """Draw an attention-weight matrix ``(Lq, Lk)``: queries down the rows, keys across.

    Args:
        weights: ``(Lq, Lk)`` array or tensor (rows are queries, so each row sums to one).
        query_labels: ``Lq`` labels for the rows (e.g. the target words).
        key_labels: ``Lk`` labels for the columns (e.g. the source words).
        mask: optional boolean ``(Lq, Lk)`` (broadcastable), ``True`` = may attend; masked cells
            are drawn hatched grey, not as a colour of the scale.
        ax: a matplotlib axes to draw into (a new figure if ``None``).
        title: the axes title.
        annotate: write each weight in its cell (default: when the matrix is at most 12 x 12).
        colorbar: add a colour bar.
        vmax: the weight drawn in the brightest colour (the scale runs from 0). Default: the
            largest weight of this matrix, so two panels drawn with the default have different
            scales; pass the same ``vmax`` (e.g. 1) to panels that should share one.
        xlabel, ylabel: the axis labels (e.g. "source words" for a gold alignment, which is
            not attention).

    Returns:
        The matplotlib axes.
    """
    import matplotlib.pyplot as plt

    W = _numpy(weights).astype(float)
    if W.ndim != 2:
        raise ValueError(f"weights: expected shape (Lq, Lk), got {W.shape}")
    Lq, Lk = W.shape
    for name, labels, n in (("query_labels", query_labels, Lq), ("key_labels", key_labels, Lk)):
        if labels is not None and len(labels) != n:
            raise ValueError(f"{name}: expected {n} labels, got {len(labels)}")
    if ax is None:
        _, ax = plt.subplots(figsize=(0.5 * Lk + 2.2, 0.45 * Lq + 1.4))
    shown = np.ma.masked_array(W)
    if mask is not None:
        m = np.broadcast_to(_numpy(mask).astype(bool), W.shape)
        shown = np.ma.masked_array(W, mask=~m)
        ax.imshow(np.where(~m, 1.0, np.nan), cmap="Greys", vmin=0, vmax=4, aspect="auto")
        for i, j in zip(*np.nonzero(~m)):
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                       edgecolor="0.6", linewidth=0))
    top = float(np.nanmax(W)) if vmax is None else float(vmax)
    im = ax.imshow(shown, cmap=cmap, vmin=0.0, vmax=max(1e-12, top), aspect="auto")
    ax.set_xticks(range(Lk))
    ax.set_yticks(range(Lq))
    ax.set_xticklabels(key_labels if key_labels is not None else range(Lk),
                       rotation=45 if key_labels is not None else 0, ha="right" if key_labels is not None else "center")
    ax.set_yticklabels(query_labels if query_labels is not None else range(Lq))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if annotate is None:
        annotate = Lq <= 12 and Lk <= 12
    if annotate:
        for i in range(Lq):
            for j in range(Lk):
                if mask is None or m[i, j]:
                    ax.text(j, i, f"{W[i, j]:.2f}", ha="center", va="center", fontsize=8,
                            color="black" if W[i, j] > 0.6 * top else "white")
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    return ax
