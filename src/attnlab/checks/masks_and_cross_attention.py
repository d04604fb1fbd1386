"""Checks for notebook 04, masks_and_cross_attention: ``causal_mask``, ``padding_mask``,
``masked_softmax``, ``cross_attention``.

Each check takes the learner's function and ``hidden=False``; nbgrader's hidden tests call it
with ``hidden=True``, which draws other inputs (other seeds and shapes) than the visible ones.
The inputs separate the known mistakes: ``Lq != Lk`` both ways (a transposed or bottom-right
aligned causal mask), ``B != Lk`` (a padding mask of shape ``(Lk, B)``), masks that broadcast
and rows with no key at all, ``Dq != Dkv`` and ``Dk != Dv``, batched and unbatched inputs.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..cross_attention import cross_attention as _cross_attention
from .. import masks as _masks
from ..averages import softmax as _softmax
from ._contract import invoke_numpy, numpy_exercise
from ._core import Case, Mistake, case_rng, run_check
from ._predict import Prediction, WrongPrediction


@numpy_exercise
def _invoke_mask(fn, *args, **kwargs):
    """Call a mask function (``run_check(invoke=...)``); that the mask is a bool numpy array is
    the type rule's to judge (``_contract.type_mistake``), as for every numpy exercise."""
    return fn(*args, **kwargs)


# ---------------------------------------------------------------------------------------------
# causal_mask

def _cm_strict(Lq, Lk):
    return np.tril(np.ones((Lq, Lk), dtype=bool), k=-1)


def _cm_upper(Lq, Lk):
    return np.triu(np.ones((Lq, Lk), dtype=bool))


def _cm_blocked(Lq, Lk):
    return np.triu(np.ones((Lq, Lk), dtype=bool), k=1)


def _cm_bottom_right(Lq, Lk):
    return np.tril(np.ones((Lq, Lk), dtype=bool), k=Lk - Lq)


def _cm_swapped(Lq, Lk):
    return _masks.causal_mask(Lq, Lk).T


def _cm_swapped_tril(Lq, Lk):
    return np.tril(np.ones((Lk, Lq), dtype=bool))


def _cm_square(Lq, Lk):
    return np.tril(np.ones((Lq, Lq), dtype=bool))


CAUSAL_MASK_MISTAKES = [
    Mistake("a strict mask j < i: each query may not see its own position (the diagonal is masked)",
            "use `j <= i` (`np.tril` with `k=0`): token i may attend to itself and to every "
            "earlier token.", _cm_strict),
    Mistake("the transposed mask (the upper triangle: each query sees the future, not the past)",
            "query i (row) may see key j (column) when j <= i: the lower triangle, `np.tril`.",
            _cm_upper),
    Mistake("the opposite convention, True = blocked (as nn.MultiheadAttention's attn_mask)",
            "in this course True means *may attend*: negate your mask (`~mask`), i.e. True on and "
            "below the diagonal.", _cm_blocked),
    Mistake("a bottom-right aligned mask (the last query sees every key) when Lq != Lk",
            "align the mask at the top left, as SDPA's `is_causal`: True where j <= i, whatever "
            "Lq and Lk are (`np.tril(np.ones((Lq, Lk), dtype=bool))`, no offset).",
            _cm_bottom_right),
    Mistake("the shape (Lk, Lq) instead of (Lq, Lk)",
            "rows are queries and columns are keys: build the mask with shape (Lq, Lk), from a "
            "column of query indices `(Lq, 1)` and a row of key indices `(1, Lk)`.", _cm_swapped),
    Mistake("the shape (Lk, Lq) instead of (Lq, Lk)",
            "rows are queries and columns are keys: `np.ones((Lq, Lk), dtype=bool)`, in that order.",
            _cm_swapped_tril),
    Mistake("a square (Lq, Lq) mask that ignores Lk",
            "the mask needs one column per key: shape (Lq, Lk).", _cm_square),
]


