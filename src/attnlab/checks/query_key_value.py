"""Checks for notebook 02, query_key_value: ``attend``, ``score_variance``,
``scaled_dot_product_attention``.

Each check takes the learner's function and ``hidden=False``; nbgrader's hidden tests call it
with ``hidden=True``, which draws other inputs (other seeds and shapes) than the visible ones.
The inputs keep the sizes apart (``Lq != Lk``, ``Dk != Dv``, ``Dk != Lk``) so that every
mistake below gives a different answer from the right one and from the other mistakes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import attention as _ref
from ..averages import softmax as _softmax
from ._contract import invoke_numpy, require_numpy_floats
from ._core import Case, Mistake, case_rng, case_seed, run_check
from ._predict import Prediction, WrongPrediction

_OUTPUTS = ("output", "weights")

# ---------------------------------------------------------------------------------------------
# attend(q, K, V)


def _at_no_scale(q, K, V):
    w = _softmax(K @ q)
    return w @ V, w


def _at_scale_dk(q, K, V):
    w = _softmax(K @ q / q.shape[-1])
    return w @ V, w


def _at_scale_sqrt_dv(q, K, V):
    w = _softmax(K @ q / np.sqrt(V.shape[-1]))
    return w @ V, w


def _at_scale_sqrt_lk(q, K, V):
    w = _softmax(K @ q / np.sqrt(K.shape[0]))
    return w @ V, w


def _at_swapped(q, K, V):
    out, w = _ref.attend(q, K, V)
    return w, out


def _at_average_keys(q, K, V):
    w = _softmax(K @ q / np.sqrt(q.shape[-1]))
    return w @ K, w


def _at_wrong_axis(q, K, V):
    w = _softmax(q @ K / np.sqrt(q.shape[-1]))  # only works when Lk == Dk
    return w @ V, w


def _at_no_softmax(q, K, V):
    s = K @ q / np.sqrt(q.shape[-1])
    return s @ V, s


def _at_unnormalised(q, K, V):
    e = np.exp(K @ q / np.sqrt(q.shape[-1]))
    return e @ V, e


def _at_no_max(q, K, V):
    e = np.exp(K @ q / np.sqrt(q.shape[-1]))
    w = e / e.sum()
    return w @ V, w


def _at_argmax(q, K, V):
    w = np.zeros(len(K))
    w[np.argmax(K @ q)] = 1.0
    return w @ V, w


ATTEND_MISTAKES = [
    Mistake("a matrix product over the wrong axis (e.g. `q @ K` or `V @ weights`)",
            "the scores are `K @ q` (one per key, shape (Lk,)) and the output is `weights @ V` "
            "(shape (Dv,)).", _at_wrong_axis),
    Mistake("no scaling: softmax(K q) instead of softmax(K q / √Dk)",
            "divide the scores by `np.sqrt(Dk)`, where `Dk = q.shape[-1]`.", _at_no_scale),
    Mistake("scaling by Dk instead of √Dk",
            "divide by the square root of the key width, `np.sqrt(q.shape[-1])`, not by the width.",
            _at_scale_dk),
    Mistake("scaling by √Dv (the value width) instead of √Dk",
            "the scale comes from the width of the vectors in the dot product, q and the keys: "
            "`np.sqrt(q.shape[-1])`.", _at_scale_sqrt_dv),
    Mistake("scaling by √Lk (the number of keys) instead of √Dk",
            "the scale is the square root of the key *width* Dk = `q.shape[-1]`, not of the number "
            "of keys.", _at_scale_sqrt_lk),
    Mistake("returning (weights, output) instead of (output, weights)",
            "return the output first: `return weights @ V, weights`.", _at_swapped),
    Mistake("averaging the keys instead of the values",
            "the keys only decide the weights; the output is the weighted average of the values, "
            "`weights @ V`.", _at_average_keys),
    Mistake("no softmax: the raw scores used as weights",
            "turn the scores into weights on the simplex with `attnlab.softmax(scores)`.",
            _at_no_softmax),
    Mistake("exponentials that are not normalised (no division by their sum)",
            "divide by the sum so the weights add up to one, or use `attnlab.softmax`.",
            _at_unnormalised),
    Mistake("a softmax without max subtraction: exp overflows for large scores (inf / inf = NaN)",
            "use `attnlab.softmax(scores)`, which subtracts the maximum first.", _at_no_max),
    Mistake("a hard lookup (one-hot weights at the best key)",
            "this is the *soft* lookup: weights = softmax(scores), not an argmax.", _at_argmax),
]


def _at_cases(hidden: bool) -> list[Case]:
    rng = case_rng(201 if hidden else 31, hidden)
    sizes = [(5, 7, 2), (3, 4, 6), (6, 2, 3)] if hidden else [(4, 6, 3), (3, 5, 2), (8, 3, 5)]
    cases = []
    for Dk, Lk, Dv in sizes:  # Dk, Lk and Dv all differ, so a wrong axis shows
        cases.append(Case((rng.normal(size=Dk), rng.normal(size=(Lk, Dk)), rng.normal(size=(Lk, Dv))),
                          why="one query against a small key-value store"))
    return cases


def _at_sharp_cases(hidden: bool) -> list[Case]:
    rng = case_rng(202 if hidden else 32, hidden)
    cases = []
    for Dk, Lk, Dv, best in ([(6, 5, 2, 3), (4, 7, 3, 0)] if hidden else [(4, 6, 3, 2), (5, 4, 2, 1)]):
        K = rng.normal(size=(Lk, Dk))
        K *= 45.0 / np.linalg.norm(K, axis=1, keepdims=True)  # |k_i| = 45
        q = K[best] * (1.0 + rng.random())  # matches key `best` best, scores in the hundreds+
        cases.append(Case((q, K, rng.normal(size=(Lk, Dv))),
                          why="one key matches far better than the rest: scores of about 1000"))
    return cases


def check_attend(attend, hidden: bool = False) -> None:
    """Check that ``attend(q, K, V)`` returns ``(softmax(K q / √Dk) @ V, softmax(K q / √Dk))``."""
    run_check(attend, exercise="attend", reference=_ref.attend, cases=_at_cases(hidden),
              mistakes=ATTEND_MISTAKES, arg_names=("q", "K", "V"), outputs=_OUTPUTS,
              show_values=not hidden, passed="output and weights match",
              invoke=invoke_numpy)


def check_attend_sharp(attend, hidden: bool = False) -> None:
    """Check that ``attend`` stays finite and picks the matching value when scores are large."""
    run_check(attend, exercise="attend", reference=_ref.attend, cases=_at_sharp_cases(hidden),
              mistakes=ATTEND_MISTAKES, arg_names=("q", "K", "V"), outputs=_OUTPUTS,
              show_values=not hidden, passed="stable for scores of about 1000",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# score_variance(d_k, n_samples, rng)
#
# The answer is random, so the check compares it with the exact variance d_k, within 10 %
# (plus 0.02, so that estimates near 0 can match the mistakes that give about 0). With n_samples = 20000 the estimate's
# relative standard deviation is about sqrt(2 / n) ~ 1.4 %: a correct answer, however it draws
# its samples, is 7 standard deviations inside the tolerance.

@dataclass(frozen=True)
class Seeded:
    """Stands for ``np.random.default_rng(seed)`` in a case (picklable, and named in messages)."""

    seed: int
    hidden: bool = False

    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self.seed)

    def __repr__(self) -> str:
        return "a seeded np.random.Generator" if self.hidden else f"np.random.default_rng({self.seed})"


def invoke_with_rng(fn, d_k, n_samples, rng):
    """Call the learner's ``score_variance`` with a fresh generator built from the case's seed,
    and once more with another seed: ``(estimate, 1.0 if the two estimates differ, 1.0 if the
    first call drew exactly n_samples pairs of d_k-vectors from its generator)``. An estimate
    from samples varies with the draws; a hard-coded ``d_k`` does not. A float is the contract:
    a tensor (0-d or not) back is named as such."""
    gen = rng.rng()
    before = gen.bit_generator.state
    first = require_numpy_floats(fn(d_k, n_samples, gen))
    taken = _draws_taken(before, gen.bit_generator.state)
    fits = _draws_fit(rng.seed, taken, d_k, n_samples) == 1.0
    second = fn(d_k, n_samples, np.random.default_rng(rng.seed + 7919))
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    varies = a.shape != b.shape or not bool(np.array_equal(a, b))
    return first, float(varies), float(fits), float(bool(taken))


def _expected_variance(d_k, n_samples, rng):
    return float(d_k), 1.0, 1.0, 1.0


class _WithRng:
    """A learner-style ``score_variance(d_k, n_samples, rng)`` called like the learner's."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, d_k, n_samples, rng):
        return invoke_with_rng(self.fn, d_k, n_samples, rng)


