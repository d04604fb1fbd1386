"""positional_encoding_2d (notebook 10): a 2-D sinusoidal encoding, the row's D/2 features then
the column's, one row per pixel token."""
from __future__ import annotations

import numpy as np

from .. import images as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example

CARD = Card(
    "positional_encoding_2d", "10_attention_on_images",
    summary="the row index encoded in the first D/2 features, the column index in the last D/2",
    contract=Contract(
        args=("H", "W", "D"), reference=_ref.positional_encoding_2d, invoke=invoke_numpy,
        shapes="H, W the map's size; D the width, a multiple of 4",
        returns="a float array (H*W, D), pixels row by row",
        raises="ValueError when D is not a multiple of 4"),
    mistakes=[
        Mistake(
            'the 2-D encoding uses one axis twice (the row index in both halves)',
            principle='The two halves encode different coordinates: the first the row, the second the column.',
            fix='the second half must encode the column index j: two pixels of the same row should differ there.',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                        return pe
                    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)     # pixel (i, j) -> row i
                    return np.concatenate([rows, rows], axis=1)
                '''),
        Mistake(
            'the 2-D encoding uses one axis twice (the column index in both halves)',
            principle='The two halves encode different coordinates: the first the row, the second the column.',
            fix='the first half must encode the row index i: two pixels of the same column should differ there.',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                        return pe
                    cols = np.tile(sinusoids(W, D // 2), (H, 1))          # pixel (i, j) -> column j
                    return np.concatenate([cols, cols], axis=1)
                '''),
        Mistake(
            'the halves swapped (the column first, then the row)',
            principle="The row's encoding comes first, the column's second.",
            fix='the first D/2 features encode the row i, the last D/2 the column j.',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                        return pe
                    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)     # (H*W, D/2), row i repeated W times
                    cols = np.tile(sinusoids(W, D // 2), (H, 1))          # (H*W, D/2), columns cycling
                    return np.concatenate([cols, rows], axis=1)
                '''),
        Mistake(
            'column-major positions (pixel (i, j) at row j*H + i)',
            principle='Row p of the encoding belongs to token p of image_to_tokens: pixels row by row.',
            fix='row p of the result is pixel (p // W, p % W), the order of image_to_tokens: lay the (H, W) grid out row by row.',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                        return pe
                    rows = np.tile(sinusoids(H, D // 2), (W, 1))          # column-major: i cycles fastest
                    cols = np.repeat(sinusoids(W, D // 2), H, axis=0)
                    return np.concatenate([rows, cols], axis=1)
                '''),
        Mistake(
            'a 1-D encoding of the flat index p = i*W + j instead of a 2-D one',
            principle='Encode the row and the column separately, each with half of the features.',
            fix='encode the row and the column separately, each with D/2 features, and put the two halves side by side.',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    angles = np.arange(H * W)[:, None] / 10000 ** (np.arange(0, D, 2) / D)
                    pe = np.zeros((H * W, D))
                    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                    return pe
                '''),
        Mistake(
            'each half built with the frequencies of width D (then cut to D/2)',
            principle='Each half is a complete sinusoidal encoding of width D/2, with that width in its frequencies.',
            fix='each half is a full sinusoidal encoding of width D/2: its frequencies are 1 / 10000^(2k / (D/2)).',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                        return pe
                    rows = np.repeat(sinusoids(H, D)[:, : D // 2], W, axis=0)
                    cols = np.tile(sinusoids(W, D)[:, : D // 2], (H, 1))
                    return np.concatenate([rows, cols], axis=1)
                '''),
        Mistake(
            'the row and column features interleaved instead of in two halves',
            principle="The row's features form one contiguous half and the column's the other.",
            fix='put the D/2 row features first and the D/2 column features after them.',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                        return pe
                    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)
                    cols = np.tile(sinusoids(W, D // 2), (H, 1))
                    pe = np.empty((H * W, D))
                    pe[:, 0::2], pe[:, 1::2] = rows, cols                 # row and column features alternate
                    return pe
                '''),
        Mistake(
            'sine and cosine swapped (cos on the even features)',
            principle='Even features hold the sine, odd features the cosine.',
            fix='even features 2k hold the sine, odd features 2k+1 the cosine.',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.cos(angles), np.sin(angles)
                        return pe
                    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)
                    cols = np.tile(sinusoids(W, D // 2), (H, 1))
                    return np.concatenate([rows, cols], axis=1)
                '''),
        Mistake(
            'the result left as a grid (H, W, D)',
            principle='One row per pixel token: the result has H*W rows of D features.',
            fix='one row per pixel token: reshape the grid to (H*W, D), row-major.',
            fails=('test_positional_encoding_2d',),
            code=r'''
                def positional_encoding_2d(H, W, D):
                    if D % 4:
                        raise ValueError(f"D: expected a multiple of 4, got {D}")
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                        return pe
                    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)
                    cols = np.tile(sinusoids(W, D // 2), (H, 1))
                    return np.concatenate([rows, cols], axis=1).reshape(H, W, D)
                '''),
    ],
    examples=[
        Example(r'''
                def positional_encoding_2d(H, W, D):
                    def sinusoids(L, d):
                        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
                        pe = np.zeros((L, d))
                        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
                        return pe
                    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)
                    cols = np.tile(sinusoids(W, D // 2), (H, 1))
                    return np.concatenate([rows, cols], axis=1)
                ''',
                ('test_positional_encoding_2d',), 'should raise ValueError'),
    ],
)


def cases(hidden: bool) -> list[Case]:
    sizes = ([(5, 3, 8), (2, 6, 12), (1, 4, 4), (3, 3, 16)] if hidden
             else [(3, 5, 8), (4, 2, 12), (2, 3, 4), (6, 7, 16)])
    cases = [Case(s, why="H, W and D differ" if len(set(s)) == 3 else "a square map") for s in sizes]
    cases.append(Case((3, 4, 9), why="D = 9 is not a multiple of 4", raises=ValueError))
    cases.append(Case((3, 4, 6), why="D = 6 is even but not a multiple of 4", raises=ValueError))
    return cases


def check_positional_encoding_2d(positional_encoding_2d, hidden: bool = False) -> None:
    """Check ``positional_encoding_2d(H, W, D)``: ``(H*W, D)``, the row half then the column half."""
    CARD.check(positional_encoding_2d, cases(hidden), hidden=hidden,
               passed="row half, column half, row-major pixels; D must be a multiple of 4")