def _cm_cases(hidden: bool) -> list[Case]:
    shapes = [(2, 5), (6, 6), (5, 2), (1, 3)] if hidden else [(3, 5), (4, 4), (5, 3)]
    why = {True: "a square mask", False: "Lq != Lk"}
    return [Case((Lq, Lk), why=why[Lq == Lk] + (", fewer queries than keys" if Lq < Lk else
                                                 ", more queries than keys" if Lq > Lk else ""))
            for Lq, Lk in shapes]


def check_causal_mask(causal_mask, hidden: bool = False) -> None:
    """Check that ``causal_mask(Lq, Lk)`` is the boolean ``(Lq, Lk)`` mask ``j <= i``."""
    run_check(causal_mask, exercise="causal_mask", reference=_masks.causal_mask,
              cases=_cm_cases(hidden), mistakes=CAUSAL_MASK_MISTAKES, arg_names=("Lq", "Lk"),
              show_values=not hidden, passed="True where j <= i, top-left aligned",
              invoke=_invoke_mask)


# ---------------------------------------------------------------------------------------------
# padding_mask

def _pm_le(lengths, Lk):
    return np.arange(Lk)[None, :] <= np.asarray(lengths)[:, None]


def _pm_inverted(lengths, Lk):
    return np.arange(Lk)[None, :] >= np.asarray(lengths)[:, None]


def _pm_transposed(lengths, Lk):
    return np.arange(Lk)[:, None] < np.asarray(lengths)[None, :]


def _pm_max(lengths, Lk):
    lengths = np.asarray(lengths)
    return np.tile(np.arange(Lk) < lengths.max(), (len(lengths), 1))


def _pm_max_width(lengths, Lk):
    lengths = np.asarray(lengths)
    return np.arange(lengths.max()) [None, :] < lengths[:, None]


def _pm_flat(lengths, Lk):
    return np.concatenate([np.arange(Lk) < n for n in np.asarray(lengths)])


PADDING_MASK_MISTAKES = [
    Mistake("j <= lengths[b]: one padding position too many is allowed",
            "positions 0 .. lengths[b] - 1 are real: use a strict `<`.", _pm_le),
    Mistake("the inverted mask (True on the padding)",
            "True must mean *may attend*, i.e. a real token: `j < lengths[b]`; nn.MultiheadAttention's "
            "key_padding_mask is the one with True on the padding.", _pm_inverted),
    Mistake("the shape (Lk, B) instead of (B, Lk)",
            "one row per sequence: compare `np.arange(Lk)[None, :]` (1, Lk) with "
            "`lengths[:, None]` (B, 1) to get (B, Lk).", _pm_transposed),
    Mistake("the same mask for every sequence (using the longest length)",
            "each row b has its own length: compare the positions with `lengths[:, None]`.", _pm_max),
    Mistake("one flat vector instead of one row per sequence",
            "stack the rows (`np.stack`) or broadcast `(1, Lk) < (B, 1)` to get shape (B, Lk).",
            _pm_flat),
    Mistake("a mask as wide as the longest sequence, max(lengths), instead of Lk",
            "the width is the `Lk` argument (the padded length), not `lengths.max()`: "
            "`np.arange(Lk)[None, :] < lengths[:, None]`.", _pm_max_width,
            "The mask has one column per key position: its width is Lk, whatever the lengths."),
]


def _pm_cases(hidden: bool) -> list[Case]:
    if hidden:
        data = [([3, 1, 6, 0], 6), ([2], 2), ([4, 2], 7)]
    else:
        data = [([2, 5, 1], 5), ([0, 3], 3), ([4, 2, 4, 1], 6)]
    def why(lengths, Lk):
        return (f"lengths {lengths}" + (", an empty sequence" if 0 in lengths else "")
                + (", a sequence without padding" if Lk in lengths else ""))

    return [Case((np.array(lengths, dtype=np.int64), Lk), why=why(lengths, Lk))
            for lengths, Lk in data]


