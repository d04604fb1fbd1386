"""The machinery behind every check: run the learner's function, compare, diagnose.

A check runs the learner's function on a list of :class:`Case` s, compares each result with the
reference implementation and, on the first mismatch, compares the learner's result with a
catalogue of known :class:`Mistake` s (wrong implementations written the way learners write
them). The :class:`CheckFailure` it raises says what differs, on which input, which mistake the
answer looks like, and the principle that fixes it (the code-level fix on request:
:func:`explain`, or a second failing run of the same check). Warnings are captured and
floating-point errors silenced while learner code runs, so that a harmless warning never zeroes
a correct answer in nbgrader (which scores any stderr output in a grade cell as a failure).

Tolerance policy
----------------
One rule for every check, visible and hidden alike. An answer ``got`` matches the expected
array ``exp`` when, entry by entry::

    |got - exp| <= atol + rtol * scale + min(F32_FACTOR * f32, F32_CAP * scale)

* ``scale`` is the largest finite ``|exp|`` of that array (of that item of a tuple): the
  comparison scales with the size of the expected values, so a 1e-6 error on values of
  size 1e4 and on values of size 1e-2 are judged alike. ``rtol = 1e-5``, ``atol = 1e-9`` by
  default (a check may loosen them, never tighten them below the defaults).
* ``f32`` is how far the reference itself moves when its floating inputs are rounded to
  float32 and nudged by 2 float32 ulps of the case's largest input (standing in for the
  rounding of intermediate results, which combine all the inputs): the difference that computing in float32 cannot avoid (large for
  logits of 1e4, scores of 1e3, ill-conditioned solves). ``F32_FACTOR = 16`` times it is allowed, capped at ``F32_CAP = 1e-2``
  of the scale so that a discrete answer (an argmin) that flips under rounding never opens the
  tolerance wide.

What this guarantees: correct code that computes in float32 throughout, uses one float32
constant (a scale as a float32 tensor), or adds a conventional epsilon <= 1e-6 to a normaliser
(whose size is >= 1, as every normaliser of the course is after max subtraction) passes. What
stays failing: every catalogued mistake; ``tests/test_catalogue.py`` runs each one against its
check at this tolerance, and ``tests/test_realworld.py`` runs a corpus of correct and buggy
variants. A difference that is close but not within tolerance is described by its size: the size
of float32 rounding, the size of an epsilon or a rounded constant, or a real difference.
"""
from __future__ import annotations

import copy
import hashlib
import os
import re
import warnings
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

import time

import numpy as np

RTOL = 1e-5
ATOL = 1e-9
F32_FACTOR = 16.0
F32_CAP = 1e-2


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


_SECRET: list[str] = []


def set_course_secret(value: str) -> None:
    """Use ``value`` as the course secret in this process (the trusted grader sets it from the
    instructor's configuration, see :mod:`attnlab.course.secret`)."""
    _SECRET[:] = [value.strip()]


def course_secret() -> str:
    """The instructor's course secret, or ``""`` when none is set."""
    if _SECRET:
        return _SECRET[0]
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
    """A check found a wrong answer; the message says what and how to fix it.

    In IPython (JupyterLab, Notebook 7, nbgrader's Validate and feedback) it renders as its
    message alone, without a traceback.
    """

    def _render_traceback_(self) -> list[str]:
        return str(self).splitlines()


class CheckRaised(Exception):
    """Base of the exceptions a check's own code raises about the learner's object (a module
    without the projections it must have, ...). Their names are remembered so that a message
    says "the check could not use your X" rather than "X raised ...", even when the exception
    comes back as a name from another process."""

    names: set[str] = set()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        CheckRaised.names.add(cls.__name__)


