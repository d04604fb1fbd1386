"""The general diagnosis layer: name a wrong answer by its exact relation to the right one.

The catalogue (:class:`._core.Mistake`) names the mistakes worth teaching; this module names the
rest by computation. Given a failing case, the learner's :class:`._core.Outcome` and the
reference, :func:`relate` looks for a relation that holds *exactly* (to the check's tolerance)
between the learner's answer and the right one:

* on the output: axes transposed or permuted, a constant factor (named when it is a size of the
  case: ``√Dk``, ``Dk``, ``√D``, ``L``, their inverses), a constant shift, normalised over the
  wrong axis, the right values in a wrong shape or order, and a permutation with a factor;
* on the inputs (the reference run again on changed inputs): two same-shaped arguments swapped
  (``K Qᵀ``), an input transposed, a mask ignored, inverted or on the other axis;
* with a ``probe`` (the learner's function, in-process only): a rank the code assumes (right on
  every item of a batch, wrong or crashing on the batch).

It states a relation only when it holds; otherwise :func:`first_difference` gives the first
slice where the answers differ (with both values on visible cases). It uses nothing but the
case, the learner's returned value and the reference, so it runs in the trusted grader too.
"""
from __future__ import annotations

import itertools
import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from . import _core


@dataclass(frozen=True)
class Relation:
    """An exact relation between the learner's answer and the right one."""

    kind: str      # "transpose", "permute", "factor", "shift", "axis", "reshape", "order",
                   # "swap", "input-transpose", "mask-ignored", "mask-inverted", "mask-axis", "rank"
    message: str   # what it means, in words a learner can act on


# Shape letters of docs/contract.md, by argument name: axis -> letter (negative axes count from the end).
_LETTERS = {
    "Q": {-2: "Lq", -1: "Dk"}, "K": {-2: "Lk", -1: "Dk"}, "V": {-2: "Lk", -1: "Dv"},
    "X": {-2: "L", -1: "D"}, 
    "W_q": {0: "D", 1: "Dk"}, "W_k": {0: "D", 1: "Dk"}, "W_v": {0: "D", 1: "Dv"},
    "X_q": {-2: "Lq", -1: "D"}, "X_kv": {-2: "Lk", -1: "D"}, "x_query": {-1: "Lq"}, "x_keys": {-1: "Lk"},
    "queries": {-2: "Lq", -1: "Dk"}, "keys": {-2: "Lk", -1: "Dk"}, "values": {-2: "Lk", -1: "Dv"},
}
_SCALARS = {"num_heads": "H", "H": "H", "n_heads": "H"}


def _arrays(case: _core.Case, arg_names: Sequence[str]) -> list[tuple[str, Any, int | str]]:
    """``(name, value, where)`` for every argument: ``where`` is its position or keyword."""
    out: list[tuple[str, Any, int | str]] = []
    for i, value in enumerate(case.args):
        out.append((arg_names[i] if i < len(arg_names) else f"argument {i + 1}", value, i))
    for key, value in case.kwargs.items():
        out.append((key, value, key))
    return out


def _replaced(case: _core.Case, changes: dict[int | str, Any]) -> _core.Case:
    args = tuple(changes.get(i, a) for i, a in enumerate(case.args))
    kwargs = {k: changes.get(k, v) for k, v in case.kwargs.items()}
    return _core.Case(args, kwargs, case.why)


def known_sizes(case: _core.Case, arg_names: Sequence[str]) -> dict[int, list[str]]:
    """The sizes a case's inputs have, each with the letters that name it (``{8: ["Dk"]}``)."""
    sizes: dict[int, list[str]] = {}
    for name, value, _ in _arrays(case, arg_names):
        shape = getattr(value, "shape", None)
        if shape is not None and np.ndim(value) >= 1:
            for axis, size in enumerate(shape):
                letter = _LETTERS.get(name, {}).get(axis - len(shape)) or _LETTERS.get(name, {}).get(axis)
                label = letter or f"the size of axis {axis} of {name}"
                if int(size) > 1 and label not in sizes.setdefault(int(size), []):
                    sizes[int(size)].append(label)
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool) and name in _SCALARS:
            if int(value) > 1:
                sizes.setdefault(int(value), []).append(_SCALARS[name])
    return {k: v for k, v in sizes.items() if v}


def name_factor(c: float, sizes: dict[int, list[str]], tol: float = 1e-6) -> str | None:
    """``"√8, where 8 is Dk"``, ``"1/6, where 6 is L"`` ... when ``c`` is a size of the case,
    its square root or an inverse of those; every size of that value is named."""
    found = []
    for size, labels in sorted(sizes.items()):
        named = " and ".join(labels)
        for value, text in ((size, f"{size}"), (np.sqrt(size), f"√{size}"), (1 / size, f"1/{size}"),
                            (1 / np.sqrt(size), f"1/√{size}")):
            if abs(c - value) <= tol * max(1.0, abs(value)):
                found.append(f"{text}, where {size} is {named}")
    if not found:  # a ratio of two sizes: one scale used where another belongs
        for (a, la), (b, lb) in itertools.permutations(sorted(sizes.items()), 2):
            for value, text in ((a / b, f"{a}/{b}"), (np.sqrt(a / b), f"√({a}/{b})")):
                if abs(c - value) <= tol * max(1.0, abs(value)):
                    found.append(f"{text}, where {a} is {' and '.join(la)} and {b} is {' and '.join(lb)}")
    if not found:  # a unit: bytes, bits, GB and GiB mixed up
        for value, text in _UNITS:
            for v, t in ((value, text), (1 / value, text)):
                if abs(c - v) <= tol * abs(v):
                    found.append(f"{c:g}: {t}")
                    break
    if not found:
        return None
    return "; or ".join(found)


_UNITS = [  # factors that are units, not sizes (issue 39: bytes returned as GB or GiB)
    (1e9, "10⁹, bytes and GB (10⁹ bytes) mixed up"),
    (2.0 ** 30, "2³⁰, bytes and GiB (2³⁰ bytes) mixed up"),
    (2.0 ** 30 / 1e9, "2³⁰/10⁹, GB and GiB mixed up"),
    (1e6, "10⁶, bytes and MB mixed up"),
    (2.0 ** 20, "2²⁰, bytes and MiB mixed up"),
    (8.0, "8, bits and bytes mixed up"),
]


# ---------------------------------------------------------------------------------------------
# Relations on one output array

def _float(x: Any) -> np.ndarray | None:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return None
    return arr if arr.dtype != object else None


def _close(a: np.ndarray, b: np.ndarray, tol: _Tol) -> bool:
    return _core._close(a, b, tol.rtol, tol.atol, tol.f32)


@dataclass(frozen=True)
class _Tol:
    rtol: float
    atol: float
    f32: float = 0.0


def _sums_to_one(a: np.ndarray, axis: int, tol: _Tol) -> bool:
    s = a.sum(axis=axis)
    ok = np.isfinite(s) & (np.abs(s) > 1e-12)  # a fully masked slice sums to zero
    return bool(ok.any() and np.all(np.abs(s[ok] - 1) <= 1e-6 + tol.rtol) and np.all(a[np.isfinite(a)] >= 0))