def _sv_constant(d_k, n_samples, rng):
    return float(d_k)


def _sv_coordinate(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(q * k))


def _sv_std(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.std(np.sum(q * k, axis=-1)))


def _sv_mean(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.mean(np.sum(q * k, axis=-1)))


def _sv_self_dot(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * q, axis=-1)))


def _sv_uniform(d_k, n_samples, rng):
    q = rng.random((n_samples, d_k))
    k = rng.random((n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=-1)))


def _sv_samples(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return np.sum(q * k, axis=-1)


def _sv_swapped_axes(d_k, n_samples, rng):
    q = rng.standard_normal((d_k, n_samples))
    k = rng.standard_normal((d_k, n_samples))
    return float(np.var(np.sum(q * k, axis=-1)))


def _sv_one_short(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples - 1, d_k))
    return float(np.var(np.sum(q[1:] * k, axis=-1)))


def _sv_global(d_k, n_samples, rng):
    q = np.random.standard_normal((n_samples, d_k))  # numpy's global generator: rng never used
    k = np.random.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=-1)))


def _sv_rolled(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * np.roll(q, 1, axis=0), axis=-1)))


_SV_DRAWS_PRINCIPLE = ("each of the n_samples scores needs a query and a key of its own: draw "
                       "exactly n_samples independent pairs of d_k-vectors from the generator given.")


