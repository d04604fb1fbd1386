"""The return-type part of the exercise contract, shared by the checks of numpy exercises.

docs/contract.md: a numpy exercise returns numpy arrays of floats (float32 is a fair route, float64 the
default). Before the comparison, :func:`invoke_numpy` (a check's ``invoke=``) looks at what the
learner's function returned: a torch tensor, or an array of integers or booleans where the
answer is a float array, is a mistake of its own, named as such (the comparison alone would
convert a tensor to numpy and an int array to floats, and let both pass).

The other parts of the contract live elsewhere: inputs left unmodified is judged for every
check by :func:`attnlab.checks._core.call` (it runs the learner's code on a private copy and
compares), the range of the inputs by each check's cases.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from ._core import CheckRaised, Mistake


class TorchReturned(CheckRaised, TypeError):
    """A numpy exercise returned a torch tensor."""


class IntegerReturned(CheckRaised, TypeError):
    """A numpy exercise returned integers or booleans where the answer is floats."""


def _kind(value: Any) -> str:
    return f"{type(value).__module__}.{type(value).__name__}".replace("builtins.", "")


def require_numpy_floats(value: Any, what: str = "it") -> Any:
    """``value`` unchanged if it is numpy floats (or a tuple of them); else raise
    :class:`TorchReturned` or :class:`IntegerReturned` saying what came back."""
    if isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            require_numpy_floats(item, f"item {i} of the tuple it returned")
        return value
    if type(value).__module__.startswith("torch") and getattr(value, "ndim", None) == 0:
        raise TorchReturned(f"{what} is a 0-d {_kind(value)}, but the answer is a float: return a "
                            "Python float (`float(x)` or `x.item()`), not a tensor")
    if type(value).__module__.startswith("torch"):
        raise TorchReturned(f"{what} is a {_kind(value)}, but this is a numpy exercise: return a "
                            "numpy array (np.ndarray); compute with numpy, or call `.numpy()`")
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biu":
        raise IntegerReturned(f"{what} is an array of dtype {value.dtype}, but the answer is "
                              "floats: compute in floating point (float64, or float32)")
    return value


def invoke_numpy(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a numpy exercise (``run_check(invoke=...)``). The type of what comes back is judged by
    the one type rule, :func:`type_mistake`, for every check alike; this name stays for the
    checks that still pass it."""
    return fn(*args, **kwargs)


def numpy_exercise(invoke: Any) -> Any:
    """Mark a check's ``invoke`` as calling a numpy exercise whose result is the learner's own
    (the type rule then judges it; a check called without ``invoke`` is judged too). The invokes
    of torch exercises build a module and return its output, compared with a numpy reference:
    they are not marked."""
    invoke.numpy_exercise = True
    return invoke


numpy_exercise(invoke_numpy)
invoke_numpy_any_dtype = invoke_numpy
invoke_float = invoke_numpy


def _raises(exc_type: type[BaseException], *args: Any, **kwargs: Any) -> Any:
    raise exc_type("a known return-type mistake")


# ---------------------------------------------------------------------------------------------
# The type rule (docs/contract.md, "Types"): one table, applied by every check to what the learner's
# call returned, compared with what the reference returns on the same input.

def _type_mistake(name: str, principle: str, fix: str) -> Mistake:
    return Mistake(name, fix, partial(_raises, TypeError), principle)


TORCH_FOR_ARRAY = _type_mistake(
    "a torch tensor returned from a numpy exercise",
    "This exercise is numpy's: its inputs and its result are numpy arrays, not torch tensors.",
    "compute with numpy (`np.exp`, `@`, `np.where`), or end with `.numpy()`: the exercise returns `np.ndarray`.")
TORCH_FOR_NUMBER = _type_mistake(
    "a torch tensor returned where the answer is a float",
    "A score is one real number: return it as a float, not as a tensor that holds it.",
    "return a Python number: compute with numpy and end with `float(...)` (or `.item()` of a 0-d tensor).")
