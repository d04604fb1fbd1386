"""The return-type part of the exercise contract, shared by the checks of numpy exercises.

COURSE.md: a numpy exercise returns numpy arrays of floats (float32 is a fair route, float64 the
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
    """Call a numpy exercise and insist on numpy floats back (used as ``run_check(invoke=...)``)."""
    return require_numpy_floats(fn(*args, **kwargs))


def invoke_numpy_any_dtype(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a numpy exercise and insist on no torch tensor back, whatever the dtype (for an
    exercise where an integer is a catalogued mistake of its own, e.g. an index returned)."""
    value = fn(*args, **kwargs)
    for item in value if isinstance(value, (tuple, list)) else (value,):
        if type(item).__module__.startswith("torch"):
            require_numpy_floats(item)
    return value


def invoke_float(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call an exercise whose answer is one number (a Python float) and refuse a torch tensor
    back, a 0-d one included (the comparison alone would read it as the number it holds)."""
    value = fn(*args, **kwargs)
    if type(value).__module__.startswith("torch"):
        raise TorchReturned(f"it is a {_kind(value)}, but the answer is a Python float: compute with "
                            "numpy and return `float(...)` (or call `.item()` on the tensor)")
    return value


def _raises(exc_type: type[BaseException], *args: Any, **kwargs: Any) -> Any:
    raise exc_type("a known return-type mistake")


FLOAT_RETURN_MISTAKES = [
    Mistake("a torch tensor returned where the answer is a float",
            "return a Python number: compute with numpy and end with `float(...)` (or `.item()` of a 0-d tensor).",
            partial(_raises, TorchReturned),
            "A score is one real number: return it as a float, not as a tensor that holds it."),
]

RETURN_TYPE_MISTAKES = [
    Mistake("a torch tensor returned from a numpy exercise",
            "compute with numpy (`np.exp`, `@`, `np.where`), or end with `.numpy()`: the exercise "
            "returns `np.ndarray`.", partial(_raises, TorchReturned),
            "This exercise is numpy's: its inputs and its result are numpy arrays, not torch tensors."),
    Mistake("an integer (or boolean) array returned where the answer is floats",
            "build the result in floating point (`np.zeros(shape)` is float64; avoid "
            "`dtype=int`, `np.zeros_like` of an int array and `.astype(int)`).",
            partial(_raises, IntegerReturned),
            "Weights and outputs are real numbers: the result's dtype must be floating point."),
]

__all__ = ["FLOAT_RETURN_MISTAKES", "IntegerReturned", "RETURN_TYPE_MISTAKES", "TorchReturned", "invoke_float", "invoke_numpy",
           "invoke_numpy_any_dtype", "require_numpy_floats"]