def check_padding_mask(padding_mask, hidden: bool = False) -> None:
    """Check that ``padding_mask(lengths, Lk)`` is the boolean ``(B, Lk)`` mask ``j < lengths[b]``."""
    run_check(padding_mask, exercise="padding_mask", reference=_masks.padding_mask,
              cases=_pm_cases(hidden), mistakes=PADDING_MASK_MISTAKES, arg_names=("lengths", "Lk"),
              show_values=not hidden, passed="True where j < lengths[b]", invoke=_invoke_mask)


# ---------------------------------------------------------------------------------------------
# masked_softmax

def _ms_after(scores, mask):
    return _softmax(scores) * mask


def _ms_inverted(scores, mask):
    return _masks.masked_softmax(scores, ~np.asarray(mask))


def _ms_neg_inf(scores, mask):
    return _softmax(np.where(mask, scores, -np.inf))


def _ms_big_negative(scores, mask):
    return _softmax(np.where(mask, scores, -1e9))


def _ms_ignored(scores, mask):
    return _softmax(scores)


def _ms_zero_fill(scores, mask):
    return _softmax(np.where(mask, scores, 0.0))


def _ms_axis(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    w = _masks.masked_softmax(np.swapaxes(scores, -1, -2), np.swapaxes(mask, -1, -2))
    return np.swapaxes(w, -1, -2)


def _ms_additive(scores, mask):
    return _softmax(scores + (~np.asarray(mask)) * -1e9)


def _ms_inverted_neg_inf(scores, mask):
    return _softmax(np.where(mask, -np.inf, scores))


def _ms_indexing(scores, mask):
    s = np.array(scores, dtype=float)
    s[~mask] = -1e9  # IndexError unless the mask has the full shape of the scores
    return _softmax(s) * mask


def _ms_shift_all(scores, mask, guard=False):
    """The shift taken over every key, masked ones included: exp underflows on the allowed keys
    when a masked key holds the row's largest score (0/0, or zeros behind a guard)."""
    s = np.asarray(scores, dtype=float)
    e = np.exp(s - s.max(axis=-1, keepdims=True)) * mask
    total = e.sum(axis=-1, keepdims=True)
    if guard:
        return np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
    return e / total


def _ms_shift_all_guarded(scores, mask):
    return _ms_shift_all(scores, mask, guard=True)


def _ms_unstable(scores, mask):
    e = np.exp(np.where(mask, scores, -np.inf))  # no shift: exp(1e4) = inf
    total = e.sum(axis=-1, keepdims=True)
    return np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)


_SHIFT_PRINCIPLE = ("Shift each row by the largest score among its allowed keys only: a masked key "
                    "may hold any score, and a shift by it can push every allowed exponential "
                    "below the smallest float (0/0).")

MASKED_SOFTMAX_RANGE_MISTAKES = [
    Mistake("the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score (far above the allowed ones) makes every allowed exp underflow, 0/0 = NaN",
            "take the max after masking: `s = np.where(mask, scores, -np.inf)`, then "
            "`s - s.max(axis=-1, keepdims=True)` (and zero the rows with no allowed key).",
            _ms_shift_all, _SHIFT_PRINCIPLE),
    Mistake("the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score (far above the allowed ones) makes every allowed exp underflow, and the "
            "row comes out all zero",
            "take the max after masking: `s = np.where(mask, scores, -np.inf)`, then "
            "`s - s.max(axis=-1, keepdims=True)`.", _ms_shift_all_guarded, _SHIFT_PRINCIPLE),
    Mistake("a masked softmax without the max subtraction: exp overflows for scores of 1e4 "
            "(inf / inf = NaN)",
            "subtract each row's largest allowed score before `np.exp` (fill masked scores with "
            "-inf first); the shift cancels in the ratio.", _ms_unstable,
            "Shift each row by its largest allowed score before exponentiating; the shift cancels "
            "in the ratio and keeps exp below overflow."),
]

