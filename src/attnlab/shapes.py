"""A generated image task whose answer depends on two far-apart places (notebook 10).

``corner_shapes`` draws one small coloured shape in each corner of an otherwise black image: two
squares in opposite corners and two distractors (a plus or a cross) in the other two. The label
says whether the two **squares** have the same colour. The two shapes that decide are as far
apart as the image allows, and the distractors' colours match each other as often as not, so
the colours present (what an average of local features sees) say little about the label: a
network must bring together what it sees in two distant places. Every shape keeps a margin of
at least one pixel to the border and to the image's centre lines, and its place inside its
corner is random.
"""
from __future__ import annotations

import numpy as np

from ._validate import require_int

#: RGB colours of the shapes: red, green, blue, yellow, magenta, cyan.
PALETTE = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1]], dtype=np.float32)

#: 3 x 3 stencils: a filled square, a plus, a cross.
STENCILS = np.array([
    [[1, 1, 1], [1, 1, 1], [1, 1, 1]],
    [[0, 1, 0], [1, 1, 1], [0, 1, 0]],
    [[1, 0, 1], [0, 1, 0], [1, 0, 1]],
], dtype=np.float32)

CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")


def corner_shapes(
    n: int, size: int = 16, *, n_colours: int = 4, seed: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` images with one shape in each corner, labelled "the two squares have the same colour".

    The two **squares** sit in opposite corners (top-left and bottom-right, or top-right and
    bottom-left, at random); the other two corners hold distractors (a plus or a cross) whose
    colours match each other as often as not.

    Args:
        n: how many images.
        size: the side of the square images (at least 12, even).
        n_colours: how many colours of ``PALETTE`` the shapes use (2 to 6).
        seed: the seed of the generator (the same seed gives the same images).

    Returns:
        ``(images (n, 3, size, size) float32 in [0, 1], labels (n,) int64, boxes (n, 4, 2) int64)``:
        ``labels[k] = 1`` when image ``k``'s two squares have the same colour (half of the
        images, in random order); ``boxes[k]`` holds the ``(row, column)`` of the top-left pixel
        of each 3 x 3 shape: the two squares first, then the two distractors.
    """
    n = require_int(n, "n", minimum=1)
    size = require_int(size, "size", minimum=12)
    if size % 2:
        raise ValueError(f"size: expected an even number, got {size}")
    n_colours = require_int(n_colours, "n_colours", minimum=2)
    if n_colours > len(PALETTE):
        raise ValueError(f"n_colours: expected at most {len(PALETTE)}, got {n_colours}")
    rng = np.random.default_rng(seed)
    labels = rng.permutation(np.arange(n) % 2).astype(np.int64)  # exactly balanced
    distract = rng.integers(0, 2, size=n)  # do the distractors match each other?

    def pair(match):
        first = rng.integers(0, n_colours, size=n)
        other = (first + rng.integers(1, n_colours, size=n)) % n_colours  # any other colour
        return first, np.where(match == 1, first, other)

    colours = np.stack([*pair(labels), *pair(distract)], axis=1)  # (n, 4): squares, then distractors
    kinds = np.concatenate([np.zeros((n, 2), int), rng.integers(1, len(STENCILS), size=(n, 2))], axis=1)
    diagonal = rng.integers(0, 2, size=n)  # 0: squares top-left and bottom-right; 1: the other diagonal
    corner_of = np.where(diagonal[:, None] == 0, [[0, 3, 1, 2]], [[1, 2, 0, 3]])  # (n, 4) into CORNERS
    half = size // 2
    inset = rng.integers(1, half - 3, size=(n, 4, 2))  # distance of each shape from its corner
    bottom = np.isin(corner_of, (2, 3))  # (n, 4)
    right = np.isin(corner_of, (1, 3))
    rows = np.where(bottom, size - 3 - inset[..., 0], inset[..., 0])
    cols = np.where(right, size - 3 - inset[..., 1], inset[..., 1])
    boxes = np.stack([rows, cols], axis=-1).astype(np.int64)  # (n, 4, 2)
    images = np.zeros((n, 3, size, size), dtype=np.float32)
    for k in range(n):
        for c in range(4):
            r, q = boxes[k, c]
            stamp = STENCILS[kinds[k, c]][None] * PALETTE[colours[k, c]][:, None, None]  # (3, 3, 3)
            images[k, :, r:r + 3, q:q + 3] = stamp
    return images, labels, boxes


def shape_mask(boxes: np.ndarray, size: int) -> np.ndarray:
    """Boolean masks ``(..., size, size)`` of the 3 x 3 boxes ``(..., 2)`` (row, column of the
    top-left pixel): where attention "lands on the shape"."""
    boxes = np.asarray(boxes)
    rows = np.arange(size)
    in_r = (rows >= boxes[..., 0, None]) & (rows < boxes[..., 0, None] + 3)  # (..., size)
    in_c = (rows >= boxes[..., 1, None]) & (rows < boxes[..., 1, None] + 3)  # (..., size)
    return in_r[..., :, None] & in_c[..., None, :]  # (..., size, size)
