"""Running a check: the learner's function on every case, compared with the reference, and on
the first mismatch the diagnosis (the card's mistakes, then the contract's type and error rules,
then the general relations of :mod:`._relations` and the generated edits of :mod:`._generated`).

The values, the comparison and the catalogue's matching are :mod:`._core`'s; this module puts them
in order. It is the only one that imports every layer of the diagnosis, and nothing below it
imports it back.
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Sequence

import numpy as np

from . import _contract, _divergence, _generated, _relations
from ._core import (
    ATOL, RTOL, Case, CheckFailure, CheckRaised, Diagnosis, Mistake, Outcome, _agree_where_finite,
    _all_finite, _behaves_like, _combined, _diagnose, _plain, _remember, _shape_of, call, compare,
    describe, feedback_level, float32_sensitivity, matches, same_crash,
)

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
    rtol: float = RTOL
    atol: float = ATOL
    show_values: bool = True
    passed: str = ""
    invoke: Callable[..., Any] | None = None
    learner_value: bool = False
    judge_value: Callable[[Case, Outcome], str | None] | None = None
    reference_module: Callable[[], Any] | None = None  # the reference's class, for _divergence

    def judge(self, index: int, got: Outcome) -> str | None:
        """None if ``got`` is right on case ``index``; otherwise the failure message (the same
        message for the same answer: the grader calls this once per submission)."""
        verdict = self.verdict(index, got)
        return None if verdict is None else verdict[0]

    def reference_outcome(self, index: int) -> Outcome:
        """The reference's outcome on case ``index``, worked out once per spec when it is plain
        data (arrays, numbers, strings, tuples of them): the grader judges a whole class's
        answers against the same spec, and a reference run (a tiled attention over thousands of
        keys, a Transformer's decoding) cost more than the rest of a verdict. Each caller gets
        its own copy."""
        memo = self.__dict__.setdefault("_reference_outcomes", {})
        kept = memo.get(index)
        if kept is None:
            kept = call(self.reference, self.cases[index])
            if not _plain(kept.value):
                return kept  # (a module, a tensor: made afresh each time)
            memo[index] = kept
        return copy.deepcopy(kept)

    def verdict(self, index: int, got: Outcome,
                probe: Callable[[Case], Outcome] | None = None,
                diverge: Callable[[Case], str | None] | None = None) -> tuple[str, Mistake | None] | None:
        """None if right; else the message and the mistake it names (if any). ``probe`` runs the
        learner's code on another input (in-process only; the general layer uses it to tell a
        rank the code assumes); ``diverge`` names the first sub-module of the learner's module
        that diverges from the reference's (in-process only, :mod:`._divergence`)."""
        case = self.cases[index]
        where = describe(case, self.arg_names, values=self.show_values)
        if got.error == "NotImplementedError":
            return (f"{self.exercise} is not implemented yet: replace `raise NotImplementedError()` "
                    "with your code, run that cell, then run this check again.", None)
        if got.error == "NameError" and f"'{self.exercise}'" in got.message:
            return (f"{self.exercise} is not defined: run the cell that defines it (and check that it "
                    "ran without an error), then run this check again.", None)
        if self.judge_value is not None:
            message = self.judge_value(case, got)
            return None if message is None else (message, None)
        ref = self.reference_outcome(index)
        if ref.error is not None and case.raises is None:  # a bug in the check itself
            raise RuntimeError(f"the reference {self.exercise} failed on {where}: {ref.error}: {ref.message}")
        rtol, atol = max(self.rtol, RTOL), max(self.atol, ATOL)
        problem = _problem(got, ref, case, self.exercise, self.outputs, rtol=rtol, atol=atol)
        f32 = 0.0
        if problem is not None and got.error is None and ref.error is None:
            sens = float32_sensitivity(self.reference, case, ref)
            problem = _problem(got, ref, case, self.exercise, self.outputs, rtol=rtol, atol=atol, f32=sens)
            f32 = max(sens, default=0.0)
        typed = None
        if (got.error is None and ref.error is None and case.raises is None
                and (self.invoke is None or getattr(self.invoke, "numpy_exercise", False))):
            typed = _contract.type_mistake(got.kind, ref.kind)
        if problem is None and typed is not None:  # right values, wrong type: the type rule names it
            return _message(self.exercise, where, typed[1], Diagnosis([typed[0]]), got, ref, self.show_values)
        if problem is None and got.mutated:
            problem = (f"{self.exercise} changed its input arrays in place; compute into a new array "
                       "instead (e.g. `x = x - m`, not `x -= m`)")
            return f"{self.exercise} is not right yet.\nOn {where}: {problem}.", None  # named: nothing to add
        if problem is None:
            return None
        diagnosis = _diagnose(got, case, self.mistakes, rtol=rtol, atol=atol, reference=ref, f32=f32)
        # (not for a statistical check, rtol > 1e-3: its estimates vary from one input to the next)
        if diagnosis is not None and probe is not None and rtol <= 1e-3:
            diagnosis = self._best_confirmed(diagnosis, got, index, probe, rtol, atol, ref, f32)
        if (diagnosis is None and probe is not None and rtol <= 1e-3 and got.error is None
                and ref.error is None and case.raises is None):
            diagnosis = self._generated(got, index, probe, rtol, atol, ref, f32)
        if diagnosis is None and got.error is not None:
            ruled = _contract.mistake_for_error(got.error, got.message)
            if ruled is not None:  # the type rule, applied inside the check's own invoke
                diagnosis = Diagnosis([ruled])
        if diagnosis is None and case.raises is not None:
            ruled = _contract.error_mistake(got.error, case.raises)
            if ruled is not None:  # the contract's errors: not raised, an assert, another exception
                diagnosis = Diagnosis([ruled])
        general = None
        if diagnosis is None:  # the catalogue wins; below it, the general layer
            relation = _relations.relate(case, got, ref, self.reference, arg_names=self.arg_names,
                                         outputs=self.outputs, rtol=rtol, atol=atol, f32=f32, probe=probe)
            if (got.own and got.error not in CheckRaised.names and ref.error is None
                    and case.raises is None):  # the learner's own check refused a valid input
                general = _relations.describe_own_check(case, got, self.arg_names, self.exercise, self.show_values)
                if relation is not None:
                    general += f" (Also an exact relation: {relation.message}.)"
            elif relation is not None:
                general = f"Not a catalogued mistake, but an exact relation to the right answer: {relation.message}."
            elif (got.error is not None and got.error not in CheckRaised.names and ref.error is None
                  and case.raises is None):  # the learner's own exception, described
                general = _relations.describe_error(case, got, self.arg_names)
            elif (overflow := _relations.describe_overflow(case, got, ref, self.arg_names)) is not None:
                general = overflow
            else:
                general = _relations.first_difference(got, ref, self.outputs, rtol=rtol, atol=atol, f32=f32,
                                                      show_values=self.show_values)
                partial = _relations.describe_partial(got, ref, self.outputs, rtol=rtol, atol=atol, f32=f32)
                if diverge is not None and got.error is None and ref.error is None:
                    part = diverge(case)  # inside the module: the first part that differs
                    if part:
                        if partial is None:  # it names where to look: not the unnamed wording
                            part = "Not a catalogued mistake, but " + part[0].lower() + part[1:]
                        general = part + (f"\n{general}" if general else "")
                if partial is not None:  # where it is right and where not: said, with the first difference
                    general = partial + (f"\n{general}" if general else "")
        message, mistake = _message(self.exercise, where, problem, diagnosis, got, ref, self.show_values, general)
        if typed is not None:  # the values differ, and the type breaks the rule too
            message += f"\nAlso: {typed[1]}: {typed[0].name}."
            mistake = mistake or typed[0]
        return message, mistake

    def _generated(self, got: Outcome, index: int, probe: Callable[[Case], Outcome], rtol: float,
                   atol: float, ref: Outcome, f32: float) -> Diagnosis | None:
        """An edit of the reference (or two, :mod:`._generated`) that gives the learner's answer
        here and is the learner's code on every other input the check has."""
        case, mine = self.cases[index], {}
        if not _all_finite(got.value):  # NaN agrees with anything: an overflow is described instead
            return None
        if _values_in(case) > self._CONFIRM_MAX_VALUES:  # (a memory case: each edit would cost a run)
            return None
        deadline = time.monotonic() + self._GENERATED_BUDGET_S
        for group in (_generated.singles, _generated.pairs):
            for mistake in group(self.reference):
                if time.monotonic() > deadline:  # a slow reference: name nothing rather than stall
                    return None
                if (_behaves_like(got, call(mistake.impl, case), ref, rtol, atol, f32)
                        and self._everywhere(mistake, index, probe, mine, rtol, atol)):
                    return Diagnosis([mistake], "generated")
        return None

    def _everywhere(self, mistake: Mistake, index: int, probe: Callable[[Case], Outcome],
                    mine: dict[int, Outcome], rtol: float, atol: float) -> bool:
        """Whether ``mistake`` is the learner's code on every other case the learner answered
        (right where the learner is right, the same answer where not), on at least one."""
        compared = 0
        for j, other in enumerate(self.cases):
            if j == index or other.raises is not None or _values_in(other) > self._CONFIRM_MAX_VALUES:
                continue
            if j not in mine:
                mine[j] = probe(other)
            m = mine[j]
            if m.error in CheckRaised.names or m.error == "NotProbed":
                continue
            ref = self.reference_outcome(j)
            if ref.error is not None:
                continue
            theirs = call(mistake.impl, other)
            compared += 1
            if m.error is not None or theirs.error is not None:
                if not (m.error is not None and theirs.error is not None
                        and (same_crash(m, theirs) or m.error == theirs.error)):
                    return False
                continue
            sens = max(float32_sensitivity(self.reference, other, ref), default=0.0)
            if (_all_finite(m.value) != _all_finite(theirs.value)
                    or not _agree_where_finite(m.value, theirs.value, rtol, atol, 16 * sens + 1e-9, ref.value)):
                return False
        return compared > 0

    _GENERATED_BUDGET_S = 5.0  # the edits tried on one failing answer, at most this long
    _CONFIRM_MAX_VALUES = 200_000  # inputs larger than this (the memory cases) are not re-run

    def _best_confirmed(self, diagnosis: Diagnosis, got: Outcome, index: int, probe: Callable[[Case], Outcome],
                        rtol: float, atol: float, ref: Outcome, f32: float) -> Diagnosis | None:
        """Of the mistakes that give the learner's answer on this case, the one that is the
        learner's code on the check's other cases too (in-process, where ``probe`` runs it), or
        None when none is. Wherever the learner's answer is wrong, a confirmed mistake gives the
        same answer (on the entries where both are finite: a second mistake that adds NaN leaves
        the first one named); a mistake that agrees on one input only is a coincidence, and
        naming it would mislead. Where the learner is right a mistake may still differ (a mistake
        in one branch of the code), but the mistake that differs on fewest such inputs wins."""
        candidates = [diagnosis]
        if diagnosis.kind == "match":
            candidates += [Diagnosis([m]) for m in self.mistakes if m is not diagnosis.mistakes[0]
                           and _behaves_like(got, call(m.impl, self.cases[index]), ref, rtol, atol, f32)]
        mine: dict[int, Outcome] = {}
        best, best_cost = None, None
        for candidate in candidates:
            cost = self._contradictions(candidate, index, probe, mine, rtol, atol)
            if cost is not None and (best_cost is None or cost < best_cost):
                best, best_cost = candidate, cost
                if cost == 0:
                    break
        return best

    def _contradictions(self, diagnosis: Diagnosis, index: int, probe: Callable[[Case], Outcome],
                        mine: dict[int, Outcome], rtol: float, atol: float) -> int | None:
        """None when the mistake contradicts the learner's code on a case where the learner is
        wrong; else the number of cases where the learner is right and the mistake is not."""
        try:
            mistake = (_combined(diagnosis.mistakes[0], diagnosis.mistakes[1]) if diagnosis.kind == "combined"
                       else diagnosis.mistakes[0])
            if mistake is None or mistake.impl is None:
                return 0
            soft = 0
            for j, other in enumerate(self.cases):
                if j == index or other.raises is not None or _values_in(other) > self._CONFIRM_MAX_VALUES:
                    continue
                if j not in mine:
                    mine[j] = probe(other)
                m, theirs = mine[j], call(mistake.impl, other)
                if (m.error in CheckRaised.names or theirs.error in CheckRaised.names
                        or theirs.error == "NotApplicable"  # (a mistake that says it does not apply here)
                        or m.error == "NotProbed"):  # (the grader has no answer of the learner's there)
                    continue  # the check's own verdict on the mechanism (memory, ...), not an answer
                ref = self.reference_outcome(j)
                if ref.error is not None:
                    continue
                if m.error is None and matches(m.value, ref.value, rtol=rtol, atol=atol, like=ref.value):
                    if theirs.error is not None or not matches(theirs.value, ref.value, rtol=rtol, atol=atol,
                                                               like=ref.value):
                        soft += 1
                    continue
                if m.error is not None or theirs.error is not None:
                    if m.error is None or theirs.error is None or not (same_crash(m, theirs) or m.error == theirs.error):
                        return None
                    continue
                if diagnosis.kind == "shape":
                    if _shape_of(m.value) != _shape_of(theirs.value):
                        return None
                    continue
                sens = max(float32_sensitivity(self.reference, other, ref), default=0.0)
                if not _agree_where_finite(m.value, theirs.value, rtol, atol, 16 * sens + 1e-9, ref.value):
                    return None
            return soft
        except Exception:  # noqa: BLE001 - a confirmation that cannot run takes nothing away
            return 0

    def key(self) -> str:
        """Tells this check from another check of the same exercise (for the second-run tier)."""
        return "|".join([self.exercise, str(len(self.cases))] + [c.why for c in self.cases])

    def success(self) -> str:
        if self.learner_value:
            return f"✓ {self.exercise}: {self.passed or 'right'}"
        return f"✓ {self.exercise}: {self.passed or 'matches the reference'} ({len(self.cases)} case{'' if len(self.cases) == 1 else 's'})."

    def run(self, fn: Any) -> None:
        """The in-process check: call ``fn`` on every case, raise at the first wrong answer."""
        if not callable(fn) and not self.learner_value:
            raise CheckFailure(f"{self.exercise} should be a function, but it is a {type(fn).__name__}.")
        probe = partial(_probe, fn, self.invoke)
        diverge = None
        if self.reference_module is not None and self.invoke is not None:
            
            diverge = partial(_divergence.diverge, fn, self.invoke, self.reference_module, what=self.exercise)
        for index, case in enumerate(self.cases):
            verdict = self.verdict(index, call(fn, case, self.invoke), probe, diverge)
            if verdict:
                raise CheckFailure(_remember(self.exercise, *verdict, check=self.key()))
        print(self.success())