def _normalised_axis(g: np.ndarray, e: np.ndarray, tol: _Tol) -> tuple[int, int] | None:
    """``(k, a)`` when ``e`` is a softmax over axis ``a`` and ``g`` the softmax of the same
    scores over axis ``k``: then ``log g - log e`` is a term constant along ``a`` minus one
    constant along ``k``, which is fitted and checked by rebuilding ``g`` from ``e``."""
    if g.shape != e.shape or g.ndim == 0:
        return None
    axes_e = [a for a in range(e.ndim) if e.shape[a] > 1 and _sums_to_one(e, a, tol)]
    axes_g = [k for k in range(g.ndim) if g.shape[k] > 1 and _sums_to_one(g, k, tol)]
    for a in axes_e:
        for k in axes_g:
            if k == a:
                continue
            both = (e > 0) & (g > 0)
            if not np.array_equal(e > 0, g > 0) or both.sum() < 2:
                continue
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # an all-masked slice: mean of nothing
                d = np.where(both, np.log(np.where(both, g, 1.0)) - np.log(np.where(both, e, 1.0)), np.nan)
                # d = r + c, r constant along a, c along k; alternating means fit it exactly even
                # where entries are missing (masked), where one pass of means does not
                r = np.nanmean(d, axis=a, keepdims=True)
                c = np.nanmean(d - r, axis=k, keepdims=True)
                for _ in range(200):
                    r = np.nanmean(d - c, axis=a, keepdims=True)
                    c = np.nanmean(d - r, axis=k, keepdims=True)
                fit = r + c
                rebuilt = np.where(both, e * np.exp(np.nan_to_num(fit)), 0.0)
                rebuilt = rebuilt / np.where(rebuilt.sum(axis=k, keepdims=True) > 0,
                                             rebuilt.sum(axis=k, keepdims=True), 1.0)
            if _close(g, rebuilt, tol) and not _close(e, rebuilt, tol):
                return k, a
    return None


def _scores_scaled(g: np.ndarray, e: np.ndarray, tol: _Tol) -> float | None:
    """``c`` when ``e`` is a softmax of some scores over an axis and ``g`` the softmax of ``c``
    times the same scores over that axis: then ``log g = c log e + a constant per slice``."""
    for a in range(e.ndim):
        if e.shape[a] < 2 or not (_sums_to_one(e, a, tol) and _sums_to_one(g, a, tol)):
            continue
        pos = e > 0
        if not np.array_equal(pos, g > 0) or not pos.any():
            return None
        with np.errstate(all="ignore"):
            le, lg = np.where(pos, np.log(np.where(pos, e, 1.0)), np.nan), np.where(pos, np.log(np.where(pos, g, 1.0)), np.nan)
            ce = le - np.nanmean(le, axis=a, keepdims=True)
            cg = lg - np.nanmean(lg, axis=a, keepdims=True)
            denom = np.nansum(ce * ce)
            if not denom > 0:
                return None
            c = float(np.nansum(cg * ce) / denom)
            if not np.isfinite(c) or abs(c - 1) < 1e-6 or c <= 0:
                return None
            z = np.where(pos, c * np.nan_to_num(le), -np.inf)
            z = z - np.max(z, axis=a, keepdims=True)
            rebuilt = np.exp(z)
            rebuilt = rebuilt / rebuilt.sum(axis=a, keepdims=True)
            rebuilt = np.nan_to_num(rebuilt)
        if _close(g, rebuilt, tol) and not _close(e, rebuilt, tol):
            return c
        return None
    return None


def _axis_name(axis: int, ndim: int, what: str) -> str:
    if any(w in what for w in ("weights", " A ", "attention")) and ndim >= 2:
        if axis == ndim - 1:
            return f"axis {axis} (the keys)"
        if axis == ndim - 2:
            return f"axis {axis} (the queries)"
    return f"axis {axis}"


def _output_relation(g: np.ndarray, e: np.ndarray, what: str, sizes: dict[int, list[str]],
                     tol: _Tol) -> Relation | None:
    """A relation between one returned array ``g`` and the expected ``e``."""
    if not np.all(np.isfinite(e)) or not np.all(np.isfinite(g)):
        return None
    is_ = "are" if _core._plural(what) else "is"
    if e.size < 2:  # any wrong number is some factor of the right one: only a unit is worth saying
        if g.size == 1 and e.size == 1 and float(e.reshape(-1)[0]) != 0.0:
            c = float(g.reshape(-1)[0]) / float(e.reshape(-1)[0])
            unit = name_factor(c, {}, tol=1e-4)
            if unit is not None:
                return Relation("factor", f"{what} {is_} the right answer times {unit}")
        return None
    if g.shape == e.shape and e.ndim >= 2 and e.shape[-1] == e.shape[-2]:
        t = e.swapaxes(-1, -2)
        if _close(g, t, tol) and not _close(e, t, tol):
            extra = ""
            if _sums_to_one(e, e.ndim - 1, tol) and not _sums_to_one(e, e.ndim - 2, tol):
                extra = (": each column sums to one instead of each row, so rows and columns (queries "
                         "and keys) are exchanged somewhere, e.g. a `.T` too many")
            return Relation("transpose", f"{what} {is_} the transpose of the right answer (its last two "
                                         f"axes exchanged){extra}")
    if g.size == e.size and 2 <= e.ndim <= 5:
        for perm in itertools.permutations(range(e.ndim)):
            if perm == tuple(range(e.ndim)) or tuple(e.shape[p] for p in perm) != g.shape:
                continue
            t = np.transpose(e, perm)
            if _close(g, t, tol) and not (t.shape == e.shape and _close(e, t, tol)):
                return Relation("permute", f"{what} {is_} the right values with the axes in the wrong "
                                           f"order: your axis i is the right answer's axis perm[i], "
                                           f"perm = {perm}; transpose (not reshape) to put them in order")
    if g.shape == e.shape:
        axes = _normalised_axis(g, e, tol)
        if axes is not None:
            k, a = axes
            return Relation("axis", f"{what} {is_} normalised over {_axis_name(k, e.ndim, what)} instead of "
                                    f"{_axis_name(a, e.ndim, what)}: the right scores, with the softmax "
                                    f"taken over the wrong axis")
        scaled = _scores_scaled(g, e, tol)
        if scaled is not None:
            named = name_factor(scaled, sizes)
            return Relation("scores-factor", f"{what} {is_} a softmax of the right scores times a constant "
                                             f"{scaled:.6g}" + (f" = {named}" if named else "")
                                             + ": the scale inside the softmax is wrong (missing, applied "
                                             "twice, or the wrong size)")
        denom = float(np.sum(e * e))
        if denom > 0:
            c = float(np.sum(g * e)) / denom
            if abs(c - 1) > 1e-6 and abs(c) > 1e-12 and _close(g, c * e, _Tol(tol.rtol, tol.atol, tol.f32 * abs(c))):
                named = name_factor(c, sizes)
                known = f" = {named}; look for a scale applied twice, inverted or left out" if named else ""
                return Relation("factor", f"{what} {is_} the right answer times a constant factor "
                                          f"{c:.6g}{known}")
        s = float(np.mean(g - e))
        if abs(s) > 0 and _close(g, e + s, tol) and not _close(g, e, tol):
            return Relation("shift", f"{what} {is_} the right answer plus a constant {s:.6g} in every "
                                     "entry: a term added (or subtracted) once too often")
        if e.ndim >= 2 and e.shape[-1] == e.shape[-2]:  # a transpose and a constant factor
            t = e.swapaxes(-1, -2)
            denom = float(np.sum(t * t))
            c = float(np.sum(g * t)) / denom if denom > 0 else 0.0
            if (abs(c - 1) > 1e-6 and abs(c) > 1e-12 and not _close(e, t, tol)
                    and _close(g, c * t, _Tol(tol.rtol, tol.atol, tol.f32 * abs(c)))):
                named = name_factor(c, sizes)
                return Relation("transpose-factor", f"{what} {is_} the transpose of the right answer times "
                                                    f"{c:.6g}" + (f" = {named}" if named else "")
                                                    + ": two mistakes, an exchanged pair of axes and a scale")
    if g.size == e.size and not (g.shape == e.shape and _close(g, e, tol)):
        if _close(np.sort(g.ravel()), np.sort(e.ravel()), tol):
            if g.shape != e.shape and _close(g.reshape(e.shape), e, tol):
                swapped = [(i, j) for i in range(e.ndim) for j in range(i + 1, e.ndim)
                           if g.ndim == e.ndim and g.shape[i] == e.shape[j] and g.shape[j] == e.shape[i]
                           and all(g.shape[k] == e.shape[k] for k in range(e.ndim) if k not in (i, j))]
                if swapped:  # two sizes handed over in the other order (a reshape's, a helper's)
                    i, j = swapped[0]
                    a, b = e.shape[i], e.shape[j]
                    na, nb = (([n for n in sizes.get(size, []) if " " not in n] or [None])[0] for size in (a, b))
                    pair = f"{na} = {a} and {nb} = {b}" if na and nb and na != nb else f"{a} and {b}"
                    return Relation("sizes-exchanged", f"{what} {is_} the right values in the right order, but "
                                                       f"with shape {g.shape} instead of {e.shape}: the sizes "
                                                       f"{pair} of axes {i - e.ndim} and {j - e.ndim} are exchanged, "
                                                       "two sizes passed in the other order (to a reshape, or to a "
                                                       "helper that reshapes), e.g. (W, H) for (H, W)")
                return Relation("reshape", f"{what} {is_} the right values in the right order, but with shape "
                                           f"{g.shape} instead of {e.shape}: reshape to the expected shape")
            return Relation("order", f"{what} {'hold' if is_ == 'are' else 'holds'} exactly the right values, "
                                     "but in a different order (or shape): an index, a reshape or a concatenation "
                                     "puts them in the wrong places")
    if g.shape != e.shape:
        return _cut_relation(g, e, what, tol)
    return _first_slice_relation(g, e, what, tol) or _shift_relation(g, e, what, tol)