SCORE_VARIANCE_MISTAKES = [
    Mistake("a variance near 1 instead of d_k: the variance of single coordinates (of q, or of the "
            "products q_i k_i), or of the scaled score q·k/√d_k",
            "draw `q` and `k` of shape (n_samples, d_k), form the *unscaled* dot products "
            "`np.sum(q * k, axis=-1)` (shape (n_samples,)), and return their variance.",
            _WithRng(_sv_coordinate)),
    Mistake("the standard deviation instead of the variance",
            "use `np.var`, not `np.std`: the standard deviation grows like √d_k, the variance "
            "like d_k.", _WithRng(_sv_std)),
    Mistake("the mean of the dot products instead of their variance",
            "q·k averages to 0; the question is how far it spreads: `np.var(scores)`.",
            _WithRng(_sv_mean)),
    Mistake("the variance of q·q instead of q·k",
            "draw a second, independent `k` with the same generator: q·q = |q|² is never "
            "negative and has variance 2 d_k.", _WithRng(_sv_self_dot)),
    Mistake("uniform samples (`rng.random`) instead of standard-normal ones",
            "draw with `rng.standard_normal((n_samples, d_k))` (or `rng.normal(size=...)`).",
            _WithRng(_sv_uniform)),
    Mistake("returning the n_samples dot products instead of their variance",
            "reduce the scores to one number: `return float(np.var(scores))`.",
            _WithRng(_sv_samples)),
    Mistake("samples and dimensions swapped (a sum over n_samples instead of over d_k)",
            "each sample is a pair of d_k-dimensional vectors: shape (n_samples, d_k), then sum "
            "over the last axis (d_k).", _WithRng(_sv_swapped_axes)),
    Mistake("draws that do not fit n_samples independent pairs (q, k): a pair too few or too "
            "many, or keys that reuse the queries' draws (dependent samples)",
            "draw `q = rng.standard_normal((n_samples, d_k))` and `k` of the same shape, and use "
            "every row of both: n_samples dot products, no row dropped, no key taken from `q`.",
            _WithRng(_sv_one_short), _SV_DRAWS_PRINCIPLE),
    Mistake("drawing from numpy's global random state (`np.random.randn`, `np.random.normal`) instead of the `rng` argument",
            "draw every sample from the generator you are given: `rng.standard_normal((n_samples, d_k))`, "
            "not `np.random.randn` or `np.random.default_rng()`.", _WithRng(_sv_global),
            "The caller passes the generator so that the result can be reproduced: every random "
            "number comes from `rng`, none from numpy's global state."),
    Mistake("a fixed number (the theory's d_k) instead of an estimate from samples",
            "measure it: draw `q` and `k` from `rng`, form the dot products and return their "
            "variance; the point of the exercise is to see the theory confirmed by data.",
            _WithRng(_sv_constant)),
]


def _sv_cases(hidden: bool) -> list[Case]:
    sizes = [(24, 20000, 211), (6, 20000, 212)] if hidden else [(16, 20000, 41), (4, 20000, 42)]
    return [Case((d_k, n, Seeded(case_seed(seed, hidden), hidden)), why="the answer should be close to d_k")
            for d_k, n, seed in sizes]


SPREAD_DRAWS = 16      # estimates from fresh generators, to see that they scatter as estimates do
MIN_SPREAD = 0.05      # relative std below which the "estimate" is a constant with noise added


_PCG_MULT = (0x2360ED051FC65DA4 << 64) | 0x4385DF649FCCF645   # numpy's PCG64 multiplier
_MASK128 = (1 << 128) - 1


def _draws_taken(before: dict, after: dict) -> int:
    """How many 64-bit draws a PCG64 generator went through between two of its states (the
    LCG's distance, computed bit by bit as in PCG's ``pcg_extras::distance``); -1 if the
    generator is not a PCG64 or its increment changed (it was replaced, not drawn from)."""
    try:
        if before["bit_generator"] != "PCG64" or after["bit_generator"] != "PCG64":
            return -1
        cur, new, plus = int(before["state"]["state"]), int(after["state"]["state"]), int(before["state"]["inc"])
        if int(after["state"]["inc"]) != plus:
            return -1
    except (KeyError, TypeError, ValueError):
        return -1
    mult, bit, distance = _PCG_MULT, 1, 0
    while cur != new and bit <= _MASK128:
        if (cur & bit) != (new & bit):
            cur = (cur * mult + plus) & _MASK128
            distance |= bit
        bit <<= 1
        plus = ((mult + 1) * plus) & _MASK128
        mult = (mult * mult) & _MASK128
    return distance


def _draws_of(seed: int, normals: int, dtype) -> int:
    gen = np.random.default_rng(seed)
    before = gen.bit_generator.state
    gen.standard_normal(normals, dtype=dtype)
    return _draws_taken(before, gen.bit_generator.state)


def _draws_fit(seed: int, taken: int, d_k: int, n_samples: int) -> float:
    """1.0 if a generator seeded ``seed`` went through exactly the draws of ``2 n_samples d_k``
    standard normals (float64 or float32: in any shape and order, the count is the same), 0.5
    if through those of half as many (keys that reuse the queries), else 0.0."""
    for value, normals in ((1.0, 2 * n_samples * d_k), (0.5, n_samples * d_k)):
        if taken in (_draws_of(seed, normals, np.float64), _draws_of(seed, normals, np.float32)):
            return value
    return 0.0


def _honest_estimate(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=-1)))


def _relative_spread(values: np.ndarray) -> float:
    if values.size != SPREAD_DRAWS or not np.all(np.isfinite(values)) or np.mean(values) == 0:
        return 0.0
    return float(np.std(values) / abs(np.mean(values)))


