"""score_variance (notebook 02): the empirical variance of q·k for independent standard-normal
q, k in R^d_k, drawn from the generator the caller passes (the answer is close to d_k).

Two checks. ``check_score_variance`` compares the estimate with the exact variance d_k, within
10 % (plus 0.02, so that estimates near 0 can match the mistakes that give about 0). With
n_samples = 20000 the estimate's relative standard deviation is about sqrt(2 / n) ~ 1.4 %: a
correct answer, however it draws its samples, is 7 standard deviations inside the tolerance.
``check_score_variance_rng`` calls it with seeded generators and checks that the answer comes
from the generator given: reproducible, scattering as an estimate does, drawn from it.

The learner's function is called through an invoke (:func:`invoke_with_rng`,
:func:`invoke_seed_summary`); a mistake's code is such a function, and is called the same way
(:class:`_Invoked`). Each check names the mistakes it can tell apart, in its own order.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks._contract import require_numpy_floats
from ..checks._core import Case, Mistake, case_seed
from ._card import Card, Contract, Example

_VALUE = ("test_score_variance",)
_RNG = ("test_score_variance_rng",)
_BOTH = _VALUE + _RNG


# ---------------------------------------------------------------------------------------------
# The generator a case passes, and how the checks call the learner's function

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


class _Invoked:
    """A learner-style ``score_variance(d_k, n_samples, rng)`` (a mistake's code) called the way
    the check calls the learner's: through :func:`invoke_with_rng` on a case of
    ``check_score_variance`` (its rng a :class:`Seeded`), through :func:`invoke_seed_summary` on a
    case of ``check_score_variance_rng`` (its rng a pair of seeds)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, d_k, n_samples, rng):
        if isinstance(rng, Seeded):
            return invoke_with_rng(self.fn, d_k, n_samples, rng)
        return invoke_seed_summary(self.fn, d_k, n_samples, rng)


# ---------------------------------------------------------------------------------------------
# The mistakes

_SV_DRAWS_PRINCIPLE = ("each of the n_samples scores needs a query and a key of its own: draw "
                       "exactly n_samples independent pairs of d_k-vectors from the generator given.")

_COORDINATE = Mistake(
    "a variance near 1 instead of d_k: the variance of single coordinates (of q, or of the "
    "products q_i k_i), or of the scaled score q·k/√d_k",
    principle='Estimate the variance of the whole unscaled dot product q·k, a sum of d_k products.',
    fix="draw `q` and `k` of shape (n_samples, d_k), form the *unscaled* dot products "
        "`np.sum(q * k, axis=-1)` (shape (n_samples,)), and return their variance.",
    fails=_VALUE, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.standard_normal((n_samples, d_k))
            k = rng.standard_normal((n_samples, d_k))
            return float(np.var(q))
        ''')
_STD = Mistake(
    "the standard deviation instead of the variance",
    principle='The quantity asked for is the variance (the square of the spread).',
    fix="use `np.var`, not `np.std`: the standard deviation grows like √d_k, the variance like d_k.",
    fails=_VALUE, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.standard_normal((n_samples, d_k))
            k = rng.standard_normal((n_samples, d_k))
            return float(np.std(np.sum(q * k, axis=1)))
        ''')
_MEAN = Mistake(
    "the mean of the dot products instead of their variance",
    principle='Return the spread of the samples around their mean, not the mean.',
    fix="q·k averages to 0; the question is how far it spreads: `np.var(scores)`.",
    fails=_VALUE, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.standard_normal((n_samples, d_k))
            k = rng.standard_normal((n_samples, d_k))
            return float(np.mean(np.sum(q * k, axis=1)))
        ''')
_SELF_DOT = Mistake(
    "the variance of q·q instead of q·k",
    principle='Query and key are independent draws: use two separate samples.',
    fix="draw a second, independent `k` with the same generator: q·q = |q|² is never negative and "
        "has variance 2 d_k.",
    fails=_VALUE, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.standard_normal((n_samples, d_k))
            return float(np.var(np.einsum("nd,nd->n", q, q)))
        ''')
_UNIFORM = Mistake(
    "uniform samples (`rng.random`) instead of standard-normal ones",
    principle='The entries of q and k are standard normal.',
    fix="draw with `rng.standard_normal((n_samples, d_k))` (or `rng.normal(size=...)`).",
    fails=_VALUE, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.random((n_samples, d_k))
            k = rng.random((n_samples, d_k))
            return float(np.var(np.sum(q * k, axis=1)))
        ''')
_SAMPLES = Mistake(
    "returning the n_samples dot products instead of their variance",
    principle='Reduce the samples to one number, their variance.',
    fix="reduce the scores to one number: `return float(np.var(scores))`.",
    fails=_VALUE, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.standard_normal((n_samples, d_k))
            k = rng.standard_normal((n_samples, d_k))
            scores = np.sum(q * k, axis=1)
            return scores
        ''')
