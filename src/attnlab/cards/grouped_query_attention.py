"""grouped_query_attention (notebook 11): Hq query heads share Hkv key/value heads, query head h
reading key/value head ``h // (Hq / Hkv)``; MHA (Hkv = Hq) and MQA (Hkv = 1) are special cases.

The plain check also watches the mechanism (docs/contract.md, "Fair checks"): on one long decoding case
it measures the call's peak memory, which must stay below a quarter of what ``n_rep`` copies of
``K`` and ``V`` take. Reading each key/value head once for its whole group is the point of GQA;
``repeat_kv`` followed by ordinary attention gives the right numbers and fails this case. The
course's grader measures it outside the learner's process (``measured_outside``).
"""
from __future__ import annotations

from .. import modern as _ref
from ..checks._contract import invoke_numpy, numpy_exercise
from ..checks._core import Case, Mistake, case_rng
from ..checks._memory import peak_of_call
from ..checks.efficient_attention import TooMuchMemory  # the name the grader's own measurement reports
from ._card import Card, Contract, Example

MEMORY_FRACTION = 4  # the call may hold at most 1/4 of the n_rep copies of K and V at once
LONG = 2**25  # bytes: a case whose copies of K and V would take 32 MiB or more is measured


def _copies_bytes(Q, K, V, *args, **kwargs) -> int:  # noqa: ARG001
    """The float64 bytes of K and V repeated for every query head: what GQA never holds."""
    return Q.shape[0] * Q.shape[1] * K.shape[-2] * (K.shape[-1] + V.shape[-1]) * 8


def _measured(Q, K, V, *args, **kwargs) -> bool:  # noqa: ARG001
    """Whether a case is long enough for its memory to be measured."""
    return _copies_bytes(Q, K, V) >= LONG


@numpy_exercise
def invoke_measuring_copies(fn, Q, K, V, *args, **kwargs):
    """:func:`invoke_numpy`, and on a long case also the peak extra memory of the call (see
    :mod:`attnlab.checks._memory`): :class:`TooMuchMemory` if it reaches ``1 / MEMORY_FRACTION``
    of ``n_rep`` copies of ``K`` and ``V``."""
    if not _measured(Q, K, V):
        return invoke_numpy(fn, Q, K, V, *args, **kwargs)

    def warmup():  # the same code on 64 keys
        return fn(Q, K[..., :64, :], V[..., :64, :], *args, **kwargs)

    result, peak, how = peak_of_call(lambda: invoke_numpy(fn, Q, K, V, *args, **kwargs), warmup=warmup)
    message = copies_verdict(peak, how, Q, K, V, *args, **kwargs)
    if message:
        raise TooMuchMemory(message)
    return result


def copies_verdict(peak: int, how: str, Q, K, V, *args, **kwargs) -> str | None:  # noqa: ARG001
    """None if ``peak`` extra bytes stay below ``1 / MEMORY_FRACTION`` of the copies of K and V
    (or the case is short); otherwise what :class:`TooMuchMemory` says."""
    full = _copies_bytes(Q, K, V)
    if not _measured(Q, K, V) or peak < full / MEMORY_FRACTION:
        return None
    return (f"it held {peak / 2**20:.1f} MiB at once ({how}), about as much as K and V copied for every "
            f"query head ({full / 2**20:.1f} MiB, {Q.shape[1] // max(K.shape[1], 1)} copies of the cache); "
            "each group of query heads can read its one key/value head as it is, with no copy")


# (measured in the call itself: the grader's outside measurement of a process counts the inputs' own
# copies, which on this case are as large as the copies the check looks for)
invoke_measuring_copies.measures_case = _measured

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