LIST_FOR_ARRAY = _type_mistake(
    "a Python list returned where the answer is a numpy array",
    "The result is one numpy array with the shape the docstring gives, not a list of rows or numbers.",
    "build the result as an array (`np.array(rows)`, `np.stack(rows)`, or compute it without a "
    "Python list in the first place).")
INTEGER_FOR_FLOAT = _type_mistake(
    "an integer (or boolean) array returned where the answer is floats",
    "Weights and outputs are real numbers: the result's dtype must be floating point.",
    "build the result in floating point (`np.zeros(shape)` is float64; avoid `dtype=int`, "
    "`np.zeros_like` of an int array and `.astype(int)`).")
NUMBERS_FOR_MASK = _type_mistake(
    "a mask of numbers instead of booleans (0/1 or floats where the answer is a bool mask)",
    "A mask is a bool array: True where a query may attend, False where it may not.",
    "compare instead of converting: `j < lengths[:, None]` is already bool; drop `.astype(int)` or "
    "`.astype(float)`.")
FLOAT_FOR_INTEGER = _type_mistake(
    "floats returned where the answer is integers (indices or counts)",
    "Token ids, indices and counts are whole numbers: the result's dtype must be an integer type.",
    "keep integer dtypes (`np.argmax` gives ints; avoid `np.zeros(n)` for ids, use `np.zeros(n, dtype=int)`).")
ARRAY_FOR_TENSOR = _type_mistake(
    "a numpy array returned from a torch exercise",
    "This exercise is torch's: it returns tensors (and keeps the autograd graph), not numpy arrays.",
    "stay in torch: use torch operations and return the tensor (no `.numpy()`, no `np.` calls).")
ARRAY_FOR_NUMBER = _type_mistake(
    "an array returned where the answer is one number",
    "The answer is one real number: reduce to a scalar and return it as a float.",
    "end with `float(...)` of the single value (after the reduction the exercise asks for).")

ASSERT_FOR_ERROR = _type_mistake(
    "an `assert` where the contract asks for a ValueError",
    "Bad input is refused with the exception the contract names (ValueError, with a message that "
    "says what was wrong); `assert` raises AssertionError, and disappears under `python -O`.",
    "replace `assert cond, msg` with `if not cond: raise ValueError(msg)`.")
OTHER_ERROR = _type_mistake(
    "another exception than the one the contract names for this bad input",
    "Bad input is refused with the exception the contract names, raised by your own check on the "
    "inputs before the computation (not an error the computation happens to hit).",
    "test the condition the docstring gives at the top of the function and `raise ValueError(...)`.")
NOT_REFUSED = _type_mistake(
    "bad input accepted: no error raised where the contract asks for one",
    "The docstring says which inputs are refused; check them at the top of the function and raise "
    "the exception it names, instead of computing an answer from them.",
    "add `if <the condition the docstring gives>: raise ValueError(...)` before the computation.")


def error_mistake(got_error: str | None, wanted: type[BaseException]) -> Mistake | None:
    """The contract's own mistake when a case must raise ``wanted``: not raised, an `assert`
    instead, or another exception."""
    if got_error is None:
        return NOT_REFUSED
    if got_error == wanted.__name__:
        return None
    return ASSERT_FOR_ERROR if got_error == "AssertionError" else OTHER_ERROR


TYPE_MISTAKES = [TORCH_FOR_ARRAY, TORCH_FOR_NUMBER, LIST_FOR_ARRAY, INTEGER_FOR_FLOAT, NUMBERS_FOR_MASK,
                 FLOAT_FOR_INTEGER, ARRAY_FOR_TENSOR, ARRAY_FOR_NUMBER]

_WORDS = {"f": "floats", "i": "integers", "b": "booleans", "c": "complex numbers", "o": "objects"}