_SWAPPED_AXES = Mistake(
    "samples and dimensions swapped (a sum over n_samples instead of over d_k)",
    principle='Each dot product sums over the d_k coordinates; the samples are the other axis.',
    fix="each sample is a pair of d_k-dimensional vectors: shape (n_samples, d_k), then sum over "
        "the last axis (d_k).",
    fails=_VALUE, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.standard_normal((d_k, n_samples))
            k = rng.standard_normal((d_k, n_samples))
            return float(np.var(np.sum(q * k, axis=1)))
        ''')
_DRAWS = Mistake(
    "draws that do not fit n_samples independent pairs (q, k): a pair too few or too "
    "many, or keys that reuse the queries' draws (dependent samples)",
    principle=_SV_DRAWS_PRINCIPLE,
    fix="draw `q = rng.standard_normal((n_samples, d_k))` and `k` of the same shape, and use "
        "every row of both: n_samples dot products, no row dropped, no key taken from `q`.",
    fails=_BOTH, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.standard_normal((n_samples, d_k))
            k = rng.standard_normal((n_samples - 1, d_k))   # one key short
            return float(np.var(np.sum(q[1:] * k, axis=1)))
        ''')
_GLOBAL = Mistake(
    "drawing from numpy's global random state (`np.random.randn`, `np.random.normal`) instead of the `rng` argument",
    principle="The caller passes the generator so that the result can be reproduced: every random "
              "number comes from `rng`, none from numpy's global state.",
    fix="draw every sample from the generator you are given: `rng.standard_normal((n_samples, d_k))`, "
        "not `np.random.randn` or `np.random.default_rng()`.",
    fails=_BOTH, label="np.random.randn, rng unused", code='''
        def score_variance(d_k, n_samples, rng):
            q = np.random.randn(n_samples, d_k)  # numpy's global generator, not the one passed in
            k = np.random.randn(n_samples, d_k)
            return float(np.var(np.sum(q * k, axis=1)))
        ''')
_CONSTANT = Mistake(
    "a fixed number (the theory's d_k) instead of an estimate from samples",
    principle='The function must measure: draw samples and estimate, do not return the theory.',
    fix="measure it: draw `q` and `k` from `rng`, form the dot products and return their "
        "variance; the point of the exercise is to see the theory confirmed by data.",
    fails=_VALUE, label="hard-coded d_k", code='''
        def score_variance(d_k, n_samples, rng):
            return float(d_k)  # the theory says so
        ''')
_LITTLE_NOISE = Mistake(
    "the theory's d_k with a little noise added instead of an estimate from samples",
    principle="the function must estimate the variance from the samples it draws, not return the "
              "value the theory predicts: with few samples the estimate scatters far more than a "
              "small added noise.",
    fix="measure it: draw `q` and `k` from `rng`, form the dot products and return their "
        "variance; an estimate from 50 samples scatters by about 20 %, not 1 %.",
    fails=_RNG, code='''
        def score_variance(d_k, n_samples, rng):
            return float(d_k) * (1 + 0.01 * rng.standard_normal())   # the theory, and a little noise
        ''')
_LIKE_AN_ESTIMATE = Mistake(
    "the theory's d_k with noise made to scatter like an estimate, instead of an estimate "
    "from samples (the generator is hardly drawn from)",
    principle="the function must estimate the variance from the samples it draws from the "
              "generator it is given; noise shaped like an estimate's is not one.",
    fix="measure it: draw `q` and `k` of shape (n_samples, d_k) from `rng`, form the dot "
        "products and return their variance; the answer has to come from those samples.",
    fails=_RNG, code='''
        def score_variance(d_k, n_samples, rng):
            return float(d_k) * (1 + np.sqrt((2 + 6 / d_k) / n_samples) * rng.standard_normal())
        ''')
_ROLLED = Mistake(
    "keys that reuse the queries' draws (e.g. `np.roll(q, 1)`): dependent samples, drawn "
    "for half the vectors only",
    principle="The scores must be independent samples: each key is drawn afresh from the generator, "
              "never derived from the queries.",
    fix="draw the keys from `rng` too, `k = rng.standard_normal((n_samples, d_k))`: each score "
        "needs an independent pair (q, k).",
    fails=_RNG, code='''
        def score_variance(d_k, n_samples, rng):
            q = rng.standard_normal((n_samples, d_k))
            k = np.roll(q, 1, axis=0)   # the other queries serve as keys
            return float(np.var(np.sum(q * k, axis=1)))
        ''')
_OWN_RNG = Mistake(
    "a generator of your own (e.g. `np.random.default_rng(0)`) instead of the `rng` argument",
    principle='All randomness must come from the generator you are given.',
    fix="use the `rng` passed in: a fixed generator of your own gives the same numbers whatever "
        "the caller asks for.",
    fails=_RNG, code='''
        def score_variance(d_k, n_samples, rng):
            gen = np.random.default_rng(42)
            q = gen.normal(size=(n_samples, d_k))
            k = gen.normal(size=(n_samples, d_k))
            return float(np.var(np.sum(q * k, axis=1)))
        ''')