@dataclass(frozen=True)
class Mistake:
    """A common wrong implementation and the advice that fixes it.

    ``impl`` has the exercise's signature; the check runs it on the failing input and, if the
    learner's output matches it, names the mistake. ``principle`` says what to change without
    code (which quantity, which axis, which shape); ``fix`` is the code-level fix, shown only on
    request (:func:`explain`) or on a second failing run of the same check.
    """

    name: str
    fix: str
    impl: Callable[..., Any] | None = None
    principle: str = ""
    code: str = ""                  # the learner-style wrong code (a card's mistakes; see attnlab.cards)
    fails: tuple[str, ...] = ()     # the grade cells the code must fail
    message: str = ""               # what the failing message must contain (default: the name)
    label: str = ""                 # tells two catalogue entries of one message apart
    defines: str = ""               # the name the code defines, when it is not the exercise's
    exercise: str = ""              # set by the card


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


# ---------------------------------------------------------------------------------------------
# Feedback tiers

FEEDBACK_ENV = "ATTNLAB_FEEDBACK"
FEEDBACK_FILE = ".attnlab-feedback"
FEEDBACK_LEVELS = ("full", "mistake-only")


def feedback_level() -> str:
    """``"full"`` (mistake, principle, code on request) or ``"mistake-only"`` (graded courses).

    Read at every check, from the environment variable ``ATTNLAB_FEEDBACK`` or else from a file
    ``.attnlab-feedback`` in the working directory or one of its parents (the instructor puts it
    next to the released notebooks, or sets the variable for ``make grade``).
    """
    value = os.environ.get(FEEDBACK_ENV, "").strip().lower()
    if not value:
        try:
            here = Path.cwd()
            for folder in (here, *here.parents):
                path = folder / FEEDBACK_FILE
                if path.is_file():
                    value = path.read_text(encoding="utf-8").strip().lower()
                    break
        except OSError:
            value = ""
    return "mistake-only" if value in ("mistake-only", "mistake_only", "mistake") else "full"


_LAST: dict[str, tuple[str, Mistake | None]] = {}   # exercise -> (message key, mistake)
_SEEN: dict[tuple[str, str], int] = {}              # (check, mistake name) -> failing runs


def explain(exercise: str | None = None) -> None:
    """Print the code-level fix for the last failing check of ``exercise`` (or of any)."""
    if feedback_level() == "mistake-only":
        print("Code-level fixes are turned off for this course: the check names the mistake; "
              "your notes, the hints and the equations tell you how to fix it.")
        return
    if exercise is None and _LAST:
        exercise = next(reversed(_LAST))
    if exercise not in _LAST:
        from ..cards import card

        found = card(exercise) if exercise else None
        if found is None:
            print(f"No failing check of {exercise} in this session yet, and no exercise of that name."
                  if exercise else "No failing check in this session yet; explain(\"softmax\") shows "
                  "what the checks of an exercise can name.")
            return
        print(f"No failing check of {exercise} in this session yet. Its card:\n{found.describe()}")
        return
    _, mistake = _LAST[exercise]
    if mistake is None:
        print(f"The last failing check of {exercise} did not recognise the mistake, so there is "
              "no code-level fix to show: compare each step with the exercise's equation on a tiny input.")
        return
    print(f"{exercise}: {mistake.name}.\nHow to fix it: {mistake.fix}")


# ---------------------------------------------------------------------------------------------
# Running and comparing

def _to_numpy(x: Any) -> Any:
    """Torch tensors and nested tuples become numpy arrays; other objects pass through."""
    if isinstance(x, (tuple, list)) and any(type(v).__module__.startswith("torch") for v in x):
        return tuple(_to_numpy(v) for v in x)
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
    if not case.why or case.why in text:  # "L=6, D=8 (L=6, D=8)" says it twice
        return text
    if not text:
        return case.why
    return f"{text} ({case.why})"


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


def _scale(exp: np.ndarray) -> float:
    finite = np.abs(exp[np.isfinite(exp)])
    return float(finite.max()) if finite.size else 0.0


def _allowed(exp: np.ndarray, rtol: float, atol: float, f32: float = 0.0,
             scale: float | None = None) -> float:
    """The largest difference the tolerance policy allows against ``exp`` (see the module doc)."""
    scale = _scale(exp) if scale is None else min(scale, _scale(exp))
    return atol + rtol * scale + min(F32_FACTOR * f32, F32_CAP * scale)