def describe_kind(kind: Any) -> str:
    """``"a numpy array of floats (float64)"``, ``"a Python list"``, ``"a 0-d torch.Tensor"``, ..."""
    if isinstance(kind, list):
        return f"a Python tuple of {len(kind[1])} item(s)" if kind[0] == "tuple" else "a Python list"
    if not isinstance(kind, str):
        return "a value"
    head, _, rest = kind.partition(":")
    letter, _, dtype = rest.partition(":")
    words = _WORDS.get(letter, letter) + (f" ({dtype})" if dtype else "")
    return {"ndarray": f"a numpy array of {words}", "ndarray0": f"a 0-d numpy array of {words}",
            "tensor": f"a torch.Tensor of {words}", "tensor0": "a 0-d torch.Tensor",
            "npscalar": f"a numpy scalar ({words})", "float": "a Python float",
            "int": "a Python int", "bool": "a Python bool", "none": "None", "str": "a string"}.get(head, "an object")


def _is_number(kind: Any) -> bool:
    return isinstance(kind, str) and (kind in ("float", "int") or kind.startswith(
        ("npscalar:f", "npscalar:i", "ndarray0:f", "ndarray0:i")))


def type_mistake(got: Any, ref: Any, what: str = "it") -> tuple[Mistake, str] | None:
    """The type rule: the mistake (and the sentence saying what came back) when ``got`` (the
    kind of the learner's result, :func:`attnlab.checks._core.kind_of`) breaks the contract that
    the reference's kind ``ref`` sets; None when it keeps it (or when either kind is unknown).

    numpy array of floats: float32 or float64 numpy arrays, never a tensor, a list, ints or bools;
    a boolean mask: a bool array, never 0/1 numbers; integers (ids, indices): an integer array;
    one number: a Python or numpy float (an int too), never a tensor or an array of values;
    a torch exercise's tensor: a tensor, never a numpy array; a tuple: each item by these rules
    (a list of the same items is a tuple's fair spelling)."""
    if got is None or ref is None:
        return None
    if isinstance(ref, list):
        if isinstance(got, list) and len(got[1]) == len(ref[1]):
            for i, (g, r) in enumerate(zip(got[1], ref[1])):
                found = type_mistake(g, r, f"item {i} of what it returned")
                if found:
                    return found
        return None
    said = f"{what} is {describe_kind(got)} where the answer is {describe_kind(ref)}"
    head, _, letter = ref.partition(":")
    letter = letter.partition(":")[0]
    if head == "ndarray":
        if isinstance(got, list):
            return LIST_FOR_ARRAY, said
        if not isinstance(got, str):
            return None
        ghead, _, gletter = got.partition(":")
        gletter = gletter.partition(":")[0]
        if ghead in ("tensor", "tensor0"):
            return TORCH_FOR_ARRAY, said
        if ghead in ("ndarray", "ndarray0"):
            if letter == "f" and gletter in ("i", "b"):
                return INTEGER_FOR_FLOAT, said
            if letter == "b" and gletter in ("i", "f"):
                return NUMBERS_FOR_MASK, said
            if letter == "i" and gletter == "f":
                return FLOAT_FOR_INTEGER, said
        return None
    if _is_number(ref):
        if isinstance(got, list):
            return ARRAY_FOR_NUMBER, said
        if got in ("tensor0",) or str(got).startswith("tensor"):
            return TORCH_FOR_NUMBER, said
        if str(got).startswith("ndarray:"):
            return ARRAY_FOR_NUMBER, said
        return None
    if head == "tensor":
        if isinstance(got, str) and got.startswith(("ndarray", "npscalar")):
            return ARRAY_FOR_TENSOR, said
        return None
    return None


def mistake_for_error(error: str | None, message: str) -> Mistake | None:
    """The rule's mistake for what :func:`require_numpy_floats` raised inside a check's own
    ``invoke`` (the checks whose invoke summarises the learner's answers before they come back,
    so that the kind of the answer itself never reaches :func:`type_mistake`)."""
    if error == "TorchReturned":
        return TORCH_FOR_NUMBER if "0-d" in message else TORCH_FOR_ARRAY
    if error == "IntegerReturned":
        return INTEGER_FOR_FLOAT
    return None


__all__ = ["numpy_exercise", "TYPE_MISTAKES", "describe_kind", "type_mistake", "IntegerReturned", "TorchReturned", "invoke_float", "invoke_numpy",
           "invoke_numpy_any_dtype", "require_numpy_floats"]
