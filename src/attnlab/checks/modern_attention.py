"""Checks for notebook 11, modern_attention: ``rope`` (both pairings), ``repeat_kv``,
``grouped_query_attention``, ``sliding_window_mask`` and ``kv_cache_bytes``, and its two
predict-then-run questions.

Each check takes the learner's function and ``hidden=False``; nbgrader's hidden tests call it
with ``hidden=True`` (other seeds and shapes). Inputs keep every size distinct (``Hq != Hkv``,
``Lq != Lk``, ``Dh != Dv``), positions that do not start at 0, and windows shorter than the
sequence, so that each mistake below gives another answer.
"""
from __future__ import annotations

import numpy as np

from .. import modern as _ref
from ..attention import scaled_dot_product_attention as _sdpa
from ._core import Case, Mistake, case_rng, run_check

# ---------------------------------------------------------------------------------------------
# rope(x, positions, base=10000.0, interleaved=False)


def _rope_with(freqs_fn=None, shift=0, sign=1.0, swap_pairing=False):
    """A RoPE with one thing changed (for the mistakes)."""

    def impl(x, positions, base=10000.0, interleaved=False):
        x = np.asarray(x, dtype=float)
        Dh = x.shape[-1]
        if Dh % 2:
            raise ValueError(f"x: expected an even last dimension Dh, got {x.shape}")
        inter = (not interleaved) if swap_pairing else interleaved
        freqs = freqs_fn(Dh, base) if freqs_fn else _ref.rope_frequencies(Dh, base)
        angles = (np.asarray(positions, dtype=float)[:, None] + shift) * freqs[None, :] * sign
        cos, sin = np.cos(angles), np.sin(angles)
        a, b = (x[..., 0::2], x[..., 1::2]) if inter else (x[..., : Dh // 2], x[..., Dh // 2:])
        out = np.empty_like(x)
        ra, rb = a * cos - b * sin, a * sin + b * cos
        if inter:
            out[..., 0::2], out[..., 1::2] = ra, rb
        else:
            out[..., : Dh // 2], out[..., Dh // 2:] = ra, rb
        return out
    return impl


def _freqs_k_over_Dh(Dh, base):
    return float(base) ** (-np.arange(Dh // 2) / Dh)


def _freqs_2k_over_half(Dh, base):
    return float(base) ** (-2.0 * np.arange(Dh // 2) / (Dh // 2))


def _freqs_increasing(Dh, base):
    return float(base) ** (2.0 * np.arange(Dh // 2) / Dh)


def _rope_no_odd_check(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=float)
    Dh = x.shape[-1] - x.shape[-1] % 2
    out = x.copy()
    out[..., :Dh] = _ref.rope(x[..., :Dh], positions, base, interleaved)
    return out


ROPE_MISTAKES = [
    Mistake("the pairs mixed up: halves (k, k + Dh/2) and interleaved (2k, 2k+1) swapped",
            "halves pair `x[..., :Dh//2]` with `x[..., Dh//2:]`; interleaved pairs `x[..., 0::2]` "
            "with `x[..., 1::2]`; pick the one `interleaved` asks for.",
            _rope_with(swap_pairing=True),
            "Which two features form pair k depends on the layout: halves pair k with k + Dh/2, "
            "interleaved pairs 2k with 2k+1."),
    Mistake("frequencies base^(-k/Dh) instead of base^(-2k/Dh)",
            "`freqs = base ** (-2 * np.arange(Dh // 2) / Dh)`.", _rope_with(freqs_fn=_freqs_k_over_Dh),
            "Pair k turns at the rate base to the power -2k/Dh: the exponent counts features, two per pair."),
    Mistake("frequencies base^(-2k/(Dh/2)): the exponent divided by the number of pairs",
            "the exponent is `-2 * k / Dh` with `Dh` the full head width.", _rope_with(freqs_fn=_freqs_2k_over_half),
            "The exponent divides by the full head width Dh, not by the number of pairs."),
    Mistake("frequencies growing with k (base^(+2k/Dh)) instead of shrinking",
            "the exponent is negative: `base ** (-2 * k / Dh)`.", _rope_with(freqs_fn=_freqs_increasing),
            "Pair 0 turns fastest, by one radian per position; later pairs turn ever more slowly."),
    Mistake("positions counted from 1 (position p rotated by p + 1)",
            "rotate row l by `positions[l]` itself; position 0 is not rotated at all.", _rope_with(shift=1),
            "Use the positions you are given as they are: the token at position 0 keeps its vector."),
    Mistake("the rotation turned the wrong way ((a cos + b sin, -a sin + b cos))",
            "`(a, b) -> (a*cos - b*sin, a*sin + b*cos)`.", _rope_with(sign=-1.0),
            "The rotation is counter-clockwise by the angle: the first feature loses b sin, the second gains a sin."),
    Mistake("no error for an odd head width (the last feature left unrotated)",
            "`if Dh % 2: raise ValueError(...)` naming x and its shape.", _rope_no_odd_check,
            "An odd width cannot be cut into pairs: reject it with a ValueError that names the argument."),
]


def _rope_cases(hidden: bool, interleaved: bool) -> list[Case]:
    rng = case_rng(111 + interleaved, hidden)
    specs = ([((), 5, 6, 10000.0), ((3,), 4, 8, 100.0), ((2, 2), 3, 4, 10.0)] if hidden
             else [((), 4, 8, 10000.0), ((2,), 5, 6, 100.0), ((2, 3), 3, 10, 10.0), ((), 1, 4, 10.0)])
    cases = []
    for batch, L, Dh, base in specs:
        pos = rng.permutation(np.arange(L) * 3 + 2)  # (L,) not 0..L-1, not sorted
        cases.append(Case((rng.normal(size=(*batch, L, Dh)), pos, base, interleaved),
                          why=f"(..., L={L}, Dh={Dh}), base {base:g}, positions {pos.tolist()}"))
    cases.append(Case((rng.normal(size=(3, 5)), np.arange(3), 10000.0, interleaved),
                      why="an odd head width Dh = 5", raises=ValueError))
    return cases


_ROPE_ARGS = ("x", "positions", "base", "interleaved")


def check_rope(rope, hidden: bool = False) -> None:
    """Check ``rope(x, positions, base, interleaved=False)``: pairs ``(k, k + Dh/2)``."""
    run_check(rope, exercise="rope", reference=_ref.rope, cases=_rope_cases(hidden, False),
              mistakes=ROPE_MISTAKES, arg_names=_ROPE_ARGS, show_values=not hidden,
              passed="halves pairing, angles positions * base^(-2k/Dh), odd widths rejected")


def check_rope_interleaved(rope, hidden: bool = False) -> None:
    """Check ``rope(x, positions, base, interleaved=True)``: pairs ``(2k, 2k+1)``."""
    run_check(rope, exercise="rope", reference=_ref.rope, cases=_rope_cases(hidden, True),
              mistakes=ROPE_MISTAKES, arg_names=_ROPE_ARGS, show_values=not hidden,
              passed="interleaved pairing (2k, 2k+1)")


# ---------------------------------------------------------------------------------------------
# repeat_kv(X, n_rep), grouped_query_attention(Q, K, V, mask=None)


def _repeat_tiled(X, n_rep):
    return np.tile(np.asarray(X, dtype=float), (1, n_rep, 1, 1))  # head h reads h % Hkv


def _repeat_wrong_axis(X, n_rep):
    return np.repeat(np.asarray(X, dtype=float), n_rep, axis=2)


def _repeat_batch_axis(X, n_rep):
    return np.repeat(np.asarray(X, dtype=float), n_rep, axis=0)


def _repeat_flat(X, n_rep):
    return np.repeat(np.asarray(X, dtype=float), n_rep, axis=None)


REPEAT_KV_MISTAKES = [
    Mistake("`repeat` (tile) order instead of `repeat_interleave` (head h % Hkv where h // n_rep is right)",
            "`np.repeat(X, n_rep, axis=1)` (torch: `X.repeat_interleave(n_rep, dim=1)`), not "
            "`np.tile` or `X.repeat(1, n_rep, 1, 1)`.", _repeat_tiled,
            "Each key/value head is repeated n_rep times in a row, so that a group of consecutive "
            "query heads shares one head: query head h reads head h // n_rep."),
    Mistake("repeated along the length axis instead of the head axis",
            "repeat along axis 1, the heads of (B, Hkv, L, D).", _repeat_wrong_axis,
            "The heads are the second axis of (B, Hkv, L, D); the length stays as it is."),
    Mistake("repeated along the batch axis instead of the head axis",
            "repeat along axis 1, the heads of (B, Hkv, L, D).", _repeat_batch_axis,
            "The heads are the second axis of (B, Hkv, L, D); the batch stays as it is."),
    Mistake("the array flattened (a repeat with no axis)", "give the axis: `axis=1`.", _repeat_flat,
            "Repeat along one axis only, the heads, and keep the four dimensions."),
]


def _repeat_cases(hidden: bool) -> list[Case]:
    rng = case_rng(113, hidden)
    specs = [((2, 3, 4, 5), 2), ((1, 2, 3, 2), 3), ((3, 1, 2, 4), 4)] if hidden else \
        [((2, 3, 4, 5), 2), ((1, 2, 5, 3), 4), ((2, 4, 3, 2), 1), ((3, 1, 2, 6), 3)]
    return [Case((rng.normal(size=s), n), why=f"X {s}, n_rep={n}") for s, n in specs]


def check_repeat_kv(repeat_kv, hidden: bool = False) -> None:
    """Check ``repeat_kv(X, n_rep)``: ``(B, Hkv, L, D) -> (B, Hkv*n_rep, L, D)``, head h from h // n_rep."""
    run_check(repeat_kv, exercise="repeat_kv", reference=_ref.repeat_kv, cases=_repeat_cases(hidden),
              mistakes=REPEAT_KV_MISTAKES, arg_names=("X", "n_rep"), show_values=not hidden,
              passed="each key/value head repeated n_rep times in a row")


def _softmax_last(s):
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def _gqa_with(repeat=_ref.repeat_kv, scale="sqrt", use_mask=True, axis=-1):
    """A grouped-query attention with one thing changed (for the mistakes)."""

    def impl(Q, K, V, mask=None):
        Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
        n = Q.shape[1] // K.shape[1]
        K, V = repeat(K, n), repeat(V, n)
        Dh = Q.shape[-1]
        s = Q @ np.swapaxes(K, -1, -2)
        s = {"sqrt": s / np.sqrt(Dh), "none": s, "Dh": s / Dh, "all": s / np.sqrt(Dh * Q.shape[1])}[scale]
        if mask is not None and use_mask:
            s = np.where(mask, s, -np.inf)
        if axis == -1:
            A = _softmax_last(s)
        else:
            A = np.swapaxes(_softmax_last(np.swapaxes(s, -1, -2)), -1, -2)
        A = np.nan_to_num(A)
        return A @ V, A
    return impl


def _gqa_swapped(Q, K, V, mask=None):
    out, weights = _ref.grouped_query_attention(Q, K, V, mask)
    return weights, out


GQA_MISTAKES = [
    Mistake("`repeat` (tile) order instead of `repeat_interleave` (head h % Hkv where h // n_rep is right)",
            "repeat each key/value head n_rep times in a row: `attnlab.repeat_kv(K, Hq // Hkv)`.",
            _gqa_with(repeat=_repeat_tiled), REPEAT_KV_MISTAKES[0].principle),
    Mistake("no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dh)", "divide the scores by `np.sqrt(Dh)`.",
            _gqa_with(scale="none"), "Scale the scores by the square root of the head width Dh."),
    Mistake("scaling by Dh instead of √Dh", "divide by `np.sqrt(Dh)`.", _gqa_with(scale="Dh"),
            "Scale the scores by the square root of the head width, not the width itself."),
    Mistake("scaling by √(Hq·Dh) (the model width) instead of √Dh", "divide by `np.sqrt(Q.shape[-1])`.",
            _gqa_with(scale="all"), "Each head's scores are dot products of Dh numbers: scale by √Dh."),
    Mistake("the mask ignored", "pass the mask to the softmax: `attnlab.masked_softmax(scores, mask)`.",
            _gqa_with(use_mask=False), "Keys the mask forbids must get weight exactly 0."),
    Mistake("a softmax over the wrong axis (over the queries)", "softmax over the last axis, the keys.",
            _gqa_with(axis=-2), "Each query's weights over the keys sum to 1: normalise along the key axis."),
    Mistake("returning (weights, output) instead of (output, weights)", "`return output, weights`.",
            _gqa_swapped, "The contract returns the output first, then the weights."),
]


def _gqa_case(rng, B, Hq, Hkv, Lq, Lk, Dh, Dv, mask, why):
    Q = rng.normal(size=(B, Hq, Lq, Dh))
    K, V = rng.normal(size=(B, Hkv, Lk, Dh)), rng.normal(size=(B, Hkv, Lk, Dv))
    return Case((Q, K, V) if mask is None else (Q, K, V, mask), why=why)


def _gqa_cases(hidden: bool, masked: bool) -> list[Case]:
    rng = case_rng(114 + masked, hidden)
    specs = ([(2, 6, 2, 3, 5, 4, 2), (1, 4, 1, 4, 2, 3, 5)] if hidden
             else [(2, 4, 2, 3, 6, 5, 2), (1, 6, 3, 2, 4, 2, 3), (2, 3, 1, 4, 3, 5, 2), (1, 2, 2, 3, 4, 2, 3)])
    cases = []
    for B, Hq, Hkv, Lq, Lk, Dh, Dv in specs:
        mask = _ref.sliding_window_mask(Lq, Lk, 2, offset=max(0, Lk - Lq)) if masked else None
        kind = "MQA" if Hkv == 1 else ("MHA" if Hkv == Hq else "GQA")
        why = f"{kind}: Hq={Hq}, Hkv={Hkv}, Lq={Lq}, Lk={Lk}, Dh={Dh}, Dv={Dv}" + (", a window-2 mask" if masked else "")
        cases.append(_gqa_case(rng, B, Hq, Hkv, Lq, Lk, Dh, Dv, mask, why))
    if not masked:
        cases.append(Case((rng.normal(size=(1, 4, 2, 3)), rng.normal(size=(1, 3, 2, 3)),
                           rng.normal(size=(1, 3, 2, 3))), why="Hq = 4 is no multiple of Hkv = 3",
                          raises=ValueError))
    return cases


_GQA_ARGS = ("Q", "K", "V", "mask")


def check_grouped_query_attention(grouped_query_attention, hidden: bool = False) -> None:
    """Check ``grouped_query_attention(Q, K, V)`` for MHA, GQA and MQA head counts."""
    run_check(grouped_query_attention, exercise="grouped_query_attention",
              reference=_ref.grouped_query_attention, cases=_gqa_cases(hidden, False),
              mistakes=GQA_MISTAKES, arg_names=_GQA_ARGS, outputs=("output", "weights"),
              show_values=not hidden, passed="query head h reads key/value head h // (Hq/Hkv); MHA, GQA, MQA")


def check_grouped_query_attention_masked(grouped_query_attention, hidden: bool = False) -> None:
    """Check ``grouped_query_attention(Q, K, V, mask)`` with a boolean mask."""
    run_check(grouped_query_attention, exercise="grouped_query_attention",
              reference=_ref.grouped_query_attention, cases=_gqa_cases(hidden, True),
              mistakes=GQA_MISTAKES, arg_names=_GQA_ARGS, outputs=("output", "weights"),
              show_values=not hidden, passed="the mask is applied to every query head")


# ---------------------------------------------------------------------------------------------
# sliding_window_mask(Lq, Lk, window, offset=0)


def _swm(lo=0, width=0, use_offset=True, sign=1, symmetric=False):
    def impl(Lq, Lk, window, offset=0):
        i = np.arange(Lq)[:, None] + (sign * offset if use_offset else 0)
        rel = i - np.arange(Lk)[None, :]
        if symmetric:
            return np.abs(rel) < window
        return (rel >= lo) & (rel < window + width)
    return impl


SLIDING_MISTAKES = [
    Mistake("a window off by one: the token sees itself and `window` tokens before it",
            "keep `(i + offset) - j < window`, strictly: the window counts the token itself.",
            _swm(width=1), "A window of w holds w tokens: the query's own position and the w - 1 before it."),
    Mistake("a window off by one: the token sees only `window - 1` tokens in all",
            "keep `(i + offset) - j < window`, not `<= window - 1` less one.", _swm(width=-1),
            "A window of w holds w tokens: the query's own position and the w - 1 before it."),
    Mistake("the token does not see itself (`0 < (i + offset) - j`)", "the lower bound is `0 <=`.",
            _swm(lo=1), "The difference of positions may be 0: a token attends to itself."),
    Mistake("the offset ignored: cached queries treated as if they started at position 0",
            "query row i is the token at position `i + offset`.", _swm(use_offset=False),
            "When the queries are the newest rows of a cache, row i stands at absolute position i + offset."),
    Mistake("the offset subtracted instead of added", "query row i is at position `i + offset`.",
            _swm(sign=-1), "The offset moves the queries later, towards the newest keys."),
    Mistake("a symmetric window (|i - j| < window): future tokens visible",
            "keep the difference non-negative: `0 <= (i + offset) - j`.", _swm(symmetric=True),
            "A decoder's window looks back only: a query never sees a later position."),
]


def _swm_cases(hidden: bool, with_offset: bool) -> list[Case]:
    if with_offset:
        specs = [(2, 7, 3, 5), (3, 9, 4, 6), (1, 5, 2, 4)] if hidden else [(2, 6, 3, 4), (3, 8, 2, 5), (1, 6, 4, 5), (4, 9, 3, 7)]
        return [Case((Lq, Lk, w), {"offset": o}, why=f"Lq={Lq}, Lk={Lk}, window={w}, offset={o}")
                for Lq, Lk, w, o in specs]
    specs = [(6, 6, 2), (5, 7, 3), (3, 3, 3)] if hidden else [(5, 5, 2), (6, 8, 3), (4, 4, 4), (7, 7, 1)]
    return [Case((Lq, Lk, w), why=f"Lq={Lq}, Lk={Lk}, window={w}" + (" (= the length: causal)" if w == Lq == Lk else ""))
            for Lq, Lk, w in specs]


def check_sliding_window_mask(sliding_window_mask, hidden: bool = False) -> None:
    """Check ``sliding_window_mask(Lq, Lk, window)`` with no offset."""
    run_check(sliding_window_mask, exercise="sliding_window_mask", reference=_ref.sliding_window_mask,
              cases=_swm_cases(hidden, False), mistakes=SLIDING_MISTAKES,
              arg_names=("Lq", "Lk", "window", "offset"), show_values=not hidden,
              passed="each token sees itself and the window - 1 tokens before it")


def check_sliding_window_mask_offset(sliding_window_mask, hidden: bool = False) -> None:
    """Check ``sliding_window_mask(Lq, Lk, window, offset)`` for the newest rows of a cache."""
    run_check(sliding_window_mask, exercise="sliding_window_mask", reference=_ref.sliding_window_mask,
              cases=_swm_cases(hidden, True), mistakes=SLIDING_MISTAKES,
              arg_names=("Lq", "Lk", "window", "offset"), show_values=not hidden,
              passed="query row i stands at absolute position i + offset")


# ---------------------------------------------------------------------------------------------
# kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None)


def _kv(factor=2, bits=False, window_used=True, min_taken=True, batch_used=True):
    def impl(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
        tokens = seq_len
        if window is not None and window_used:
            tokens = min(seq_len, window) if min_taken else window
        return (factor * num_layers * num_kv_heads * head_dim * tokens * (batch if batch_used else 1)
                * bytes_per_value * (8 if bits else 1))
    return impl


KV_MISTAKES = [
    Mistake("K and V counted once (no factor 2)", "the cache holds keys and values: multiply by 2.",
            _kv(factor=1), "Every cached token stores a key and a value vector per layer and per key/value head."),
    Mistake("bits for bytes (8 times too many)", "`bytes_per_value` is already in bytes: do not multiply by 8.",
            _kv(bits=True), "Count bytes: bytes_per_value is 2 for bf16, not 16."),
    Mistake("the window ignored in the calculator", "cache `min(seq_len, window)` tokens when a window is given.",
            _kv(window_used=False), "A sliding window keeps only the last window tokens in the cache."),
    Mistake("the window used even when the sequence is shorter (window instead of min(seq_len, window))",
            "cache `min(seq_len, window)` tokens.", _kv(min_taken=False),
            "A cache never holds more tokens than the sequence has."),
    Mistake("the batch ignored", "multiply by `batch`: every sequence has its own cache.", _kv(batch_used=False),
            "Each sequence of the batch has its own keys and values."),
]


def _kv_cases(hidden: bool, windowed: bool) -> list[Case]:
    if windowed:
        specs = [((4, 2, 16, 100), dict(window=8, batch=3)), ((2, 3, 8, 5), dict(window=7))] if hidden else \
            [((32, 32, 128, 32768), dict(window=1024)), ((3, 2, 4, 10), dict(window=4, batch=3, bytes_per_value=4)),
             ((2, 1, 8, 6), dict(window=9))]
    else:
        specs = [((6, 3, 64, 1000), dict(batch=2)), ((2, 5, 8, 7), dict(bytes_per_value=4))] if hidden else \
            [((32, 32, 128, 32768), {}), ((32, 8, 128, 32768), {}), ((3, 2, 4, 5), dict(batch=3, bytes_per_value=4))]
    return [Case(a, kw, why=f"{a} {kw}" if kw else f"{a}") for a, kw in specs]


_KV_ARGS = ("num_layers", "num_kv_heads", "head_dim", "seq_len", "batch", "bytes_per_value", "window")


def check_kv_cache_bytes(kv_cache_bytes, hidden: bool = False) -> None:
    """Check ``kv_cache_bytes(...)`` with no window (the published 17.18 GB and 4.29 GB)."""
    run_check(kv_cache_bytes, exercise="kv_cache_bytes", reference=_ref.kv_cache_bytes,
              cases=_kv_cases(hidden, False), mistakes=KV_MISTAKES, arg_names=_KV_ARGS,
              rtol=1e-9, show_values=True, passed="keys and values, every layer, head, token, sequence and byte")


def check_kv_cache_bytes_window(kv_cache_bytes, hidden: bool = False) -> None:
    """Check ``kv_cache_bytes(..., window=w)``: ``min(seq_len, window)`` tokens."""
    run_check(kv_cache_bytes, exercise="kv_cache_bytes", reference=_ref.kv_cache_bytes,
              cases=_kv_cases(hidden, True), mistakes=KV_MISTAKES, arg_names=_KV_ARGS,
              rtol=1e-9, show_values=True, passed="a window bounds the cache at min(seq_len, window) tokens")


# ---------------------------------------------------------------------------------------------
# Predict, then run

from ._predict import Prediction, WrongPrediction  # noqa: E402

SHIFTED_SCORES = Prediction(
    "prediction_shifted_scores", "choice", "unchanged",
    "Query p is turned by p·θ_k in pair k, key p' by p'·θ_k; their dot product in that pair is "
    "the dot product of the unrotated pair turned by (p − p')·θ_k. Adding 100 to every position "
    "leaves every difference p − p' as it was, so every score, and the whole matrix, is unchanged.",
    options=("unchanged", "every score changes", "only the diagonal is unchanged"),
    wrong=(
        WrongPrediction("every score changes", "new positions give new rotations, so new scores",
                        "Each vector is indeed rotated differently, but queries and keys turn by the "
                        "same extra angle, and a dot product does not see a rotation applied to both."),
        WrongPrediction("only the diagonal is unchanged", "a token against itself has offset 0",
                        "Every entry depends on its offset alone, and no offset changes when all "
                        "positions move together: the off-diagonal entries stay too."),
    ),
)


def check_prediction_shifted_scores(prediction_shifted_scores, hidden: bool = False) -> None:
    """Check the prediction of RoPE scores when every position moves by the same amount."""
    SHIFTED_SCORES.check(prediction_shifted_scores, hidden=hidden)


GQA_CACHE = Prediction(
    "prediction_gqa_cache_gb", "number", 4.29,
    "The cache holds one key and one value vector per key/value head, not per query head: 8 "
    "key/value heads instead of 32 is a quarter of 17.18 GB, 4.29 GB. The queries are never cached.",
    rtol=0.01,
    wrong=(
        WrongPrediction(17.18, "the cache follows the query heads",
                        "The 32 query heads are computed afresh for each new token; only keys and "
                        "values are cached, and there are 8 of those heads."),
        WrongPrediction(2.15, "K and V counted once",
                        "Each cached token keeps a key and a value: twice one of them."),
        WrongPrediction(34.36, "bits for bytes, or bf16 counted as 4 bytes",
                        "bf16 takes 2 bytes per number."),
    ),
)


def check_prediction_gqa_cache_gb(prediction_gqa_cache_gb, hidden: bool = False) -> None:
    """Check the prediction of the KV cache of the 32-layer model with 8 key/value heads, in GB."""
    GQA_CACHE.check(prediction_gqa_cache_gb, hidden=hidden)