def _values_in(case: Case) -> int:
    """How many numbers a case's array inputs hold."""
    total = 0
    for a in list(case.args) + list(case.kwargs.values()):
        if isinstance(a, np.ndarray):
            total += a.size
        elif isinstance(a, (tuple, list)):
            total += sum(getattr(v, "size", 1) for v in a)
    return total


def _probe(fn: Any, invoke: Callable[..., Any] | None, case: Case) -> Outcome:
    return call(fn, case, invoke)


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
    rtol: float = RTOL,
    atol: float = ATOL,
    show_values: bool = True,
    passed: str = "",
    invoke: Callable[..., Any] | None = None,
    learner_value: bool = False,
    judge_value: Callable[[Case, Outcome], str | None] | None = None,
    reference_module: Callable[[], Any] | None = None,
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
        rtol, atol: the tolerance policy's constants (see the module docstring); a check may
            loosen them, values below the defaults are raised to them.
        show_values: print small expected/actual arrays in the message (off for hidden cases).
        passed: what the success line says was checked.
        invoke: how to call the learner's object on a case, ``invoke(obj, *args, **kwargs)``
            (default ``obj(*args, **kwargs)``); for a class, e.g., build it, load known weights
            and run ``forward``. Must be a module-level function.
        learner_value: ``fn`` is a value (a prediction, see :mod:`._predict`), not a function;
            ``invoke`` reads it.
        judge_value: judges the learner's outcome on a case instead of the comparison with the
            reference, ``judge_value(case, outcome) -> message or None``; it runs in the trusted
            grader's process.
        reference_module: returns the reference's class, which ``invoke`` builds with the same
            weights as the learner's; on a wrong output the check names the first sub-module
            that diverges (:mod:`._divergence`, in the learner's process only).
    """
    spec = CheckSpec(exercise=exercise, reference=reference, cases=list(cases), mistakes=list(mistakes),
                     arg_names=list(arg_names), outputs=list(outputs), rtol=rtol, atol=atol,
                     show_values=show_values, passed=passed, invoke=invoke,
                     learner_value=learner_value, judge_value=judge_value,
                     reference_module=reference_module)
    if isinstance(fn, SpecRecorder):
        fn.spec = spec
        raise SpecRecorded(exercise)
    spec.run(fn)


def _problem(got: Outcome, ref: Outcome, case: Case, exercise: str, outputs: Sequence[str],
             *, rtol: float, atol: float, f32: Sequence[float] = ()) -> str | None:
    if case.raises is not None:
        if got.error is None:
            return f"{exercise} should raise {case.raises.__name__} here, but it returned normally"
        if got.error != case.raises.__name__ and case.raises.__name__ not in (got.bases or ()):
            kind = " (from an `assert` statement?)" if got.error == "AssertionError" else ""
            return (f"{exercise} raised {got.error}{kind} where a correct answer raises "
                    f"{case.raises.__name__}: {got.message}")
        return None
    if got.error is not None:
        if got.error in CheckRaised.names:
            return f"the check could not use your {exercise}: {got.message}"
        return f"{exercise} raised {got.error}: {got.message}"
    sens = list(f32) or [0.0]
    if not isinstance(ref.value, tuple):
        return compare(got.value, ref.value, rtol=rtol, atol=atol, f32=sens[0])
    problem = compare(got.value, ref.value, rtol=rtol, atol=atol)
    if problem:
        return problem
    sens = sens + [0.0] * (len(ref.value) - len(sens))
    for name, g, e, s in zip(outputs or [f"item {i}" for i in range(len(ref.value))], got.value, ref.value, sens):
        if name.startswith("whether "):  # a yes/no the check measured about the code, not a value it returned
            try:
                yours, right = bool(np.asarray(g, dtype=float).item()), bool(np.asarray(e, dtype=float).item())
            except (TypeError, ValueError):
                yours, right = None, None
            if yours is not None and yours != right:
                return (f"{name[0].upper()}{name[1:]}: {'yes' if yours else 'no'} for your code, where a "
                        f"correct one gives {'yes' if right else 'no'}")
            continue
        problem = compare(g, e, rtol=rtol, atol=atol, what=f"the {name} you returned", f32=s)
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


def _message(exercise: str, where: str, problem: str, diagnosis: Diagnosis | None, got: Outcome,
             ref: Outcome, show_values: bool, general: str | None = None) -> tuple[str, Mistake | None]:
    lines = [f"{exercise} is not right yet.", f"On {where}: {problem}."]
    shown = False
    if show_values and got.error is None and ref.error is None and not isinstance(ref.value, tuple):
        exp_s, got_s = _small(ref.value), _small(got.value)
        if exp_s and got_s and exp_s != got_s:  # identical printed forms say nothing
            lines.append(f"  expected: {exp_s}\n  yours:    {got_s}")
            shown = True
    if diagnosis is None:
        if general and general.startswith("Not a catalogued mistake"):
            lines.append(general)
            return "\n".join(lines), None
        if general and not (shown and "expected:" in general):
            lines.append(general)
        lines.append("This does not look like any mistake we know; compare each step of your "
                     "code with the exercise's equation, on a tiny input you can check by hand.")
        return "\n".join(lines), None
    ms = diagnosis.mistakes
    if diagnosis.kind == "combined":
        mistake = _combined(ms[0], ms[1]) or ms[0]
        lines.append(f"This looks like two known mistakes at once: {ms[0].name}; and {ms[1].name}.")
    elif diagnosis.kind == "generated":
        mistake = ms[0]
        edits = "two edits" if "; and " in mistake.name else "one edit"
        lines.append(f"Not a catalogued mistake, but the right computation with {edits} gives your "
                     f"answer on every input this check has: {mistake.name}.")
    elif diagnosis.kind == "shape":
        mistake = ms[0]
        lines.append(f"The shape alone points to a known mistake: {mistake.name}.")
    else:
        mistake = ms[0]
        lines.append(f"This looks like a known mistake: {mistake.name}.")
    if feedback_level() == "mistake-only":
        return "\n".join(lines), mistake
    principles = [m.principle for m in ms if m.principle]
    if principles:
        lines.append("What to change: " + " And: ".join(principles))
        lines.append(f"(For the code-level fix, run `attnlab.checks.explain(\"{exercise}\")`, "
                     "or run this check again.)")
    else:
        lines.append(f"How to fix it: {mistake.fix}")
    return "\n".join(lines), mistake