def _copies(Q, K, V, mask=None):
    """What the check's memory measurement says of code that repeats K and V for every query head."""
    raise TooMuchMemory("K and V copied for every query head")


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
            "a copy of the cache per query head (repeat_kv, then ordinary attention)",
            principle="GQA's saving is that a key/value head is stored and read once for its whole group: "
                      "the right numbers from n_rep copies of the cache miss the point.",
            fix="give the queries a group axis, `Q.reshape(B, Hkv, n_rep, Lq, Dh)`, and let `K[:, :, None]` "
                "and `V[:, :, None]` broadcast across it instead of repeating them.",
            fails=_PLAIN, impl=_copies, label="repeat_kv, then ordinary attention",
            code=_cell(_REPEATED + '''    return attnlab.scaled_dot_product_attention(Q, K, V, mask)''')),
        Mistake(
            "query heads grouped in tile order (h % Hkv where h // n_rep is right)",
            principle="A group is n_rep consecutive query heads: query head h reads key/value head h // n_rep "
                      "(torch's enable_gqa, and the checkpoints of Llama and Mistral).",
            fix="split the query heads as (Hkv, n_rep), groups first: `Q.reshape(B, Hkv, n_rep, Lq, Dh)`, "
                "not `(B, n_rep, Hkv, Lq, Dh)` (or repeat each key/value head n_rep times in a row, not tile).",
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
            "the returned pair in the wrong order: (weights, output) instead of (output, weights)",
            principle="The contract returns the output first, then the weights.",
            fix="`return output, weights`.",
            fails=_BOTH, code=_cell(_REPEATED + '''    out, w = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return w, out''')),
    ],
    examples=[
        Example(_cell('''    B, _, Lq, Dh = Q.shape
    n = Hq // Hkv
    Qg = np.swapaxes(Q.reshape(B, n, Hkv, Lq, Dh), 1, 2)
    scores = Qg @ np.swapaxes(K, -1, -2)[:, :, None] / np.sqrt(Dh)
    if mask is not None:
        mask = np.swapaxes(np.broadcast_to(mask, (B, Hq, Lq, K.shape[2])).reshape(B, n, Hkv, Lq, -1), 1, 2)
    weights = attnlab.masked_softmax(scores, mask)
    out = weights @ V[:, :, None]
    return (np.swapaxes(out, 1, 2).reshape(B, Hq, Lq, -1),
            np.swapaxes(weights, 1, 2).reshape(B, Hq, Lq, -1))'''), _BOTH,
                "query heads grouped in tile order", label="the grouped route with the reshape (B, n_rep, Hkv, ...)"),
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
        # decoding one token against a long cache: the call's memory is measured (no copies of K, V)
        B, Hq, Hkv, Lq, Lk, Dh, Dv = (1, 16, 2, 2, 4096, 64, 48) if hidden else (2, 12, 3, 1, 4096, 64, 48)
        out.append(_case(rng, B, Hq, Hkv, Lq, Lk, Dh, Dv, None,
                         f"decoding against a long cache (Hq={Hq}, Hkv={Hkv}, Lq={Lq}, Lk={Lk}): the peak memory "
                         f"must stay below 1/{MEMORY_FRACTION} of {Hq // Hkv} copies of K and V"))
    return out


def check_grouped_query_attention(grouped_query_attention, hidden: bool = False) -> None:
    """Check ``grouped_query_attention(Q, K, V)`` for MHA, GQA and MQA head counts, and that a long
    decoding case never holds ``n_rep`` copies of ``K`` and ``V`` (peak memory)."""
    CARD.check(grouped_query_attention, cases(hidden, False), hidden=hidden, invoke=invoke_measuring_copies,
               passed="query head h reads key/value head h // (Hq/Hkv); MHA, GQA, MQA; no copies of K and V")


def check_grouped_query_attention_masked(grouped_query_attention, hidden: bool = False) -> None:
    """Check ``grouped_query_attention(Q, K, V, mask)`` with a boolean mask."""
    CARD.check(grouped_query_attention, cases(hidden, True), hidden=hidden,
               passed="the mask is applied to every query head")
