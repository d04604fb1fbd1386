"""The machinery behind every check: run the learner's function, compare, diagnose.

A check runs the learner's function on a list of :class:`Case` s, compares each result with the
reference implementation and, on the first mismatch, compares the learner's result with a
catalogue of known :class:`Mistake` s (wrong implementations written the way learners write
them). The :class:`CheckFailure` it raises says what differs, on which input, which mistake the
answer looks like, and how to fix it. Warnings are captured and floating-point errors silenced
while learner code runs, so that a harmless warning never zeroes a correct answer in nbgrader
(which scores any stderr output in a grade cell as a failure).
"""
from __future__ import annotations

import copy
import hashlib
import os
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np


# ---------------------------------------------------------------------------------------------
# Hidden inputs from the course secret.
#
# Visible cases use the public seeds written in the check modules. Hidden cases (``hidden=True``)
# derive their seeds from the instructor's course secret when one is set (environment variable
# ``ATTNLAB_COURSE_SECRET``, which ``autograde/nbgrader_config.py`` and ``make grade`` fill from
# the gitignored file ``autograde/course_secret``), so a learner who reads ``attnlab.checks``
# still cannot know the hidden inputs. Without a secret the public seeds are used: the hidden
# inputs are then as public as this file.

SECRET_ENV = "ATTNLAB_COURSE_SECRET"


def course_secret() -> str:
    """The instructor's course secret, or ``""`` when none is set."""
    return os.environ.get(SECRET_ENV, "").strip()


