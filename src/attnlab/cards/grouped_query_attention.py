"""grouped_query_attention (notebook 11): Hq query heads share Hkv key/value heads, query head h
reading key/value head ``h // (Hq / Hkv)``; MHA (Hkv = Hq) and MQA (Hkv = 1) are special cases."""
from __future__ import annotations

from .. import modern as _ref
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_BOTH = ("test_grouped_query_attention", "test_grouped_query_attention_masked")
_PLAIN = ("test_grouped_query_attention",)
_MASKED = ("test_grouped_query_attention_masked",)


def _cell(body: str) -> str:
    """A learner's grouped_query_attention cell: the divisibility check, then ``body``."""
    return f'''def grouped_query_attention(Q, K, V, mask=None):
    Hq, Hkv = Q.shape[1], K.shape[1]
    if Hq % Hkv:
        raise ValueError(f"K: Hkv must divide Hq, got {{K.shape}}")
{body}
'''


_REPEATED = '''    n = Hq // Hkv
    K, V = np.repeat(K, n, axis=1), np.repeat(V, n, axis=1)
'''

CARD = Card(
    "grouped_query_attention", "11_modern_attention",
    summary="scaled dot-product attention where query head h reads key/value head h // (Hq / Hkv)",
    contract=Contract(
        args=("Q", "K", "V", "mask"), reference=_ref.grouped_query_attention, outputs=("output", "weights"),
        shapes="Q (B, Hq, Lq, Dh), K (B, Hkv, Lk, Dh), V (B, Hkv, Lk, Dv) with Hkv dividing Hq; mask "
               "boolean, broadcastable to (B, Hq, Lq, Lk), True = may attend",
        returns="(output (B, Hq, Lq, Dv), weights (B, Hq, Lq, Lk)), softmax(Q Kᵀ / √Dh) per query head",
        raises="ValueError when Hkv does not divide Hq"),
    mistakes=[
        Mistake(
            "`repeat` (tile) order instead of `repeat_interleave` (head h % Hkv where h // n_rep is right)",
            principle="Each key/value head is repeated n_rep times in a row, so that a group of consecutive "
                      "query heads shares one head: query head h reads head h // n_rep.",
            fix="repeat each key/value head n_rep times in a row: `attnlab.repeat_kv(K, Hq // Hkv)`.",
            fails=_BOTH, code=_cell('''    n = Hq // Hkv
    K, V = np.tile(K, (1, n, 1, 1)), np.tile(V, (1, n, 1, 1))
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)''')),
        Mistake(
            "no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dh)",
            principle="Scale the scores by the square root of the head width Dh.",
            fix="divide the scores by `np.sqrt(Dh)`.",
            fails=_BOTH, code=_cell(_REPEATED + '''    scores = Q @ np.swapaxes(K, -1, -2)
    weights = attnlab.masked_softmax(scores, mask)
    return weights @ V, weights''')),
        Mistake(
            "scaling by Dh instead of √Dh",
            principle="Scale the scores by the square root of the head width, not the width itself.",
            fix="divide by `np.sqrt(Dh)`.",
            fails=_BOTH, code=_cell(_REPEATED + '''    scores = Q @ np.swapaxes(K, -1, -2) / Q.shape[-1]
    weights = attnlab.masked_softmax(scores, mask)
    return weights @ V, weights''')),
        Mistake(
            "scaling by √(Hq·Dh) (the model width) instead of √Dh",
            principle="Each head's scores are dot products of Dh numbers: scale by √Dh.",
            fix="divide by `np.sqrt(Q.shape[-1])`.",
            fails=_BOTH, code=_cell(_REPEATED + '''    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Hq * Q.shape[-1])  # the model width
    weights = attnlab.masked_softmax(scores, mask)
    return weights @ V, weights''')),
        Mistake(
            "the mask ignored",
            principle="Keys the mask forbids must get weight exactly 0.",
            fix="pass the mask to the softmax: `attnlab.masked_softmax(scores, mask)`.",
            fails=_MASKED, code=_cell(_REPEATED + '''    return attnlab.scaled_dot_product_attention(Q, K, V)''')),
        Mistake(
            "a softmax over the wrong axis (over the queries)",
            principle="Each query's weights over the keys sum to 1: normalise along the key axis.",
            fix="softmax over the last axis, the keys.",
            fails=_BOTH, code=_cell(_REPEATED + '''    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = attnlab.softmax(scores, axis=-2)
    return weights @ V, weights''')),
        Mistake(
            "returning (weights, output) instead of (output, weights)",
            principle="The contract returns the output first, then the weights.",
            fix="`return output, weights`.",
            fails=_BOTH, code=_cell(_REPEATED + '''    out, w = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return w, out''')),
    ],
)


def _case(rng, B, Hq, Hkv, Lq, Lk, Dh, Dv, mask, why):
    Q = rng.normal(size=(B, Hq, Lq, Dh))
    K, V = rng.normal(size=(B, Hkv, Lk, Dh)), rng.normal(size=(B, Hkv, Lk, Dv))
    return Case((Q, K, V) if mask is None else (Q, K, V, mask), why=why)


def cases(hidden: bool, masked: bool = False) -> list[Case]:
    rng = case_rng(114 + masked, hidden)
    specs = ([(2, 6, 2, 3, 5, 4, 2), (1, 4, 1, 4, 2, 3, 5)] if hidden
             else [(2, 4, 2, 3, 6, 5, 2), (1, 6, 3, 2, 4, 2, 3), (2, 3, 1, 4, 3, 5, 2), (1, 2, 2, 3, 4, 2, 3)])
    out = []
    for B, Hq, Hkv, Lq, Lk, Dh, Dv in specs:
        mask = _ref.sliding_window_mask(Lq, Lk, 2, offset=max(0, Lk - Lq)) if masked else None
        kind = "MQA" if Hkv == 1 else ("MHA" if Hkv == Hq else "GQA")
        why = f"{kind}: Hq={Hq}, Hkv={Hkv}, Lq={Lq}, Lk={Lk}, Dh={Dh}, Dv={Dv}" + (", a window-2 mask" if masked else "")
        out.append(_case(rng, B, Hq, Hkv, Lq, Lk, Dh, Dv, mask, why))
    if not masked:
        out.append(Case((rng.normal(size=(1, 4, 2, 3)), rng.normal(size=(1, 3, 2, 3)),
                         rng.normal(size=(1, 3, 2, 3))), why="Hq = 4 is no multiple of Hkv = 3",
                        raises=ValueError))
    return out


def check_grouped_query_attention(grouped_query_attention, hidden: bool = False) -> None:
    """Check ``grouped_query_attention(Q, K, V)`` for MHA, GQA and MQA head counts."""
    CARD.check(grouped_query_attention, cases(hidden, False), hidden=hidden,
               passed="query head h reads key/value head h // (Hq/Hkv); MHA, GQA, MQA")


def check_grouped_query_attention_masked(grouped_query_attention, hidden: bool = False) -> None:
    """Check ``grouped_query_attention(Q, K, V, mask)`` with a boolean mask."""
    CARD.check(grouped_query_attention, cases(hidden, True), hidden=hidden,
               passed="the mask is applied to every query head")
