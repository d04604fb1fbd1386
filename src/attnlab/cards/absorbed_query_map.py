"""absorbed_query_map (notebook 13): multi-head latent attention's key up-projection folded into the
query map, head ``h``'s ``W_q[:, h] W_uk[:, h]ᵀ`` of shape ``(D, Dc)``, so that a head scores a cached
latent directly."""
from __future__ import annotations

import numpy as np

from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract


def reference(W_q, W_uk, H):
    """``(H, D, Dc)``: head ``h``'s ``W_q[:, h*Dh:(h+1)*Dh] @ W_uk[:, h*Dh:(h+1)*Dh].T``."""
    W_q, W_uk = np.asarray(W_q, dtype=float), np.asarray(W_uk, dtype=float)
    D, Dc = W_q.shape[0], W_uk.shape[0]
    Dh = W_q.shape[1] // H
    Wq_h = W_q.reshape(D, H, Dh).transpose(1, 0, 2)  # (D, H*Dh) -> (H, D, Dh)
    Wuk_h = W_uk.reshape(Dc, H, Dh).transpose(1, 0, 2)  # (Dc, H*Dh) -> (H, Dc, Dh)
    return Wq_h @ np.swapaxes(Wuk_h, -1, -2)  # (H, D, Dh) x (H, Dh, Dc) -> (H, D, Dc)


_FAILS = ("test_absorbed_query_map",)


def _cell(body: str) -> str:
    return f'''def absorbed_query_map(W_q, W_uk, H):
    D, Dc = W_q.shape[0], W_uk.shape[0]
    Dh = W_q.shape[1] // H
{body}
'''


CARD = Card(
    "absorbed_query_map", "13_attention_variants",
    summary="head h's query map into the latent: W_q[:, h] W_uk[:, h]ᵀ, (H, D, Dc)",
    contract=Contract(
        args=("W_q", "W_uk", "H"), reference=reference, invoke=invoke_numpy, rtol=1e-10, atol=1e-12,
        shapes="W_q (D, H*Dh) the queries, W_uk (Dc, H*Dh) the up-projection of the latent to keys; head h owns "
               "columns h*Dh:(h+1)*Dh of both",
        returns="a float array (H, D, Dc): for each head the map with (x W_q_h) · (c W_uk_h) = x (map_h) · c "
                "for every token x and latent c"),
    mistakes=[
        Mistake(
            "one map for all heads (the heads summed)",
            principle="Each head has its own scores: fold its own slice of W_q into its own slice of W_uk, head "
                      "by head.",
            fix="split the columns of both matrices into H blocks of Dh and multiply block by block: (H, D, Dc).",
            fails=_FAILS, code=_cell('''    return W_q @ W_uk.T''')),
        Mistake(
            "the absorption transposed: W_uk_h W_q_hᵀ, (H, Dc, D)",
            principle="The query's map comes first: a token x (width D) multiplies it and a latent c (width Dc) "
                      "is dotted with the result, so the map is (D, Dc).",
            fix="head h's map is `W_q_h @ W_uk_h.T`, of shape (D, Dc).",
            fails=_FAILS, code=_cell('''    maps = [W_uk[:, h * Dh:(h + 1) * Dh] @ W_q[:, h * Dh:(h + 1) * Dh].T for h in range(H)]
    return np.stack(maps)''')),
        Mistake(
            "W_uk's block not transposed (W_q_h @ W_uk_h: a (D, Dh) by (Dc, Dh) product)",
            principle="Both blocks end in the head width Dh, the axis the score's dot product runs over: one of "
                      "them must be transposed so that Dh lines up, and the map must take a token (width D) to a "
                      "vector of the latent's width Dc.",
            fix="head h's map is `W_q_h @ W_uk_h.T`, of shape (D, Dc).",
            fails=_FAILS, code=_cell('''    maps = [W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, h * Dh:(h + 1) * Dh] for h in range(H)]
    return np.stack(maps)''')),
        Mistake(
            "the heads read as interleaved columns (h::H instead of h*Dh:(h+1)*Dh)",
            principle="Head h owns a block of Dh consecutive columns, as split_heads cuts them.",
            fix="head h's columns are `h * Dh:(h + 1) * Dh`.",
            fails=_FAILS, code=_cell('''    maps = [W_q[:, h::H] @ W_uk[:, h::H].T for h in range(H)]
    return np.stack(maps)''')),
        Mistake(
            "the 1/√Dh scale folded into the map",
            principle="The map replaces W_q and W_uk only; the scores are still divided by √Dh when attention "
                      "is computed.",
            fix="return the product of the two blocks as it is, without dividing by `np.sqrt(Dh)`.",
            fails=_FAILS, code=_cell('''    maps = [W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, h * Dh:(h + 1) * Dh].T / np.sqrt(Dh) for h in range(H)]
    return np.stack(maps)''')),
        Mistake(
            "W_q's heads folded into the whole W_uk (no split of the up-projection)",
            principle="Both matrices are cut into the same heads: head h's queries meet only head h's keys.",
            fix="take the same columns `h * Dh:(h + 1) * Dh` of W_uk as of W_q.",
            fails=_FAILS, code=_cell('''    maps = [W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, :Dh].T for h in range(H)]
    return np.stack(maps)''')),
        Mistake(
            "the whole product for every head (W_q W_ukᵀ, summed over the heads, repeated H times)",
            principle="Each head's map uses only its own Dh columns of W_q and of W_uk; the product of the whole "
                      "matrices sums the H heads' maps into one.",
            fix="head h's map is `W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, h * Dh:(h + 1) * Dh].T`.",
            fails=_FAILS, code=_cell('''    return np.stack([W_q @ W_uk.T for h in range(H)])''')),
        Mistake(
            "the head width taken as D // H instead of W_q's columns per head",
            principle="The head width Dh is the number of W_q's columns per head, W_q.shape[1] // H; the model "
                      "width D (W_q's rows) need not be H * Dh.",
            fix="`Dh = W_q.shape[1] // H`.",
            fails=_FAILS, code='''def absorbed_query_map(W_q, W_uk, H):
    D = W_q.shape[0]
    Dh = D // H
    maps = [W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, h * Dh:(h + 1) * Dh].T for h in range(H)]
    return np.stack(maps)
'''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(1307, hidden)
    specs = [(7, 3, 2, 4), (5, 2, 3, 6), (9, 4, 1, 2)] if hidden else [(6, 4, 2, 3), (8, 5, 4, 2), (5, 3, 3, 4), (4, 6, 1, 5)]
    out = []
    for D, Dc, H, Dh in specs:
        out.append(Case((rng.normal(size=(D, H * Dh)), rng.normal(size=(Dc, H * Dh)), H),
                        why=f"D={D}, Dc={Dc}, H={H}, Dh={Dh}"))
    return out


def check_absorbed_query_map(absorbed_query_map, hidden: bool = False) -> None:
    """Check ``absorbed_query_map(W_q, W_uk, H)`` for one head and several."""
    CARD.check(absorbed_query_map, cases(hidden), hidden=hidden,
               passed="head h's W_q block times the transpose of its W_uk block, (H, D, Dc)")