def invoke_seed_summary(fn, d_k, n_samples, seeds):
    """Run the learner's ``score_variance`` with generators seeded ``a, a, b`` and report
    ``[same seed -> same value, other seed -> other value, spread like an estimate, the
    generator consumed]`` as ``[1.0, 1.0, 1.0, 1.0]`` when all hold. The spread: over 16 more
    generators (seeds derived from ``b``, from the course secret in hidden cases) the answers
    scatter as the reference estimator's do over the same generators (relative std within a
    factor 0.25 to 4 of it, since two spreads of 16 honest estimates can be 3.4 times apart;
    about ``sqrt((2 + 6 / d_k) / n_samples)``, 23 % for d_k = 8, n = 50, and never below 5 %); a constant with noise added does not, unless its noise is made to
    look like it. Consumed: the generator it is given went through at least
    ``n_samples * d_k / 2`` draws (2 n d_k normal samples take about 2 n d_k; in float32, half
    that), which an answer that only adds noise does not need. Last, whether those draws are
    exactly the ones of ``2 n_samples d_k`` normals (:func:`_draws_fit`: 1.0; 0.5 for half as
    many, keys reusing the queries; 0.0 for any other count)."""
    a1 = require_numpy_floats(fn(d_k, n_samples, np.random.default_rng(seeds[0])))
    a2 = fn(d_k, n_samples, np.random.default_rng(seeds[0]))
    rng_b = np.random.default_rng(seeds[1])
    before = rng_b.bit_generator.state
    b = fn(d_k, n_samples, rng_b)
    taken = _draws_taken(before, rng_b.bit_generator.state)
    a1, a2, b = (np.asarray(x, dtype=float) for x in (a1, a2, b))
    same = a1.shape == a2.shape and bool(np.array_equal(a1, a2))
    other = a1.shape != b.shape or not bool(np.array_equal(a1, b))
    draws = np.array([np.asarray(fn(d_k, n_samples, np.random.default_rng(seeds[1] + 1 + i)), dtype=float).ravel()[:1]
                      for i in range(SPREAD_DRAWS)]).ravel()
    honest = np.array([_honest_estimate(d_k, n_samples, np.random.default_rng(seeds[1] + 1 + i))
                       for i in range(SPREAD_DRAWS)])
    theirs, ours = _relative_spread(draws), _relative_spread(honest)
    spread = theirs > MIN_SPREAD and 0.25 * ours <= theirs <= 4.0 * ours
    consumed = taken >= n_samples * d_k // 2
    fits = _draws_fit(seeds[1], taken, d_k, n_samples)
    return np.array([float(same), float(other), float(spread), float(consumed), fits])


def _seed_summary_reference(d_k, n_samples, seeds):
    return np.array([1.0, 1.0, 1.0, 1.0, 1.0])


