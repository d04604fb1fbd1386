"""Checks for notebook 06, attention_as_kernel_machine.

Exercises: ``gaussian_attention_weights``, ``nadaraya_watson``, ``fit_bandwidth``,
``kernel_ridge_fit`` / ``kernel_ridge_predict``, ``linear_attention``,
``linear_attention_recurrent``. Each check takes the learner's function and ``hidden=False``;
nbgrader's hidden tests call it with ``hidden=True``, which draws other inputs (other seeds,
lengths and bandwidths) than the visible ones.

The inputs are chosen so that the catalogued mistakes give different answers: ``Lq != Lk``,
bandwidths away from 1 (so that ``sigma``, ``sigma^2`` and ``2 sigma^2`` all differ), a query far
from every key, noisy data on which leaving one out changes the chosen bandwidth, ``Dk != Dv``,
feature maps that change the width, batched and unbatched sequences.
"""
from __future__ import annotations

import numpy as np

from .. import kernels as _ref
from .. import linearised_attention as _lin
from ..averages import softmax
from ._contract import invoke_numpy, invoke_numpy_any_dtype
from ._contract import numpy_exercise
from ._core import Case, Mistake, case_rng, run_check
from ._memory import peak_of_call
from .efficient_attention import TooMuchMemory  # the name the grader's own measurement reports
from ._predict import Prediction, WrongPrediction

# ---------------------------------------------------------------------------------------------
# Wrong Gaussian kernels, shared by the mistakes below: (Lq,), (Lk,), sigma -> (Lq, Lk) scores.

def _diff(xq, xk):
    return np.asarray(xq, dtype=float)[:, None] - np.asarray(xk, dtype=float)[None, :]  # (Lq, Lk)


def _s_right(xq, xk, s):
    return -_diff(xq, xk) ** 2 / (2 * s**2)


def _s_no_half(xq, xk, s):
    return -_diff(xq, xk) ** 2 / s**2


def _s_not_squared(xq, xk, s):
    return -_diff(xq, xk) ** 2 / (2 * s)


def _s_abs(xq, xk, s):
    return -np.abs(_diff(xq, xk)) / (2 * s**2)


def _s_gamma(xq, xk, s):
    return -s * _diff(xq, xk) ** 2


def _s_times(xq, xk, s):
    return -_diff(xq, xk) ** 2 * s**2 / 2


# ---------------------------------------------------------------------------------------------
# gaussian_attention_weights

def _gw_with(scores):
    def impl(x_query, x_keys, bandwidth):
        return softmax(scores(x_query, x_keys, bandwidth), axis=-1)
    return impl


def _gw_axis0(x_query, x_keys, bandwidth):
    return softmax(_s_right(x_query, x_keys, bandwidth), axis=0)


def _gw_unnormalised(x_query, x_keys, bandwidth):
    return np.exp(_s_right(x_query, x_keys, bandwidth))


def _gw_plus(x_query, x_keys, bandwidth):
    return softmax(-_s_right(x_query, x_keys, bandwidth), axis=-1)


def _gw_transposed(x_query, x_keys, bandwidth):
    return softmax(_s_right(x_query, x_keys, bandwidth), axis=-1).T


def _gw_keys_queries(x_query, x_keys, bandwidth):
    return softmax(_s_right(x_keys, x_query, bandwidth), axis=-1)


def _gw_sigma_one(x_query, x_keys, bandwidth):
    return softmax(_s_right(x_query, x_keys, 1.0), axis=-1)


def _nw_sigma_one(x_query, x_keys, y_values, bandwidth):
    return softmax(_s_right(x_query, x_keys, 1.0), axis=-1) @ y_values


BANDWIDTH_IGNORED = ("the bandwidth ignored (σ fixed to 1)",
                     "use the `bandwidth` argument in the exponent: `-(x_q - x_k)**2 / (2 * bandwidth**2)`.",
                     "The kernel's width is the `bandwidth` argument; no fixed width.")


def _gw_no_max(x_query, x_keys, bandwidth):
    e = np.exp(_s_right(x_query, x_keys, bandwidth))
    return e / e.sum(axis=-1, keepdims=True)


GAUSSIAN_WEIGHTS_MISTAKES = [
    Mistake("missing 1/2 in the exponent (exp(-d²/σ²))",
            "the Gaussian kernel is exp(-(x_q - x_k)² / (2 σ²)): divide by `2 * bandwidth**2`.",
            _gw_with(_s_no_half)),
    Mistake("σ not squared (dividing by 2σ instead of 2σ²)",
            "square the bandwidth: `/ (2 * bandwidth**2)`.", _gw_with(_s_not_squared)),
    Mistake("the bandwidth multiplies instead of divides (σ² d² / 2)",
            "a wider kernel must give *smaller* scores for the same distance: divide by `2 σ²`.",
            _gw_with(_s_times)),
    Mistake("the bandwidth used as a precision γ (exp(-σ d²))",
            "σ is a width, not sklearn's γ: the exponent is `-(x_q - x_k)**2 / (2 * bandwidth**2)`.",
            _gw_with(_s_gamma)),
    Mistake("distances not squared (|x_q - x_k| instead of (x_q - x_k)²)",
            "square the difference: `(x_query[:, None] - x_keys[None, :])**2`.", _gw_with(_s_abs)),
    Mistake("normalising over the queries (axis 0) instead of over the keys",
            "each query's weights must sum to one over the keys: softmax over the last axis "
            "(axis=-1), so that every *row* sums to one.", _gw_axis0),
    Mistake("no normalisation (the raw kernel exp(-d²/2σ²), not a softmax)",
            "divide each row by its sum, i.e. take `attnlab.softmax(scores, axis=-1)`.", _gw_unnormalised),
    Mistake("a plus sign in the exponent (far keys get the largest weights)",
            "the score is minus the scaled squared distance: `-(x_q - x_k)**2 / (2 σ²)`.", _gw_plus),
    Mistake("the weight matrix transposed (keys down the rows, shape (Lk, Lq))",
            "put the queries down the rows: `x_query[:, None] - x_keys[None, :]` gives (Lq, Lk).",
            _gw_transposed),
    Mistake("queries and keys swapped (shape (Lk, Lq))",
            "the queries index the rows: `x_query[:, None] - x_keys[None, :]`.", _gw_keys_queries),
    Mistake("no max subtraction: exp underflows to 0/0 for a query far from every key",
            "use `attnlab.softmax(scores, axis=-1)`, which subtracts each row's maximum first.",
            _gw_no_max),
    Mistake(BANDWIDTH_IGNORED[0], BANDWIDTH_IGNORED[1], _gw_sigma_one, BANDWIDTH_IGNORED[2]),
]


def _points(rng, n, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=n)


