"""linear_self_attention (notebook 12): one linear self-attention layer for in-context
regression: every row of the prompt updated by the average over the N example rows (no softmax,
the query row no key or value), plus the residual."""
from __future__ import annotations

from .. import learned as _ref
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_FAILS = ("test_linear_self_attention",)

CARD = Card(
    "linear_self_attention", "12_what_attention_learns",
    summary="Z plus the average over the N example rows of the raw (unnormalised) attention update",
    contract=Contract(
        args=("Z", "W_kq", "W_pv"), reference=_ref.linear_self_attention,
        shapes="Z (..., N+1, d+1) prompts (icl_prompt), N >= 1; W_kq and W_pv (d+1, d+1)",
        returns="an array (..., N+1, d+1): every row of Z plus its update, the average over the "
                "N example rows (the first N; the query row is no key or value) of score times value"),
    mistakes=[
        Mistake(
            "the query row used as a key and value (all N+1 rows summed)",
            principle="The query row's target is unknown: it may ask (be a query) but must not answer "
                      "(be a key or a value). Sum over the N example rows only.",
            fix="`Z_c = Z[..., :-1, :]`: only the first N rows are keys and values.",
            fails=_FAILS, code='''
                def linear_self_attention(Z, W_kq, W_pv):
                    N = Z.shape[-2] - 1
                    scores = Z @ W_kq @ np.swapaxes(Z, -1, -2)
                    return Z + scores @ (Z @ W_pv) / N
                '''),
        Mistake(
            "the sum divided by N+1 instead of N",
            principle="The update is an average over the N examples: divide by their number, not by "
                      "the number of rows.",
            fix="divide by N, the number of examples (rows minus one).",
            fails=_FAILS, code='''
                def linear_self_attention(Z, W_kq, W_pv):
                    Z_c = Z[..., :-1, :]
                    scores = Z @ W_kq @ np.swapaxes(Z_c, -1, -2)
                    return Z + scores @ (Z_c @ W_pv) / Z.shape[-2]
                '''),
        Mistake(
            "the query row used as a key and value, and the sum divided by N+1",
            principle="Only the N examples are keys and values, and the average is over those N.",
            fix="keys and values are the first N rows, and the average divides by N.",
            fails=_FAILS, code='''
                def linear_self_attention(Z, W_kq, W_pv):
                    scores = Z @ W_kq @ np.swapaxes(Z, -1, -2)
                    return Z + scores @ (Z @ W_pv) / Z.shape[-2]
                '''),
        Mistake(
            "no residual: the update returned without Z",
            principle="The layer adds its update to its input (a residual connection): the query row "
                      "keeps x_query and the prediction is written into its last entry.",
            fix="return Z plus the attention update.",
            fails=_FAILS, code='''
                def linear_self_attention(Z, W_kq, W_pv):
                    N = Z.shape[-2] - 1
                    Z_c = Z[..., :N, :]
                    return (Z @ W_kq @ np.swapaxes(Z_c, -1, -2)) @ (Z_c @ W_pv) / N
                '''),
        Mistake(
            "W_kq transposed (z W_kqᵀ · z_i)",
            principle="The score of row z with example z_i is z W_kq z_iᵀ: the query row times W_kq, "
                      "then the key.",
            fix="the query side multiplies W_kq on the left: `Z @ W_kq @ Z_c^T`.",
            fails=_FAILS, code='''
                def linear_self_attention(Z, W_kq, W_pv):
                    N = Z.shape[-2] - 1
                    Z_c = Z[..., :N, :]
                    return Z + (Z @ W_kq.T @ np.swapaxes(Z_c, -1, -2)) @ (Z_c @ W_pv) / N
                '''),
        Mistake(
            "a softmax over the scores (this layer is linear: no softmax, an average divided by N)",
            principle="Linear self-attention uses the raw scores, averaged over the N examples.",
            fix="drop the softmax; divide the raw products by N.",
            fails=_FAILS, code='''
                def linear_self_attention(Z, W_kq, W_pv):
                    Z_c = Z[..., :-1, :]
                    scores = attnlab.softmax(Z @ W_kq @ np.swapaxes(Z_c, -1, -2), axis=-1)
                    return Z + scores @ (Z_c @ W_pv)
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(122, hidden)
    specs = [((), 5, 3), ((2,), 3, 2), ((3, 2), 4, 3), ((), 1, 2)] if hidden else \
        [((), 4, 3), ((), 6, 2), ((3,), 3, 4), ((2, 2), 5, 2), ((), 1, 1)]
    out = []
    for batch, N, d in specs:
        Z = rng.normal(size=(*batch, N + 1, d + 1))
        why = f"N={N} examples, d+1={d + 1} columns" + (f", a batch {batch}" if batch else "")
        out.append(Case((Z, rng.normal(size=(d + 1, d + 1)), rng.normal(size=(d + 1, d + 1))), why=why))
    return out


def check_linear_self_attention(linear_self_attention, hidden: bool = False) -> None:
    """Check ``linear_self_attention(Z, W_kq, W_pv)``: the layer with its average over the N example
    rows, the query row no key or value, and the residual."""
    CARD.check(linear_self_attention, cases(hidden), hidden=hidden,
               passed="the average over the N examples, the query row no key, plus the residual")