MASKED_SOFTMAX_MISTAKES = MASKED_SOFTMAX_RANGE_MISTAKES[1:2] + [  # equal to the reference but on the range case
    Mistake("the mask applied after the softmax, without renormalising (rows no longer sum to 1)",
            "mask the *scores* before the softmax (`np.where(mask, scores, -np.inf)`), so the "
            "allowed weights are renormalised among themselves; or divide by the new row sums.",
            _ms_after),
    Mistake("the mask inverted (True treated as blocked)",
            "True = may attend: keep the scores where `mask` is True and block the others.",
            _ms_inverted),
    Mistake("filling masked scores with -inf: a fully masked row becomes 0/0 = NaN",
            "keep the weights only where the mask is True: `np.where(mask, weights, 0.0)` turns "
            "the NaN of a fully masked row into zeros (or divide by a row sum that you replace by 1 "
            "where it is 0).", _ms_neg_inf),
    Mistake("filling masked scores with a big negative number (-1e9): a fully masked row gets "
            "uniform weights instead of zeros",
            "on a row where every score is -1e9 the softmax is uniform (shift invariance); "
            "multiply the weights by the mask afterwards (`weights * mask`), which zeroes such rows "
            "and changes nothing elsewhere.", _ms_big_negative),
    Mistake("ignoring the mask", "block the scores where `mask` is False before the softmax.",
            _ms_ignored),
    Mistake("setting masked scores to 0 instead of -inf (a score of 0 still gets weight e^0)",
            "a masked key must get weight exactly 0: fill its score with -inf (or -1e9), not 0.",
            _ms_zero_fill),
    Mistake("a softmax over the wrong axis (over the queries, axis -2)",
            "each query's weights over the keys sum to one: take the softmax over the last axis.",
            _ms_axis),
    Mistake("boolean indexing `scores[~mask] = ...`, which fails when the mask only broadcasts",
            "use `np.where(mask, scores, fill)`: it broadcasts a (B, 1, Lk) or (Lq, Lk) mask "
            "against (B, Lq, Lk) scores (and does not modify the input).", _ms_indexing),
    Mistake("an additive mask (`scores + (1 - mask) * -1e9`): a fully masked row gets the softmax "
            "of its raw scores instead of zeros",
            "adding -1e9 everywhere on a row shifts the whole row, which the softmax ignores; "
            "multiply the weights by the mask afterwards (`weights * mask`), or use "
            "`np.where(mask, weights, 0.0)`.", _ms_additive,
            "A row with no allowed key must get zero weights: shifting every score of a row "
            "changes nothing after the softmax, so zero such rows explicitly."),
    Mistake("the mask inverted and masked scores filled with -inf: a row that may see every key "
            "becomes NaN",
            "True = may attend: `np.where(mask, scores, -np.inf)`, then zero the weights where the "
            "mask is False (`np.where(mask, weights, 0.0)`).", _ms_inverted_neg_inf,
            "True means \"may attend\": block the scores where the mask is False, and give a row "
            "with no allowed key zero weights, never 0/0."),
] + MASKED_SOFTMAX_RANGE_MISTAKES[::2]


def _random_mask(rng, shape, keep_one=True):
    mask = rng.random(shape) < 0.6
    if keep_one:
        idx = rng.integers(0, shape[-1], size=shape[:-1])
        np.put_along_axis(mask, idx[..., None], True, axis=-1)
    return mask


def _ms_cases(hidden: bool) -> list[Case]:
    rng = case_rng(141 if hidden else 41, hidden)
    Lq, Lk = (5, 3) if hidden else (4, 6)
    lengths = np.array([2, 4, 1]) if hidden else np.array([3, 5])
    B = len(lengths)
    return [
        Case((rng.normal(size=(Lq, Lk)) * 2, _random_mask(rng, (Lq, Lk))),
             why="a random mask, every row keeps at least one key"),
        Case((rng.normal(size=(B, 3, 5)) * 2, _masks.padding_mask(lengths, 5)[:, None, :]),
             why="a padding mask (B, 1, Lk) broadcast over the queries"),
        Case((rng.normal(size=(2, 4, 4)) * 2, _masks.causal_mask(4, 4)),
             why="a causal mask (Lq, Lk) broadcast over the batch"),
        _ms_range_case(rng, (3, 6) if hidden else (4, 5)),
    ]


