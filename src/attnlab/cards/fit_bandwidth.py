"""fit_bandwidth (notebook 06): the candidate width with the lowest leave-one-out squared error of
Nadaraya-Watson regression.

The cases are noisy data on which leaving one out changes the chosen bandwidth, candidates in any
order (the first of them never the answer of a mistake), and candidates whose errors tie exactly.
"""
from __future__ import annotations

import numpy as np

from .. import kernels as _ref
from ..checks._contract import invoke_numpy_any_dtype
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_BOTH = ("test_fit_bandwidth", "test_fit_bandwidth_candidates")

CARD = Card(
    "fit_bandwidth", "06_attention_as_kernel_machine",
    summary="the candidate σ whose leave-one-out Nadaraya-Watson predictions have the lowest squared error",
    contract=Contract(
        args=("x", "y", "candidates"), reference=_ref.fit_bandwidth, invoke=invoke_numpy_any_dtype,
        shapes="x (N,), y (N,), candidates (C,) widths σ > 0 in any order",
        returns="the winning candidate itself (a number from `candidates`); on a tie, the first "
                "of the tied candidates in the order given"),
    mistakes=[
        Mistake(
            "returning the index of the best candidate instead of the candidate",
            principle="Return the bandwidth value itself, not its position.",
            fix="`np.argmin(errors)` is a position: return `candidates[np.argmin(errors)]`.",
            fails=_BOTH, code='''
                def fit_bandwidth(x, y, candidates):
                    N = len(x)
                    errors = []
                    for sigma in candidates:
                        scores = -(x[:, None] - x[None, :])**2 / (2 * sigma**2)
                        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
                        errors.append(np.mean((W @ y - y)**2))
                    return np.argmin(errors)
                '''),
        Mistake(
            "returning the lowest error instead of the candidate that achieves it",
            principle="Return the candidate that achieves the lowest error, not the error.",
            fix="keep the errors in a list and return `candidates[np.argmin(errors)]`.",
            fails=_BOTH, code='''
                def fit_bandwidth(x, y, candidates):
                    N = len(x)
                    errors = []
                    for sigma in candidates:
                        scores = -(x[:, None] - x[None, :])**2 / (2 * sigma**2)
                        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
                        errors.append(np.mean((W @ y - y)**2))
                    return min(errors)
                '''),
        Mistake(
            "no leave-one-out: each point also attends to itself",
            principle="Leave-one-out: a point must not see its own target when it is predicted.",
            fix="a point that sees its own target copies it as σ → 0, so the error always prefers the "
                "smallest width. Mask the diagonal before the softmax, e.g. "
                "`attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))`.",
            fails=_BOTH, code='''
                def fit_bandwidth(x, y, candidates):
                    errors = []
                    for sigma in candidates:
                        pred = attnlab.nadaraya_watson(x, x, y, sigma)
                        errors.append(np.mean((pred - y)**2))
                    return candidates[np.argmin(errors)]
                '''),
        Mistake(
            "own weight removed but the other weights not renormalised",
            principle="After removing a point's own weight, renormalise the others to sum to one.",
            fix="after dropping a point's own weight the rest no longer sum to one: mask the diagonal "
                "*before* the softmax (or divide each row by its new sum).",
            fails=_BOTH, code='''
                def fit_bandwidth(x, y, candidates):
                    errors = []
                    for sigma in candidates:
                        W = attnlab.gaussian_attention_weights(x, x, sigma)
                        np.fill_diagonal(W, 0.0)
                        errors.append(np.mean((W @ y - y)**2))
                    return candidates[np.argmin(errors)]
                '''),
        Mistake(
            "picking the candidate with the highest error (argmax instead of argmin)",
            principle="The best bandwidth has the lowest error.",
            fix="the best width has the *lowest* leave-one-out error: `np.argmin`.",
            fails=_BOTH, code='''
                def fit_bandwidth(x, y, candidates):
                    N = len(x)
                    errors = []
                    for sigma in candidates:
                        scores = -(x[:, None] - x[None, :])**2 / (2 * sigma**2)
                        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
                        errors.append(np.mean((W @ y - y)**2))
                    return candidates[np.argmax(errors)]
                '''),
        Mistake(
            "the factor 2 missing from the kernel's exponent: exp(-d²/σ²) instead of exp(-d²/(2σ²))",
            principle="The Gaussian exponent is the squared distance over twice the squared bandwidth.",
            fix="use the kernel of the exercises above: `-(x_i - x_j)**2 / (2 * bandwidth**2)`.",
            fails=_BOTH, code='''
                def fit_bandwidth(x, y, candidates):
                    N = len(x)
                    best, best_error = None, np.inf
                    for sigma in candidates:
                        scores = -(x[:, None] - x[None, :])**2 / sigma**2
                        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
                        error = np.mean((W @ y - y)**2)
                        if error < best_error:
                            best, best_error = sigma, error
                    return best
                '''),
        Mistake(
            "σ not squared in the kernel",
            principle="The bandwidth enters squared in the exponent's denominator.",
            fix="divide by `2 * bandwidth**2`, not `2 * bandwidth`.",
            fails=_BOTH, code='''
                def fit_bandwidth(x, y, candidates):
                    N = len(x)
                    errors = []
                    for sigma in candidates:
                        scores = -(x[:, None] - x[None, :])**2 / (2 * sigma)
                        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
                        errors.append(np.mean((W @ y - y)**2))
                    return candidates[np.argmin(errors)]
                '''),
        Mistake(
            "returning the first candidate (no search)",
            principle="Score every candidate and keep the best.",
            fix="compute the leave-one-out error of every candidate and return the best one.",
            fails=("test_fit_bandwidth_candidates",), code='''
                def fit_bandwidth(x, y, candidates):
                    sigma = candidates[0]
                    return sigma
                '''),
        Mistake(
            "the last of tied candidates kept, where the contract says the first",
            principle="On a tie the contract picks the first candidate in the order given: only a "
                      "strictly lower error replaces the best so far.",
            fix="keep a new best only when its error is strictly lower (`<`, not `<=`), or use "
                "`np.argmin`, which returns the first of equal minima.",
            fails=("test_fit_bandwidth_candidates",), code='''
                def fit_bandwidth(x, y, candidates):
                    best, best_error = None, np.inf
                    for sigma in candidates:
                        scores = -(x[:, None] - x[None, :]) ** 2 / (2 * sigma ** 2)
                        weights = attnlab.masked_softmax(scores, ~np.eye(len(x), dtype=bool))
                        error = np.mean((weights @ y - y) ** 2)
                        if error <= best_error:  # a tie replaces the best: the last of equal errors wins
                            best, best_error = sigma, error
                    return float(best)
                '''),
    ],
)