class _SeedSummary:
    """What :func:`invoke_seed_summary` reports for a learner-style ``score_variance``."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, d_k, n_samples, seeds):
        return invoke_seed_summary(self.fn, d_k, n_samples, seeds)


def _sv_global_rng(d_k, n_samples, rng):
    q = np.random.standard_normal((n_samples, d_k))
    k = np.random.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=-1)))


def _sv_own_rng(d_k, n_samples, rng):
    own = np.random.default_rng(0)
    q = own.standard_normal((n_samples, d_k))
    k = own.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=-1)))


def _sv_constant_with_noise(d_k, n_samples, rng):
    return float(d_k) * (1.0 + 0.01 * rng.standard_normal())


def _sv_noise_like_an_estimate(d_k, n_samples, rng):
    return float(d_k) * (1.0 + np.sqrt((2 + 6 / d_k) / n_samples) * rng.standard_normal())


SCORE_VARIANCE_RNG_MISTAKES = [
    Mistake("the theory's d_k with a little noise added instead of an estimate from samples",
            "measure it: draw `q` and `k` from `rng`, form the dot products and return their "
            "variance; an estimate from 50 samples scatters by about 20 %, not 1 %.",
            _SeedSummary(_sv_constant_with_noise),
            principle="the function must estimate the variance from the samples it draws, not "
                      "return the value the theory predicts: with few samples the estimate "
                      "scatters far more than a small added noise."),
    Mistake("the theory's d_k with noise made to scatter like an estimate, instead of an estimate "
            "from samples (the generator is hardly drawn from)",
            "measure it: draw `q` and `k` of shape (n_samples, d_k) from `rng`, form the dot "
            "products and return their variance; the answer has to come from those samples.",
            _SeedSummary(_sv_noise_like_an_estimate),
            principle="the function must estimate the variance from the samples it draws from "
                      "the generator it is given; noise shaped like an estimate's is not one."),
    Mistake("drawing from numpy's global random state (`np.random.randn`, `np.random.normal`) "
            "instead of the `rng` argument",
            "draw every sample from the generator you are given: `rng.standard_normal(...)`, so "
            "that the same seed gives the same answer.", _SeedSummary(_sv_global_rng)),
    Mistake("one pair too few or too many: the draws from the generator do not fit n_samples "
            "pairs (q, k) of d_k-vectors",
            "draw `q` and `k` of shape (n_samples, d_k) each and use every row: exactly n_samples "
            "dot products.", _SeedSummary(_sv_one_short), _SV_DRAWS_PRINCIPLE),
    Mistake("keys that reuse the queries' draws (e.g. `np.roll(q, 1)`): dependent samples, drawn "
            "for half the vectors only",
            "draw the keys from `rng` too, `k = rng.standard_normal((n_samples, d_k))`: each score "
            "needs an independent pair (q, k).", _SeedSummary(_sv_rolled),
            "The scores must be independent samples: each key is drawn afresh from the generator, "
            "never derived from the queries."),
    Mistake("a generator of your own (e.g. `np.random.default_rng(0)`) instead of the `rng` argument",
            "use the `rng` passed in: a fixed generator of your own gives the same numbers whatever "
            "the caller asks for.", _SeedSummary(_sv_own_rng)),
]


def _sv_rng_cases(hidden: bool) -> list[Case]:
    seeds = tuple(case_seed(s, hidden) for s in ((219, 220) if hidden else (51, 52)))
    return [Case((8, 50, seeds),
                 why="called with np.random.default_rng(a) twice, then with default_rng(b) and 16 "
                     "more seeds: the same seed must give the same value, other seeds other values "
                     "that scatter as an estimate from 50 samples does, drawn from the generator given")]


def check_score_variance(score_variance, hidden: bool = False) -> None:
    """Check that ``score_variance(d_k, n_samples, rng)`` is close to ``d_k``."""
    run_check(score_variance, exercise="score_variance", reference=_expected_variance,
              cases=_sv_cases(hidden), mistakes=SCORE_VARIANCE_MISTAKES,
              arg_names=("d_k", "n_samples", "rng"), rtol=0.1, atol=0.02, show_values=not hidden,
              outputs=("variance", "whether its answer changes when rng draws other numbers",
                       "whether it draws n_samples pairs of d_k-vectors from rng (as many numbers as that takes)",
                       "whether it takes its random numbers from rng at all"),
              passed="the variance of q·k is close to d_k", invoke=invoke_with_rng)


def check_score_variance_rng(score_variance, hidden: bool = False) -> None:
    """Check that ``score_variance`` draws its samples from the ``rng`` it is given."""
    run_check(score_variance, exercise="score_variance", reference=_seed_summary_reference,
              cases=_sv_rng_cases(hidden), mistakes=SCORE_VARIANCE_RNG_MISTAKES,
              arg_names=("d_k", "n_samples", "seeds (a, b)"), rtol=0.0, atol=1e-12,
              show_values=False, passed="reproducible from the rng argument",
              invoke=invoke_seed_summary)


# ---------------------------------------------------------------------------------------------
# scaled_dot_product_attention(Q, K, V, mask=None)

def _T(x):
    return np.swapaxes(x, -1, -2)


def _sd_K_T(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(Q.shape[-1])
    w = _ref.masked_softmax(s, mask)
    return w @ V, w


def _sd_no_scale(Q, K, V, mask=None):
    w = _ref.masked_softmax(Q @ _T(K), mask)
    return w @ V, w


def _sd_scale_dk(Q, K, V, mask=None):
    w = _ref.masked_softmax(Q @ _T(K) / Q.shape[-1], mask)
    return w @ V, w


def _sd_scale_sqrt_dv(Q, K, V, mask=None):
    w = _ref.masked_softmax(Q @ _T(K) / np.sqrt(V.shape[-1]), mask)
    return w @ V, w


def _sd_scale_sqrt_lk(Q, K, V, mask=None):
    w = _ref.masked_softmax(Q @ _T(K) / np.sqrt(K.shape[-2]), mask)
    return w @ V, w


def _sd_axis_queries(Q, K, V, mask=None):
    s = Q @ _T(K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = _softmax(s, axis=-2)
    return w @ V, w


def _sd_axis0(Q, K, V, mask=None):
    s = Q @ _T(K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = _softmax(s, axis=0)
    return w @ V, w


def _sd_swapped(Q, K, V, mask=None):
    out, w = _ref.scaled_dot_product_attention(Q, K, V, mask)
    return w, out


def _sd_average_keys(Q, K, V, mask=None):
    w = _ref.masked_softmax(Q @ _T(K) / np.sqrt(Q.shape[-1]), mask)
    return w @ K, w


def _sd_mask_ignored(Q, K, V, mask=None):
    return _ref.scaled_dot_product_attention(Q, K, V)


def _sd_mask_inverted(Q, K, V, mask=None):
    return _ref.scaled_dot_product_attention(Q, K, V, None if mask is None else ~mask)


def _sd_mask_after(Q, K, V, mask=None):
    out, w = _ref.scaled_dot_product_attention(Q, K, V)
    if mask is not None:
        w = w * mask
    return w @ V, w


def _sd_mask_nan(Q, K, V, mask=None):
    s = Q @ _T(K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))  # -inf - (-inf) = NaN on a fully masked row
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ V, w


def _sd_mask_large_negative(Q, K, V, mask=None):
    s = Q @ _T(K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -1e9)
    w = _softmax(s)
    return w @ V, w


def _sd_mask_additive(Q, K, V, mask=None):
    s = Q @ _T(K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        s = s + (~np.asarray(mask)) * -1e9
    w = _softmax(s)
    return w @ V, w


def _sd_mask_zero(Q, K, V, mask=None):
    s = Q @ _T(K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, 0.0)
    w = _softmax(s)
    return w @ V, w


def _sd_shift_all(Q, K, V, mask=None, guard=False):
    """The max taken over every key, masked ones too (underflow when a masked key is the largest)."""
    s = Q @ _T(K) / np.sqrt(Q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    if mask is not None:
        e = e * mask
    total = e.sum(axis=-1, keepdims=True)
    w = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0) if guard else e / total
    return w @ V, w


def _sd_shift_all_guarded(Q, K, V, mask=None):
    return _sd_shift_all(Q, K, V, mask, guard=True)


def _sd_unstable(Q, K, V, mask=None):
    s = Q @ _T(K) / np.sqrt(Q.shape[-1])
    e = np.exp(s if mask is None else np.where(mask, s, -np.inf))  # no shift: exp(1e4) = inf
    total = e.sum(axis=-1, keepdims=True)
    w = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
    return w @ V, w


_SD_SHIFT_PRINCIPLE = ("Shift each row by the largest score among its allowed keys only: a masked "
                       "key may hold any score, and a shift by it can push every allowed "
                       "exponential below the smallest float.")
_SD_SHIFT_FIX = ("mask first, then shift: `s = np.where(mask, scores, -np.inf)`, "
                 "`m = s.max(axis=-1, keepdims=True)`, `m = np.where(np.isfinite(m), m, 0.0)`.")
SDPA_RANGE_MISTAKES = [
    Mistake("the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score makes every allowed exp underflow, 0/0 = NaN",
            _SD_SHIFT_FIX, _sd_shift_all, _SD_SHIFT_PRINCIPLE),
    Mistake("the max subtracted over every key, masked ones too: a masked key holding the row's "
            "largest score makes every allowed exp underflow, and the row comes out all zero",
            _SD_SHIFT_FIX, _sd_shift_all_guarded, _SD_SHIFT_PRINCIPLE),
    Mistake("a softmax without the max subtraction: exp overflows for scores of 1e4 (inf / inf = NaN)",
            "subtract each row's largest allowed score before `np.exp`; the shift cancels in the ratio.",
            _sd_unstable, "Shift each row by its largest allowed score before exponentiating; the "
            "shift cancels in the ratio and keeps exp below overflow."),
]

SDPA_MISTAKES = SDPA_RANGE_MISTAKES[1:2] + [  # equal to the reference except on the range case
    Mistake("`K.T` on a batch: it reverses every axis, not just the last two",
            "use `np.swapaxes(K, -1, -2)` (or `K.swapaxes(-1, -2)`), which transposes only the "
            "last two axes and keeps the batch axes in front.", _sd_K_T),
    Mistake("no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dk)",
            "divide the scores by `np.sqrt(Dk)`, with `Dk = Q.shape[-1]`.", _sd_no_scale),
    Mistake("scaling by Dk instead of √Dk",
            "divide by `np.sqrt(Q.shape[-1])`: the standard deviation of q·k grows like √Dk.",
            _sd_scale_dk),
    Mistake("scaling by √Dv (the value width) instead of √Dk",
            "the scale belongs to the dot product of queries and keys: `np.sqrt(Q.shape[-1])`.",
            _sd_scale_sqrt_dv),
    Mistake("scaling by √Lk (the number of keys) instead of √Dk",
            "use the key *width* `Q.shape[-1]`, not the number of keys `K.shape[-2]`.",
            _sd_scale_sqrt_lk),
    Mistake("a softmax over the queries (axis -2) instead of over the keys",
            "each query's weights over the keys must sum to one: softmax over the last axis.",
            _sd_axis_queries),
    Mistake("a softmax over axis 0 (the batch axis when there is a batch)",
            "normalise over the keys, the last axis: `axis=-1`, whatever the batch dimensions.",
            _sd_axis0),
    Mistake("returning (weights, output) instead of (output, weights)",
            "return the output first: `return weights @ V, weights`.", _sd_swapped),
    Mistake("averaging the keys instead of the values",
            "the output is `weights @ V`; the keys only decide the weights.", _sd_average_keys),
    Mistake("the mask is ignored",
            "block the keys where `mask` is False: set their scores to `-np.inf` before the softmax "
            "(`np.where(mask, scores, -np.inf)`).", _sd_mask_ignored),
    Mistake("the mask is inverted (True treated as blocked)",
            "in this course `True` means *may attend* (as in torch's "
            "`F.scaled_dot_product_attention`): keep the scores where `mask` is True.",
            _sd_mask_inverted),
    Mistake("the mask applied after the softmax (weights * mask) without renormalising",
            "mask the *scores* before the softmax, so the remaining weights still sum to one.",
            _sd_mask_after),
    Mistake("masked scores set to 0 instead of -inf (masked keys still get weight)",
            "a score of 0 is an ordinary score; use `-np.inf`, whose exponential is exactly 0.",
            _sd_mask_zero),
    Mistake("a fully masked row becomes NaN: with every score -inf, the softmax computes "
            "-inf - (-inf) and 0 / 0",
            "a row with no key to attend to must get all-zero weights: replace a row maximum of "
            "-inf by 0 before subtracting it, and divide by the row sum only where it is > 0 "
            "(e.g. `np.where(total > 0, total, 1.0)`).", _sd_mask_nan),
    Mistake("masked scores filled with a large negative number (e.g. -1e9): a fully masked row gets "
            "uniform weights instead of zeros",
            "a row with no key to attend to must get weight 0 everywhere and a zero output: fill "
            "with `-np.inf`, then set the weights of fully masked rows to 0 (see the hint).",
            _sd_mask_large_negative),
    Mistake("an additive mask (`scores + (1 - mask) * -1e9`): a fully masked row gets the softmax "
            "of its raw scores instead of zeros",
            "adding -1e9 to every score of a row shifts the whole row, which the softmax ignores: "
            "fill with `-np.inf` (`np.where(mask, scores, -np.inf)`) and set the weights of fully "
            "masked rows to 0.", _sd_mask_additive,
            "A row with no allowed key must get zero weights: shifting every score of a row "
            "changes nothing after the softmax, so zero such rows explicitly."),
] + SDPA_RANGE_MISTAKES[::2]


def _qkv(rng, batch, Lq, Lk, Dk, Dv):
    return (rng.normal(size=(*batch, Lq, Dk)), rng.normal(size=(*batch, Lk, Dk)),
            rng.normal(size=(*batch, Lk, Dv)))


def _partial_mask(rng, shape, fully_masked_rows=0):
    """A boolean mask where every row has a True and a False entry; then ``fully_masked_rows``
    rows (of the first batch item) are set all False."""
    *batch, Lq, Lk = shape
    mask = rng.random(shape) < 0.5
    flat = mask.reshape(-1, Lk)
    for row in flat:
        i, j = rng.choice(Lk, size=2, replace=False)
        row[i], row[j] = True, False
    mask = flat.reshape(shape)
    for r in range(fully_masked_rows):
        mask[(0,) * len(batch) + (1 + r,)] = False
    return mask


def _sd_cases(hidden: bool) -> list[Case]:
    rng = case_rng(221 if hidden else 61, hidden)
    sizes = [(2, 6, 3, 5), (5, 3, 6, 2), (1, 4, 4, 3)] if hidden else [(3, 5, 4, 2), (4, 2, 3, 6), (1, 3, 5, 4)]
    cases = [Case(_qkv(rng, (), *s), why="one sequence, Lq != Lk, Dk != Dv") for s in sizes]
    cases.append(_sd_large_case(rng, *((3, 5) if hidden else (4, 3)), 2))
    return cases


def _sd_large_case(rng, Lq, Lk, Dv):
    """Scores of +-1e4 and no mask (Q holds them, K = √Dk I): exp overflows without the shift."""
    sign = np.resize([1.0, -1.0], Lq).reshape(Lq, 1)  # rows of +1e4 and of -1e4
    Q = sign * 1e4 + rng.normal(size=(Lq, Lk)) * 2
    K = np.sqrt(Lk) * np.eye(Lk)  # Dk = Lk: Q Kᵀ / √Dk = Q
    return Case((Q, K, rng.normal(size=(Lk, Dv))), why="scores of +-1e4 (no mask)")


def _sd_batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(222 if hidden else 62, hidden)
    shapes = [((3,), 2, 5, 4, 2), ((2, 3), 4, 3, 2, 5)] if hidden else [((2,), 3, 5, 4, 6), ((3, 2), 4, 3, 5, 6)]
    return [Case(_qkv(rng, b, *s), why="leading batch dimensions") for b, *s in shapes]


def _sd_mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(223 if hidden else 63, hidden)
    shapes = [((), 5, 4, 3, 2), ((3,), 3, 6, 2, 5)] if hidden else [((), 4, 5, 3, 2), ((2,), 3, 4, 5, 3)]
    cases = []
    for b, Lq, Lk, Dk, Dv in shapes:
        Q, K, V = _qkv(rng, b, Lq, Lk, Dk, Dv)
        cases.append(Case((Q, K, V), {"mask": _partial_mask(rng, (*b, Lq, Lk))},
                          why="every query may attend to some keys but not all"))
    cases.append(_sd_range_case(rng, *((3, 5) if hidden else (4, 4)), 3))  # K = √Lk I: a size of its own when hidden
    return cases


def _sd_range_case(rng, Lq, Lk, Dv):
    """Scores of +-1e4 (Q holds them, K = √Dk I) whose masked keys hold the row's largest score."""
    mask = _partial_mask(rng, (Lq, Lk))
    sign = np.resize([1.0, -1.0], Lq).reshape(Lq, 1)  # rows of +1e4 and of -1e4
    Q = np.where(mask, sign * 1e4 + rng.normal(size=(Lq, Lk)) * 2, 3e4)
    K = np.sqrt(Lk) * np.eye(Lk)  # Dk = Lk: Q Kᵀ / √Dk = Q
    return Case((Q, K, rng.normal(size=(Lk, Dv))), {"mask": mask},
                why="scores of +-1e4, masked keys holding each row's largest score")