def _ms_range_case(rng, shape):
    """Scores of +-1e4 whose masked keys hold the row's largest score (3e4): the range the
    contract allows, where an unshifted exp overflows and a shift by a masked key underflows."""
    sign = np.resize([1.0, -1.0], int(np.prod(shape[:-1]))).reshape(*shape[:-1], 1)  # rows of +1e4 and of -1e4
    mask = _random_mask(rng, shape)
    mask[..., 0] = False  # every row has a masked key ...
    mask[..., 1] = True   # ... and an allowed one
    scores = np.where(mask, sign * 1e4 + rng.normal(size=shape) * 2, 3e4)
    return Case((scores, mask), why="scores of +-1e4, masked keys holding each row's largest score")


def _ms_full_cases(hidden: bool) -> list[Case]:
    rng = case_rng(142 if hidden else 42, hidden)
    mask = _random_mask(rng, (4, 5))
    mask[1 if hidden else 2] = False
    lengths = np.array([4, 0, 2]) if hidden else np.array([0, 4])
    B = len(lengths)
    Lq, Lk = (6, 4) if hidden else (5, 3)
    bottom_right = np.tril(np.ones((Lq, Lk), dtype=bool), k=Lk - Lq)  # first Lq - Lk rows empty
    return [
        Case((rng.normal(size=(4, 5)) * 2, mask), why="one row with no key to attend to"),
        Case((rng.normal(size=(B, 3, 4)) * 2, _masks.padding_mask(lengths, 4)[:, None, :]),
             why="a sequence of length 0: every row of it is fully masked"),
        Case((rng.normal(size=(2, Lq, Lk)) * 2, bottom_right),
             why="a bottom-right causal mask with Lq > Lk: the first rows see no key"),
    ]


def check_masked_softmax(masked_softmax, hidden: bool = False) -> None:
    """Check that ``masked_softmax(scores, mask)`` renormalises over the allowed keys."""
    run_check(masked_softmax, exercise="masked_softmax", reference=_masks.masked_softmax,
              cases=_ms_cases(hidden), mistakes=MASKED_SOFTMAX_MISTAKES,
              arg_names=("scores", "mask"), show_values=not hidden,
              passed="masked weights are 0, the others renormalised",
              invoke=invoke_numpy)