def _gw_cases(hidden: bool) -> list[Case]:
    rng = case_rng(601 if hidden else 61, hidden)
    setups = ([(5, 3, 0.45), (3, 8, 2.5), (6, 4, 0.8)] if hidden
              else [(4, 6, 0.7), (5, 3, 1.8), (3, 7, 0.3)])
    return [Case((_points(rng, Lq), _points(rng, Lk), s), why=f"Lq={Lq} queries, Lk={Lk} keys")
            for Lq, Lk, s in setups]


def _gw_stable_cases(hidden: bool) -> list[Case]:
    rng = case_rng(602 if hidden else 62, hidden)
    keys = np.sort(rng.uniform(0.0, 1.0, size=5))
    far = np.array([0.5, 14.0, -9.0] if hidden else [0.3, 12.0, -8.0])
    return [
        Case((far, keys, 0.1 if hidden else 0.12), why="queries far from every key, narrow kernel"),
        Case((np.array([40.0, 41.0]), keys, 0.5), why="every query far from every key"),
    ]


def check_gaussian_attention_weights(gaussian_attention_weights, hidden: bool = False) -> None:
    """Check that ``gaussian_attention_weights`` returns the softmax over keys of ``-(x_q-x_k)²/2σ²``."""
    run_check(gaussian_attention_weights, exercise="gaussian_attention_weights",
              reference=_ref.gaussian_attention_weights, cases=_gw_cases(hidden),
              mistakes=GAUSSIAN_WEIGHTS_MISTAKES, arg_names=("x_query", "x_keys", "bandwidth"),
              show_values=not hidden, passed="weights match for several bandwidths, Lq != Lk",
              invoke=invoke_numpy)