def _sd_fully_masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(224 if hidden else 64, hidden)
    shapes = [((2,), 4, 3, 5, 2), ((), 3, 6, 2, 5)] if hidden else [((), 4, 5, 3, 2), ((2,), 3, 5, 2, 6)]
    cases = []
    for b, Lq, Lk, Dk, Dv in shapes:
        Q, K, V = _qkv(rng, b, Lq, Lk, Dk, Dv)
        cases.append(Case((Q, K, V), {"mask": _partial_mask(rng, (*b, Lq, Lk), fully_masked_rows=1)},
                          why="query 1 may attend to no key: it needs zero weights and a zero output"))
    return cases


def _check_sdpa(fn, cases, hidden, passed):
    run_check(fn, exercise="scaled_dot_product_attention", reference=_ref.scaled_dot_product_attention,
              cases=cases, mistakes=SDPA_MISTAKES, arg_names=("Q", "K", "V"), outputs=_OUTPUTS,
              show_values=not hidden, passed=passed,
              invoke=invoke_numpy)


def check_sdpa(scaled_dot_product_attention, hidden: bool = False) -> None:
    """Check ``softmax(Q Kᵀ / √Dk) V`` and its weights on one sequence ``(Lq, Dk)``."""
    _check_sdpa(scaled_dot_product_attention, _sd_cases(hidden), hidden,
                "output and weights match on one sequence")