def _close(a: np.ndarray, exp: np.ndarray, rtol: float, atol: float, f32: float = 0.0,
           scale: float | None = None) -> bool:
    if a.shape != exp.shape:
        return False
    same_nan = np.isnan(a) == np.isnan(exp)
    same_inf = np.where(np.isinf(exp), a == exp, True)
    if not (same_nan.all() and same_inf.all()):
        return False
    ok = np.isfinite(exp) & np.isfinite(a)
    if not ok.any():
        return True
    return bool(np.max(np.abs(a[ok] - exp[ok])) <= _allowed(exp, rtol, atol, f32, scale))


def _plural(what: str) -> bool:
    """Whether ``what`` ("your result", "the weights you returned") names several things."""
    noun = what[4:-len(" you returned")] if what.startswith("the ") and what.endswith(" you returned") else what
    last = noun.split()[-1] if noun.split() else noun
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))


def _a_kind(got: Any) -> str:
    """The type of a returned value with its article ("a str", "an int"); for a value the
    grader's sandbox could not send back, the type it had there."""
    kind = getattr(got, "type_name", None) if type(got).__name__ == "Opaque" else None
    kind = str(kind or type(got).__name__)
    return ("an " if kind[:1].lower() in "aeiou" else "a ") + kind

def compare(got: Any, expected: Any, *, rtol: float, atol: float, what: str = "your result",
            f32: float = 0.0) -> str | None:
    """None if ``got`` matches ``expected``; otherwise a sentence saying how it differs."""
    plural = _plural(what)
    is_, has, contains, differs = (("are", "have", "contain", "differ") if plural
                                   else ("is", "has", "contains", "differs"))
    if isinstance(expected, tuple):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return (f"{what} should be a tuple of {len(expected)} arrays, "
                    f"got {_a_kind(got) if not isinstance(got, (tuple, list)) else f'{len(got)} items'}")
        return None
    if got is None:
        return f"{what} {is_} None: did you forget the `return`?"
    try:
        arr = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return f"{what} {is_} {_a_kind(got)}, not an array of numbers"
    exp = np.asarray(expected, dtype=float)
    if arr.shape != exp.shape:
        return f"{what} {has} shape {arr.shape}, expected shape {exp.shape}"
    bad = ~np.isfinite(arr) & np.isfinite(exp)
    if bad.any():
        return f"{what} {contains} NaN or inf at {int(bad.sum())} of {arr.size} entries where the answer is finite"
    if not _close(arr, exp, rtol, atol, f32):
        ok = np.isfinite(arr) & np.isfinite(exp)
        diff = float(np.max(np.abs(arr[ok] - exp[ok]))) if ok.any() else float("nan")
        return f"{what} {differs} from the expected values by up to {diff:.3g}" + _size_of(diff, exp, f32)
    return None


def _size_of(diff: float, exp: np.ndarray, f32: float) -> str:
    """What kind of difference ``diff`` is, when it is small next to the expected values."""
    scale = _scale(exp)
    if not np.isfinite(diff) or scale == 0.0:
        return ""
    rel = diff / scale
    if rel <= 1e-4:
        return (f" ({rel:.1g} of the largest expected value: about float32 rounding, but more than "
                "this input allows; check for float16, or a float32 result summed over many terms)")
    if rel <= 1e-2:
        return (f" ({rel:.1g} of the largest expected value: a small difference, more than float32 "
                "rounding explains; the size of an epsilon larger than 1e-6 added to a normaliser, "
                "or of a constant rounded to a few digits)")
    return ""


