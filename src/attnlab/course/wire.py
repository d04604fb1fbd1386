"""What the sandbox (the learner's side) and the grader (the trusted side) share, and nothing else:
the marks the sandbox writes on its output, how a returned value travels as plain data (JSON and
arrays, never a pickle), and the modules a warm worker loads before it forks.

The grader imports this module and never :mod:`attnlab.course.sandbox`, the file that runs
learner code; the sandbox imports it too, so the two sides cannot disagree on a mark.
"""
from __future__ import annotations

import numpy as np


def encode(value, arrays: dict, prefix: str = "v"):
    """A JSON description of ``value``; its arrays go into ``arrays`` (saved with np.savez)."""
    if isinstance(value, (tuple, list)):
        return {"kind": "tuple", "items": [encode(v, arrays, f"{prefix}_{i}") for i, v in enumerate(value)]}
    if value is None:
        return {"kind": "none"}
    if type(value).__module__.startswith("torch"):
        try:
            value = value.detach().cpu().numpy()
        except Exception:
            return {"kind": "object", "type": type(value).__name__}
    try:
        arr = np.asarray(value)
    except Exception:
        return {"kind": "object", "type": type(value).__name__}
    if arr.dtype.kind not in "biufc":
        return {"kind": "object", "type": type(value).__name__}
    arrays[prefix] = np.array(arr, dtype=np.float64 if arr.dtype.kind != "b" else bool)
    return {"kind": "array", "key": prefix}


def decode(desc: dict, arrays, depth: int = 0) -> object:
    """Inverse of :func:`encode`, run by the trusted grader (``arrays`` loaded without pickle)."""
    if not isinstance(desc, dict) or depth > 16:
        raise ValueError("not a result description")
    kind = desc.get("kind")
    if kind == "tuple":
        items = desc.get("items")
        if not isinstance(items, list) or len(items) > 64:
            raise ValueError("not a result description")
        return tuple(decode(d, arrays, depth + 1) for d in items)
    if kind == "none":
        return None
    if kind == "array":
        return np.array(arrays[str(desc.get("key"))])
    return Opaque(str(desc.get("type", "object")))


class Opaque:
    """Stands for a returned object that is not numbers (a string, a module, ...)."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<a {self.type_name}>"

    def __array__(self, *args, **kwargs):
        raise TypeError(f"a {self.type_name} is not an array")



# The marks the sandbox writes on its output, which the grader reads.
READY_MARK = b"\n\x00attnlab-sandbox-ready\x00\n"   # a memory probe's "no learner code has run yet"
# "ready for the next call": after the cells, and after each call's answer is written. The grader
# sends one call (a pickle on stdin) per mark, and None when there are no more: the job's other
# calls (the hidden inputs above all) never exist in this process, so nothing its code searches
# (frames, gc, memory) finds more than the call it is answering.
NEXT_MARK = b"\n\x00attnlab-sandbox-next\x00\n"
# A memory probe, once the measured call's inputs are in memory: "measure from here" (the grader
# reads the peak so far, resets it and reads the resident size again, then writes its go).
MEASURE_MARK = b"\n\x00attnlab-sandbox-measure\x00\n"
# "the harness is set up; the notebook's first cell runs now". A process that ends without it
# never ran a line of the learner's (an import of the grader's own that failed, a warm worker
# whose libraries went missing): that is the grader's fault, never the learner's status.
HARNESS_MARK = b"\n\x00attnlab-sandbox-harness\x00\n"

# What a warm worker (the zygote, :mod:`attnlab.course.warm`) imports before it forks.
ZYGOTE_PRELOAD = ("numpy", "zipfile", "matplotlib", "matplotlib.pyplot", "attnlab", "attnlab.checks", "attnlab.cards",
                  "attnlab.checks._core", "IPython.core.interactiveshell", "traitlets.config")