def check_sdpa_batched(scaled_dot_product_attention, hidden: bool = False) -> None:
    """Check ``scaled_dot_product_attention`` with leading batch dimensions ``(..., Lq, Dk)``."""
    _check_sdpa(scaled_dot_product_attention, _sd_batched_cases(hidden), hidden, "works on batches")


def check_sdpa_mask(scaled_dot_product_attention, hidden: bool = False) -> None:
    """Check that masked keys (mask False) get weight exactly 0 and the rest renormalise."""
    _check_sdpa(scaled_dot_product_attention, _sd_mask_cases(hidden), hidden,
                "masked keys get zero weight")


def check_sdpa_fully_masked(scaled_dot_product_attention, hidden: bool = False) -> None:
    """Check that a query with no key to attend to gets zero weights and a zero output (no NaN)."""
    _check_sdpa(scaled_dot_product_attention, _sd_fully_masked_cases(hidden), hidden,
                "a fully masked row gives zeros, not NaN")


# ---------------------------------------------------------------------------------------------
# Predict, then run

DOT_WINNER = Prediction(
    "prediction_dot_winner", "choice", "k2",
    "The dot product q·k = |q| |k| cos θ rewards length as well as direction: the scores are "
    "k1 1.2, k2 3.75, k3 0, k4 -2.25, so the long key 45° off wins over the short one that points "
    "exactly along the query. Cosine, which divides the length out, would pick k1.",
    options=("k1", "k2", "k3", "k4"),
    wrong=(
        WrongPrediction("k1", "the best-aligned key wins",
                        "That is the cosine's answer. The dot product is |q| |k| cos θ: k1 is "
                        "perfectly aligned (cos θ = 1) but short, 1.5 · 0.8 = 1.2, while k2 scores "
                        "1.5 · 3.54 · cos 45° = 3.75."),
        WrongPrediction("k4", "the score largest in size wins, whatever its sign",
                        "The softmax gives the most weight to the largest score, and a negative "
                        "score (k4: -2.25) gets the least."),
    ),
)


