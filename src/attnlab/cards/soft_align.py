"""soft_align (notebook 12): decomposable attention's attend step: each token of one sentence
gets the part of the other sentence aligned to it."""
from __future__ import annotations

from .. import learned as _ref
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_FAILS = ("test_soft_align",)

CARD = Card(
    "soft_align", "12_what_attention_learns",
    summary="each token of one sentence gets the softmax-weighted average of the other sentence's tokens",
    contract=Contract(
        args=("A", "B"), reference=_ref.soft_align, outputs=("beta", "alpha"),
        shapes="A (..., La, D) and B (..., Lb, D), the two sentences through F",
        returns="(beta (..., La, D), alpha (..., Lb, D)): beta[i] the part of B aligned to A[i], "
                "alpha[j] the part of A aligned to B[j]"),
    mistakes=[
        Mistake(
            "softmax over the wrong axis of E for beta (over A's tokens instead of B's)",
            principle="beta[i] is a weighted average of B's tokens, so A[i]'s weights over B sum to one: "
                      "normalise each row of E.",
            fix="beta[i] averages the tokens of B: softmax over the last axis of E (La, Lb).",
            fails=_FAILS, code='''
                def soft_align(A, B):
                    E = A @ np.swapaxes(B, -1, -2)
                    beta = attnlab.softmax(E, axis=-2) @ B
                    alpha = attnlab.softmax(np.swapaxes(E, -1, -2), axis=-1) @ A
                    return beta, alpha
                '''),
        Mistake(
            "softmax over the wrong axis of E for alpha (over B's tokens instead of A's; e.g. the row "
            "softmax of E transposed)",
            principle="alpha[j] is a weighted average of A's tokens, so B[j]'s weights over A sum to one: "
                      "normalise each column of E (each row of Eᵀ).",
            fix="alpha[j] averages the tokens of A: softmax over the last axis of Eᵀ (Lb, La).",
            fails=_FAILS, code='''
                def soft_align(A, B):
                    E = A @ np.swapaxes(B, -1, -2)
                    W = attnlab.softmax(E, axis=-1)
                    return W @ B, np.swapaxes(W, -1, -2) @ A
                '''),
        Mistake(
            "alpha and beta swapped: returning (alpha, beta)",
            principle="beta has one row per token of A (the part of B aligned to it), alpha one per token "
                      "of B; the contract returns beta first.",
            fix="return (beta, alpha): beta (La, D) first, aligned to A.",
            fails=_FAILS, code='''
                def soft_align(A, B):
                    E = A @ np.swapaxes(B, -1, -2)
                    beta = attnlab.softmax(E, axis=-1) @ B
                    alpha = attnlab.softmax(np.swapaxes(E, -1, -2), axis=-1) @ A
                    return alpha, beta
                '''),
        Mistake(
            "the scores scaled by √D (decomposable attention uses E = A Bᵀ unscaled)",
            principle="The alignment scores are the plain dot products of F's outputs.",
            fix="drop the scale: E = A Bᵀ.",
            fails=_FAILS, code='''
                def soft_align(A, B):
                    E = A @ np.swapaxes(B, -1, -2) / np.sqrt(A.shape[-1])
                    beta = attnlab.softmax(E, axis=-1) @ B
                    alpha = attnlab.softmax(np.swapaxes(E, -1, -2), axis=-1) @ A
                    return beta, alpha
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(126, hidden)
    specs = [((), 4, 6, 3), ((2,), 5, 3, 4), ((2, 2), 3, 4, 5), ((), 1, 3, 2)] if hidden else \
        [((), 3, 5, 4), ((), 6, 2, 3), ((2,), 4, 3, 5), ((2, 3), 2, 4, 3), ((), 3, 1, 2)]
    out = []
    for batch, La, Lb, D in specs:
        why = f"La={La}, Lb={Lb}, D={D}" + (f", a batch {batch}" if batch else "")
        out.append(Case((rng.normal(size=(*batch, La, D)), rng.normal(size=(*batch, Lb, D))), why=why))
    return out


def check_soft_align(soft_align, hidden: bool = False) -> None:
    """Check ``soft_align(A, B)``: ``(beta, alpha)``, the part of ``B`` aligned to each token of ``A``
    and the part of ``A`` aligned to each token of ``B``."""
    CARD.check(soft_align, cases(hidden), hidden=hidden,
               passed="beta from B and alpha from A, each normalised over the other sentence")
