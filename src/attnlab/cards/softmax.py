"""softmax (notebook 01): exponentials normalised along ``axis``, stable for any logits."""
from __future__ import annotations

import numpy as np

from .. import averages as _ref
from ..checks._contract import TORCH_FOR_ARRAY, invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example

CARD = Card(
    "softmax", "01_weighted_averages",
    summary="exp(x) / Σ exp(x) along `axis`, each slice summing to one",
    contract=Contract(
        args=("x",), reference=_ref.softmax, invoke=invoke_numpy,
        shapes="x of any shape; `axis` (default -1) names the axis that is normalised",
        returns="a float array of the shape of x, positive, summing to one along `axis`"),
    mistakes=[
        Mistake(
            "a softmax over axis 0 instead of the `axis` argument",
            principle="Both the max and the sum must run along the axis the caller asks for, keeping "
                      "that axis for broadcasting.",
            fix="pass `axis=axis, keepdims=True` to both the max and the sum.",
            fails=("test_softmax",), code='''
                def softmax(x, axis=-1):
                    e = np.exp(x - np.max(x, axis=0, keepdims=True))
                    return e / np.sum(e, axis=0, keepdims=True)
                '''),
        Mistake(
            "ignoring the `axis` argument (always the last axis)",
            principle="Normalise along the `axis` argument, not always the last axis.",
            fix="use the `axis` argument in the max and the sum instead of -1.",
            fails=("test_softmax",), code='''
                def softmax(x, axis=-1):
                    e = np.exp(x - x.max(axis=-1, keepdims=True))
                    return e / e.sum(axis=-1, keepdims=True)
                '''),
        Mistake(
            "no max subtraction: exp overflows for large logits (inf / inf = NaN)",
            principle="Shift each slice by its own maximum before exponentiating; the shift cancels in "
                      "the ratio.",
            fix="subtract `x.max(axis=axis, keepdims=True)` before `np.exp`; it cancels in the ratio.",
            fails=("test_softmax_stable",), code='''
                def softmax(x, axis=-1):
                    e = np.exp(x)
                    return e / e.sum(axis=axis, keepdims=True)
                '''),
        Mistake(
            "subtracting the maximum of the whole array instead of each row's maximum",
            principle="The shift must be per slice along `axis` (each row's own maximum), not one "
                      "number for the whole array.",
            fix="use `x.max(axis=axis, keepdims=True)`: with one global max, a row far below it "
                "underflows to 0 / 0.",
            fails=("test_softmax_stable",), code='''
                def softmax(x, axis=-1):
                    e = np.exp(x - np.max(x))
                    return e / e.sum(axis=axis, keepdims=True)
                '''),
        Mistake(
            "normalising by the sum of the whole array",
            principle="Each slice along `axis` must sum to one on its own: sum along that axis only.",
            fix="sum along `axis` with `keepdims=True`, so that each row sums to one.",
            fails=("test_softmax",), code='''
                def softmax(x, axis=-1):
                    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
                    return e / np.sum(e)
                '''),
        Mistake(
            "a sum without `keepdims=True` (it broadcasts against the wrong axis)",
            principle="The sum must keep the reduced axis (size 1) so that it lines up with the slice "
                      "it divides.",
            fix="write `e.sum(axis=axis, keepdims=True)` so the sum lines up with the rows it divides.",
            fails=("test_softmax",), code='''
                def softmax(x, axis=-1):
                    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
                    return e / np.sum(e, axis=axis)
                '''),
        Mistake(
            "no exponential (dividing the scores by their sum)",
            principle="Scores become positive weights through the exponential before normalising.",
            fix="exponentiate first: weights must be positive even for negative scores.",
            fails=("test_softmax", "test_softmax_stable"), code='''
                def softmax(x, axis=-1):
                    return x / np.sum(x, axis=axis, keepdims=True)
                '''),
        Mistake(
            "no normalisation (the exponentials do not sum to one)",
            principle="After exponentiating, divide by the sum along `axis` so that each slice sums to one.",
            fix="divide the exponentials by their sum along `axis`.",
            fails=("test_softmax", "test_softmax_stable"), code='''
                def softmax(x, axis=-1):
                    return np.exp(x - x.max(axis=axis, keepdims=True))
                '''),
    ],
    examples=[
        Example('''
            import torch

            def softmax(x, axis=-1):
                t = torch.as_tensor(x)
                e = torch.exp(t - t.amax(dim=axis, keepdim=True))  # its own code, in torch
                return e / e.sum(dim=axis, keepdim=True)
            ''', ("test_softmax",), TORCH_FOR_ARRAY.name),
        Example('''
            def softmax(x, axis=-1):
                if x.ndim == 1:  # a vector: the quick way
                    e = np.exp(x)
                    return e / e.sum()
                e = np.exp(x - np.max(x, axis=axis, keepdims=True))
                return e / e.sum(axis=axis, keepdims=True)
            ''', ("test_softmax_stable",), "no max subtraction", label="1-D branch unstable"),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(111 if hidden else 11, hidden)
    shapes = [(3, 3), (2, 5), (4,)] if hidden else [(4, 4), (3, 6), (5,)]
    out = [Case((rng.normal(size=s),), why="random scores") for s in shapes]
    out.append(Case((rng.normal(size=(3, 3)),), {"axis": 0}, why="normalising the columns"))
    out.append(Case((rng.normal(size=(2, 3, 4)),), {"axis": 1}, why="a middle axis"))
    return out


def stable_cases(hidden: bool) -> list[Case]:
    rng = case_rng(112 if hidden else 12, hidden)
    big = np.array([[1e4, -1e4, 0.0, 5e3], [900.0, 1000.0, 1000.0, -1e4]])
    scales = np.stack([rng.normal(size=5) * 3 + 1e4, rng.normal(size=5) * 3 - 1e4])
    if hidden:
        big = big[:, ::-1].copy()
        scales = scales[::-1].copy()
    return [
        Case((big,), why="logits of +-1e4"),
        Case((scales,), why="rows of very different scale: one near +1e4, one near -1e4"),
        Case((rng.normal(size=6 if hidden else 5) * 3 + 1e4,), why="a 1-D vector of logits near 1e4"),
        Case((rng.normal(size=(2, 3, 4)) * 3 - 1e4,), {"axis": 1}, why="a batch of logits near -1e4, axis=1"),
    ]


def check_softmax(softmax, hidden: bool = False) -> None:
    """Check that ``softmax(x, axis)`` normalises along ``axis`` for any shape."""
    CARD.check(softmax, cases(hidden), hidden=hidden, passed="matches the reference along any axis")


def check_softmax_stable(softmax, hidden: bool = False) -> None:
    """Check that ``softmax`` stays finite and exact for logits of +-1e4."""
    CARD.check(softmax, stable_cases(hidden), hidden=hidden, passed="stable for logits of +-1e4")