# What each check can tell apart, in the order it tries them (the first match wins). A mistake's
# `fails` are the cells that name it; some codes also fail the other check under another name,
# since that check cannot tell them apart: the keys rolled from the queries and q·q (the two
# forms of reused draws, the examples below), and three it misnames: a hard-coded d_k and a
# generator of your own give the same answers to both checks (`check_score_variance` names both
# "a fixed number", `check_score_variance_rng` both "a generator of your own"), and uniform
# samples take another count of draws (`check_score_variance_rng` names "draws that do not fit").
VALUE_MISTAKES = [_COORDINATE, _STD, _MEAN, _SELF_DOT, _UNIFORM, _SAMPLES, _SWAPPED_AXES, _DRAWS,
                  _GLOBAL, _CONSTANT]
RNG_MISTAKES = [_LITTLE_NOISE, _LIKE_AN_ESTIMATE, _GLOBAL, _DRAWS, _ROLLED, _OWN_RNG]

CARD = Card(
    "score_variance", "02_query_key_value",
    summary="the variance of n_samples dot products q·k of independent standard-normal "
            "d_k-vectors, drawn from the generator given (close to d_k)",
    contract=Contract(
        args=("d_k", "n_samples", "rng"), reference=_expected_variance, invoke=invoke_with_rng,
        outputs=("variance", "whether its answer changes when rng draws other numbers",
                 "whether it draws n_samples pairs of d_k-vectors from rng (as many numbers as that takes)",
                 "whether it takes its random numbers from rng at all"),
        rtol=0.1, atol=0.02,
        shapes="d_k and n_samples ints, rng a np.random.Generator that every sample comes from",
        returns="a float, the variance of the n_samples dot products (close to d_k): an estimate "
                "from 2 n_samples d_k standard normals drawn from rng, the same for the same seed"),
    mistakes=VALUE_MISTAKES + [m for m in RNG_MISTAKES if m not in VALUE_MISTAKES],
    examples=[
        Example('''
            def score_variance(d_k, n_samples, rng):
                q = rng.standard_normal((n_samples, d_k))
                k = rng.standard_normal((n_samples, d_k))
                scores = (q * k).sum(axis=1) / np.sqrt(d_k)
                return float(scores.var())
            ''', _VALUE, _COORDINATE.name, label="scaled score"),
        Example('''
            def score_variance(d_k, n_samples, rng):
                q = np.random.randn(n_samples, d_k)
                k = np.random.randn(n_samples, d_k)
                return float(np.var(np.sum(q * k, axis=1)))
            ''', _RNG, "global random state"),
        # what the other check makes of a mistake it cannot tell apart: the keys are the queries
        Example(_ROLLED.code, _VALUE, _DRAWS.name, label="keys rolled from the queries"),
        Example(_SELF_DOT.code, _RNG, _ROLLED.name, label="q·q: the keys are the queries"),
    ],
)

# The checks call the learner's function through an invoke; a mistake's code is such a
# function, and is called the same way.
for _mistake in CARD.mistakes:
    object.__setattr__(_mistake, "impl", _Invoked(_mistake.impl))
del _mistake


# ---------------------------------------------------------------------------------------------
# The cases and the checks

def cases(hidden: bool) -> list[Case]:
    sizes = [(24, 20000, 211), (6, 20000, 212)] if hidden else [(16, 20000, 41), (4, 20000, 42)]
    return [Case((d_k, n, Seeded(case_seed(seed, hidden), hidden)), why="the answer should be close to d_k")
            for d_k, n, seed in sizes]


def rng_cases(hidden: bool) -> list[Case]:
    seeds = tuple(case_seed(s, hidden) for s in ((219, 220) if hidden else (51, 52)))
    return [Case((8, 50, seeds),
                 why="called with np.random.default_rng(a) twice, then with default_rng(b) and 16 "
                     "more seeds: the same seed must give the same value, other seeds other values "
                     "that scatter as an estimate from 50 samples does, drawn from the generator given")]


def check_score_variance(score_variance, hidden: bool = False) -> None:
    """Check that ``score_variance(d_k, n_samples, rng)`` is close to ``d_k``."""
    CARD.check(score_variance, cases(hidden), hidden=hidden, mistakes=VALUE_MISTAKES,
               passed="the variance of q·k is close to d_k")


def check_score_variance_rng(score_variance, hidden: bool = False) -> None:
    """Check that ``score_variance`` draws its samples from the ``rng`` it is given."""
    CARD.check(score_variance, rng_cases(hidden), hidden=hidden, mistakes=RNG_MISTAKES,
               reference=_seed_summary_reference, arg_names=("d_k", "n_samples", "seeds (a, b)"),
               outputs=(), rtol=0.0, atol=1e-12, show_values=False,
               passed="reproducible from the rng argument", invoke=invoke_seed_summary)
