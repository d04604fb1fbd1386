"""Sinusoidal positional encodings (numpy reference), notebook 09.

Self-attention is permutation-equivariant (notebook 03): shuffle the tokens and the outputs are
shuffled the same way, so a transformer cannot tell word order unless the tokens carry their
positions. Vaswani et al. (2017) add to token ``p`` a vector of sines and cosines whose
frequencies fall geometrically from one cycle per ``2π`` positions to one per ``2π · 10000``.
"""
from __future__ import annotations

import numpy as np

from ._validate import require_int

BASE = 10000.0


def sinusoidal_positional_encoding(L: int, D: int) -> np.ndarray:
    """The ``(L, D)`` sinusoidal positional encodings of positions ``0 .. L-1``.

    Column pair ``(2i, 2i+1)`` is a sine and a cosine of the same angle, whose frequency is
    ``1 / 10000^(2i/D)``: ``PE[p, 2i] = sin(p / 10000^(2i/D))`` and
    ``PE[p, 2i+1] = cos(p / 10000^(2i/D))`` (Vaswani et al., 2017, section 3.5). For an odd
    ``D`` the last column is a sine without its cosine.

    Args:
        L: the number of positions (an integer >= 0).
        D: the model width (an integer >= 1).

    Returns:
        ``(L, D)`` float64. Row ``p + k`` is a fixed rotation of row ``p`` in every column pair,
        so ``PE[p] · PE[q]`` depends only on ``p - q``.
    """
    L, D = require_int(L, "L"), require_int(D, "D", minimum=1)
    positions = np.arange(L, dtype=np.float64)[:, None]  # (L, 1)
    rates = BASE ** (-np.arange(0, D, 2, dtype=np.float64) / D)  # (ceil(D/2),): 10000^(-2i/D)
    angles = positions * rates[None, :]  # (L, 1) x (1, ceil(D/2)) -> (L, ceil(D/2))
    PE = np.empty((L, D), dtype=np.float64)
    PE[:, 0::2] = np.sin(angles)  # even columns
    PE[:, 1::2] = np.cos(angles[:, : D // 2])  # odd columns (one fewer when D is odd)
    return PE


__all__ = ["sinusoidal_positional_encoding"]
