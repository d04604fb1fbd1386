"""patchify (notebook 10): an image cut into P x P patches, one token per patch, row-major."""
from __future__ import annotations

import numpy as np

from .. import images as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

CARD = Card(
    "patchify", "10_attention_on_images",
    summary="P x P squares of the image, numbered row by row, each flattened channel first",
    contract=Contract(
        args=("X", "patch"), reference=_ref.patchify, invoke=invoke_numpy,
        shapes="X (..., C, H, W); patch P dividing H and W",
        returns="a float array (..., (H/P)*(W/P), C*P*P)",
        raises="ValueError when P does not divide H and W"),
    mistakes=[
        Mistake(
            'patches cut by a plain reshape (each token mixes channels and rows of the image)',
            principle='A patch is a square of the image: split rows and columns into (grid, inside) first, then bring the grid axes to the front.',
            fix='split H into (H/P, P) and W into (W/P, P) first, then bring the two grid axes (H/P, W/P) in front of (C, P, P) before merging: a transpose is needed.',
            fails=('test_patchify',),
            code=r'''
                def patchify(X, patch):
                    C, H, W = X.shape[-3:]
                    P = patch
                    if H % P or W % P:
                        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
                    return X.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
                '''),
        Mistake(
            'patches cut across the wrong axes: the patch grid numbered column by column',
            principle='Patches are numbered row by row over the grid.',
            fix='number the patches row-major over the grid: grid row first, then grid column.',
            fails=('test_patchify',),
            code=r'''
                def patchify(X, patch):
                    C, H, W = X.shape[-3:]
                    P = patch
                    if H % P or W % P:
                        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
                    grid = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
                    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-3, -4, -2, -5, -1))   # (..., W/P, H/P, C, P, P)
                    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
                '''),
        Mistake(
            'values inside a patch ordered (row, column, channel) instead of channel first',
            principle='Inside a token the channel is the slowest index, then the row, then the column.',
            fix='the contract orders a patch token as (C, P, P), channel first, as `torch.nn.functional.unfold` and a Conv2d weight do.',
            fails=('test_patchify',),
            code=r'''
                def patchify(X, patch):
                    C, H, W = X.shape[-3:]
                    P = patch
                    if H % P or W % P:
                        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
                    grid = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
                    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-1, -5, -3, -4, -2))   # (..., H/P, W/P, P, P, C)
                    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
                '''),
        Mistake(
            'rows and columns swapped inside a patch (each patch transposed)',
            principle='Inside a patch, values go row by row.',
            fix='inside a patch, values go row by row: (C, row, column).',
            fails=('test_patchify',),
            code=r'''
                def patchify(X, patch):
                    C, H, W = X.shape[-3:]
                    P = patch
                    if H % P or W % P:
                        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
                    grid = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
                    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-3, -5, -1, -4, -2))   # (..., H/P, W/P, C, P_col, P_row)
                    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
                '''),
        Mistake(
            'patches cut across the wrong axes: the row and column axes of the image swapped',
            principle="The image's rows come before its columns, for the grid and inside each patch.",
            fix="the image's rows come first: split H into (H/P, P) and W into (W/P, P) without swapping H and W.",
            fails=('test_patchify',),
            code=r'''
                def patchify(X, patch):
                    C, H, W = X.shape[-3:]
                    P = patch
                    if H % P or W % P:
                        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
                    grid = np.swapaxes(X, -1, -2).reshape(*X.shape[:-3], C, W // P, P, H // P, P)  # W treated as rows
                    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-3, -5, -2, -4, -1))
                    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
                '''),
        Mistake(
            'strips of P whole rows instead of P x P squares',
            principle='A patch is P rows by P columns: the columns are cut as well.',
            fix='cut W into (W/P, P) as well: a token is one P x P square of the image.',
            fails=('test_patchify',),
            code=r'''
                def patchify(X, patch):
                    C, H, W = X.shape[-3:]
                    P = patch
                    if H % P or W % P:
                        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
                    strips = X.reshape(*X.shape[:-3], C, H // P, P * W)        # P whole rows at a time
                    return np.moveaxis(strips, -3, -2).reshape(*X.shape[:-3], H // P, C * P * W)
                '''),
        Mistake(
            'no error when P does not divide H and W (the edge silently cropped)',
            principle='Reject a patch size that does not tile the image, naming the sizes.',
            fix="raise a ValueError naming the patch size and the image's H and W.",
            fails=('test_patchify',), label='cropped',
            code=r'''
                def patchify(X, patch):
                    C, H, W = X.shape[-3:]
                    P = patch
                    grid = X[..., : H - H % P, : W - W % P]
                    H, W = grid.shape[-2:]
                    grid = grid.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
                    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-3, -5, -2, -4, -1))
                    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(107, hidden)
    specs = ([((), 2, 6, 4, 2), ((2,), 3, 6, 9, 3), ((2,), 1, 4, 6, 2), ((3,), 2, 3, 5, 1)] if hidden
             else [((), 3, 4, 6, 2), ((2,), 2, 6, 9, 3), ((2, 1), 3, 4, 2, 2), ((2,), 3, 2, 3, 1)])
    cases = [Case((rng.normal(size=(*b, C, H, W)), P),
                  why=f"{C} channels, a {H} x {W} map, {P} x {P} patches" + (", a batch" if b else ""))
             for b, C, H, W, P in specs]
    cases.append(Case((rng.normal(size=(2, 5, 6)), 2), why="2 does not divide H = 5", raises=ValueError))
    cases.append(Case((rng.normal(size=(2, 4, 5)), 2), why="2 divides H = 4 but not W = 5", raises=ValueError))
    return cases


def check_patchify(patchify, hidden: bool = False) -> None:
    """Check ``patchify(X, patch)``: ``(..., C, H, W) -> (..., (H/P)*(W/P), C*P*P)``."""
    CARD.check(patchify, cases(hidden), hidden=hidden,
               passed="P x P patches, row-major, channel first inside; a ValueError when P does not divide")
