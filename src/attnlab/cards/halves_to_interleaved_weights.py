"""halves_to_interleaved_weights (notebook 11): a query or key projection trained with RoPE's halves
pairing, converted for code that rotates interleaved pairs: each head's columns permuted within it."""
from __future__ import annotations

from .. import modern as _ref
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_BOTH = ("test_halves_to_interleaved_weights", "test_halves_to_interleaved_weights_heads")
_HEADS = ("test_halves_to_interleaved_weights_heads",)

CARD = Card(
    "halves_to_interleaved_weights", "11_modern_attention",
    summary="a checkpoint's W_q or W_k for the halves pairing, its columns permuted head by head for the "
            "interleaved pairing, so that every head's scores stay the same",
    contract=Contract(
        args=("W", "num_heads"), reference=_ref.halves_to_interleaved_weights,
        shapes="W (D, num_heads * Dh), used as X @ W, head h in columns h*Dh to (h+1)*Dh - 1; Dh even",
        returns="a new (D, num_heads * Dh) array W': interleaved RoPE on X @ W' gives every head the scores "
                "halves RoPE gives on X @ W"),
    mistakes=[
        Mistake(
            "the whole matrix permuted as one head (a permutation of all num_heads * Dh columns)",
            principle="RoPE rotates the pairs of each head on its own: the pairs are made within a head's Dh "
                      "features, and a checkpoint holds its heads side by side. A permutation of all the columns "
                      "mixes features of different heads.",
            fix="split the columns into num_heads blocks of Dh (a reshape to (D, num_heads, Dh)), permute the "
                "last axis, and put them back.",
            fails=_HEADS, code='''
                def halves_to_interleaved_weights(W, num_heads):
                    n = W.shape[1]
                    perm = np.stack([np.arange(n // 2), np.arange(n // 2) + n // 2], axis=-1).reshape(n)
                    return W[:, perm].copy()
                '''),
        Mistake(
            "the inverse permutation (interleaved to halves: 0, 2, 4, ..., 1, 3, 5, ...)",
            principle="In the interleaved layout the pair k is features (2k, 2k + 1); the halves checkpoint keeps "
                      "that pair's two numbers in columns k and k + Dh/2. So new column 2k takes old column k, and "
                      "new column 2k + 1 takes old column k + Dh/2.",
            fix="column j of the result takes the old column that belongs at position j: for j = 2k that is k, "
                "for j = 2k + 1 it is k + Dh/2 (the order 0, Dh/2, 1, Dh/2 + 1, ...).",
            fails=_BOTH, code='''
                def halves_to_interleaved_weights(W, num_heads):
                    D, n = W.shape
                    Dh = n // num_heads
                    perm = np.concatenate([np.arange(0, Dh, 2), np.arange(1, Dh, 2)])
                    return W.reshape(D, num_heads, Dh)[..., perm].reshape(D, n).copy()
                '''),
        Mistake(
            "the heads read as interleaved columns (a reshape to (D, Dh, num_heads))",
            principle="Head h is the block of columns h*Dh to (h+1)*Dh - 1, as split_heads cuts it (notebook 05): "
                      "the head index is the slower axis.",
            fix="reshape to (D, num_heads, Dh), not (D, Dh, num_heads).",
            fails=_HEADS, code='''
                def halves_to_interleaved_weights(W, num_heads):
                    D, n = W.shape
                    Dh = n // num_heads
                    perm = np.stack([np.arange(Dh // 2), np.arange(Dh // 2) + Dh // 2], axis=-1).reshape(Dh)
                    return W.reshape(D, Dh, num_heads)[:, perm, :].reshape(D, n).copy()
                '''),
        Mistake(
            "the rows permuted instead of the columns",
            principle="W is used as X @ W: its columns are the features of the queries or keys that RoPE pairs; "
                      "its rows are the input's features, which RoPE never sees.",
            fix="permute W's columns (the last axis), head by head.",
            fails=_BOTH, code='''
                def halves_to_interleaved_weights(W, num_heads):
                    D = W.shape[0]
                    perm = np.stack([np.arange(D // 2), np.arange(D // 2) + D // 2], axis=-1).reshape(-1)
                    return W[perm, :].copy()
                '''),
        Mistake(
            "W returned unchanged",
            principle="The same weights rotated by the other pairing give other scores: the checkpoint must be "
                      "converted.",
            fix="permute the columns of each head so that each pair of the halves layout lands on a pair of the "
                "interleaved one.",
            fails=_BOTH, code='''
                def halves_to_interleaved_weights(W, num_heads):
                    return W.copy()
                '''),
        Mistake(
            "the heads reordered instead of the features within each head",
            principle="The pairing is about the features inside a head; which head is which does not change.",
            fix="keep the heads in order and permute the Dh columns inside each one.",
            fails=_HEADS, code='''
                def halves_to_interleaved_weights(W, num_heads):
                    D, n = W.shape
                    Dh = n // num_heads
                    return W.reshape(D, num_heads, Dh)[:, ::-1, :].reshape(D, n).copy()
                '''),
    ],
)


def cases(hidden: bool, heads: bool = False) -> list[Case]:
    if heads:
        specs = [(10, 4, 8), (6, 2, 6), (24, 3, 8)] if hidden else [(12, 2, 8), (8, 4, 4), (20, 2, 10)]
    else:
        specs = [(9, 1, 8), (5, 1, 12), (14, 1, 6)] if hidden else [(6, 1, 8), (16, 1, 4), (7, 1, 10), (12, 1, 2)]
    rng = case_rng(31 if heads else 30, hidden)
    return [Case((rng.normal(size=(D, H * Dh)), H), why=f"D={D}, num_heads={H}, Dh={Dh}") for D, H, Dh in specs]


def check_halves_to_interleaved_weights(halves_to_interleaved_weights, hidden: bool = False) -> None:
    """Check ``halves_to_interleaved_weights(W, num_heads)`` on projections of one head."""
    CARD.check(halves_to_interleaved_weights, cases(hidden), hidden=hidden,
               passed="each pair of the halves layout moved onto its interleaved pair")


def check_halves_to_interleaved_weights_heads(halves_to_interleaved_weights, hidden: bool = False) -> None:
    """Check ``halves_to_interleaved_weights`` on checkpoints of several heads side by side."""
    CARD.check(halves_to_interleaved_weights, cases(hidden, True), hidden=hidden,
               passed="every head converted within its own columns")
