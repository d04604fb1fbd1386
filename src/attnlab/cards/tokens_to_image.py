"""tokens_to_image (notebook 10): the inverse of ``image_to_tokens``, (..., H*W, C) tokens back
into a feature map (..., C, H, W). It shares its solution cell with ``image_to_tokens``."""
from __future__ import annotations

import numpy as np

from .. import images as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

CARD = Card(
    "tokens_to_image", "10_attention_on_images", solution="image_to_tokens",
    summary="pixel tokens laid out as a feature map again, channels before the positions",
    contract=Contract(
        args=("T", "H", "W"), reference=_ref.tokens_to_image, invoke=invoke_numpy,
        shapes="T (..., H*W, C), H and W the map's size",
        returns="a float array (..., C, H, W)"),
    mistakes=[
        Mistake(
            'channels and positions swapped: a reshape to (C, H, W) without moving the channel axis first',
            principle='The tokens hold their channels last: move the channel axis in front before splitting the positions.',
            fix='the tokens hold their channels last; bring the channel axis to the front (swap the two last axes) before splitting H*W into (H, W).',
            fails=('test_tokens_to_image',), label='tokens_to_image plain reshape',
            code=r'''
                def image_to_tokens(X):
                    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)

                def tokens_to_image(T, H, W):
                    return T.reshape(*T.shape[:-2], T.shape[-1], H, W)
                '''),
        Mistake(
            'column-major positions (token p read as pixel (p % H, p // H))',
            principle='Token p is pixel (p // W, p % W): the position axis splits into rows first, then columns.',
            fix='token p is pixel (p // W, p % W): split the position axis into (H, W) in that order.',
            fails=('test_tokens_to_image',), label='tokens_to_image column-major',
            code=r'''
                def image_to_tokens(X):
                    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)

                def tokens_to_image(T, H, W):
                    C = T.shape[-1]
                    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, W, H).swapaxes(-1, -2)
                '''),
        Mistake(
            'H and W swapped (shape (..., C, W, H))',
            principle='The positions split into H rows of W columns, in that order.',
            fix='split the H*W positions into (H, W): rows first, then columns.',
            fails=('test_tokens_to_image',),
            code=r'''
                def image_to_tokens(X):
                    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)

                def tokens_to_image(T, H, W):
                    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], W, H)
                '''),
        Mistake(
            'channels left last: shape (..., H, W, C)',
            principle='A feature map has its channels before the two spatial axes.',
            fix='the result is a feature map (..., C, H, W): channels before the positions.',
            fails=('test_tokens_to_image',),
            code=r'''
                def image_to_tokens(X):
                    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)

                def tokens_to_image(T, H, W):
                    return T.reshape(*T.shape[:-2], H, W, T.shape[-1])
                '''),
        Mistake(
            'axes counted from the front (e.g. `T.T` or `transpose(1, 0)`): right for one map, wrong for a batch',
            principle='Swap only the last two axes, so that leading batch axes stay where they are.',
            fix='name the axes from the end: `np.swapaxes(T, -1, -2)`.',
            fails=('test_tokens_to_image',), label='tokens_to_image T.T',
            code=r'''
                def image_to_tokens(X):
                    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)

                def tokens_to_image(T, H, W):
                    return T.T.reshape(T.shape[-1], H, W)
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(104, hidden)
    specs = ([((), 3, 5, 2), ((2,), 4, 2, 3), ((2, 3), 2, 3, 5)] if hidden
             else [((), 4, 5, 3), ((), 2, 3, 6), ((3,), 5, 2, 4), ((2, 2), 3, 4, 2)])
    cases = []
    for batch, H, W, C in specs:
        why = f"tokens of a {H} x {W} map with {C} channels" + (", a batch" if batch else "")
        cases.append(Case((rng.normal(size=(*batch, H * W, C)), H, W), why=why))
    return cases


def check_tokens_to_image(tokens_to_image, hidden: bool = False) -> None:
    """Check ``tokens_to_image(T, H, W)``: the inverse of ``image_to_tokens``."""
    CARD.check(tokens_to_image, cases(hidden), hidden=hidden,
               passed="the inverse of image_to_tokens, with and without a batch")