def case_seed(seed: int, hidden: bool) -> int:
    """The seed a case draws from: ``seed`` itself for visible cases (and without a course
    secret), otherwise a 63-bit number derived from the secret and ``seed``."""
    secret = course_secret()
    if not hidden or not secret:
        return int(seed)
    digest = hashlib.sha256(f"{secret}:{int(seed)}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def case_rng(seed: int, hidden: bool) -> np.random.Generator:
    """``np.random.default_rng`` seeded by :func:`case_seed`."""
    return np.random.default_rng(case_seed(seed, hidden))


class CheckFailure(AssertionError):
    """A check found a wrong answer; the message says what and how to fix it."""


@dataclass(frozen=True)
class Mistake:
    """A common wrong implementation and the advice that fixes it.

    ``impl`` has the exercise's signature; the check runs it on the failing input and, if the
    learner's output matches it, names the mistake.
    """

    name: str
    fix: str
    impl: Callable[..., Any]


@dataclass
class Case:
    """One input to an exercise function, and what a correct answer does with it.

    ``raises``: the exception a correct answer raises here (e.g. ``ValueError`` for bad input).
    ``why``: a few words on what the case exercises ("logits of +-1e4").
    """

    args: tuple
    kwargs: dict = field(default_factory=dict)
    why: str = ""
    raises: type[BaseException] | None = None


def _to_numpy(x: Any) -> Any:
    """Torch tensors and nested tuples become numpy arrays; other objects pass through."""
    if isinstance(x, tuple):
        return tuple(_to_numpy(v) for v in x)
    if type(x).__module__.startswith("torch"):
        try:
            return x.detach().cpu().numpy()
        except Exception:  # not a tensor after all
            return x
    return x


def describe(case: Case, names: Sequence[str], values: bool = True) -> str:
    """``x of shape (3, 4), axis=0 (logits of +-1e4)``; with ``values=False`` (hidden cases)
    scalars are named but not shown."""
    parts = []
    for name, arg in zip(names, case.args):
        parts.append(_describe_value(name, arg, values))
    for name, arg in case.kwargs.items():
        parts.append(_describe_value(name, arg, values))
    text = ", ".join(parts)
    return f"{text} ({case.why})" if case.why else text


def _describe_value(name: str, value: Any, values: bool = True) -> str:
    shape = getattr(value, "shape", None)
    if shape is not None and len(shape) > 0:
        return f"{name} of shape {tuple(int(s) for s in shape)}"
    if callable(value):
        return f"{name}={getattr(value, '__name__', 'a function')}"
    return f"{name}={value!r}" if values else f"a hidden {name}"


def _same_args(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same_args(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_args(a[k], b[k]) for k in a)
    return True


def compare(got: Any, expected: Any, *, rtol: float, atol: float, what: str = "your result") -> str | None:
    """None if ``got`` matches ``expected``; otherwise a sentence saying how it differs."""
    if isinstance(expected, tuple):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            kind = type(got).__name__
            return (f"{what} should be a tuple of {len(expected)} arrays, "
                    f"got {'a ' + kind if not isinstance(got, (tuple, list)) else f'{len(got)} items'}")
        return None
    if got is None:
        return f"{what} is None: did you forget the `return`?"
    try:
        arr = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return f"{what} is a {type(got).__name__}, not an array of numbers"
    exp = np.asarray(expected, dtype=float)
    if arr.shape != exp.shape:
        return f"{what} has shape {arr.shape}, expected shape {exp.shape}"
    bad = ~np.isfinite(arr) & np.isfinite(exp)
    if bad.any():
        return f"{what} contains NaN or inf at {int(bad.sum())} of {arr.size} entries where the answer is finite"
    if not np.allclose(arr, exp, rtol=rtol, atol=atol, equal_nan=True):
        diff = np.nanmax(np.abs(arr - exp))
        return f"{what} differs from the expected values by up to {diff:.3g}"
    return None


def matches(got: Any, other: Any, *, rtol: float, atol: float) -> bool:
    """True if two results agree in structure, shape and value (NaNs agree with NaNs)."""
    if isinstance(got, tuple) or isinstance(other, tuple):
        return (isinstance(got, (tuple, list)) and isinstance(other, (tuple, list))
                and len(got) == len(other)
                and all(matches(g, o, rtol=rtol, atol=atol) for g, o in zip(got, other)))
    try:
        a, b = np.asarray(got, dtype=float), np.asarray(other, dtype=float)
    except (TypeError, ValueError):
        return False
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


@dataclass
class Outcome:
    """What one call did: its value, or the name and message of the exception it raised, and
    whether it changed its inputs. Plain data, so that an outcome can come back from another
    process (``attnlab.course.sandbox``) and be judged where no learner code runs."""

    value: Any = None
    error: str | None = None
    message: str = ""
    mutated: bool = False


def _default_invoke(obj: Any, *args: Any, **kwargs: Any) -> Any:
    return obj(*args, **kwargs)


def call(fn: Any, case: Case, invoke: Callable[..., Any] | None = None) -> Outcome:
    """Call ``fn`` (through ``invoke``) on a private copy of the case, warnings captured."""
    invoke = invoke or _default_invoke
    args, kwargs = copy.deepcopy(case.args), copy.deepcopy(case.kwargs)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                value = _to_numpy(invoke(fn, *args, **kwargs))
    except Exception as exc:  # the learner's (or a mistake's) own error
        return Outcome(error=type(exc).__name__, message=str(exc))
    mutated = not (_same_args(case.args, args) and _same_args(case.kwargs, kwargs))
    return Outcome(value=value, mutated=mutated)


def _diagnose(got: Outcome, case: Case, mistakes: Sequence[Mistake], *, rtol: float, atol: float,
              reference: Outcome) -> Mistake | None:
    """The first mistake whose behaviour on ``case`` is the learner's behaviour (and not the
    reference's)."""
    for mistake in mistakes:
        theirs = call(mistake.impl, case)
        if got.error is not None:
            same = theirs.error == got.error
            differs_from_reference = reference.error != got.error
        else:
            same = theirs.error is None and matches(got.value, theirs.value, rtol=rtol, atol=atol)
            differs_from_reference = reference.error is not None or not matches(
                reference.value, theirs.value, rtol=rtol, atol=atol)
        if same and differs_from_reference:
            return mistake
    return None


@dataclass
class CheckSpec:
    """Everything a check needs except the learner's function: the inputs, the reference, the
    known mistakes, how to call the learner's object (``invoke``, a module-level function so
    that it can be sent to another process) and what the success line says."""

    exercise: str
    reference: Callable[..., Any]
    cases: Sequence[Case]
    mistakes: Sequence[Mistake] = ()
    arg_names: Sequence[str] = ()
    outputs: Sequence[str] = ()
    rtol: float = 1e-6
    atol: float = 1e-9
    show_values: bool = True
    passed: str = ""
    invoke: Callable[..., Any] | None = None

    def judge(self, index: int, got: Outcome) -> str | None:
        """None if ``got`` is right on case ``index``; otherwise the failure message."""
        case = self.cases[index]
        where = describe(case, self.arg_names, values=self.show_values)
        if got.error == "NotImplementedError":
            return (f"{self.exercise} is not implemented yet: replace `raise NotImplementedError()` "
                    "with your code, run that cell, then run this check again.")
        if got.error == "NameError" and f"'{self.exercise}'" in got.message:
            return (f"{self.exercise} is not defined: run the cell that defines it (and check that it "
                    "ran without an error), then run this check again.")
        ref = call(self.reference, case)
        if ref.error is not None and case.raises is None:  # a bug in the check itself
            raise RuntimeError(f"the reference {self.exercise} failed on {where}: {ref.error}: {ref.message}")
        problem = _problem(got, ref, case, self.exercise, self.outputs, rtol=self.rtol, atol=self.atol)
        if problem is None and got.mutated:
            problem = (f"{self.exercise} changed its input arrays in place; compute into a new array "
                       "instead (e.g. `x = x - m`, not `x -= m`)")
        if problem is None:
            return None
        mistake = _diagnose(got, case, self.mistakes, rtol=self.rtol, atol=self.atol, reference=ref)
        return _message(self.exercise, where, problem, mistake, got, ref, self.show_values)

    def success(self) -> str:
        return f"✓ {self.exercise}: {self.passed or 'matches the reference'} ({len(self.cases)} cases)."

    def run(self, fn: Any) -> None:
        """The in-process check: call ``fn`` on every case, raise at the first wrong answer."""
        if not callable(fn):
            raise CheckFailure(f"{self.exercise} should be a function, but it is a {type(fn).__name__}.")
        for index, case in enumerate(self.cases):
            message = self.judge(index, call(fn, case, self.invoke))
            if message:
                raise CheckFailure(message)
        print(self.success())


class SpecRecorder:
    """Passed instead of a learner's function, it makes a check hand over its :class:`CheckSpec`
    instead of running (the trusted grader uses this to split a check across two processes)."""

    def __init__(self) -> None:
        self.spec: CheckSpec | None = None


class SpecRecorded(Exception):
    """Raised by :func:`run_check` after it gave its spec to a :class:`SpecRecorder`."""


def run_check(
    fn: Any,
    *,
    exercise: str,
    reference: Callable[..., Any],
    cases: Sequence[Case],
    mistakes: Sequence[Mistake] = (),
    arg_names: Sequence[str] = (),
    outputs: Sequence[str] = (),
    rtol: float = 1e-6,
    atol: float = 1e-9,
    show_values: bool = True,
    passed: str = "",
    invoke: Callable[..., Any] | None = None,
) -> None:
    """Run ``fn`` on every case; raise :class:`CheckFailure` at the first wrong answer.

    Args:
        fn: the learner's function (or class, with ``invoke``).
        exercise: its name, as the learner wrote it (``"softmax"``).
        reference: the correct result for a case: ``reference(*case.args, **case.kwargs)``.
        cases: the inputs, each with what a correct answer does on it.
        mistakes: known wrong implementations (same signature as ``reference``), tried in order
            to name the learner's mistake.
        arg_names: the names of the positional arguments, for messages.
        outputs: the names of the items of a tuple result (``("output", "weights")``).
        show_values: print small expected/actual arrays in the message (off for hidden cases).
        passed: what the success line says was checked.
        invoke: how to call the learner's object on a case, ``invoke(obj, *args, **kwargs)``
            (default ``obj(*args, **kwargs)``); for a class, e.g., build it, load known weights
            and run ``forward``. Must be a module-level function.
    """
    spec = CheckSpec(exercise=exercise, reference=reference, cases=list(cases), mistakes=list(mistakes),
                     arg_names=list(arg_names), outputs=list(outputs), rtol=rtol, atol=atol,
                     show_values=show_values, passed=passed, invoke=invoke)
    if isinstance(fn, SpecRecorder):
        fn.spec = spec
        raise SpecRecorded(exercise)
    spec.run(fn)


def _problem(got: Outcome, ref: Outcome, case: Case, exercise: str, outputs: Sequence[str],
             *, rtol: float, atol: float) -> str | None:
    if case.raises is not None:
        if got.error is None:
            return f"{exercise} should raise {case.raises.__name__} here, but it returned normally"
        if got.error != case.raises.__name__:
            return (f"{exercise} should raise {case.raises.__name__} here, "
                    f"but raised {got.error}: {got.message}")
        return None
    if got.error is not None:
        return f"{exercise} raised {got.error}: {got.message}"
    problem = compare(got.value, ref.value, rtol=rtol, atol=atol)
    if problem or not isinstance(ref.value, tuple):
        return problem
    for name, g, e in zip(outputs or [f"item {i}" for i in range(len(ref.value))], got.value, ref.value):
        problem = compare(g, e, rtol=rtol, atol=atol, what=f"the {name} you returned")
        if problem:
            return problem
    return None


def _small(x: Any) -> str | None:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return None
    if arr.size > 12:
        return None
    return np.array2string(arr, precision=4, suppress_small=True, separator=", ")


def _message(exercise: str, where: str, problem: str, mistake: Mistake | None, got: Outcome,
             ref: Outcome, show_values: bool) -> str:
    lines = [f"{exercise} is not right yet.", f"On {where}: {problem}."]
    if show_values and got.error is None and ref.error is None and not isinstance(ref.value, tuple):
        exp_s, got_s = _small(ref.value), _small(got.value)
        if exp_s and got_s:
            lines.append(f"  expected: {exp_s}\n  yours:    {got_s}")
    if mistake is not None:
        lines.append(f"This looks like a known mistake: {mistake.name}.")
        lines.append(f"How to fix it: {mistake.fix}")
    else:
        lines.append("This does not look like any mistake we know; compare each step of your "
                     "code with the equation above, on a tiny input you can check by hand.")
    return "\n".join(lines)