def check_masked_softmax_fully_masked(masked_softmax, hidden: bool = False) -> None:
    """Check that ``masked_softmax`` gives a fully masked row all-zero weights (never NaN)."""
    run_check(masked_softmax, exercise="masked_softmax", reference=_masks.masked_softmax,
              cases=_ms_full_cases(hidden), mistakes=MASKED_SOFTMAX_MISTAKES,
              arg_names=("scores", "mask"), show_values=not hidden,
              passed="fully masked rows get zero weights",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# cross_attention

def _sw(X):
    return np.swapaxes(X, -1, -2)


def _ca(Q, K, V, mask=None, *, scale=None, axis=-1, T=False):
    """Attention of Q over K, V with one deliberate change (the mistakes below)."""
    Dk = Q.shape[-1]
    scores = Q @ (K.T if T else _sw(K)) / (np.sqrt(Dk) if scale is None else scale)
    if axis == -1:
        weights = _masks.masked_softmax(scores, mask)
    else:
        weights = _sw(_masks.masked_softmax(_sw(scores), None if mask is None else
                                           _sw(np.broadcast_to(mask, scores.shape))))
    return weights @ V, weights


def _ca_softmax_variant(X_q, X_kv, W_q, W_k, W_v, mask=None, *, softmax):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ _sw(K) / np.sqrt(Q.shape[-1])
    weights = softmax(scores, np.ones(scores.shape, bool) if mask is None else np.broadcast_to(mask, scores.shape))
    return weights @ V, weights


CA_RANGE_MISTAKES = [Mistake(m.name, m.fix, partial(_ca_softmax_variant, softmax=m.impl), m.principle)
                     for m in MASKED_SOFTMAX_RANGE_MISTAKES]
CA_NAN_MISTAKE = Mistake("filling masked scores with -inf: a fully masked row becomes 0/0 = NaN",
                         "keep the weights only where the mask is True: `np.where(mask, weights, 0.0)` "
                         "turns the NaN of a fully masked row into zeros.",
                         partial(_ca_softmax_variant, softmax=_ms_neg_inf))


def _ca_dot_T(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask, T=True)


def _ca_q_from_kv(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_kv @ W_q, X_kv @ W_k, X_kv @ W_v, mask)


def _ca_self(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_q @ W_k, X_q @ W_v, mask)


def _ca_v_from_k(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_k, mask)


def _ca_sqrt_dv(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask, scale=np.sqrt(W_v.shape[1]))


def _ca_dk(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask, scale=W_q.shape[1])


def _ca_unscaled(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask, scale=1.0)


def _ca_sqrt_dq(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask, scale=np.sqrt(X_q.shape[-1]))


def _ca_axis(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask, axis=-2)


def _ca_no_mask(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, None)


def _ca_inverted(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, None if mask is None else ~np.asarray(mask))


def _ca_mask_transposed(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _ca(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, None if mask is None else _sw(np.asarray(mask)))


def _ca_output_only(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return _cross_attention(X_q, X_kv, W_q, W_k, W_v, mask)[0]


def _ca_swapped_returns(X_q, X_kv, W_q, W_k, W_v, mask=None):
    out, w = _cross_attention(X_q, X_kv, W_q, W_k, W_v, mask)
    return w, out


CROSS_ATTENTION_MISTAKES = CA_RANGE_MISTAKES[1:2] + [
    Mistake("`X.T` on a batch: it reverses every axis, not just the last two",
            "transpose only the last two axes: `np.swapaxes(K, -1, -2)` (or use "
            "`attnlab.scaled_dot_product_attention`).", _ca_dot_T),
    Mistake("queries projected from X_kv instead of X_q",
            "queries come from the sequence that asks: `Q = X_q @ W_q`; only keys and values "
            "come from X_kv.", _ca_q_from_kv),
    Mistake("keys and values taken from X_q (self-attention, X_kv unused)",
            "cross-attention looks at the *other* sequence: `K = X_kv @ W_k`, `V = X_kv @ W_v`.",
            _ca_self),
    Mistake("W_k used for the values", "values have their own projection: `V = X_kv @ W_v` "
            "(of width Dv, which may differ from Dk).", _ca_v_from_k),
    Mistake("scaling by √Dv instead of √Dk",
            "the scores are dot products of width-Dk queries and keys: divide by "
            "`np.sqrt(W_q.shape[1])`.", _ca_sqrt_dv),
    Mistake("scaling by Dk instead of √Dk", "divide the scores by `np.sqrt(Dk)`, not by Dk.", _ca_dk),
    Mistake("no scaling of the scores", "divide `Q Kᵀ` by `√Dk` before the softmax.", _ca_unscaled),
    Mistake("scaling by √Dq (the width of X_q) instead of √Dk",
            "scale by the width of the projected queries and keys, `W_q.shape[1]`.", _ca_sqrt_dq),
    Mistake("a softmax over the queries (axis -2) instead of the keys",
            "each query's weights over the Lk keys must sum to one: softmax over the last axis.",
            _ca_axis),
    Mistake("ignoring the mask", "pass `mask` on to the attention "
            "(`attnlab.scaled_dot_product_attention(Q, K, V, mask)`).", _ca_no_mask),
    Mistake("the mask inverted (True treated as blocked)",
            "True = may attend: pass the mask as it is, without `~`.", _ca_inverted),
    Mistake("the mask transposed: applied along the query axis instead of the key axis (the wrong axis)",
            "the mask is (..., Lq, Lk), one row per query: pass it as it is, without `.T` or "
            "`swapaxes`, so that it blocks keys.", _ca_mask_transposed),
    Mistake("returning only the output, not (output, weights)",
            "return both: `return output, weights`.", _ca_output_only),
    Mistake("returning (weights, output) in the wrong order",
            "return `output, weights`, in that order.", _ca_swapped_returns),
] + [CA_NAN_MISTAKE] + CA_RANGE_MISTAKES[::2]


def _ca_case(rng, batch, Lq, Lk, Dq, Dkv, Dk, Dv, mask=None, why=""):
    args = (rng.normal(size=(*batch, Lq, Dq)), rng.normal(size=(*batch, Lk, Dkv)),
            rng.normal(size=(Dq, Dk)), rng.normal(size=(Dkv, Dk)), rng.normal(size=(Dkv, Dv)))
    return Case(args, {} if mask is None else {"mask": mask}, why=why)


def _ca_cases(hidden: bool) -> list[Case]:
    rng = case_rng(143 if hidden else 43, hidden)
    if hidden:
        return [
            _ca_case(rng, (), 2, 5, 3, 3, 4, 2, why="Lq != Lk, Dk != Dv, one sequence"),
            _ca_case(rng, (), 5, 3, 6, 4, 2, 3, why="Dq != Dkv"),
            _ca_case(rng, (3,), 4, 2, 2, 5, 3, 6, why="a batch of 3"),
            _ca_case(rng, (2, 2), 3, 4, 4, 3, 5, 2, why="two batch dimensions"),
        ]
    return [
        _ca_case(rng, (), 3, 5, 5, 5, 3, 6, why="Lq != Lk, Dk != Dv, one sequence"),
        _ca_case(rng, (), 4, 2, 3, 5, 4, 2, why="Dq != Dkv: X_q and X_kv live in different spaces"),
        _ca_case(rng, (2,), 3, 6, 5, 3, 4, 2, why="a batch of 2"),
        _ca_case(rng, (2, 3), 2, 4, 3, 4, 3, 5, why="two batch dimensions"),
    ]


def _ca_masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(144 if hidden else 44, hidden)
    lengths = np.array([2, 5, 3]) if hidden else np.array([5, 2])
    B = len(lengths)
    row_mask = _random_mask(rng, (3, 4) if hidden else (4, 3))
    row_mask[0 if hidden else 2] = False
    return [
        _ca_case(rng, (), row_mask.shape[0], row_mask.shape[1], 6, 6, 3, 5, mask=row_mask,
                 why="one query with no key to attend to: zero weights and a zero output"),
        _ca_case(rng, (B,), 3, 5, 4, 6, 3, 2, mask=_masks.padding_mask(lengths, 5)[:, None, :],
                 why="a padding mask (B, 1, Lk) on the keys"),
        _ca_range_case(rng, 3 if hidden else 2, 4, 3),
    ]


def _ca_range_case(rng, Lq, Lk, Dv):
    """Scores of +-1e4 whose masked keys hold the row's largest score: X_q holds the scores,
    W_q = I, X_kv = I and W_k = √Dk I (Dq = Dkv = Dk = Lk), so Q Kᵀ / √Dk = X_q."""
    ms = _ms_range_case(rng, (Lq, Lk))
    scores, mask = ms.args
    args = (scores, np.eye(Lk), np.eye(Lk), np.sqrt(Lk) * np.eye(Lk), rng.normal(size=(Lk, Dv)))
    return Case(args, {"mask": mask}, why="scores of +-1e4, masked keys holding each row's largest score")


def check_cross_attention(cross_attention, hidden: bool = False) -> None:
    """Check that ``cross_attention`` attends from ``X_q`` over ``X_kv`` (no mask)."""
    run_check(cross_attention, exercise="cross_attention", reference=_cross_attention,
              cases=_ca_cases(hidden), mistakes=CROSS_ATTENTION_MISTAKES,
              arg_names=("X_q", "X_kv", "W_q", "W_k", "W_v"), outputs=("output", "weights"),
              show_values=not hidden, passed="output and weights match, batched and not",
              invoke=invoke_numpy)


def check_cross_attention_masked(cross_attention, hidden: bool = False) -> None:
    """Check that ``cross_attention`` applies a boolean mask (True = may attend)."""
    run_check(cross_attention, exercise="cross_attention", reference=_cross_attention,
              cases=_ca_masked_cases(hidden), mistakes=CROSS_ATTENTION_MISTAKES,
              arg_names=("X_q", "X_kv", "W_q", "W_k", "W_v"), outputs=("output", "weights"),
              show_values=not hidden, passed="masks are applied, fully masked queries give zeros",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# Predict, then run

EMPTY_ROWS = Prediction(
    "prediction_empty_rows", "indices", {0, 1},
    "Query i sees keys 0 .. i + Lk - Lq = i - 2. For i = 0 that range ends at -2 and for i = 1 at "
    "-1: no key at all. Query 2 sees key 0, and the last query, 4, sees all three keys. "
    "Bottom-right alignment lines up the *last* query with the last key, so with more queries "
    "than keys the first Lq - Lk = 2 queries are left with nothing.",
    wrong=(
        WrongPrediction(set(), "every query sees at least key 0",
                        "That is true of the top-left (is_causal) mask, where query i sees keys "
                        "0 .. i; the bottom-right mask shifts the diagonal by Lk - Lq = -2."),
        WrongPrediction({3, 4}, "the last queries see nothing",
                        "Bottom-right alignment gives the last query *every* key (it plays the "
                        "newest token, which may look at all the cached keys)."),
        WrongPrediction({0}, "only the first query is empty",
                        "Query 1 sees keys 0 .. 1 - 2 = -1, an empty range too."),
    ),
)


def check_prediction_empty_rows(prediction_empty_rows, hidden: bool = False) -> None:
    """Check the prediction of the empty rows of a bottom-right causal mask with Lq=5, Lk=3."""
    EMPTY_ROWS.check(prediction_empty_rows, hidden=hidden)


UNFLIPPED_KEYS = Prediction(
    "prediction_unflipped_keys", "indices", {4},
    "nn.MultiheadAttention reads True as blocked. Row 0 of the causal mask is True only at key 0, "
    "so passed as it is it blocks key 0 and allows 1-4; the padding mask is True on the real keys "
    "0-3, so it blocks them and allows only key 4, the padding. Both must allow a key: only key 4 "
    "is left, the one key that should never be seen. No error, no warning.",
    wrong=(
        WrongPrediction({0}, "the keys our mask allows",
                        "That is what the mask means in this course and in SDPA; MultiheadAttention "
                        "reads the same booleans the other way round."),
        WrongPrediction({1, 2, 3, 4}, "only the causal mask flipped",
                        "The key_padding_mask is read the other way round as well: passed as it is, "
                        "it blocks the four real keys."),
        WrongPrediction({0, 1, 2, 3}, "the real keys",
                        "The padding mask, read as 'True = blocked', removes exactly the real keys."),
        WrongPrediction(set(), "everything is blocked",
                        "The two negated masks still overlap on one key: key 4 is allowed by both."),
    ),
)


def check_prediction_unflipped_keys(prediction_unflipped_keys, hidden: bool = False) -> None:
    """Check the prediction of the keys query 0 sees when the masks reach MHA unflipped."""
    UNFLIPPED_KEYS.check(prediction_unflipped_keys, hidden=hidden)
