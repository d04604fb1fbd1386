"""image_to_tokens (notebook 10): a feature map (..., C, H, W) as H*W pixel tokens of C features,
row-major. Its solution cell also holds ``tokens_to_image`` (its own card): each mistake's code is
the whole cell, with a right version of the other function."""
from __future__ import annotations

import numpy as np

from .. import images as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example

CARD = Card(
    "image_to_tokens", "10_attention_on_images",
    summary="one token per pixel, numbered row by row, with the pixel's C channel values as features",
    contract=Contract(
        args=("X",), reference=_ref.image_to_tokens, invoke=invoke_numpy,
        shapes="X (C, H, W) or a batch (..., C, H, W)",
        returns="a float array (..., H*W, C): token i*W + j is pixel (i, j)"),
    mistakes=[
        Mistake(
            'channels and positions swapped: a reshape to (H*W, C) without moving the channel axis',
            principle='A reshape keeps the memory order, where the channels come first: the channel axis must move behind the positions, not be cut into pieces.',
            fix='`reshape` keeps the memory order, in which the channel axis comes first: bring the channels last (a transpose of the axes) before, or after, merging H and W.',
            fails=('test_image_to_tokens',),
            code=r'''
                def image_to_tokens(X):
                    C, H, W = X.shape[-3:]
                    return X.reshape(*X.shape[:-3], H * W, C)

                def tokens_to_image(T, H, W):
                    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], H, W)
                '''),
        Mistake(
            'column-major positions (token j*H + i instead of i*W + j)',
            principle='Pixels are numbered row by row: the column index changes fastest.',
            fix='the contract numbers pixels row by row: token p is pixel (p // W, p % W); merge the axes in the order (H, W), as a C-ordered reshape does, without swapping them first.',
            fails=('test_image_to_tokens',),
            code=r'''
                def image_to_tokens(X):
                    C, H, W = X.shape[-3:]
                    return np.swapaxes(X, -1, -2).reshape(*X.shape[:-3], C, H * W).swapaxes(-1, -2)

                def tokens_to_image(T, H, W):
                    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], H, W)
                '''),
        Mistake(
            'positions merged but the channel axis not moved: shape (..., C, H*W)',
            principle='A token is one pixel with its C values: positions first, channels last.',
            fix='a token is one pixel with its C channel values: the result is (..., H*W, C), so the two last axes must change places.',
            fails=('test_image_to_tokens',),
            code=r'''
                def image_to_tokens(X):
                    C, H, W = X.shape[-3:]
                    return X.reshape(*X.shape[:-3], C, H * W)

                def tokens_to_image(T, H, W):
                    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], H, W)
                '''),
        Mistake(
            'axes counted from the front (e.g. `X.transpose(1, 2, 0)`): right for one map, wrong for a batch',
            principle="Leading batch axes shift every axis counted from the front: count the image's axes from the end.",
            fix="a batch adds axes in front; name the image's axes from the end (-3, -2, -1), e.g. `np.moveaxis(X, -3, -1)` or `np.swapaxes(..., -1, -2)`.",
            fails=('test_image_to_tokens',),
            code=r'''
                def image_to_tokens(X):
                    C, H, W = X.shape
                    return X.transpose(1, 2, 0).reshape(H * W, C)

                def tokens_to_image(T, H, W):
                    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], H, W)
                '''),
        Mistake(
            'everything flattened into one vector per image',
            principle='Keep one token per pixel: H*W tokens of C features each.',
            fix='keep one token per pixel: H*W tokens of C features each.',
            fails=('test_image_to_tokens',),
            code=r'''
                def image_to_tokens(X):
                    return X.reshape(*X.shape[:-3], -1)

                def tokens_to_image(T, H, W):
                    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], H, W)
                '''),
    ],
    examples=[
        Example(r'''
                def image_to_tokens(X):
                    C, H, W = X.shape[-3:]
                    return X.reshape(*X.shape[:-3], H * W, C).T

                def tokens_to_image(T, H, W):
                    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], H, W)
                ''',
                ('test_image_to_tokens',), 'the right values, but in a different order', label='reshape then .T'),
    ],
)


def cases(hidden: bool, batched: bool) -> list[Case]:
    rng = case_rng(103 + batched, hidden)
    if batched:
        shapes = [(3, 2, 4, 5), (2, 1, 3, 2, 6)] if hidden else [(2, 3, 4, 5), (2, 3, 2, 5, 3)]
        why = "a batch of feature maps (..., C, H, W)"
    else:
        shapes = [(2, 5, 3), (4, 2, 6), (3, 1, 4)] if hidden else [(3, 4, 5), (2, 5, 3), (5, 2, 2)]
        why = "one feature map (C, H, W); C, H and W differ"
    return [Case((rng.normal(size=s),), why=why) for s in shapes]


def check_image_to_tokens(image_to_tokens, hidden: bool = False) -> None:
    """Check ``image_to_tokens(X)``: ``(C, H, W) -> (H*W, C)``, row-major, on single maps and batches."""
    CARD.check(image_to_tokens, cases(hidden, False) + cases(hidden, True), hidden=hidden,
               passed="row-major pixel tokens of C features, with and without a batch")