def _first_slice_relation(g: np.ndarray, e: np.ndarray, what: str, tol: _Tol) -> Relation | None:
    """One element computed and copied: along one axis ``g`` is the same at every index, and that
    is the right answer's index 0, where the right answer is not the same at every index. (Tested
    before the off-by-one shift, which a copy along an axis of size 2 also looks like.)"""
    for a in range(e.ndim):
        if e.shape[a] < 2:
            continue
        first_g, first_e = np.take(g, [0], axis=a), np.take(e, [0], axis=a)
        if (_close(g, np.broadcast_to(first_g, g.shape), tol) and _close(first_g, first_e, tol)
                and not _close(e, np.broadcast_to(first_e, e.shape), tol)):
            is_ = "are" if _core._plural(what) else "is"
            return Relation("first-slice", f"{what} {is_} the same at every index of axis {a}, and that is the "
                                           f"right answer at index 0: your code computes only index 0 of axis {a} "
                                           "(the first sequence of a batch, the first head) and copies it to the "
                                           "others, so their own inputs are never used; keep the axis whole")
    return None


def _row_factor_relation(g: np.ndarray, e: np.ndarray, what: str, tol: _Tol) -> Relation | None:
    """Every slice over the last k axes is the right slice times a factor of its own (the
    largest such slices are named: a factor per (b, c) map, or per row)."""
    if g.shape != e.shape or e.ndim < 2:
        return None
    for k in range(e.ndim - 1, 0, -1):
        axes = tuple(range(e.ndim - k, e.ndim))
        if int(np.prod(e.shape[-k:])) < 3 or e.size // int(np.prod(e.shape[-k:])) < 2:
            continue
        ee = np.sum(e * e, axis=axes, keepdims=True)
        if np.any((ee == 0) & np.any(g != 0, axis=axes, keepdims=True)):
            continue
        c = np.where(ee > 0, np.sum(g * e, axis=axes, keepdims=True) / np.where(ee > 0, ee, 1.0), 1.0)
        if np.ptp(c) <= 1e-6 * max(1.0, float(np.max(np.abs(c)))) or not _close(g, c * e, tol):
            continue
        lead = ", ".join(f"axis {a}" for a in range(e.ndim - k))
        over = ", ".join(f"{a}" for a in axes)
        flat = c.reshape(-1)
        zero, one = np.abs(flat) <= 1e-6, np.abs(flat - 1.0) <= 1e-6
        if np.all(zero | one) and zero.any() and one.any():  # some slices kept whole, the rest zero
            idx = [tuple(int(i) for i in np.unravel_index(j, c.shape[:e.ndim - k])) for j in np.flatnonzero(zero)]
            shown = ", ".join(str(i[0]) if len(i) == 1 else str(i) for i in idx[:8]) + (", ..." if len(idx) > 8 else "")
            slices = "rows (slices along the last axis)" if k == 1 else f"slices over axes {over} (one per index of {lead})"
            return Relation("slices-zeroed", f"{what} is right on some {slices} and zero on the others (at "
                                             f"{shown}): your code leaves those out entirely (a loop or a "
                                             "mask that skips them, a condition that zeroes them, a range "
                                             "that stops early)")
        slice_ = "row (slice along the last axis)" if k == 1 else f"slice over axes {over} (one per index of {lead})"
        return Relation("slice-factor", f"each {slice_} of {what} is the right one times a factor of its own "
                                        f"(from {float(np.min(c)):.6g} to {float(np.max(c)):.6g}): the difference "
                                        "is exactly one factor per slice, so look at what your code computes once "
                                        "per slice (a gate, a normaliser, a sum or an epsilon added to it)")
    return None