def check_gaussian_attention_weights_stable(gaussian_attention_weights, hidden: bool = False) -> None:
    """Check that ``gaussian_attention_weights`` stays finite for queries far from every key."""
    run_check(gaussian_attention_weights, exercise="gaussian_attention_weights",
              reference=_ref.gaussian_attention_weights, cases=_gw_stable_cases(hidden),
              mistakes=GAUSSIAN_WEIGHTS_MISTAKES, arg_names=("x_query", "x_keys", "bandwidth"),
              show_values=not hidden, passed="finite rows on the simplex, even far from the data",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# nadaraya_watson

def _nw_with(scores):
    def impl(x_query, x_keys, y_values, bandwidth):
        return softmax(scores(x_query, x_keys, bandwidth), axis=-1) @ y_values
    return impl


def _nw_kernel_sum(x_query, x_keys, y_values, bandwidth):
    return np.exp(_s_right(x_query, x_keys, bandwidth)) @ y_values


def _nw_axis0(x_query, x_keys, y_values, bandwidth):
    return softmax(_s_right(x_query, x_keys, bandwidth), axis=0) @ y_values


def _nw_no_sum(x_query, x_keys, y_values, bandwidth):
    return softmax(_s_right(x_query, x_keys, bandwidth), axis=-1) * y_values


def _nw_mean(x_query, x_keys, y_values, bandwidth):
    return np.full(len(x_query), np.mean(y_values))


def _nw_wrong_way(x_query, x_keys, y_values, bandwidth):
    return y_values @ softmax(_s_right(x_query, x_keys, bandwidth), axis=-1)


def _nw_returns_weights(x_query, x_keys, y_values, bandwidth):
    return softmax(_s_right(x_query, x_keys, bandwidth), axis=-1)


NADARAYA_WATSON_MISTAKES = [
    Mistake("a kernel-weighted sum instead of an average (weights not normalised)",
            "the weights must sum to one over the keys: use "
            "`attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth) @ y_values`.", _nw_kernel_sum),
    Mistake("weights normalised over the queries (axis 0) instead of over the keys",
            "each prediction averages the *training targets*: normalise over the keys (the last axis).",
            _nw_axis0),
    Mistake("weighting the values without summing them (shape (Lq, Lk))",
            "sum the weighted targets over the keys: a matrix product `weights @ y_values` gives (Lq,).",
            _nw_no_sum),
    Mistake("returning the weights instead of the prediction",
            "multiply the (Lq, Lk) weights by the (Lk,) targets.", _nw_returns_weights),
    Mistake("the plain mean of the targets (the weights are ignored)",
            "each query gets its own weighted average: `weights @ y_values`.", _nw_mean),
    Mistake("weights and values multiplied the wrong way round",
            "the weights are (Lq, Lk) and the values (Lk,): `weights @ y_values`, with the keys "
            "as the shared axis.", _nw_wrong_way),
    Mistake("missing 1/2 in the exponent", "use `attnlab.gaussian_attention_weights`, or divide "
            "by `2 * bandwidth**2`.", _nw_with(_s_no_half)),
    Mistake("σ not squared", "use `attnlab.gaussian_attention_weights`, or divide by "
            "`2 * bandwidth**2`.", _nw_with(_s_not_squared)),
    Mistake(BANDWIDTH_IGNORED[0], BANDWIDTH_IGNORED[1], _nw_sigma_one, BANDWIDTH_IGNORED[2]),
]


def _nw_cases(hidden: bool) -> list[Case]:
    rng = case_rng(611 if hidden else 71, hidden)
    setups = ([(6, 4, 0.55), (3, 9, 1.6), (8, 5, 0.35)] if hidden
              else [(4, 6, 0.7), (5, 3, 1.3), (7, 9, 0.4)])
    cases = []
    for Lq, Lk, s in setups:
        x_keys = _points(rng, Lk)
        y = 1.0 + np.sin(2 * x_keys) + 0.3 * rng.normal(size=Lk)
        cases.append(Case((_points(rng, Lq), x_keys, y, s), why=f"Lq={Lq} queries, Lk={Lk} keys"))
    return cases


def check_nadaraya_watson(nadaraya_watson, hidden: bool = False) -> None:
    """Check that ``nadaraya_watson`` returns the attention-weighted average of the targets."""
    run_check(nadaraya_watson, exercise="nadaraya_watson", reference=_ref.nadaraya_watson,
              cases=_nw_cases(hidden), mistakes=NADARAYA_WATSON_MISTAKES,
              arg_names=("x_query", "x_keys", "y_values", "bandwidth"), show_values=not hidden,
              passed="predictions match for several bandwidths, Lq != Lk",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# fit_bandwidth

def _loo_errors(x, y, candidates, scores=_s_right, leave_out=True, renormalise=True):
    errors = []
    for c in np.asarray(candidates, dtype=float):
        s = scores(x, x, c)  # (N, N)
        if leave_out and renormalise:
            np.fill_diagonal(s, -np.inf)
            w = softmax(s, axis=-1)
        else:
            w = softmax(s, axis=-1)
            if leave_out:  # own weight removed, the others left as they were
                np.fill_diagonal(w, 0.0)
        errors.append(np.mean((w @ y - y) ** 2))
    return np.array(errors)


def _fb_no_loo(x, y, candidates):
    return candidates[np.argmin(_loo_errors(x, y, candidates, leave_out=False))]


def _fb_not_renormalised(x, y, candidates):
    return candidates[np.argmin(_loo_errors(x, y, candidates, renormalise=False))]


def _fb_argmax(x, y, candidates):
    return candidates[np.argmax(_loo_errors(x, y, candidates))]


def _fb_error(x, y, candidates):
    return np.min(_loo_errors(x, y, candidates))


def _fb_index(x, y, candidates):
    return np.argmin(_loo_errors(x, y, candidates))


def _fb_no_half(x, y, candidates):
    return candidates[np.argmin(_loo_errors(x, y, candidates, scores=_s_no_half))]


def _fb_not_squared(x, y, candidates):
    return candidates[np.argmin(_loo_errors(x, y, candidates, scores=_s_not_squared))]


def _fb_first(x, y, candidates):
    return candidates[0]


def _fb_last_of_ties(x, y, candidates):
    errors = [_ref.leave_one_out_error(x, y, c) for c in candidates]
    best = min(errors)
    return float(candidates[max(i for i, e in enumerate(errors) if e == best)])


FIT_BANDWIDTH_MISTAKES = [
    Mistake("returning the index of the best candidate instead of the candidate",
            "`np.argmin(errors)` is a position: return `candidates[np.argmin(errors)]`.", _fb_index),
    Mistake("returning the lowest error instead of the candidate that achieves it",
            "keep the errors in a list and return `candidates[np.argmin(errors)]`.", _fb_error),
    Mistake("no leave-one-out: each point also attends to itself",
            "a point that sees its own target copies it as σ → 0, so the error always prefers the "
            "smallest width. Mask the diagonal before the softmax, e.g. "
            "`attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))`.", _fb_no_loo),
    Mistake("own weight removed but the other weights not renormalised",
            "after dropping a point's own weight the rest no longer sum to one: mask the diagonal "
            "*before* the softmax (or divide each row by its new sum).", _fb_not_renormalised),
    Mistake("picking the candidate with the highest error (argmax instead of argmin)",
            "the best width has the *lowest* leave-one-out error: `np.argmin`.", _fb_argmax),
    Mistake("missing 1/2 in the exponent of the kernel",
            "use the kernel of the exercises above: `-(x_i - x_j)**2 / (2 * bandwidth**2)`.", _fb_no_half),
    Mistake("σ not squared in the kernel",
            "divide by `2 * bandwidth**2`, not `2 * bandwidth`.", _fb_not_squared),
    Mistake("returning the first candidate (no search)",
            "compute the leave-one-out error of every candidate and return the best one.", _fb_first),
    Mistake("the last of tied candidates kept, where the contract says the first",
            "keep a new best only when its error is strictly lower (`<`, not `<=`), or use "
            "`np.argmin`, which returns the first of equal minima.", _fb_last_of_ties,
            "On a tie the contract picks the first candidate in the order given: only a strictly "
            "lower error replaces the best so far."),
]


def _noisy_data(rng, N, lo=0.0, hi=4.0, noise=0.35):
    x = np.sort(rng.uniform(lo, hi, size=N))
    y = 2.0 + np.sin(2 * x) + 0.5 * x + noise * rng.normal(size=N)
    return x, y


_GRID = np.round(np.logspace(-1.6, 0.4, 17), 4)  # 0.025 ... 2.5, ratio ~1.33


def _fb_cases(hidden: bool) -> list[Case]:
    rng = case_rng(621 if hidden else 81, hidden)
    cases = []
    for N, noise in ([(30, 0.3), (22, 0.5)] if hidden else [(25, 0.35), (26, 0.3)]):
        x, y = _noisy_data(rng, N, noise=noise)
        cases.append(Case((x, y, _GRID.copy()), why=f"N={N} noisy points, {len(_GRID)} sorted candidates"))
    return cases


def _first_stands_apart(x, y, candidates: np.ndarray) -> np.ndarray:
    """``candidates`` reordered (only where needed) so that its first entry is neither the right
    answer nor the answer of any other catalogued mistake: "returning the first candidate" then
    has an answer of its own on this case and is named, whatever data the course secret drew."""
    candidates = candidates.copy()
    for j in range(len(candidates)):
        trial = candidates.copy()
        trial[[0, j]] = trial[[j, 0]]
        others = [_ref.fit_bandwidth(x, y, trial)]
        others += [m.impl(x, y, trial) for m in FIT_BANDWIDTH_MISTAKES if m.impl is not _fb_first]
        if not any(np.isclose(float(np.ravel(o)[0]), trial[0]) for o in others if np.size(o) == 1):
            return trial
    return candidates


def _answers_apart(x, y, candidates: np.ndarray) -> bool:
    """True when, on this data, the right answer and every catalogued mistake that returns a
    candidate give different candidates, so that each mistake is told from the others."""
    answers = [_ref.fit_bandwidth(x, y, candidates)]
    answers += [float(np.ravel(m.impl(x, y, candidates))[0]) for m in FIT_BANDWIDTH_MISTAKES
                if m.impl not in (_fb_first, _fb_index, _fb_error)]
    return len(set(np.round(answers, 8))) == len(answers)


def _fb_candidate_cases(hidden: bool) -> list[Case]:
    rng = case_rng(622 if hidden else 82, hidden)
    x, y = _noisy_data(rng, 26 if hidden else 24, noise=0.3)
    for _ in range(40 if hidden else 0):  # hidden data (drawn from the course secret) that tells the
        if _answers_apart(x, y, _GRID):    # mistakes apart; the visible data does already
            break
        x, y = _noisy_data(rng, 26, noise=0.3)
    shuffled = _first_stands_apart(x, y, _GRID[rng.permutation(len(_GRID))])
    coarse = np.array([2.0, 0.9, 0.15, 0.05]) if hidden else np.array([1.5, 0.2, 0.7, 0.04])
    coarse = _first_stands_apart(x, y, coarse)
    # widths so large that every kernel weight is exactly 1.0 in float64: their leave-one-out
    # errors are equal to the last bit, and the contract's answer is the first of them
    ties = np.array([3e9, 1e10, 1e9]) if hidden else np.array([2e9, 5e9, 1e9])
    return [
        Case((x, y, shuffled), why=f"{len(_GRID)} candidates in random order"),
        Case((x, y, coarse), why="4 candidates, unsorted"),
        Case((x, y, ties), why="3 huge widths whose errors tie exactly: the first one wins"),
    ]


def check_fit_bandwidth(fit_bandwidth, hidden: bool = False) -> None:
    """Check that ``fit_bandwidth`` picks the width with the lowest leave-one-out error."""
    run_check(fit_bandwidth, exercise="fit_bandwidth", reference=_ref.fit_bandwidth,
              cases=_fb_cases(hidden), mistakes=FIT_BANDWIDTH_MISTAKES,
              arg_names=("x", "y", "candidates"), show_values=not hidden,
              passed="picks the leave-one-out minimiser on noisy data",
              invoke=invoke_numpy_any_dtype)


def check_fit_bandwidth_candidates(fit_bandwidth, hidden: bool = False) -> None:
    """Check that ``fit_bandwidth`` returns a candidate itself, whatever the order of the candidates."""
    run_check(fit_bandwidth, exercise="fit_bandwidth", reference=_ref.fit_bandwidth,
              cases=_fb_candidate_cases(hidden), mistakes=FIT_BANDWIDTH_MISTAKES,
              arg_names=("x", "y", "candidates"), show_values=not hidden,
              passed="returns the winning candidate, for candidates in any order",
              invoke=invoke_numpy_any_dtype)


# ---------------------------------------------------------------------------------------------
# kernel_ridge_fit / kernel_ridge_predict

def _krr_fit_with(scores):
    def impl(x, y, bandwidth, reg):
        K = np.exp(scores(x, x, bandwidth))
        return np.linalg.solve(K + reg * np.eye(len(x)), y)
    return impl


def _krr_no_reg(x, y, bandwidth, reg):
    return np.linalg.solve(np.exp(_s_right(x, x, bandwidth)), y)


def _krr_reg_outside(x, y, bandwidth, reg):
    K = np.exp(_s_right(x, x, bandwidth))
    return np.linalg.inv(K) @ y + reg * y


def _krr_reg_everywhere(x, y, bandwidth, reg):
    K = np.exp(_s_right(x, x, bandwidth))
    return np.linalg.solve(K + reg, y)


def _krr_softmax_kernel(x, y, bandwidth, reg):
    K = softmax(_s_right(x, x, bandwidth), axis=-1)
    return np.linalg.solve(K + reg * np.eye(len(x)), y)


def _krr_reg_times_k(x, y, bandwidth, reg):
    K = np.exp(_s_right(x, x, bandwidth))
    return np.linalg.solve(K * (1 + reg), y)


def _krr_returns_predictions(x, y, bandwidth, reg):
    K = np.exp(_s_right(x, x, bandwidth))
    return K @ np.linalg.solve(K + reg * np.eye(len(x)), y)


KERNEL_RIDGE_FIT_MISTAKES = [
    Mistake("no regularisation (reg is ignored)",
            "add the ridge to the diagonal before solving: `np.linalg.solve(K + reg * np.eye(N), y)`.",
            _krr_no_reg),
    Mistake("reg added outside the inverse (K⁻¹ y + reg y)",
            "the ridge goes *inside* the inverse: alpha = (K + reg I)⁻¹ y.", _krr_reg_outside),
    Mistake("reg added to every entry of K (K + reg) instead of to its diagonal",
            "`K + reg` broadcasts the number over the whole matrix; add `reg * np.eye(N)`.",
            _krr_reg_everywhere),
    Mistake("the kernel matrix scaled by (1 + reg) instead of shifted by reg I",
            "add `reg * np.eye(N)` to K.", _krr_reg_times_k),
    Mistake("a softmax-normalised kernel (attention weights) instead of the raw Gaussian kernel",
            "kernel ridge regression uses K_ij = exp(-(x_i - x_j)² / (2σ²)) itself, without "
            "dividing the rows by their sums.", _krr_softmax_kernel),
    Mistake("missing 1/2 in the exponent of the kernel",
            "K_ij = exp(-(x_i - x_j)**2 / (2 * bandwidth**2)).", _krr_fit_with(_s_no_half)),
    Mistake("σ not squared in the kernel",
            "divide by `2 * bandwidth**2`, not `2 * bandwidth`.", _krr_fit_with(_s_not_squared)),
    Mistake("the bandwidth used as a precision γ (exp(-σ d²))",
            "σ is a width: the exponent is `-(x_i - x_j)**2 / (2 * bandwidth**2)` "
            "(sklearn's γ would be 1 / (2σ²)).", _krr_fit_with(_s_gamma)),
    Mistake("distances not squared (a Laplacian kernel)",
            "square the differences: `(x[:, None] - x[None, :])**2`.", _krr_fit_with(_s_abs)),
    Mistake("returning the fitted values K alpha instead of the coefficients alpha",
            "return alpha = (K + reg I)⁻¹ y itself; predictions are the job of kernel_ridge_predict.",
            _krr_returns_predictions),
]


def _krr_predict_with(scores):
    def impl(x_query, x_train, alpha, bandwidth):
        return np.exp(scores(x_query, x_train, bandwidth)) @ alpha
    return impl


def _krp_swapped(x_query, x_train, alpha, bandwidth):
    return np.exp(_s_right(x_train, x_query, bandwidth)) @ alpha


def _krp_softmax(x_query, x_train, alpha, bandwidth):
    return softmax(_s_right(x_query, x_train, bandwidth), axis=-1) @ alpha


def _krp_no_alpha(x_query, x_train, alpha, bandwidth):
    return np.exp(_s_right(x_query, x_train, bandwidth)).sum(axis=-1)


def _krp_kernel(x_query, x_train, alpha, bandwidth):
    return np.exp(_s_right(x_query, x_train, bandwidth))


KERNEL_RIDGE_PREDICT_MISTAKES = [
    Mistake("K(x_train, x_query) used without transposing it (shape (N, Lq))",
            "the rows of the kernel must be the queries: K(x_query, x_train) has shape (Lq, N), "
            "then `@ alpha` gives (Lq,).", _krp_swapped),
    Mistake("attention weights (a softmax-normalised kernel) instead of the raw kernel",
            "kernel ridge predictions use the unnormalised K(x_query, x_train) @ alpha: the "
            "coefficients alpha already carry the scale.", _krp_softmax),
    Mistake("alpha ignored (a sum of kernel values)",
            "weight each stored key's kernel value by its coefficient: `K @ alpha`.", _krp_no_alpha),
    Mistake("returning the kernel matrix instead of the predictions",
            "multiply K(x_query, x_train) (Lq, N) by alpha (N,).", _krp_kernel),
    Mistake("missing 1/2 in the exponent of the kernel",
            "exp(-(x_q - x_i)**2 / (2 * bandwidth**2)).", _krr_predict_with(_s_no_half)),
    Mistake("σ not squared in the kernel",
            "divide by `2 * bandwidth**2`, not `2 * bandwidth`.", _krr_predict_with(_s_not_squared)),
    Mistake("the bandwidth used as a precision γ (exp(-σ d²))",
            "σ is a width: divide the squared distance by `2 * bandwidth**2`.", _krr_predict_with(_s_gamma)),
    Mistake("distances not squared (a Laplacian kernel)",
            "square the differences `x_query[:, None] - x_train[None, :]`.", _krr_predict_with(_s_abs)),
]


def _krr_cases(hidden: bool) -> list[Case]:
    rng = case_rng(631 if hidden else 91, hidden)
    setups = [(8, 0.65, 0.3), (6, 1.4, 0.05)] if hidden else [(7, 0.6, 0.5), (9, 1.3, 0.1)]
    cases = []
    for N, s, reg in setups:
        x = np.sort(rng.uniform(-3.0, 3.0, size=N))
        y = np.sin(x) + 0.2 * rng.normal(size=N)
        cases.append(Case((x, y, s, reg), why=f"N={N} points, reg={reg}"))
    return cases


def _krp_cases(hidden: bool) -> list[Case]:
    rng = case_rng(632 if hidden else 92, hidden)
    setups = [(3, 8, 0.65), (9, 5, 1.4)] if hidden else [(5, 7, 0.6), (11, 6, 1.3)]
    cases = []
    for Lq, N, s in setups:
        x_train = np.sort(rng.uniform(-3.0, 3.0, size=N))
        cases.append(Case((rng.uniform(-3.5, 3.5, size=Lq), x_train, rng.normal(size=N), s),
                          why=f"Lq={Lq} queries, N={N} stored keys"))
    return cases


def check_kernel_ridge_fit(kernel_ridge_fit, hidden: bool = False) -> None:
    """Check that ``kernel_ridge_fit`` returns ``alpha = (K + reg I)⁻¹ y``."""
    run_check(kernel_ridge_fit, exercise="kernel_ridge_fit", reference=_ref.kernel_ridge_fit,
              cases=_krr_cases(hidden), mistakes=KERNEL_RIDGE_FIT_MISTAKES,
              arg_names=("x", "y", "bandwidth", "reg"), show_values=not hidden, rtol=1e-6, atol=1e-8,
              passed="alpha matches for two bandwidths and ridges",
              invoke=invoke_numpy)


def check_kernel_ridge_predict(kernel_ridge_predict, hidden: bool = False) -> None:
    """Check that ``kernel_ridge_predict`` returns ``K(x_query, x_train) @ alpha``."""
    run_check(kernel_ridge_predict, exercise="kernel_ridge_predict", reference=_ref.kernel_ridge_predict,
              cases=_krp_cases(hidden), mistakes=KERNEL_RIDGE_PREDICT_MISTAKES,
              arg_names=("x_query", "x_train", "alpha", "bandwidth"), show_values=not hidden,
              passed="predictions match, Lq != N",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# linear_attention / linear_attention_recurrent

def elu_plus_one(X):
    """The feature map elu(x) + 1 (a module-level function, so its name shows in messages)."""
    return _lin.elu_feature_map(X)


class RandomFeatureMap:
    """Positive random features with fixed directions, as a picklable callable (the trusted
    grader sends check inputs to another process). Scaled by 10 (linear attention does not
    change when phi is scaled) so that every normaliser phi(q).sum phi(k) is >= 1, as the
    tolerance policy assumes: an epsilon of 1e-6 added to it then stays within tolerance."""

    SCALE = 10.0

    def __init__(self, Dk: int, M: int, seed: int) -> None:
        self.W = np.random.default_rng(seed).normal(size=(Dk, M))  # (Dk, M)
        self.__name__ = f"positive_random_features_M{M}"

    def __call__(self, X):
        return self.SCALE * _lin.positive_random_features(X, self.W)  # (..., L, Dk) -> (..., L, M)


def _random_feature_map(Dk: int, M: int, seed: int) -> RandomFeatureMap:
    return RandomFeatureMap(Dk, M, seed)


def _swap(X):
    return np.swapaxes(X, -1, -2)


def _tril(A, causal):
    if not causal:
        return A
    L = A.shape[-1]
    return A * np.tril(np.ones((A.shape[-2], L)))


def _la_weights(phi_q, phi_k, causal, normalise=True):
    A = _tril(phi_q @ _swap(phi_k), causal)  # (..., Lq, Lk)
    return A / A.sum(axis=-1, keepdims=True) if normalise else A


def _la_no_normaliser(Q, K, V, feature_map, causal=False):
    return _la_weights(feature_map(Q), feature_map(K), causal, normalise=False) @ V


def _la_raw_q(Q, K, V, feature_map, causal=False):
    return _la_weights(Q, feature_map(K), causal) @ V


def _la_raw_k(Q, K, V, feature_map, causal=False):
    return _la_weights(feature_map(Q), K, causal) @ V


def _la_axis_queries(Q, K, V, feature_map, causal=False):
    A = _tril(feature_map(Q) @ _swap(feature_map(K)), causal)
    return A / A.sum(axis=-2, keepdims=True) @ V


def _la_softmax(Q, K, V, feature_map, causal=False):
    S = Q @ _swap(K)
    if causal:
        S = np.where(np.tril(np.ones(S.shape[-2:], dtype=bool)), S, -np.inf)
    return softmax(S, axis=-1) @ V


def _la_dot_T(Q, K, V, feature_map, causal=False):
    phi_q, phi_k = feature_map(Q), feature_map(K)
    if causal:
        return _la_weights(phi_q, phi_k, causal) @ V
    return phi_q @ (phi_k.T @ V) / (phi_q @ phi_k.sum(axis=-2))[..., None]


def _la_phi_v(Q, K, V, feature_map, causal=False):
    return _la_weights(feature_map(Q), feature_map(K), causal) @ feature_map(V)


def _la_raw_normaliser(Q, K, V, feature_map, causal=False):
    phi_q, phi_k = feature_map(Q), feature_map(K)
    num = _tril(phi_q @ _swap(phi_k), causal) @ V
    den = _tril(Q @ _swap(K), causal).sum(axis=-1, keepdims=True)
    return num / den


def _la_not_causal(Q, K, V, feature_map, causal=False):
    return _la_weights(feature_map(Q), feature_map(K), False) @ V


def _la_off_by_one(Q, K, V, feature_map, causal=False):
    A = feature_map(Q) @ _swap(feature_map(K))  # (..., L, L)
    if causal:
        A = A * np.tril(np.ones(A.shape[-2:]), k=-1)  # strictly earlier keys only
    return A / A.sum(axis=-1, keepdims=True) @ V


def _la_mask_after(Q, K, V, feature_map, causal=False):
    A = _la_weights(feature_map(Q), feature_map(K), False)
    return _tril(A, causal) @ V


def _la_future(Q, K, V, feature_map, causal=False):
    A = feature_map(Q) @ _swap(feature_map(K))
    if causal:
        A = A * np.triu(np.ones(A.shape[-2:]))
    return A / A.sum(axis=-1, keepdims=True) @ V


LINEAR_ATTENTION_MISTAKES = [
    Mistake("no normaliser (φ(Q)(φ(K)ᵀV) not divided by φ(Q)Σφ(K))",
            "divide each output row by φ(q_i)·Σ_j φ(k_j), so that the implicit weights sum to one.",
            _la_no_normaliser),
    Mistake("feature map not applied to the queries",
            "use φ(Q) in the numerator *and* the normaliser: `phi_Q = feature_map(Q)`.", _la_raw_q),
    Mistake("feature map not applied to the keys",
            "use φ(K) in both sums: `phi_K = feature_map(K)`.", _la_raw_k),
    Mistake("normaliser without the feature map (Q ΣK instead of φ(Q) Σφ(K))",
            "the normaliser is the same kernel summed over the keys: `phi_Q @ phi_K.sum(-2)`.",
            _la_raw_normaliser),
    Mistake("feature map applied to the values too",
            "only queries and keys go through φ; the values are averaged as they are.", _la_phi_v),
    Mistake("normalising over the queries instead of over the keys",
            "every query's weights must sum to one over the keys: divide row i by "
            "φ(q_i)·Σ_j φ(k_j).", _la_axis_queries),
    Mistake("softmax attention exp(q·k) instead of the feature map",
            "replace the softmax by the kernel φ(q)·φ(k): `feature_map(Q)`, `feature_map(K)`.",
            _la_softmax),
    Mistake("`.T` on a batch: it reverses every axis",
            "use `np.swapaxes(phi_K, -1, -2)`, which transposes only the last two axes.", _la_dot_T),
    Mistake("causal ignored: every query sees every key",
            "with causal=True query i may only use keys j <= i: use prefix sums "
            "(`np.cumsum(..., axis=-3)` of the outer products φ(k_j) v_jᵀ and `np.cumsum(phi_K, axis=-2)`).",
            _la_not_causal),
    Mistake("prefix sum off by one: the current token is left out",
            "query i sees keys 0..i *including* i: the prefix sums are inclusive (`np.cumsum` as it is).",
            _la_off_by_one),
    Mistake("causal mask applied after normalising over all keys",
            "sum only over j <= i in the numerator *and* the normaliser (prefix sums of both).",
            _la_mask_after),
    Mistake("the future instead of the past (keys j >= i)",
            "causal means j <= i: accumulate from the start of the sequence.", _la_future),
]


# -- memory: linear attention never holds an (Lq, Lk) array -----------------------------------

MEMORY_FRACTION = 4  # the call may hold at most 1/4 of the (Lq, Lk) float64 kernel matrix at once
LONG = 2**24  # bytes: the (Lq, Lk) float64 matrix of a case this large is measured (16 MiB)


def _measured(Q, K, *args, **kwargs) -> bool:  # noqa: ARG001
    """Whether a case is long enough for its memory to be measured."""
    return Q.shape[-2] * K.shape[-2] * 8 >= LONG


@numpy_exercise
def invoke_linear_measuring_memory(fn, Q, K, V, feature_map, **kwargs):
    """:func:`invoke_numpy`, and on a long case also the peak extra memory of the call (see
    :mod:`attnlab.checks._memory`): :class:`TooMuchMemory` if it reaches ``1 / MEMORY_FRACTION``
    of the ``(Lq, Lk)`` kernel matrix. The course's grader measures it outside the learner's
    process (``measured_outside``; only the cases ``measures_case`` says)."""
    if not _measured(Q, K):
        return invoke_numpy(fn, Q, K, V, feature_map, **kwargs)

    def warmup():  # the same code on 64 queries and keys
        return fn(Q[..., :64, :], K[..., :64, :], V[..., :64, :], feature_map, **kwargs)

    result, peak, how = peak_of_call(lambda: invoke_numpy(fn, Q, K, V, feature_map, **kwargs), warmup=warmup)
    message = linear_memory_verdict(peak, how, Q, K, V, feature_map, **kwargs)
    if message:
        raise TooMuchMemory(message)
    return result


def linear_memory_verdict(peak: int, how: str, Q, K, V, feature_map, **kwargs) -> str | None:  # noqa: ARG001
    """None if ``peak`` extra bytes stay below ``1 / MEMORY_FRACTION`` of the kernel matrix (or
    the case is short); otherwise what :class:`TooMuchMemory` says."""
    full = Q.shape[-2] * K.shape[-2] * 8
    if not _measured(Q, K) or peak < full / MEMORY_FRACTION:
        return None
    return (f"it held {peak / 2**20:.1f} MiB at once ({how}), while the whole ({Q.shape[-2]}, "
            f"{K.shape[-2]}) kernel matrix takes {full / 2**20:.1f} MiB; linear attention needs "
            "only φ(K)ᵀV and Σφ(K) (or their prefix sums), whose size does not grow with Lq x Lk")


invoke_linear_measuring_memory.measured_outside = (invoke_numpy, linear_memory_verdict)
invoke_linear_measuring_memory.measures_case = _measured


def _la_quadratic(Q, K, V, feature_map, causal=False):
    raise TooMuchMemory("the (Lq, Lk) kernel matrix")


QUADRATIC_MISTAKE = Mistake(
    "the (Lq, Lk) kernel matrix φ(Q)φ(K)ᵀ built: quadratic memory, not linear attention",
    "multiply in the other order: `phi_K.swapaxes(-1, -2) @ V` first (an (M, Dv) matrix), then "
    "`phi_Q @` it; with causal=True, prefix sums (`np.cumsum`) of φ(k_j) v_jᵀ and of φ(k_j).",
    _la_quadratic)


def _qkv(rng, batch, Lq, Lk, Dk, Dv, scale=0.8):
    return (scale * rng.normal(size=(*batch, Lq, Dk)), scale * rng.normal(size=(*batch, Lk, Dk)),
            rng.normal(size=(*batch, Lk, Dv)))


def _la_cases(hidden: bool) -> list[Case]:
    rng = case_rng(641 if hidden else 101, hidden)
    if hidden:
        setups = [((), 3, 7, 2, 4, None), ((3,), 4, 6, 3, 2, None), ((), 5, 4, 3, 3, 9)]
    else:
        setups = [((), 4, 6, 3, 2, None), ((2,), 5, 7, 3, 4, None), ((), 4, 5, 3, 2, 8)]
    cases = []
    for batch, Lq, Lk, Dk, Dv, M in setups:
        fm = elu_plus_one if M is None else _random_feature_map(Dk, M, seed=7 + Dk + M)
        what = "elu(x)+1 features" if M is None else f"{M} random features of width {Dk} inputs"
        cases.append(Case(_qkv(rng, batch, Lq, Lk, Dk, Dv) + (fm,),
                          why=f"{'a batch, ' if batch else ''}Lq={Lq}, Lk={Lk}, {what}"))
    Lq, Lk = (2304, 3200) if hidden else (2048, 3072)  # a (Lq, Lk) float64 matrix: 48-56 MiB
    cases.append(Case(_qkv(rng, (), Lq, Lk, 16, 8) + (elu_plus_one,),
                      why=f"long sequences; the call may hold at most 1/{MEMORY_FRACTION} of the "
                      "(Lq, Lk) kernel matrix at once"))
    return cases


def _la_causal_cases(hidden: bool) -> list[Case]:
    rng = case_rng(642 if hidden else 102, hidden)
    setups = ([((), 6, 3, 2, None), ((2,), 4, 2, 3, None), ((), 5, 4, 2, 7)] if hidden
              else [((), 5, 3, 2, None), ((2,), 6, 4, 3, None), ((), 4, 3, 5, 6)])
    cases = []
    for batch, L, Dk, Dv, M in setups:
        fm = elu_plus_one if M is None else _random_feature_map(Dk, M, seed=11 + Dk + M)
        cases.append(Case(_qkv(rng, batch, L, L, Dk, Dv) + (fm,), {"causal": True},
                          why=f"causal, {'a batch, ' if batch else ''}L={L}"))
    L = 2816 if hidden else 2560  # a (L, L) float64 matrix: 50-60 MiB
    cases.append(Case(_qkv(rng, (), L, L, 16, 8) + (elu_plus_one,), {"causal": True},
                      why=f"causal, a long sequence; the call may hold at most 1/{MEMORY_FRACTION} "
                      "of the (L, L) kernel matrix at once"))
    return cases


def check_linear_attention(linear_attention, hidden: bool = False) -> None:
    """Check that ``linear_attention`` computes φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K), batched or not."""
    run_check(linear_attention, exercise="linear_attention", reference=_lin.linear_attention,
              cases=_la_cases(hidden), mistakes=LINEAR_ATTENTION_MISTAKES + [QUADRATIC_MISTAKE],
              arg_names=("Q", "K", "V", "feature_map"), show_values=not hidden,
              passed="matches the reference, batched and unbatched, Lq != Lk",
              invoke=invoke_linear_measuring_memory)


def check_linear_attention_causal(linear_attention, hidden: bool = False) -> None:
    """Check that ``linear_attention(..., causal=True)`` uses prefix sums over ``j <= i``."""
    run_check(linear_attention, exercise="linear_attention", reference=_lin.linear_attention,
              cases=_la_causal_cases(hidden), mistakes=LINEAR_ATTENTION_MISTAKES + [QUADRATIC_MISTAKE],
              arg_names=("Q", "K", "V", "feature_map"), show_values=not hidden,
              passed="the causal version matches (prefix sums)",
              invoke=invoke_linear_measuring_memory)


def _lr_loop(Q, K, V, feature_map, *, read_first=False, normalise=True, accumulate=True,
             phi_z=True, phi_q=True):
    pq = feature_map(Q) if phi_q else Q
    pk = feature_map(K)
    S = np.zeros((pk.shape[-1], V.shape[-1]))
    z = np.zeros(pk.shape[-1])
    out = []
    for t in range(len(Q)):
        if read_first:
            out.append(pq[t] @ S / (pq[t] @ z))
        S = S + np.outer(pk[t], V[t]) if accumulate else np.outer(pk[t], V[t])
        z_new = pk[t] if phi_z else K[t]
        z = z + z_new if accumulate else z_new
        if not read_first:
            out.append(pq[t] @ S / (pq[t] @ z) if normalise else pq[t] @ S)
    return np.array(out)


def _lr_read_first(Q, K, V, feature_map):
    return _lr_loop(Q, K, V, feature_map, read_first=True)


def _lr_no_normaliser(Q, K, V, feature_map):
    return _lr_loop(Q, K, V, feature_map, normalise=False)


def _lr_overwrite(Q, K, V, feature_map):
    return _lr_loop(Q, K, V, feature_map, accumulate=False)


def _lr_raw_z(Q, K, V, feature_map):
    return _lr_loop(Q, K, V, feature_map, phi_z=False)


def _lr_raw_q(Q, K, V, feature_map):
    return _lr_loop(Q, K, V, feature_map, phi_q=False)


def _lr_final_state(Q, K, V, feature_map):
    return _lin.linear_attention(Q, K, V, feature_map, causal=False)


def _lr_last_only(Q, K, V, feature_map):
    return _lin.linear_attention_recurrent(Q, K, V, feature_map)[-1]


LINEAR_RECURRENT_MISTAKES = [
    Mistake("state updated after the readout (token t does not see itself; 0/0 at t = 0)",
            "write first, then read: update S and z with token t, *then* compute "
            "φ(q_t)ᵀS_t / φ(q_t)ᵀz_t.", _lr_read_first),
    Mistake("no normaliser (φ(q_t)ᵀS_t not divided by φ(q_t)ᵀz_t)",
            "carry z_t = z_{t-1} + φ(k_t) and divide the readout by φ(q_t)·z_t.", _lr_no_normaliser),
    Mistake("state overwritten instead of accumulated (S_t = φ(k_t) v_tᵀ)",
            "add to the state: `S = S + np.outer(phi_k, v)`, and likewise for z.", _lr_overwrite),
    Mistake("normaliser without the feature map (z_t += k_t)",
            "accumulate the features: `z = z + phi_K[t]`.", _lr_raw_z),
    Mistake("feature map not applied to the query",
            "read the state with φ(q_t): `phi_Q[t] @ S / (phi_Q[t] @ z)`.", _lr_raw_q),
    Mistake("reading the final state (every token sees the whole sequence)",
            "read out inside the loop, right after token t's update, so that token t sees only "
            "tokens 0..t.", _lr_final_state),
    Mistake("returning only the last output",
            "collect every step's readout and return all L of them, shape (L, Dv).", _lr_last_only),
]


def _state_bytes(Q, K, V, feature_map) -> int:
    """The bytes of the L prefix states φ(k_t) v_tᵀ (L, M, Dv) that a recurrence never holds."""
    return Q.shape[-2] * feature_map(Q[..., :1, :]).shape[-1] * V.shape[-1] * 8


def _long_recurrence(Q, K, V, feature_map) -> bool:
    return _state_bytes(Q, K, V, feature_map) >= LONG


@numpy_exercise
def invoke_recurrent_measuring_memory(fn, Q, K, V, feature_map):
    """:func:`invoke_numpy`, and on a long sequence also the peak extra memory of the call:
    :class:`TooMuchMemory` if it reaches ``1 / MEMORY_FRACTION`` of the L prefix states (L, M, Dv),
    which a recurrence replaces by one running state (M, Dv)."""
    if not _long_recurrence(Q, K, V, feature_map):
        return invoke_numpy(fn, Q, K, V, feature_map)
    result, peak, how = peak_of_call(lambda: invoke_numpy(fn, Q, K, V, feature_map),
                                     warmup=lambda: fn(Q[:64], K[:64], V[:64], feature_map))
    message = recurrent_memory_verdict(peak, how, Q, K, V, feature_map)
    if message:
        raise TooMuchMemory(message)
    return result


def recurrent_memory_verdict(peak: int, how: str, Q, K, V, feature_map) -> str | None:
    """None if ``peak`` stays below ``1 / MEMORY_FRACTION`` of the prefix states (or the case is
    short); otherwise what :class:`TooMuchMemory` says."""
    full = _state_bytes(Q, K, V, feature_map)
    if not _long_recurrence(Q, K, V, feature_map) or peak < full / MEMORY_FRACTION:
        return None
    return (f"it held {peak / 2**20:.1f} MiB at once ({how}), while all {Q.shape[-2]} prefix states "
            f"φ(k)vᵀ together take {full / 2**20:.1f} MiB; a recurrence keeps one running state S "
            "(M, Dv) and z (M,), updated in place of the old ones at every step")


invoke_recurrent_measuring_memory.measured_outside = (invoke_numpy, recurrent_memory_verdict)
invoke_recurrent_measuring_memory.measures_case = _long_recurrence


def _lr_prefix_sums(Q, K, V, feature_map):
    raise TooMuchMemory("every prefix state")


STATES_MISTAKE = Mistake(
    "every prefix state kept (prefix sums, `np.cumsum`, or causal linear attention called): no "
    "running state, no recurrence",
    "loop over t and carry one state: `S = S + np.outer(phi_K[t], V[t])`, `z = z + phi_K[t]`, "
    "then read out `phi_Q[t] @ S / (phi_Q[t] @ z)`.", _lr_prefix_sums)


def _lr_cases(hidden: bool) -> list[Case]:
    rng = case_rng(651 if hidden else 111, hidden)
    setups = [(6, 2, 3, None), (5, 4, 2, 7)] if hidden else [(5, 3, 2, None), (7, 4, 3, 6)]
    cases = []
    for L, Dk, Dv, M in setups:
        fm = elu_plus_one if M is None else _random_feature_map(Dk, M, seed=13 + Dk + M)
        cases.append(Case(_qkv(rng, (), L, L, Dk, Dv) + (fm,), why=f"L={L}, Dk={Dk}, Dv={Dv}"))
    # Its prefix states (L, 64, 96) in float64 take 144-156 MiB; a recurrence holds about 8 MiB
    # (φ(Q), φ(K), the outputs), about 21 MiB measured from outside the process: a wide margin.
    L = 3328 if hidden else 3072
    cases.append(Case(_qkv(rng, (), L, L, 64, 96) + (elu_plus_one,),
                      why=f"a long sequence; the call may hold at most 1/{MEMORY_FRACTION} of the L "
                      "prefix states at once"))
    return cases


def check_linear_attention_recurrent(linear_attention_recurrent, hidden: bool = False) -> None:
    """Check that ``linear_attention_recurrent`` reproduces causal linear attention step by step."""
    run_check(linear_attention_recurrent, exercise="linear_attention_recurrent",
              reference=_lin.linear_attention_recurrent, cases=_lr_cases(hidden),
              mistakes=LINEAR_RECURRENT_MISTAKES + [STATES_MISTAKE], arg_names=("Q", "K", "V", "feature_map"),
              show_values=not hidden, passed="equals causal linear attention at every step",
              invoke=invoke_recurrent_measuring_memory)


__all__ = [
    "check_fit_bandwidth", "check_fit_bandwidth_candidates", "check_gaussian_attention_weights",
    "check_gaussian_attention_weights_stable", "check_kernel_ridge_fit", "check_kernel_ridge_predict",
    "check_linear_attention", "check_linear_attention_causal", "check_linear_attention_recurrent",
    "check_nadaraya_watson", "check_prediction_first_output", "check_prediction_gradient_decay",
]


# ---------------------------------------------------------------------------------------------
# Predict, then run


GRADIENT_DECAY = Prediction(
    "prediction_gradient_decay", "choice", "like 1/L",
    "One attention layer connects token 1 to position L directly, so nothing multiplies the signal "
    "L - 1 times; but token 1 is one of L keys that share the softmax's weight, about 1/L each "
    "for random inputs, so its influence thins like 1/L (the dotted line in the plot).",
    options=("constant", "like 1/L", "exponentially"),
    wrong=(
        WrongPrediction("exponentially", "attention decays like a recurrence",
                        "The exponential decay comes from passing the signal through L - 1 state "
                        "updates, one Jacobian each; attention has a path of length 1 between any two "
                        "tokens."),
        WrongPrediction("constant", "a path of length 1 loses nothing",
                        "The path is short, but the softmax normalises over all L keys: each key's "
                        "weight, token 1's included, is about 1/L when no key stands out."),
    ),
)


def check_prediction_gradient_decay(prediction_gradient_decay, hidden: bool = False) -> None:
    """Check the prediction of how token 1's gradient at position L falls with L through attention."""
    GRADIENT_DECAY.check(prediction_gradient_decay, hidden=hidden)


FIRST_OUTPUT = Prediction(
    "prediction_first_output", "choice", "v_0",
    "Token 0 may attend to itself only: S_0 = φ(k_0) v_0ᵀ and z_0 = φ(k_0), so "
    "out_0 = φ(q_0)ᵀφ(k_0) v_0 / φ(q_0)ᵀφ(k_0) = v_0 exactly, whatever φ, q_0 and k_0 are. One key "
    "gets all the weight, as in causal softmax attention.",
    options=("v_0", "zero", "the mean of all the values", "it depends on q_0 and k_0"),
    wrong=(
        WrongPrediction("zero", "no earlier token, nothing to read",
                        "The prefix sums include the current token (j <= i): token 0 has written "
                        "its own key and value before its query reads."),
        WrongPrediction("the mean of all the values", "linear attention has no causal mask",
                        "With causal=True the sums run over j <= i only; token 0 sees one value."),
        WrongPrediction("it depends on q_0 and k_0", "the weights depend on the features",
                        "They do, but with a single key the one weight is normalised to 1: the "
                        "factor φ(q_0)ᵀφ(k_0) cancels between numerator and denominator."),
    ),
)


def check_prediction_first_output(prediction_first_output, hidden: bool = False) -> None:
    """Check the prediction of the first output of causal linear attention."""
    FIRST_OUTPUT.check(prediction_first_output, hidden=hidden)