def check_prediction_dot_winner(prediction_dot_winner, hidden: bool = False) -> None:
    """Check the prediction of the key that gets the largest weight under the dot product."""
    DOT_WINNER.check(prediction_dot_winner, hidden=hidden)


SCORE_VARIANCE = Prediction(
    "prediction_score_variance", "number", 64,
    "q·k = Σ_i q_i k_i is a sum of d_k = 64 independent products, each with mean 0 and variance "
    "E[q_i²] E[k_i²] = 1; variances of independent terms add, so Var(q·k) = 64 and typical "
    "scores are ±8 (the standard deviation √64).",
    rtol=0.1,
    wrong=(
        WrongPrediction(8, "the standard deviation √d_k instead of the variance d_k",
                        "8 = √64 is the standard deviation, the typical size of a score; the "
                        "variance is its square."),
        WrongPrediction(1, "standard-normal entries give a standard-normal score",
                        "Each product q_i k_i has variance 1, but the score adds 64 of them, and "
                        "their variances add up."),
        WrongPrediction(4096, "d_k² instead of d_k",
                        "The variance of a sum of independent terms is the sum of their variances: "
                        "64 terms of variance 1, not 64²."),
        WrongPrediction(0, "independent vectors are orthogonal, so q·k = 0",
                        "The *mean* of q·k is 0, but each draw scatters around it; the variance "
                        "measures that scatter."),
    ),
)


def check_prediction_score_variance(prediction_score_variance, hidden: bool = False) -> None:
    """Check the prediction of Var(q·k) for standard-normal q, k in R^64."""
    SCORE_VARIANCE.check(prediction_score_variance, hidden=hidden)


WEIGHTS_SHAPE = Prediction(
    "prediction_weights_shape", "shape", (2, 4, 6),
    "One weight per (query, key) pair in every batch item: (B, Lq, Lk) = (2, 4, 6). The widths "
    "Dk = 3 and Dv = 5 do not appear: Dk is summed over in Q Kᵀ, and V enters only after the "
    "weights.",
    wrong=(
        WrongPrediction((2, 4, 5), "the shape of the output",
                        "(B, Lq, Dv) = (2, 4, 5) is the output's shape; the weights come before V."),
        WrongPrediction((2, 6, 4), "keys down the rows",
                        "Each row belongs to a query (and sums to one over the keys): Lq rows, Lk "
                        "columns."),
        WrongPrediction((4, 6), "no batch axis",
                        "Leading batch dimensions carry through: every batch item has its own "
                        "weights."),
        WrongPrediction((2, 4, 3), "the width of the queries",
                        "Dk is contracted away by the dot products; what remains is one score per "
                        "key."),
    ),
)


def check_prediction_weights_shape(prediction_weights_shape, hidden: bool = False) -> None:
    """Check the prediction of the weights' shape for Q (2, 4, 3), K (2, 6, 3), V (2, 6, 5)."""
    WEIGHTS_SHAPE.check(prediction_weights_shape, hidden=hidden)
