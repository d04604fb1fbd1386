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
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np


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


def describe(case: Case, names: Sequence[str]) -> str:
    """``x of shape (3, 4), axis=0 (logits of +-1e4)``."""
    parts = []
    for name, arg in zip(names, case.args):
        parts.append(_describe_value(name, arg))
    for name, arg in case.kwargs.items():
        parts.append(_describe_value(name, arg))
    text = ", ".join(parts)
    return f"{text} ({case.why})" if case.why else text


def _describe_value(name: str, value: Any) -> str:
    shape = getattr(value, "shape", None)
    if shape is not None and len(shape) > 0:
        return f"{name} of shape {tuple(int(s) for s in shape)}"
    if callable(value):
        return f"{name}={getattr(value, '__name__', 'a function')}"
    return f"{name}={value!r}"


def _silently(fn: Callable[..., Any], case: Case) -> Any:
    """Call ``fn`` on a private copy of the case's arguments, with warnings captured."""
    args, kwargs = copy.deepcopy(case.args), copy.deepcopy(case.kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return _to_numpy(fn(*args, **kwargs))


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
class _Outcome:
    value: Any = None
    error: BaseException | None = None


def _outcome(fn: Callable[..., Any], case: Case) -> _Outcome:
    try:
        return _Outcome(value=_silently(fn, case))
    except Exception as exc:  # the learner's (or a mistake's) own error
        return _Outcome(error=exc)


def _diagnose(got: _Outcome, case: Case, mistakes: Sequence[Mistake], *, rtol: float, atol: float,
              reference: _Outcome) -> Mistake | None:
    """The first mistake whose behaviour on ``case`` is the learner's behaviour (and not the
    reference's)."""
    for mistake in mistakes:
        theirs = _outcome(mistake.impl, case)
        if got.error is not None:
            same = theirs.error is not None and type(theirs.error) is type(got.error)
            differs_from_reference = reference.error is None or type(reference.error) is not type(got.error)
        else:
            same = theirs.error is None and matches(got.value, theirs.value, rtol=rtol, atol=atol)
            differs_from_reference = reference.error is not None or not matches(
                reference.value, theirs.value, rtol=rtol, atol=atol)
        if same and differs_from_reference:
            return mistake
    return None


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
) -> None:
    """Run ``fn`` on every case; raise :class:`CheckFailure` at the first wrong answer.

    Args:
        fn: the learner's function.
        exercise: its name, as the learner wrote it (``"softmax"``).
        reference: the correct implementation.
        cases: the inputs, each with what a correct answer does on it.
        mistakes: known wrong implementations, tried in order to name the learner's mistake.
        arg_names: the names of the positional arguments, for messages.
        outputs: the names of the items of a tuple result (``("output", "weights")``).
        show_values: print small expected/actual arrays in the message (off for hidden cases).
        passed: what the success line says was checked.
    """
    if not callable(fn):
        raise CheckFailure(f"{exercise} should be a function, but it is a {type(fn).__name__}.")
    for case in cases:
        where = describe(case, arg_names)
        got = _outcome(fn, case)
        if isinstance(got.error, NotImplementedError):
            raise CheckFailure(
                f"{exercise} is not implemented yet: replace `raise NotImplementedError()` "
                "with your code, run that cell, then run this check again."
            )
        ref = _outcome(reference, case)
        if ref.error is not None and case.raises is None:  # a bug in the check itself
            raise RuntimeError(f"the reference {exercise} failed on {where}: {ref.error!r}")
        problem = _problem(got, ref, case, exercise, outputs, rtol=rtol, atol=atol)
        if problem is None:
            problem = _mutation(fn, case, exercise)
        if problem is None:
            continue
        mistake = _diagnose(got, case, mistakes, rtol=rtol, atol=atol, reference=ref)
        raise CheckFailure(_message(exercise, where, problem, mistake, got, ref, outputs, show_values))
    print(f"✓ {exercise}: {passed or 'matches the reference'} ({len(cases)} cases).")


def _problem(got: _Outcome, ref: _Outcome, case: Case, exercise: str, outputs: Sequence[str],
             *, rtol: float, atol: float) -> str | None:
    if case.raises is not None:
        if got.error is None:
            return f"{exercise} should raise {case.raises.__name__} here, but it returned normally"
        if not isinstance(got.error, case.raises):
            return (f"{exercise} should raise {case.raises.__name__} here, "
                    f"but raised {type(got.error).__name__}: {got.error}")
        return None
    if got.error is not None:
        return f"{exercise} raised {type(got.error).__name__}: {got.error}"
    problem = compare(got.value, ref.value, rtol=rtol, atol=atol)
    if problem or not isinstance(ref.value, tuple):
        return problem
    for name, g, e in zip(outputs or [f"item {i}" for i in range(len(ref.value))], got.value, ref.value):
        problem = compare(g, e, rtol=rtol, atol=atol, what=f"the {name} you returned")
        if problem:
            return problem
    return None


def _mutation(fn: Callable[..., Any], case: Case, exercise: str) -> str | None:
    """Check that the learner's function leaves its inputs unchanged."""
    args = copy.deepcopy(case.args)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                fn(*args, **copy.deepcopy(case.kwargs))
    except Exception:
        return None
    if not _same_args(case.args, args):
        return (f"{exercise} changed its input arrays in place; compute into a new array "
                "instead (e.g. `x = x - m`, not `x -= m`)")
    return None


def _small(x: Any) -> str | None:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return None
    if arr.size > 12:
        return None
    return np.array2string(arr, precision=4, suppress_small=True, separator=", ")


def _message(exercise: str, where: str, problem: str, mistake: Mistake | None, got: _Outcome,
             ref: _Outcome, outputs: Sequence[str], show_values: bool) -> str:
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