def _shift_relation(g: np.ndarray, e: np.ndarray, what: str, tol: _Tol) -> Relation | None:
    """Off by one position: away from the edge, ``g`` is ``e`` moved by one step along one axis
    (or along two axes at once); the edge row that has no partner is not compared."""
    # (an axis of size 2 too, when a moved slab has enough entries that a match is no chance: two
    # heads, the second holding the first's block)
    axes = [a for a in range(e.ndim) if e.shape[a] >= 3 or (e.shape[a] == 2 and e.size // 2 >= 6)]
    for count in (1, 2):
        for chosen in itertools.combinations(axes, count):
            for steps in itertools.product((1, -1), repeat=count):
                gi, ei = [slice(None)] * e.ndim, [slice(None)] * e.ndim
                for a, s in zip(chosen, steps):
                    gi[a], ei[a] = (slice(1, None), slice(None, -1)) if s == 1 else (slice(None, -1), slice(1, None))
                gs, es, eg = g[tuple(gi)], e[tuple(ei)], e[tuple(gi)]
                if es.size < 2 or _close(eg, es, tol) or not _close(gs, es, tol):
                    continue
                where = " and ".join(f"axis {a}" for a in chosen)
                moves = " and ".join(f"index i{'+1' if s == 1 else '-1'} along axis {a}"
                                     for a, s in zip(chosen, steps))
                is_ = "are" if _core._plural(what) else "is"
                return Relation("shift-index", f"{what} {is_} the right answer moved by one position along "
                                               f"{where}: your entry at {moves} is the right entry at i "
                                               "(apart from the edge, which has no partner): an off-by-one, e.g. "
                                               "a position counted from 1, `<=` for `<`, or a `+1`/`-1` too many")
    return None


def _cut_relation(g: np.ndarray, e: np.ndarray, what: str, tol: _Tol) -> Relation | None:
    """One axis too short or too long: the right values, with entries missing (or extra) at one
    end of one axis, every other entry right."""
    if g.ndim != e.ndim or g.ndim == 0:
        return None
    differ = [a for a in range(e.ndim) if g.shape[a] != e.shape[a]]
    if len(differ) != 1:
        return None
    a = differ[0]
    short, long_ = (g, e) if g.shape[a] < e.shape[a] else (e, g)
    n, m = short.shape[a], long_.shape[a]
    if n == 0:
        return None
    for end, part in (("last", slice(0, n)), ("first", slice(m - n, m))):
        idx = [slice(None)] * e.ndim
        idx[a] = part
        if _close(short, long_[tuple(idx)], tol):
            k = m - n
            is_ = "are" if _core._plural(what) else "is"
            if short is g:
                tail = (f"the right values with the {end} {k if k > 1 else ''} entr{'ies' if k > 1 else 'y'} "
                        f"along axis {a} missing ({g.shape[a]} instead of {e.shape[a]}): a loop or a slice "
                        "one step short")
            else:
                tail = (f"the right values with {k} extra entr{'ies' if k > 1 else 'y'} at the "
                        f"{'end' if end == 'last' else 'start'} of axis {a} ({g.shape[a]} instead of "
                        f"{e.shape[a]}): a loop or a slice that goes one step too far")
            return Relation("cut", f"{what} {is_} " + tail.replace("  ", " "))
    return None


# ---------------------------------------------------------------------------------------------
# Relations through the inputs

def _input_relations(case: _core.Case, got: _core.Outcome, ref: _core.Outcome, reference: Callable,
                     arg_names: Sequence[str], tol: _Tol) -> Relation | None:
    args = _arrays(case, arg_names)

    def same_as(changes: dict[int | str, Any]) -> bool:
        alt = _core.call(reference, _replaced(case, changes))
        return (alt.error is None
                and _core.matches(got.value, alt.value, rtol=tol.rtol, atol=tol.atol, f32=tol.f32, like=ref.value)
                and not _core.matches(ref.value, alt.value, rtol=tol.rtol, atol=tol.atol, f32=tol.f32))

    floats = [(n, v, w) for n, v, w in args
              if isinstance(v, np.ndarray) and np.issubdtype(v.dtype, np.floating) and v.ndim >= 1]
    masks = [(n, v, w) for n, v, w in args if isinstance(v, np.ndarray) and v.dtype == bool]
    sizes = known_sizes(case, arg_names)
    for (na, va, wa), (nb, vb, wb) in itertools.combinations(floats, 2):
        if va.shape == vb.shape and not np.array_equal(va, vb) and same_as({wa: vb, wb: va}):
            example = f" (e.g. `{nb} {na}ᵀ` instead of `{na} {nb}ᵀ`)" if len(na) <= 2 and len(nb) <= 2 else ""
            return Relation("swap", f"your result is what the right code gives with {na} and {nb} exchanged: "
                                    f"{na} is used where {nb} belongs and the other way round{example}")
    for (na, va, wa), (nb, vb, wb) in itertools.combinations(floats, 2):  # both used transposed
        if (va.ndim >= 2 and vb.ndim >= 2 and va.shape[-1] != 1 and vb.shape[-1] != 1
                and same_as({wa: va.swapaxes(-1, -2), wb: vb.swapaxes(-1, -2)})):
            return Relation("both-transposed", f"your result is the right code's answer on {na} and {nb} both "
                                               f"transposed (their last two axes exchanged): each is used as if "
                                               "its rows were its columns; write the shape of each next to the "
                                               "line that uses it")
    for name, value, where in masks:  # the mask multiplied into the weights after the softmax
        alt = _core.call(reference, _replaced(case, {where: None}))
        if alt.error is not None:
            continue
        if isinstance(ref.value, tuple):  # (output, weights): the weights are the last item
            if not (isinstance(got.value, (tuple, list)) and isinstance(alt.value, tuple)
                    and len(got.value) == len(ref.value) == len(alt.value)):
                continue
            g, e, a = (_float(x[-1]) for x in (got.value, ref.value, alt.value))
        else:
            g, e, a = _float(got.value), _float(ref.value), _float(alt.value)
        if g is None or e is None or a is None or g.shape != a.shape:
            continue
        try:
            after = a * np.broadcast_to(value, a.shape)
        except ValueError:
            continue
        if _close(g, after, tol) and not _close(after, e, tol):
            return Relation("mask-after-softmax", f"your weights are the unmasked softmax times {name}: the "
                                                  "mask is applied after the softmax, without renormalising "
                                                  "(each row's allowed weights no longer sum to one)")
    for name, value, where in masks:
        if same_as({where: None}):
            return Relation("mask-ignored", f"your result is the right answer without the mask: {name} is "
                                            "not applied (the masked positions still get weight)")
        if same_as({where: ~value}):
            return Relation("mask-inverted", f"your result is the right answer with {name} inverted: "
                                             "True means *may attend*, so the positions to hide are the False ones")
        if value.ndim >= 2 and value.shape[-1] == value.shape[-2] and same_as({where: value.swapaxes(-1, -2)}):
            return Relation("mask-axis", f"your result is the right answer with {name} transposed: the mask "
                                         "is applied along the queries instead of the keys")
    ignored = _argument_ignored(case, args, reference, same_as)
    if ignored is not None:
        return ignored
    for name, value, where in floats:  # the scores scaled: the queries (or the scores) times a size
        if name not in _SCORE_ARGS:
            continue
        for c, text in _size_factors(sizes):
            if same_as({where: value * c}):
                return Relation("scores-factor", f"your result is the right code's answer with {name} multiplied "
                                                 f"by {c:.6g} = {text}: the scores inside the softmax are {c:.6g} "
                                                 "times the right ones (a scale missing, applied twice or of "
                                                 "the wrong size)")
    found = _keys_left_out(case, args, same_as)
    if found is not None:
        return found
    for name, value, where in args:  # one head: the heads never split (and perhaps a scale)
        if name not in _SCALARS or not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value <= 1:
            continue
        if same_as({where: 1}):
            return Relation("one-head", f"your result is the right code's answer with {name}=1: the heads are "
                                        "never split (one attention over the full width)")
        one = {where: 1}
        for qn, qv, qw in floats:
            if qn not in _SCORE_ARGS:
                continue
            for c, text in _size_factors(sizes):
                if same_as({**one, qw: qv * c}):
                    return Relation("one-head", f"your result is the right code's answer with {name}=1 and the "
                                                f"scores multiplied by {c:.6g} = {text}: the heads are never split "
                                                "(one attention over the full width), and the scale is not the "
                                                "one that width needs")
    for name, value, where in masks:  # a mask mistake and a softmax over the wrong axis
        for change, words in ((None, f"{name} ignored"), (~value, f"{name} inverted")):
            alt = _core.call(reference, _replaced(case, {where: change}))
            if alt.error is not None:
                continue
            for what, g, e in _pairs(got.value, alt.value, (), tol):
                if g.shape == e.shape:
                    axes = _normalised_axis(g, e, tol)
                    if axes is not None:
                        return Relation("mask-and-axis", f"two mistakes at once: your result is the right code's "
                                                         f"answer with {words}, normalised over axis {axes[0]} "
                                                         f"instead of axis {axes[1]} (the softmax over the wrong axis)")
    for name, value, where in floats:
        if value.ndim >= 2 and value.shape[-1] != 1 and same_as({where: value.swapaxes(-1, -2)}):
            return Relation("input-transpose", f"your result is the right code's answer on {name} transposed "
                                               f"(its last two axes exchanged): {name} is used as `{name}.T`")
    return None


def _argument_ignored(case: _core.Case, args: list, reference: Callable, same_as: Callable) -> Relation | None:
    """The right code's answer with one argument replaced by what code that never reads it uses:
    its default, or for positions the plain count 0, 1, 2, ..."""
    import inspect

    try:
        params = list(inspect.signature(reference).parameters.values())
    except (TypeError, ValueError):
        params = []
    defaults = {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}
    for i, p in enumerate(params):
        if i < len(case.args) and p.name in defaults:
            defaults[i] = defaults[p.name]  # (passed by position)
    for name, value, where in args:
        options = []
        key = where if where in defaults else name
        if key in defaults and not (isinstance(value, np.ndarray) and defaults[key] is not None
                                    and not isinstance(defaults[key], np.ndarray)):
            options.append((defaults[key], f"left at its default ({defaults[key]!r})"))
        if (isinstance(value, np.ndarray) and value.ndim >= 1 and np.issubdtype(value.dtype, np.integer)
                and not np.array_equal(value, np.broadcast_to(np.arange(value.shape[-1]), value.shape))):
            options.append((np.broadcast_to(np.arange(value.shape[-1]), value.shape).astype(value.dtype).copy(),
                            "replaced by the count 0, 1, 2, ... (your code counts the positions itself)"))
        for replacement, words in options:
            try:
                if same_as({where: replacement}):
                    return Relation("argument-ignored", f"your code ignores its `{name}` argument: your result "
                                                        f"is the right code's answer with {name} {words}")
            except Exception:  # noqa: BLE001 - a replacement the reference refuses tells nothing
                continue
    return None


_SCORE_ARGS = ("Q", "q", "query", "queries", "scores", "X_q")
_KEY_ARGS = ("K", "V", "keys", "values")


def _keys_left_out(case: _core.Case, args: list, same_as: Callable) -> Relation | None:
    """The right code's answer on the keys (and values, and the mask's key axis) without some of
    them: one key, two keys, or every t-th key; a range or a tile one short."""
    kv = [(n, v, w) for n, v, w in args if n in _KEY_ARGS and isinstance(v, np.ndarray) and v.ndim >= 2]
    if len(kv) < 2 or len({v.shape[-2] for _, v, _ in kv}) != 1:
        return None
    Lk = kv[0][1].shape[-2]
    if not 2 <= Lk <= 16:
        return None
    masks = [(n, v, w) for n, v, w in args if isinstance(v, np.ndarray) and v.dtype == bool and v.shape[-1] == Lk]
    subsets = [frozenset(c) for k in (1, 2) for c in itertools.combinations(range(Lk), k)]
    subsets += [frozenset(range(s, Lk, t)) for t in range(2, Lk) for s in range(t)]
    subsets += [frozenset(range(s, Lk - 1, t)) for t in range(2, Lk) for s in range(t)]  # the last tile whole
    seen = set()
    for drop in subsets:
        if drop in seen or not drop or len(drop) >= Lk:
            continue
        seen.add(drop)
        keep = [j for j in range(Lk) if j not in drop]
        changes = {w: v[..., keep, :] for _, v, w in kv}
        changes.update({w: v[..., keep] for _, v, w in masks})
        if same_as(changes):
            which = ", ".join(map(str, sorted(drop)))
            return Relation("keys-left-out", f"your result is the right code's answer without the key{'s' if len(drop) > 1 else ''} "
                                             f"at index {which} (of {Lk}): {'they are' if len(drop) > 1 else 'it is'} "
                                             "left out, e.g. a range or a tile that stops one key short")
    return None


def _size_factors(sizes: dict[int, list[str]]) -> list[tuple[float, str]]:
    """Every factor :func:`name_factor` can name: a size, its root, their inverses, and ratios."""
    out = []
    for size, labels in sorted(sizes.items()):
        named = " and ".join(labels)
        out += [(float(size), f"{size}, where {size} is {named}"), (float(np.sqrt(size)), f"√{size}, where {size} is {named}"),
                (1 / size, f"1/{size}, where {size} is {named}"), (1 / np.sqrt(size), f"1/√{size}, where {size} is {named}")]
    for (a, la), (b, lb) in itertools.permutations(sorted(sizes.items()), 2):
        where = f"where {a} is {' and '.join(la)} and {b} is {' and '.join(lb)}"
        out += [(a / b, f"{a}/{b}, {where}"), (float(np.sqrt(a / b)), f"√({a}/{b}), {where}")]
    seen, unique = set(), []
    for c, text in out:
        if round(c, 12) not in seen:
            seen.add(round(c, 12))
            unique.append((c, text))
    return unique


def _tuple_relation(case: _core.Case, got: Any, exp: Any, outputs: Sequence[str], tol: _Tol) -> Relation | None:
    """Between the items of a returned tuple: the right weights ``A`` with the output ``Aᵀ V``
    instead of ``A V`` (``V`` recovered from the right output as ``A⁻¹ (A V)``), or the right
    answer plus an input (a residual connection that is not there)."""
    if not (isinstance(exp, tuple) and isinstance(got, (tuple, list)) and len(got) == len(exp) >= 2):
        return None
    names = list(outputs) or [f"item {i}" for i in range(len(exp))]
    ga, ea = [_float(x) for x in got], [_float(x) for x in exp]
    if any(x is None for x in ga + ea):
        return None
    for i, (gz, ez) in enumerate(zip(ga, ea)):
        if gz.shape != ez.shape or _close(gz, ez, tol):
            continue
        for j, (gw, ew) in enumerate(zip(ga, ea)):
            if j == i or ew.ndim < 2 or ew.shape[-1] != ew.shape[-2] or gw.shape != ew.shape or not _close(gw, ew, tol):
                continue
            if ez.shape[:-1] != ew.shape[:-1] or not np.all(np.linalg.cond(ew) < 1e8):
                continue
            v = np.linalg.solve(ew, ez)
            t = ew.swapaxes(-1, -2) @ v
            if _close(gz, t, tol) and not _close(ez, t, tol):
                return Relation("transpose-weights", f"the {names[i]} you returned is {names[j]}ᵀ V instead of "
                                                     f"{names[j]} V: the right {names[j]}, applied transposed "
                                                     "(each row mixes over the queries instead of the keys)")
    return None


def _plus_input(case: _core.Case, g: np.ndarray, e: np.ndarray, what: str, arg_names: Sequence[str],
                tol: _Tol) -> Relation | None:
    for name, value, _ in _arrays(case, arg_names):
        v = _float(value) if isinstance(value, np.ndarray) or hasattr(value, "detach") else None
        if v is None or v.shape != e.shape or not np.any(v):
            continue
        for sign, word in ((1, "plus"), (-1, "minus")):
            if _close(g, e + sign * v, tol) and not _close(g, e, tol):
                is_ = "are" if _core._plural(what) else "is"
                return Relation("plus-input", f"{what} {is_} the right answer {word} {name}: a residual "
                                              f"connection ({word} the input) that the exercise does not have")
    return None


def describe_overflow(case: _core.Case, got: _core.Outcome, ref: _core.Outcome, arg_names: Sequence[str]) -> str | None:
    """NaN or inf where the answer is finite, on an input with values beyond exp's float64 range:
    a fact about the input and exp, not a guess about the code."""
    if got.error is not None or ref.error is not None:
        return None
    g, e = _float(got.value), _float(ref.value)
    if g is None or e is None or g.shape != e.shape or not np.all(np.isfinite(e)) or np.all(np.isfinite(g)):
        return None
    big = 0.0
    for _, value, _ in _arrays(case, arg_names):
        if isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating):
            finite = value[np.isfinite(value)]
            if finite.size:
                big = max(big, float(np.max(np.abs(finite))))
    if big <= 709.78:
        return None
    return (f"Not a catalogued mistake: your result has NaN or inf where the answer is finite, and this input holds "
            f"values up to {big:.3g} in size, while exp(x) overflows float64 to inf for x > 709.78 (and inf / inf "
            "is NaN): if your code takes exp of anything other than the values minus the largest (allowed) value "
            "of their row, that is where the NaN and inf come from.")


# ---------------------------------------------------------------------------------------------
# A rank the code assumes (needs the learner's function: in-process only)

def _unbatched(case: _core.Case, reference: Callable, ref: _core.Outcome, tol: _Tol,
               min_ndim: int = 3) -> list[_core.Case]:
    """The case's batch items as cases of their own, when the reference treats the leading axis
    of every array of ``min_ndim`` or more axes as a batch (its answer on item b is item b of its
    answer)."""
    batched = [i for i, a in enumerate(case.args) if isinstance(a, np.ndarray) and a.ndim >= min_ndim]
    batched += [k for k, a in case.kwargs.items() if isinstance(a, np.ndarray) and a.ndim >= min_ndim]
    if not batched:
        return []
    sizes = {(case.args[w] if isinstance(w, int) else case.kwargs[w]).shape[0] for w in batched}
    if len(sizes) != 1:
        return []
    out, answers = [], []
    pooled = not isinstance(ref.value, tuple) and np.ndim(ref.value) == 0  # one number for the batch
    for b in range(sizes.pop()):
        item = _replaced(case, {w: (case.args[w] if isinstance(w, int) else case.kwargs[w])[b] for w in batched})
        theirs = _core.call(reference, item)
        if theirs.error is not None:
            return []
        if pooled:
            answers.append(theirs.value)
        else:
            want = tuple(v[b] for v in ref.value) if isinstance(ref.value, tuple) else ref.value[b]
            if not _core.matches(theirs.value, want, rtol=tol.rtol, atol=tol.atol, f32=tol.f32):
                return []
        out.append(item)
    if pooled:  # a score averaged (or summed) over the batch: the items' answers pool to it
        try:
            values = np.asarray(answers, dtype=float)
        except (TypeError, ValueError):
            return []
        if values.ndim != 1 or not any(_core.matches(f(values), ref.value, rtol=tol.rtol, atol=tol.atol, f32=tol.f32)
                                       for f in (np.mean, np.sum)):
            return []
    return out


def _rank_relation(case: _core.Case, ref: _core.Outcome, reference: Callable, probe: Callable, tol: _Tol) -> Relation | None:
    items = _unbatched(case, reference, ref, tol)
    if not items:
        return None
    for item in items:
        mine, right = probe(item), _core.call(reference, item)
        if mine.error is not None or not _core.matches(mine.value, right.value, rtol=tol.rtol, atol=tol.atol,
                                                       f32=tol.f32, like=right.value):
            return None
    return Relation("rank", "your code assumes no batch axis: it is right on every item of the batch taken "
                            "alone, but not on the batch; write it for any number of leading axes "
                            "(index from the end, `swapaxes(-1, -2)` instead of `.T`, `@` instead of `np.dot`)")


def _leading_axis_relation(case: _core.Case, ref: _core.Outcome, reference: Callable, probe: Callable,
                           tol: _Tol) -> Relation | None:
    """The code raised on this case, but is right on the same case with a leading axis of size 1
    added to every array (where the reference treats that axis as a batch): it assumes more axes."""
    arrays = [w for w, a in list(enumerate(case.args)) + list(case.kwargs.items())
              if isinstance(a, np.ndarray) and a.ndim >= 1 and a.dtype != object]
    if not arrays:
        return None
    get = lambda w: case.args[w] if isinstance(w, int) else case.kwargs[w]  # noqa: E731
    bigger = _replaced(case, {w: get(w)[None] for w in arrays})
    right = _core.call(reference, bigger)
    if right.error is not None or isinstance(ref.value, tuple):
        return None
    if not _core.matches(right.value, np.asarray(ref.value)[None], rtol=tol.rtol, atol=tol.atol, f32=tol.f32):
        return None
    mine = probe(bigger)
    if mine.error is not None or not _core.matches(mine.value, right.value, rtol=tol.rtol, atol=tol.atol,
                                                   f32=tol.f32, like=right.value):
        return None
    ndims = sorted({get(w).ndim for w in arrays})
    return Relation("rank", f"your code assumes more axes than this input has: it raised on "
                            f"{'/'.join(map(str, ndims))}-D input, and is right on the same input with a "
                            "leading axis of size 1 added; index from the end (`axis=-1`, `shape[-1]`) so "
                            "that it works for any number of axes")


def _rank_assumed(case: _core.Case, got: _core.Outcome, ref: _core.Outcome, reference: Callable,
                  probe: Callable, tol: _Tol) -> Relation | None:
    """Rank probing, before an exception is quoted: the code raised on this case, and runs (right
    or not) on the same input with one axis fewer (each item of a leading batch axis, where the
    reference treats it as one) or one leading axis more: it assumes a number of axes."""
    if got.error is None:
        return None
    for min_ndim in (3, 2):
        items = _unbatched(case, reference, ref, tol, min_ndim)
        if items and all(probe(item).error is None for item in items[:3]):
            right = all(_core.matches(probe(item).value, _core.call(reference, item).value, rtol=tol.rtol,
                                      atol=tol.atol, f32=tol.f32) for item in items[:3])
            ndims = sorted({a.ndim for a in list(case.args) + list(case.kwargs.values())
                            if isinstance(a, np.ndarray) and a.ndim >= min_ndim})
            return Relation("rank", f"your code assumes fewer axes than this input has: it raised {got.error} on "
                                    f"{'/'.join(map(str, ndims))}-D input whose leading axis is a batch, and runs on "
                                    "each item of that batch taken alone"
                                    + ("" if right else " (where its answer is not right either)")
                                    + "; write it for any number of leading axes (index from the end: `axis=-1`, "
                                    "`shape[-2]`, `swapaxes(-1, -2)` instead of `.T`, `@` instead of `np.dot`)")
    arrays = [w for w, a in list(enumerate(case.args)) + list(case.kwargs.items())
              if isinstance(a, np.ndarray) and a.ndim >= 1 and a.dtype != object]
    if arrays:
        get = lambda w: case.args[w] if isinstance(w, int) else case.kwargs[w]  # noqa: E731
        bigger = _replaced(case, {w: get(w)[None] for w in arrays})
        if _core.call(reference, bigger).error is None and probe(bigger).error is None:
            ndims = sorted({get(w).ndim for w in arrays})
            return Relation("rank", f"your code assumes more axes than this input has: it raised {got.error} on "
                                    f"{'/'.join(map(str, ndims))}-D input, and runs on the same input with a leading "
                                    "axis of size 1 added; write it for any number of axes (index from the end: "
                                    "`axis=-1`, `shape[-1]`)")
    return None


_SHAPE_WORDS = ("broadcast", "core dimension", "cannot reshape", "must match the size", "out of bounds for",
                "shape", "size of tensor", "dimension", "mat1 and mat2", "axis")


def describe_error(case: _core.Case, got: _core.Outcome, arg_names: Sequence[str]) -> str | None:
    """What a raised error is, in words that hold: its type, the input that triggers it, and
    whether the library's message is about shapes. Not a relation: a description."""
    if got.error is None or got.error == "NotImplementedError":
        return None
    if got.error in ("NameError", "UnboundLocalError"):
        name = re.search(r"'([^']+)'", got.message)
        what = f"`{name.group(1)}`" if name else "a name"
        return (f"Not a catalogued mistake: your code uses {what}, which is not defined when the check calls "
                "it (" + ("a local variable read before any line assigns it: an `if` branch that did not "
                          "run, or a name also assigned later in the function" if got.error == "UnboundLocalError"
                          else "a helper or a variable from a cell that has not run, an import left out, "
                               "or a misspelt name") + "). Define it in your cell, or run the cell that does, "
                "then run this check again.")
    shapes = ", ".join(f"{n} {tuple(v.shape)}" for n, v, _ in _arrays(case, arg_names)
                       if hasattr(v, "shape") and getattr(v, "ndim", 0) >= 1)
    text = (f"Not a catalogued mistake: your code raised {got.error} on this input"
            + (f" ({shapes})" if shapes else "") + ", where the right code returns an answer")
    if any(w in got.message.lower() for w in _SHAPE_WORDS):
        text += (". The error is about shapes: a step of your code combines axes whose sizes do not fit on "
                 "this input (code that passes on inputs where those sizes happen to be equal, or "
                 "that have another number of axes, can fail on this one); run your function on this input to find that "
                 "step, and write the shape of each operand next to it")
    else:
        text += ". Run your function on this input to see the line that raises"
    return text + "."


def describe_own_check(case: _core.Case, got: _core.Outcome, arg_names: Sequence[str], exercise: str,
                       show_values: bool = True) -> str:
    """A `raise` or an `assert` the learner wrote refused an input the exercise allows: said as
    such (whatever words its message borrows from a library), with the sizes its message names."""
    arrays = [(n, v) for n, v, _ in _arrays(case, arg_names) if hasattr(v, "shape") and getattr(v, "ndim", 0) >= 1]
    shapes = ", ".join(f"{n} {tuple(v.shape)}" for n, v in arrays)
    text = (f"Not a catalogued mistake, but your own input check refuses a valid input: your code raised "
            f"{got.error} itself (a `raise` or an `assert` you wrote) on this input"
            + (f" ({shapes})" if shapes else "") + ", which the exercise allows: the right code returns an answer")
    if show_values:
        text += f". Your check's message: {got.message[:300]!r}"
        sizes = []
        for number in dict.fromkeys(int(n) for n in re.findall(r"\b\d+\b", got.message)):
            axes = []
            for n, v in arrays:
                owner = n + ("'" if n.endswith("s") else "'s")
                for a, size in enumerate(v.shape):
                    letter = _LETTERS.get(n, {}).get(a - v.ndim) or _LETTERS.get(n, {}).get(a)
                    if size == number:
                        axes.append(f"{letter} ({owner} axis {a})" if letter else f"the size of {owner} axis {a}")
            if axes:
                sizes.append(f"{number} is {' and '.join(axes[:3])}")
        if sizes:
            text += " (" + "; ".join(sizes[:4]) + ")"
    return (text + f". Loosen that check to what the exercise's contract allows "
            f"(`attnlab.checks.explain(\"{exercise}\")` prints it): any batch axes, any sizes that fit.")


# ---------------------------------------------------------------------------------------------
# The entry points

def relate(case: _core.Case, got: _core.Outcome, ref: _core.Outcome, reference: Callable, *,
           arg_names: Sequence[str] = (), outputs: Sequence[str] = (), rtol: float = _core.RTOL,
           atol: float = _core.ATOL, f32: float = 0.0,
           probe: Callable[[_core.Case], _core.Outcome] | None = None) -> Relation | None:
    """The exact relation between the learner's outcome ``got`` and the reference's ``ref`` on
    ``case``, or None when none holds. ``probe`` runs the learner's code on another case (only
    in-process: it lets the layer tell a rank the code assumes)."""
    tol = _Tol(max(rtol, _core.RTOL), max(atol, _core.ATOL), f32)
    if ref.error is not None or case.raises is not None:
        return None
    if got.error is None and _core.matches(got.value, ref.value, rtol=tol.rtol, atol=tol.atol, f32=f32):
        return None  # a right answer has no relation to name
    try:
        if got.error is not None or got.mutated:
            if got.error is not None and probe is not None:
                return (_rank_relation(case, ref, reference, probe, tol)
                        or _leading_axis_relation(case, ref, reference, probe, tol)
                        or _rank_assumed(case, got, ref, reference, probe, tol))
            return None
        found = _input_relations(case, got, ref, reference, arg_names, tol)
        if found is None:
            found = _integer_relation(got.value, ref.value, outputs)
        if found is None:
            found = _tuple_relation(case, got.value, ref.value, outputs, tol)
        if found is None:
            sizes = known_sizes(case, arg_names)
            pairs = _pairs(got.value, ref.value, outputs, tol)
            ids = _integer_items(ref.value, outputs)
            for what, g, e in pairs:
                found = _output_relation(g, e, what, sizes, tol)
                if found is None and g.shape == e.shape and np.all(np.isfinite(g)) and np.all(np.isfinite(e)):
                    found = _plus_input(case, g, e, what, arg_names, tol) or _row_factor_relation(g, e, what, tol)
                if found is not None and what in ids and found.kind not in _KINDS_FOR_IDS:
                    found = None  # token ids, indices, counts: arithmetic on them means nothing
                if found is not None:
                    others = [w for w, _, _ in pairs if w != what and "whether " not in w]
                    if others:  # the relation holds for one item; the others are wrong as well
                        found = Relation(found.kind, found.message + f"; and {' and '.join(others)} "
                                                     f"{'are' if len(others) > 1 or _core._plural(others[0]) else 'is'} "
                                                     "wrong too, so look for the step both come from")
                    break
        if found is None and probe is not None:
            found = _rank_relation(case, ref, reference, probe, tol)
    except Exception:  # a relation that cannot even be tried does not hold
        return None
    return found


def _integer_relation(got: Any, exp: Any, outputs: Sequence[str]) -> Relation | None:
    """An integer array where the answer has decimals: exactly the right values rounded toward
    zero (an int array written into) or to the nearest integer."""
    items = list(zip(outputs or [f"item {i}" for i in range(len(exp))], got, exp)) \
        if isinstance(exp, tuple) and isinstance(got, (tuple, list)) and len(got) == len(exp) \
        else [("result", got, exp)]
    for name, g, e in items:
        dtype = getattr(g, "dtype", None)
        if getattr(dtype, "kind", None) not in ("i", "u"):
            continue
        ea = _float(e)
        if ea is None or np.asarray(e).dtype.kind != "f" or not np.all(np.isfinite(ea)) or np.array_equal(ea, np.round(ea)):
            continue
        ga = _float(g)
        if ga is None or ga.shape != ea.shape:
            continue
        what = "your result" if name == "result" else f"the {name} you returned"
        for how, done in (("with the decimals cut off (rounded toward zero)", np.trunc(ea)),
                          ("rounded to whole numbers", np.round(ea))):
            if np.array_equal(ga, done):
                return Relation("integer", f"{what} is an integer array ({dtype}): the right values {how}; "
                                           "the array it is written into (or computed from) has an integer "
                                           "dtype, e.g. `np.zeros(..., dtype=int)`, or an integer input: "
                                           "make it a float array")
    return None


# The relations that still mean something where the answer is whole numbers (token ids, indices):
# where they are, not what they are worth (a constant factor between two token ids is a coincidence).
_KINDS_FOR_IDS = {"transpose", "permute", "reshape", "order", "shift", "shift-index", "cut", "swap", "input-transpose",
                  "first-slice"}


def _integer_items(exp: Any, outputs: Sequence[str]) -> set[str]:
    """The names (as :func:`_pairs` gives them) of the items of the right answer that are integers."""
    if isinstance(exp, tuple):
        names = list(outputs) or [f"item {i}" for i in range(len(exp))]
        return {f"the {n} you returned" for n, e in zip(names, exp)
                if getattr(getattr(e, "dtype", None), "kind", "f") in "iub"}
    return {"your result"} if getattr(getattr(exp, "dtype", None), "kind", "f") in "iub" else set()


def _pairs(got: Any, exp: Any, outputs: Sequence[str], tol: _Tol) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The (name, yours, expected) arrays that differ: the result itself, or the items of a tuple."""
    if isinstance(exp, tuple):
        if not isinstance(got, (tuple, list)) or len(got) != len(exp):
            return []
        names = list(outputs) or [f"item {i}" for i in range(len(exp))]
        out = []
        for name, g, e in zip(names, got, exp):
            ga, ea = _float(g), _float(e)
            if ga is not None and ea is not None and not (ga.shape == ea.shape and _close(ga, ea, tol)):
                out.append((f"the {name} you returned", ga, ea))
        return out
    ga, ea = _float(got), _float(exp)
    return [("your result", ga, ea)] if ga is not None and ea is not None else []


def first_difference(got: _core.Outcome, ref: _core.Outcome, outputs: Sequence[str] = (), *,
                     rtol: float = _core.RTOL, atol: float = _core.ATOL, f32: float = 0.0,
                     show_values: bool = True) -> str | None:
    """Where the answers first differ: the first row (the slice along the last axis) with both
    values on visible cases, the position alone on hidden ones. None when the shapes differ."""
    if got.error is not None or ref.error is not None:
        return None
    tol = _Tol(max(rtol, _core.RTOL), max(atol, _core.ATOL), f32)
    for what, g, e in _pairs(got.value, ref.value, outputs, tol):
        if g.shape != e.shape or e.ndim == 0:
            continue
        allowed = _core._allowed(e, tol.rtol, tol.atol, tol.f32)
        with np.errstate(all="ignore"):
            bad = ~(np.abs(g - e) <= allowed) & ~(np.isnan(g) & np.isnan(e)) & ~(g == e)
        if not bad.any():
            continue
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        count = int(bad.sum())
        if e.ndim == 1:
            place = f"at index {where[0]}"
            row_e, row_g = e, g
        else:
            place = f"first in row {list(where[:-1])}"
            row_e, row_g = e[where[:-1]], g[where[:-1]]
        text = (f"{what[0].upper() + what[1:]} differ{'' if _core._plural(what) else 's'} in {count} of "
                f"{e.size} entries, {place}.")
        if show_values and row_e.size <= 12:
            fmt = lambda a: np.array2string(a, precision=4, suppress_small=True, separator=", ")  # noqa: E731
            exp_s, got_s = fmt(row_e), fmt(row_g)
            if exp_s != got_s:
                text += f"\n  expected: {exp_s}\n  yours:    {got_s}"
        return text
    return None


def _ranges(idx: Sequence[int]) -> str:
    """``[0, 1, 2, 5]`` -> ``"0-2, 5"``."""
    out, start, prev = [], None, None
    for i in list(idx) + [None]:
        if start is None:
            start = prev = i
        elif i is not None and i == prev + 1:
            prev = i
        else:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = i
    return ", ".join(out)


def describe_partial(got: _core.Outcome, ref: _core.Outcome, outputs: Sequence[str] = (), *,
                     rtol: float = _core.RTOL, atol: float = _core.ATOL, f32: float = 0.0) -> str | None:
    """Where the answer is right and where it is not, when that is not everywhere: the items of a
    returned tuple that are right, or the indices along one axis where every entry is right."""
    if got.error is not None or ref.error is not None:
        return None
    tol = _Tol(max(rtol, _core.RTOL), max(atol, _core.ATOL), f32)
    parts = []
    if isinstance(ref.value, tuple) and isinstance(got.value, (tuple, list)) and len(got.value) == len(ref.value):
        names = list(outputs) or [f"item {i}" for i in range(len(ref.value))]
        right = [n for n, g, e in zip(names, got.value, ref.value)
                 if not n.startswith("whether ")  # (a yes/no the check measured, not a value returned)
                 and _core.matches(g, e, rtol=tol.rtol, atol=tol.atol, f32=tol.f32)]
        names = [n for n in names if not n.startswith("whether ")]
        if right and len(right) < len(names):
            parts.append(f"the {' and the '.join(right)} you returned {'are' if len(right) > 1 or _core._plural(right[0]) else 'is'} right")
    for what, g, e in _pairs(got.value, ref.value, outputs, tol):
        if g.shape != e.shape or e.ndim == 0:
            continue
        allowed = _core._allowed(e, tol.rtol, tol.atol, tol.f32)
        with np.errstate(all="ignore"):
            bad = ~(np.abs(g - e) <= allowed) & ~(np.isnan(g) & np.isnan(e)) & ~(g == e)
        best = None
        for a in range(e.ndim):
            if e.shape[a] < 2:
                continue
            wrong = np.any(np.moveaxis(bad, a, 0).reshape(e.shape[a], -1), axis=1)
            if wrong.any() and not wrong.all() and (best is None or wrong.sum() < best[1].sum()):
                best = (a, wrong)
        if best is not None:
            a, wrong = best
            ok = [int(i) for i in np.flatnonzero(~wrong)]
            no = [int(i) for i in np.flatnonzero(wrong)]
            verb = "match" if _core._plural(what) else "matches"
            parts.append(f"{what} {verb} the right answer exactly at index {_ranges(ok)} of axis {a} "
                         f"(every entry there), and differ{'' if verb == 'match' else 's'} only at index "
                         f"{_ranges(no)}: look at what your code does differently there")
        break
    if not parts:
        return None
    return "Not a catalogued mistake, but partly right: " + "; ".join(parts) + "."

