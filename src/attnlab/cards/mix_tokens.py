"""mix_tokens (notebook 01): every token replaced by a softmax-weighted mix of all tokens,
``softmax(X Xᵀ) X``, for one sequence or a batch."""
from __future__ import annotations

from .. import averages as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_BOTH = ("test_mix_tokens", "test_mix_tokens_batched")

CARD = Card(
    "mix_tokens", "01_weighted_averages",
    summary="softmax(X Xᵀ) X: each token becomes the average of all tokens, weighted by similarity",
    contract=Contract(
        args=("X",), reference=_ref.mix_tokens, invoke=invoke_numpy,
        shapes="X (L, D) or a batch (..., L, D)",
        returns="a float array of the shape of X"),
    mistakes=[
        Mistake(
            "a softmax over the columns (axis 0) of X Xᵀ",
            principle="Each query (row) distributes its weight over the tokens: normalise every row "
                      "of X Xᵀ, i.e. over the last axis.",
            fix="each query row must sum to one: take the softmax over the last axis.",
            fails=_BOTH, code='''
                def mix_tokens(X):
                    A = attnlab.softmax(X @ np.swapaxes(X, -1, -2), axis=-2)
                    return A @ X
                '''),
        Mistake(
            "no softmax: X Xᵀ X",
            principle="Similarities must become weights on the simplex before they mix the tokens.",
            fix="turn the similarities into weights with `softmax(X @ X.T)` first.",
            fails=_BOTH, code='''
                def mix_tokens(X):
                    return X @ np.swapaxes(X, -1, -2) @ X
                '''),
        Mistake(
            "scaling the scores by √D",
            principle="This exercise is the unscaled form: no division of the scores.",
            fix="this exercise is the unscaled form `softmax(X Xᵀ) X`; the 1/√d scale comes in notebook 02.",
            fails=_BOTH, code='''
                def mix_tokens(X):
                    d = X.shape[-1]
                    return attnlab.softmax(X @ np.swapaxes(X, -1, -2) / np.sqrt(d)) @ X
                '''),
        Mistake(
            "mixing features instead of tokens (Xᵀ X)",
            principle="The weights compare tokens with tokens, an (L, L) matrix, which then mixes the rows of X.",
            fix="the weights compare tokens (rows) with tokens: X Xᵀ is (L, L); then multiply by X.",
            fails=_BOTH, code='''
                def mix_tokens(X):
                    return X @ attnlab.softmax(np.swapaxes(X, -1, -2) @ X)
                '''),
        Mistake(
            "returning the attention weights instead of the mixed tokens",
            principle="The output is the weighted mix of the tokens, shape (L, D), not the (L, L) weights.",
            fix="multiply the (L, L) weights by X to get the (L, D) output.",
            fails=_BOTH, code='''
                def mix_tokens(X):
                    return attnlab.softmax(X @ np.swapaxes(X, -1, -2))
                '''),
        Mistake(
            "`X.T` on a batch: it reverses every axis",
            principle="Transpose only the last two axes, so that leading batch axes stay where they are.",
            fix="use `np.swapaxes(X, -1, -2)` (or `X.swapaxes(-1, -2)`), which swaps only the last "
                "two axes and so works with leading batch dimensions.",
            fails=("test_mix_tokens_batched",), code='''
                def mix_tokens(X):
                    return attnlab.softmax(X @ X.T) @ X
                '''),
        Mistake(
            "one softmax over the whole matrix instead of one per row",
            principle="Normalise each row of the score matrix separately.",
            fix="normalise each row of X Xᵀ separately: softmax over the last axis.",
            fails=_BOTH, code='''
                def mix_tokens(X):
                    S = X @ np.swapaxes(X, -1, -2)
                    e = np.exp(S - S.max(axis=(-2, -1), keepdims=True))
                    return e / e.sum(axis=(-2, -1), keepdims=True) @ X
                '''),
        Mistake(
            "a softmax of X Xᵀ without the max subtraction: exp overflows for large tokens (inf / inf = NaN)",
            principle="Shift each row of scores by its maximum before exponentiating; the shift cancels "
                      "in the ratio and keeps exp below overflow.",
            fix="use a stable softmax (`attnlab.softmax`, or subtract each row's maximum before `np.exp`).",
            fails=("test_mix_tokens",), code='''
                def mix_tokens(X):
                    e = np.exp(X @ np.swapaxes(X, -1, -2))  # exp(1e4) = inf
                    return e / e.sum(axis=-1, keepdims=True) @ X
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(121 if hidden else 21, hidden)
    shapes = [(5, 3), (2, 4), (6, 6)] if hidden else [(4, 3), (3, 5), (5, 5)]
    out = [Case((rng.normal(size=s) * 0.7,), why="random tokens") for s in shapes]
    out.append(Case((rng.normal(size=(3, 4) if hidden else (4, 3)) * 60,),
                    why="long tokens: scores X Xᵀ of about 1e4"))
    return out


def batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(122 if hidden else 22, hidden)
    shapes = [(3, 4, 2), (2, 2, 3, 5)] if hidden else [(2, 4, 3), (3, 2, 5, 4)]
    return [Case((rng.normal(size=s) * 0.7,), why="a batch of sequences") for s in shapes]


def check_mix_tokens(mix_tokens, hidden: bool = False) -> None:
    """Check that ``mix_tokens(X)`` returns ``softmax(X Xᵀ) X`` for one sequence ``(L, D)``."""
    CARD.check(mix_tokens, cases(hidden), hidden=hidden, passed="mixes the tokens of one sequence")


def check_mix_tokens_batched(mix_tokens, hidden: bool = False) -> None:
    """Check that ``mix_tokens`` also works on a batch ``(..., L, D)``."""
    CARD.check(mix_tokens, batched_cases(hidden), hidden=hidden, passed="works on batches")
