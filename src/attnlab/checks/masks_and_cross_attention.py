"""Checks of notebook 04, masks_and_cross_attention: what its cards (:mod:`attnlab.cards`) share.

Exercises: ``causal_mask``, ``padding_mask``, ``masked_softmax``, ``cross_attention``, and two
predict-then-run questions. Each card holds its cases, checks and mistakes; this module holds
what the cards share: how a check calls a mask function (:func:`invoke_mask`), the random masks
of the cases, and the range case (scores of +-1e4 whose masked keys hold each row's largest
score) that ``masked_softmax`` and ``cross_attention`` both meet.

The inputs separate the known mistakes: ``Lq != Lk`` both ways (a transposed or bottom-right
aligned causal mask), ``B != Lk`` (a padding mask of shape ``(Lk, B)``), masks that broadcast
and rows with no key at all, ``Dq != Dkv`` and ``Dk != Dv``, batched and unbatched inputs.
"""
from __future__ import annotations

import numpy as np

from ._contract import numpy_exercise
from ._core import Case


@numpy_exercise
def invoke_mask(fn, *args, **kwargs):
    """Call a mask function (``run_check(invoke=...)``); that the mask is a bool numpy array is
    the type rule's to judge (``_contract.type_mistake``), as for every numpy exercise."""
    return fn(*args, **kwargs)


def random_mask(rng, shape, keep_one=True):
    """A random boolean mask of ``shape``; with ``keep_one``, every row allows at least one key."""
    mask = rng.random(shape) < 0.6
    if keep_one:
        idx = rng.integers(0, shape[-1], size=shape[:-1])
        np.put_along_axis(mask, idx[..., None], True, axis=-1)
    return mask


def range_case(rng, shape) -> Case:
    """Scores of +-1e4 whose masked keys hold the row's largest score (3e4): the range the
    contract allows, where an unshifted exp overflows and a shift by a masked key underflows."""
    sign = np.resize([1.0, -1.0], int(np.prod(shape[:-1]))).reshape(*shape[:-1], 1)  # rows of +1e4 and of -1e4
    mask = random_mask(rng, shape)
    mask[..., 0] = False  # every row has a masked key ...
    mask[..., 1] = True   # ... and an allowed one
    scores = np.where(mask, sign * 1e4 + rng.normal(size=shape) * 2, 3e4)
    return Case((scores, mask), why="scores of +-1e4, masked keys holding each row's largest score")
