"""icl_prompt (notebook 12): a regression prompt packed for a linear self-attention layer, one
row per example (its input, then its target), then the query's row (its input, then 0)."""
from __future__ import annotations

from .. import learned as _ref
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_FAILS = ("test_icl_prompt",)

CARD = Card(
    "icl_prompt", "12_what_attention_learns",
    summary="the prompt Z: one row [x_i, y_i] per example, then the query row [x_query, 0]",
    contract=Contract(
        args=("X", "y", "x_query"), reference=_ref.icl_prompt,
        shapes="X (..., N, d), y (..., N), x_query (..., d), with or without batch axes",
        returns="Z (..., N+1, d+1): rows [x_i, y_i], then the row [x_query, 0]"),
    mistakes=[
        Mistake(
            "the target put first in each row ([y_i, x_i] instead of [x_i, y_i])",
            principle="Each row holds the input's d features first and its target last, so the "
                      "prediction is read from the last column.",
            fix="`np.concatenate([X, y[..., None]], axis=-1)`: the inputs first, the target last.",
            fails=_FAILS, code='''
                def icl_prompt(X, y, x_query):
                    examples = np.concatenate([y[..., None], X], axis=-1)
                    query = np.concatenate([np.zeros(x_query.shape[:-1] + (1,)), x_query], axis=-1)
                    return np.concatenate([examples, query[..., None, :]], axis=-2)
                '''),
        Mistake(
            "the query row put first instead of last",
            principle="The N examples come first, in order; the query is the last row.",
            fix="append the row [x_query, 0] after the N example rows.",
            fails=_FAILS, code='''
                def icl_prompt(X, y, x_query):
                    examples = np.concatenate([X, y[..., None]], axis=-1)
                    query = np.concatenate([x_query, np.zeros(x_query.shape[:-1] + (1,))], axis=-1)
                    return np.concatenate([query[..., None, :], examples], axis=-2)
                '''),
        Mistake(
            "the query row forgotten: shape (..., N, d+1)",
            principle="The prompt has N+1 rows: the N examples and the query.",
            fix="add a last row [x_query, 0]: the result has N+1 rows.",
            fails=_FAILS, code='''
                def icl_prompt(X, y, x_query):
                    return np.concatenate([X, y[..., None]], axis=-1)
                '''),
        Mistake(
            "the prompt transposed: shape (..., d+1, N+1)",
            principle="One row per token (example or query), one column per feature.",
            fix="stack the examples as rows: one row per example, d+1 columns.",
            fails=_FAILS, code='''
                def icl_prompt(X, y, x_query):
                    examples = np.concatenate([X, y[..., None]], axis=-1)
                    query = np.concatenate([x_query, np.zeros(x_query.shape[:-1] + (1,))], axis=-1)
                    Z = np.concatenate([examples, query[..., None, :]], axis=-2)
                    return np.swapaxes(Z, -1, -2)
                '''),
        Mistake(
            "the query's unknown target filled with the mean of y instead of 0",
            principle="The unknown target is written as zero: the layer must compute it, not be given a guess.",
            fix="the query row ends with 0: its target is unknown.",
            fails=_FAILS, code='''
                def icl_prompt(X, y, x_query):
                    examples = np.concatenate([X, y[..., None]], axis=-1)
                    query = np.concatenate([x_query, y.mean(-1, keepdims=True)], axis=-1)
                    return np.concatenate([examples, query[..., None, :]], axis=-2)
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(121, hidden)
    specs = [((), 6, 3), ((), 4, 2), ((2,), 5, 3), ((3, 2), 2, 4), ((), 1, 1)] if hidden else \
        [((), 5, 3), ((), 3, 4), ((2,), 4, 2), ((2, 3), 3, 2), ((), 1, 2)]
    out = []
    for batch, N, d in specs:
        why = f"N={N} examples of d={d} inputs" + (f", a batch {batch}" if batch else "")
        out.append(Case((rng.normal(size=(*batch, N, d)), rng.normal(size=(*batch, N)),
                         rng.normal(size=(*batch, d))), why=why))
    return out


def check_icl_prompt(icl_prompt, hidden: bool = False) -> None:
    """Check ``icl_prompt(X, y, x_query)``: rows ``[x_i, y_i]`` then ``[x_query, 0]``."""
    CARD.check(icl_prompt, cases(hidden), hidden=hidden,
               passed="rows [x_i, y_i] and a last row [x_query, 0], with and without a batch")
