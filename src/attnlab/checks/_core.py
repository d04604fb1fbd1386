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


def seed_torch(seed: int) -> None:
    """Seed torch's CPU generator, where the checks build and run modules. ``torch.manual_seed``
    does the same for the CPU and also queues a seeding of every accelerator, recording the call's
    stack each time while none has started: a cost on every graded call that the course, on the
    CPU, never uses."""
    import torch  # lazy: the numpy notebooks' checks never load torch

    torch.random.default_generator.manual_seed(seed)


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