_FIRST = "returning the first candidate (no search)"
_NOT_A_CANDIDATE = ("returning the index of the best candidate instead of the candidate",
                    "returning the lowest error instead of the candidate that achieves it")


def _noisy_data(rng, N, lo=0.0, hi=4.0, noise=0.35):
    x = np.sort(rng.uniform(lo, hi, size=N))
    y = 2.0 + np.sin(2 * x) + 0.5 * x + noise * rng.normal(size=N)
    return x, y


_GRID = np.round(np.logspace(-1.6, 0.4, 17), 4)  # 0.025 ... 2.5, ratio ~1.33


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(621 if hidden else 81, hidden)
    out = []
    for N, noise in ([(30, 0.3), (22, 0.5)] if hidden else [(25, 0.35), (26, 0.3)]):
        x, y = _noisy_data(rng, N, noise=noise)
        out.append(Case((x, y, _GRID.copy()), why=f"N={N} noisy points, {len(_GRID)} sorted candidates"))
    return out


def _first_stands_apart(x, y, candidates: np.ndarray) -> np.ndarray:
    """``candidates`` reordered (only where needed) so that its first entry is neither the right
    answer nor the answer of any other mistake of the card: "returning the first candidate" then
    has an answer of its own on this case and is named, whatever data the course secret drew."""
    candidates = candidates.copy()
    for j in range(len(candidates)):
        trial = candidates.copy()
        trial[[0, j]] = trial[[j, 0]]
        others = [_ref.fit_bandwidth(x, y, trial)]
        others += [m.impl(x, y, trial) for m in CARD.mistakes if m.name != _FIRST]
        if not any(np.isclose(float(np.ravel(o)[0]), trial[0]) for o in others if np.size(o) == 1):
            return trial
    return candidates


def _answers_apart(x, y, candidates: np.ndarray) -> bool:
    """True when, on this data, the right answer and every mistake of the card that returns a
    candidate give different candidates, so that each mistake is told from the others."""
    answers = [_ref.fit_bandwidth(x, y, candidates)]
    answers += [float(np.ravel(m.impl(x, y, candidates))[0]) for m in CARD.mistakes
                if m.name != _FIRST and m.name not in _NOT_A_CANDIDATE]
    return len(set(np.round(answers, 8))) == len(answers)


def candidate_cases(hidden: bool) -> list[Case]:
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
    CARD.check(fit_bandwidth, cases(hidden), hidden=hidden,
               passed="picks the leave-one-out minimiser on noisy data")


def check_fit_bandwidth_candidates(fit_bandwidth, hidden: bool = False) -> None:
    """Check that ``fit_bandwidth`` returns a candidate itself, whatever the order of the candidates."""
    CARD.check(fit_bandwidth, candidate_cases(hidden), hidden=hidden,
               passed="returns the winning candidate, for candidates in any order")