def matches(got: Any, other: Any, *, rtol: float, atol: float, f32: float = 0.0, like: Any = None) -> bool:
    """True if two results agree in structure, shape and value (NaNs agree with NaNs).

    With ``like`` (the reference's result), the tolerance scales with the smaller of the two
    scales, so that two wrong answers far larger than the right one are still told apart.
    """
    if isinstance(got, tuple) or isinstance(other, tuple):
        likes = like if isinstance(like, tuple) and len(like) == len(other) else (None,) * len(other)
        return (isinstance(got, (tuple, list)) and isinstance(other, (tuple, list))
                and len(got) == len(other)
                and all(matches(g, o, rtol=rtol, atol=atol, f32=f32, like=k)
                        for g, o, k in zip(got, other, likes)))
    try:
        a, b = np.asarray(got, dtype=float), np.asarray(other, dtype=float)
    except (TypeError, ValueError):
        return False
    scale = None
    if like is not None:
        try:
            scale = _scale(np.asarray(like, dtype=float))
        except (TypeError, ValueError):
            scale = None
    return _close(a, b, rtol, atol, f32, scale)


@dataclass
class Outcome:
    """What one call did: its value, or the name and message of the exception it raised, and
    whether it changed its inputs. Plain data, so that an outcome can come back from another
    process (``attnlab.course.sandbox``) and be judged where no learner code runs."""

    value: Any = None
    error: str | None = None
    message: str = ""
    mutated: bool = False
    kind: Any = None  # what the call returned before any conversion (:func:`kind_of`)
    own: bool = False  # the error came from a `raise` or an `assert` of the code itself, not a library
    bases: tuple = ()  # the built-in exception classes the error is an instance of (a ValueError subclass)


_LIBRARY_DIRS: tuple[str, ...] | None = None


def _library_dirs() -> tuple[str, ...]:
    """Where library code lives (the standard library, installed packages, attnlab itself): a
    `raise` there is a library's error, not one the learner wrote."""
    global _LIBRARY_DIRS
    if _LIBRARY_DIRS is None:
        import sysconfig

        dirs = {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
        dirs.add(str(Path(__file__).resolve().parents[1]))
        dirs.add(os.path.dirname(np.__file__))
        _LIBRARY_DIRS = tuple(sorted(d.rstrip("/") + "/" for d in dirs if d))
    return _LIBRARY_DIRS


def raised_by_own_code(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by a `raise` statement or an `assert` in code outside any
    library (the learner's input check, say), rather than by numpy, torch or Python on an
    operation that could not be done. (A C function adds no frame: the innermost frame of a
    shape error from ``a @ b`` is the learner's line too; what tells the two apart is the
    instruction that frame was running.)"""
    import dis

    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    path = os.path.abspath(code.co_filename) if not code.co_filename.startswith("<") else code.co_filename
    if path.startswith(_library_dirs()):
        return False
    try:
        return any(ins.offset == tb.tb_lasti and ins.opname in ("RAISE_VARARGS", "RERAISE")
                   for ins in dis.get_instructions(code))
    except Exception:  # noqa: BLE001 - unreadable code: say nothing
        return False


def builtin_bases(exc: BaseException) -> tuple:
    """The names of the built-in exception classes ``exc`` is an instance of (by the classes
    themselves, not by name: a learner's class called ``ValueError`` is not one)."""
    import builtins

    return tuple(c.__name__ for c in type(exc).__mro__
                 if getattr(builtins, c.__name__, None) is c and issubclass(c, Exception) and c is not Exception)


def kind_of(value: Any, depth: int = 0) -> Any:
    """What ``value`` is, as plain data that crosses processes: ``"ndarray:f:float64"`` (a numpy
    array of floats and its dtype; ``:i`` integers, ``:b`` booleans), ``"ndarray0:f:..."`` (0-d),
    ``"tensor:f:float32"``, ``"tensor0"`` (0-d tensor), ``"float"``, ``"int"``, ``"bool"``,
    ``"npscalar:f:float64"``, ``"none"``,
    ``"str"``, ``"other"``; a tuple or list is ``["tuple", [items]]`` / ``["list", [items]]``
    (items listed up to 16). The type rule (:func:`attnlab.checks._contract.type_mistake`)
    compares the learner's kind with the reference's."""
    if isinstance(value, (tuple, list)):
        items = [kind_of(v, depth + 1) for v in value[:16]] if depth < 4 and len(value) <= 16 else []
        return ["tuple" if isinstance(value, tuple) else "list", items]
    if value is None:
        return "none"
    if type(value).__module__.startswith("torch"):
        dtype = getattr(value, "dtype", None)
        if getattr(value, "ndim", None) == 0:
            return "tensor0"
        letter = "f" if getattr(dtype, "is_floating_point", False) else ("b" if str(dtype) == "torch.bool" else "i")
        return f"tensor:{letter}:{str(dtype).replace('torch.', '')[:12]}" if dtype is not None else "other"
    if isinstance(value, np.ndarray):
        letter = {"f": "f", "b": "b", "i": "i", "u": "i", "c": "c"}.get(value.dtype.kind, "o")
        return ("ndarray0:" if value.ndim == 0 else "ndarray:") + f"{letter}:{value.dtype.name[:12]}"
    if isinstance(value, np.generic):
        letter = {"f": "f", "b": "b", "i": "i", "u": "i", "c": "c"}.get(value.dtype.kind, "o")
        return f"npscalar:{letter}:{value.dtype.name[:12]}"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return "other"


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is plain data: numpy arrays and scalars, numbers, strings, None, and
    tuples or lists of them."""
    if depth > 8:
        return False
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype != object
    if isinstance(value, (tuple, list)):
        return all(_plain(v, depth + 1) for v in value)
    return False


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
                raw = invoke(fn, *args, **kwargs)
                kind = kind_of(raw)
                value = _to_numpy(raw)
    except Exception as exc:  # the learner's (or a mistake's) own error
        return Outcome(error=type(exc).__name__, message=str(exc), own=raised_by_own_code(exc),
                       bases=builtin_bases(exc))
    mutated = not (_same_args(case.args, args) and _same_args(case.kwargs, kwargs))
    return Outcome(value=value, mutated=mutated, kind=kind)


_NUDGE = 2.0 ** -22  # 2 float32 ulps of the largest input: the rounding of intermediate results


def _largest(x: Any) -> float:
    if isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.floating) and x.size:
        finite = np.abs(x[np.isfinite(x)])
        return float(finite.max()) if finite.size else 0.0
    if isinstance(x, float) and np.isfinite(x):
        return abs(x)
    if isinstance(x, (tuple, list)):
        return max((_largest(v) for v in x), default=0.0)
    if isinstance(x, dict):
        return max((_largest(v) for v in x.values()), default=0.0)
    return 0.0


def _rounded(x: Any, rng: np.random.Generator, step: float) -> Any:
    """``x`` with every floating array (and float) rounded to float32 and nudged by ``step``
    in random directions."""
    if isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.floating):
        nudge = step * rng.choice([-1.0, 1.0], size=x.shape)
        return (x.astype(np.float32).astype(x.dtype) + nudge).astype(x.dtype)
    if isinstance(x, float):
        return float(np.float32(x)) + step * float(rng.choice([-1.0, 1.0]))
    if isinstance(x, tuple):
        return tuple(_rounded(v, rng, step) for v in x)
    if isinstance(x, list):
        return [_rounded(v, rng, step) for v in x]
    if isinstance(x, dict):
        return {k: _rounded(v, rng, step) for k, v in x.items()}
    return x


def float32_sensitivity(reference: Callable[..., Any], case: Case, ref: Outcome) -> list[float]:
    """How far the reference moves when its floating inputs are rounded to float32: one number
    per output item (one for a plain array)."""
    rng = np.random.default_rng(0)
    step = _NUDGE * max(_largest(case.args), _largest(case.kwargs))  # float32 intermediates
    rounded = Case(_rounded(case.args, rng, step), _rounded(case.kwargs, rng, step), case.why)
    other = call(reference, rounded)
    items = ref.value if isinstance(ref.value, tuple) else (ref.value,)
    theirs = other.value if isinstance(other.value, tuple) else (other.value,)
    if other.error is not None or len(items) != len(theirs):
        return [0.0] * len(items)
    out = []
    for a, b in zip(items, theirs):
        try:
            a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        except (TypeError, ValueError):
            out.append(0.0)
            continue
        ok = np.isfinite(a) & np.isfinite(b) if a.shape == b.shape else np.zeros(0, bool)
        out.append(float(np.max(np.abs(a[ok] - b[ok]))) if ok.any() else 0.0)
    return out


# ---------------------------------------------------------------------------------------------
# Reading a crash

_CRASH_KINDS = [  # (kind, pattern): numpy and torch wordings of the same failure share a kind
    # a matmul whose shapes do not fit: numpy checks the core dimensions first, torch the batch
    # dimensions (a broadcast error), so the two are one kind
    ("shapes", r"matmul: Input operand|not aligned|mat1 and mat2 shapes|shapes cannot be multiplied"
               r"|Expected size for first two dimensions of batch|size mismatch|"
               r"inconsistent tensor size|mat2 must be|batch1 and batch2|self and mat2|"
               r"Expected .* to have size .* at dimension|contraction"),
    ("einsum", r"einsum|einstein sum|subscript|label '.' for operand"),
    ("shapes", r"could not be broadcast|more dimensions than allowed|broadcasts to the scores|must match the size of tensor|doesn't match the broadcast"
                  r"|do not broadcast|not broadcastable|The expanded size of the tensor"),
    ("reshape", r"cannot reshape|is invalid for input of size|view size is not compatible"),
    ("axis", r"out of bounds for array of dimension|Dimension out of range|axis .* is out of bounds"),
    ("unpack", r"values to unpack"),
    ("boolean-index", r"boolean index did not match|shape of the mask .* does not match"),
    ("index", r"too many indices|index .* is out of bounds|out of bounds for (axis|dimension)"),
    ("concatenate", r"concatenation axis|Sizes of tensors must match except in dimension"
                    r"|must have same number of dimensions"),
    ("transpose", r"axes don't match array|number of dims don't match in permute"
                  r"|t\(\) expects a tensor with <= 2 dimensions"),
]


def crash_kind(outcome: Outcome) -> str | None:
    """A name for what a crash says, the same for numpy's and torch's wording of it."""
    if outcome.error is None:
        return None
    for kind, pattern in _CRASH_KINDS:
        if re.search(pattern, outcome.message):
            return kind
    return None


def _numbers(message: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", message)]


def _mismatch(message: str) -> tuple[str, tuple[int, ...]] | None:
    """The two sizes a shape error says do not fit, where the wording names them plainly:
    numpy's matmul (``size 3 is different from 6``), torch's ``mat1 and mat2`` (inner sizes),
    and the ``expected ..., got ...`` of attnlab's own checks (every number)."""
    m = re.search(r"size (\d+) is different from (\d+)", message)
    if m:
        return "numpy-matmul", tuple(map(int, m.groups()))  # (operand 1's size, operand 0's)
    m = re.search(r"\((\d+)x(\d+) and (\d+)x(\d+)\)", message)
    if m:
        return "torch-matmul", (int(m.group(3)), int(m.group(2)))
    if "expected" in message and "got" in message:
        return "expected-got", tuple(_numbers(message))
    return None


def same_crash(a: Outcome, b: Outcome) -> bool:
    """Whether two calls crashed the same way: same kind of failure (whatever the library's
    wording), and for unpacking the same counts; an exception a check raised matches by name."""
    if a.error is None or b.error is None:
        return False
    if a.error in CheckRaised.names or b.error in CheckRaised.names:
        return a.error == b.error
    if a.own or b.own:  # a check the code wrote: its own words, whatever library wording they echo
        return (a.own and b.own and a.error == b.error
                and re.sub(r"\d+", "#", a.message) == re.sub(r"\d+", "#", b.message))
    ka, kb = crash_kind(a), crash_kind(b)
    if ka is not None or kb is not None:
        if ka != kb:
            return False
        if ka == "unpack":
            return _numbers(a.message) == _numbers(b.message)
        ma, mb = _mismatch(a.message), _mismatch(b.message)
        if ma is not None and mb is not None and ma[0] == mb[0]:
            return ma[1] == mb[1]  # the same wording names the sizes: they must agree
        return True
    if a.error != b.error:
        return False
    return re.sub(r"\d+", "#", a.message) == re.sub(r"\d+", "#", b.message)


# ---------------------------------------------------------------------------------------------
# Naming the mistake

@dataclass
class Diagnosis:
    """Which known mistake(s) the learner's answer looks like, and how sure the check is."""

    mistakes: list[Mistake]
    kind: str = "match"   # "match", "combined" (two at once) or "shape" (the shape alone tells)


def _combined(a: Mistake, b: Mistake) -> Mistake | None:
    """Two flag-style mistakes (``partial(variant, **flags)`` of one variant) combined."""
    fa, fb = a.impl, b.impl
    if not (isinstance(fa, partial) and isinstance(fb, partial)) or fa.func is not fb.func:
        return None
    if fa.args or fb.args or not fa.keywords or not fb.keywords:
        return None
    if set(fa.keywords) & set(fb.keywords):
        return None
    return Mistake(f"{a.name}; and {b.name}", f"{a.fix} And: {b.fix}",
                   partial(fa.func, **fa.keywords, **fb.keywords),
                   f"{a.principle} And: {b.principle}" if a.principle and b.principle else "")


def _behaves_like(got: Outcome, theirs: Outcome, ref: Outcome, rtol: float, atol: float,
                  f32: float) -> bool:
    if got.error is not None:
        return same_crash(got, theirs) and not same_crash(ref, theirs)
    like = ref.value if ref.error is None else None
    if theirs.error is not None:
        return False
    if not matches(got.value, theirs.value, rtol=rtol, atol=atol, f32=f32, like=like):
        return _behaves_like_but_guarded(got, theirs, ref, rtol, atol, f32)
    return ref.error is not None or not matches(ref.value, theirs.value, rtol=rtol, atol=atol, f32=f32)


def _nonfinite_share(value: Any) -> float | None:
    items = value if isinstance(value, (tuple, list)) else (value,)
    try:
        arrays = [np.asarray(v, dtype=float) for v in items]
    except (TypeError, ValueError):
        return None
    total = sum(a.size for a in arrays)
    return sum(int(np.sum(~np.isfinite(a))) for a in arrays) / total if total else None


def _behaves_like_but_guarded(got: Outcome, theirs: Outcome, ref: Outcome, rtol: float, atol: float,
                              f32: float) -> bool:
    """A mistake whose plain code divides 0 by 0 at an edge (NaN there), where the learner's code
    guards that edge (a finite number): the same mistake, when the learner's answer is finite,
    the mistake's NaN entries are a small share (at most a quarter), and on every other entry
    the two agree and the mistake is not the right answer."""
    if ref.error is not None or not _all_finite(got.value) or not _all_finite(ref.value):
        return False
    share = _nonfinite_share(theirs.value)
    if share is None or not 0 < share <= 0.25:
        return False
    return (_agree_where_finite(got.value, theirs.value, rtol, atol, f32, ref.value)
            and not _agree_where_finite(ref.value, theirs.value, rtol, atol, f32, ref.value))


def _shape_of(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return tuple(_shape_of(v) for v in value)
    try:
        return np.asarray(value, dtype=float).shape
    except (TypeError, ValueError):
        return None


def _diagnose(got: Outcome, case: Case, mistakes: Sequence[Mistake], *, rtol: float, atol: float,
              reference: Outcome, f32: float = 0.0) -> Diagnosis | None:
    """The mistake whose behaviour on ``case`` is the learner's behaviour (and not the
    reference's); else two flag-style mistakes at once; else, for a wrong shape that exactly one
    mistake also produces, that mistake by its shape."""
    outcomes = []
    for mistake in mistakes:
        theirs = call(mistake.impl, case)
        outcomes.append(theirs)
        if _behaves_like(got, theirs, reference, rtol, atol, f32):
            return Diagnosis([mistake])
    for i, a in enumerate(mistakes):
        for b in mistakes[i + 1:]:
            both = _combined(a, b)
            if both is not None and _behaves_like(got, call(both.impl, case), reference, rtol, atol, f32):
                return Diagnosis([a, b], "combined")
    if got.error is None and reference.error is None:
        shape = _shape_of(got.value)
        if shape is not None and shape != _shape_of(reference.value):
            same = [m for m, o in zip(mistakes, outcomes) if o.error is None and _shape_of(o.value) == shape]
            if len({m.name for m in same}) == 1:
                return Diagnosis(same[:1], "shape")
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
            from ._contract import type_mistake

            typed = type_mistake(got.kind, ref.kind)
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
            from ._contract import mistake_for_error

            ruled = mistake_for_error(got.error, got.message)
            if ruled is not None:  # the type rule, applied inside the check's own invoke
                diagnosis = Diagnosis([ruled])
        if diagnosis is None and case.raises is not None:
            from ._contract import error_mistake

            ruled = error_mistake(got.error, case.raises)
            if ruled is not None:  # the contract's errors: not raised, an assert, another exception
                diagnosis = Diagnosis([ruled])
        general = None
        if diagnosis is None:  # the catalogue wins; below it, the general layer
            from . import _relations

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
        from . import _generated

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
            from ._divergence import diverge as _diverge

            diverge = partial(_diverge, fn, self.invoke, self.reference_module, what=self.exercise)
        for index, case in enumerate(self.cases):
            verdict = self.verdict(index, call(fn, case, self.invoke), probe, diverge)
            if verdict:
                raise CheckFailure(_remember(self.exercise, *verdict, check=self.key()))
        print(self.success())


def _agree_where_finite(a: Any, b: Any, rtol: float, atol: float, f32: float, like: Any) -> bool:
    """Whether two answers agree (same shapes; close on the entries where both are finite)."""
    if isinstance(like, (tuple, list)) and not isinstance(a, (tuple, list)) and not isinstance(b, (tuple, list)):
        like = a  # one array where the reference returns a tuple: their own scale
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        if not (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b)):
            return False
        likes = like if isinstance(like, tuple) and len(like) == len(a) else a
        return all(_agree_where_finite(x, y, rtol, atol, f32, z) for x, y, z in zip(a, b, likes))
    try:
        x, y, e = (np.asarray(v, dtype=float) for v in (a, b, like))
    except (TypeError, ValueError):
        return False
    if x.shape != y.shape:
        return False
    ok = np.isfinite(x) & np.isfinite(y)
    if not ok.any():
        return True
    scale = _scale(e) if e.size else 1.0
    return bool(np.max(np.abs(x[ok] - y[ok])) <= atol + rtol * scale + min(F32_FACTOR * f32, F32_CAP * scale))


def _all_finite(value: Any) -> bool:
    if isinstance(value, (tuple, list)):
        return all(_all_finite(v) for v in value)
    try:
        return bool(np.all(np.isfinite(np.asarray(value, dtype=float))))
    except (TypeError, ValueError):
        return True


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


def _remember(exercise: str, message: str, mistake: Mistake | None, check: str = "") -> str:
    """In the learner's session: remember the failure for :func:`explain`; on a second failing
    run naming the same mistake, add its code-level fix to the message."""
    _LAST.pop(exercise, None)
    _LAST[exercise] = (message, mistake)
    if mistake is None or feedback_level() == "mistake-only":
        return message
    key = (check or exercise, mistake.name)  # one counter per check, not per exercise
    _SEEN[key] = _SEEN.get(key, 0) + 1
    if _SEEN[key] > 1 and "How to fix it:" not in message:
        # the code-level fix takes the place of the principle the first run showed (it restates it)
        lines = [line for line in message.splitlines()
                 if not line.startswith(("(For the code-level fix", "What to change: "))]
        message = "\n".join(lines + [f"How to fix it (second run): {mistake.fix}"])
    return message
