"""Borrowing decided by values, not names (issue 26): run in the sandbox, after the cells.

An exercise's answer must not depend on the reference or on a library function that computes
the exercise itself, whatever name reaches it. The equivalents are tripwires during every graded
call of their exercise (``sandbox._tripwire_targets``): an answer the library computed in one call
and the function kept (a cache, a default argument, a table) is caught in the call that computed
it, where the probe's repeat would find the kept answer unmoved. Two more checks, both in the
learner's process:

* **The answer moves with the library.** After the grader's normal call (and its tripwires), the
  learner's function is called once more on the same inputs with every *equivalent* of the
  exercise (:func:`equivalents`) returning its true result times ``1 + 1e-2 * c_k`` (a fixed,
  element-wise pattern ``c_k``, so that renormalising does not undo it). Replaced wherever it is
  reachable: module and class attributes (``torch.Tensor.log_softmax``), every dict, list,
  closure cell, function default and ``functools.partial`` that holds it (``gc.get_referrers``),
  and, for the library's Python functions, the code they run (``__code__``), so copies made with
  ``types.FunctionType(ref.__code__, ...)`` and bound methods follow too. Everything is put back
  in a ``finally``. Honest code uses none of the equivalents, so its answer does not move at all;
  an answer that moves beyond rounding (checked against a second unperturbed run, so that a
  function that is not deterministic is never accused) was borrowed.
* **A copy of the reference's code.** A function whose bytecode and names equal those of an
  equivalent's code (``ref.__code__.replace(co_name=...)``, ``exec`` of its ``co_code``) runs the
  reference, whatever it is called.

Which library functions count for an exercise follows the course's order (``COURSE.md``: later
notebooks import *earlier* building blocks from ``attnlab``): an exercise's equivalents are its
own library versions (:func:`attnlab.course.tamper.runtime_targets`) and the library functions
that compute it as a special case and come at or after it in the course (``mix_tokens`` is
``scaled_dot_product_attention`` on rescaled inputs; a softmax is the weights of any attention
function). Calling the library for an *earlier* exercise stays allowed (``attnlab.softmax``
inside ``mix_tokens``, ``attnlab.scaled_dot_product_attention`` inside ``self_attention``).
"""
from __future__ import annotations

import functools
import gc
import sys
import types

import numpy as np

from . import tamper

# ---------------------------------------------------------------------------------------------
# What computes what

# The course's softmax and attention exercises in course order (notebook, then position). A
# library function of this list computes every earlier exercise of its family (and the softmax
# ones) as a special case.
COURSE_ORDER = ("softmax", "mix_tokens", "attend", "scaled_dot_product_attention", "self_attention",
                "SelfAttention", "masked_softmax", "cross_attention", "multi_head_attention",
                "MultiHeadAttention", "tiled_attention", "grouped_query_attention")
SOFTMAX_EXERCISES = ("softmax", "masked_softmax")
ATTENTION_EXERCISES = tuple(n for n in COURSE_ORDER if n not in SOFTMAX_EXERCISES)

# Library functions outside attnlab, with the exercise each one is (its rank in COURSE_ORDER).
_SOFTMAX_HOMES = ("torch", "torch.special", "torch.nn.functional", "scipy.special", "attnlab", "attnlab.torch")
_SOFTMAX_NAMES = ("softmax", "log_softmax", "logsumexp")
_OUTSIDE: dict[str, list[tuple[str, str]]] = {
    "softmax": ([(m, n) for m in _SOFTMAX_HOMES for n in _SOFTMAX_NAMES]
                + [("torch.Tensor", "softmax"), ("torch.Tensor", "log_softmax"), ("torch.Tensor", "logsumexp"),
                   ("torch.nn", "Softmax"), ("torch.nn", "LogSoftmax"), ("torch.nn.functional", "softmin"),
                   ("torch.special", "log_softmax")]),
    "scaled_dot_product_attention": [("torch.nn.functional", "scaled_dot_product_attention")],
    "multi_head_attention": [("torch.nn", "MultiheadAttention"),
                             ("torch.nn.functional", "multi_head_attention_forward")],
}
_COURSE_HOMES = ("attnlab", "attnlab.torch")


def _rank(name: str) -> int:
    return COURSE_ORDER.index(name)


def _family_covers(callable_name: str, exercise: str) -> bool:
    """Whether the library's ``callable_name`` computes ``exercise`` as a special case."""
    if exercise == callable_name:
        return True
    if callable_name in ATTENTION_EXERCISES:  # attention computes its softmax and simpler attention
        return True
    return callable_name in SOFTMAX_EXERCISES and exercise in SOFTMAX_EXERCISES


@functools.lru_cache(maxsize=None)
def equivalents(exercise: str) -> tuple[tuple[str, str], ...]:
    """``(module, attribute)`` of the library versions of ``exercise``: its own (the name-based
    tripwires' targets) and, for the softmax and attention exercises, every library function
    that computes it and comes at or after it in the course."""
    out = list(tamper.runtime_targets(exercise))
    if exercise in COURSE_ORDER:
        here = _rank(exercise)
        for name in COURSE_ORDER[here:]:
            if _family_covers(name, exercise):
                out += [(m, name) for m in _COURSE_HOMES]
                out += _OUTSIDE.get(name, [])
    return tuple(dict.fromkeys(out))


def resolve(targets) -> list[tuple[str, object, object, str]]:
    """``[(dotted, object, owner, attribute)]`` for the targets that are loaded."""
    out, seen = [], set()
    for module, attr in targets:
        owner = sys.modules.get(module)
        if owner is None and "." in module:  # a class such as torch.Tensor
            head, _, cls = module.rpartition(".")
            owner = getattr(sys.modules.get(head), cls, None) if head in sys.modules else None
        if owner is None:
            continue
        try:
            obj = getattr(owner, attr, None)
        except Exception:  # noqa: BLE001
            obj = None
        if obj is None or id(obj) in seen:
            continue
        seen.add(id(obj))
        out.append((f"{module}.{attr}", obj, owner, attr))
    return out


# ---------------------------------------------------------------------------------------------
# Copies of the reference's code

def _codes(code, depth: int = 0):
    yield code
    if depth < 6:
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                yield from _codes(const, depth + 1)


def _signature(code) -> tuple:
    return (code.co_code, code.co_names, code.co_argcount, code.co_kwonlyargcount)


def _library_codes(library) -> dict[tuple, str]:
    out: dict[tuple, str] = {}
    for dotted, obj, _, _ in library:
        parts = [obj]
        if isinstance(obj, type):
            parts = [v for k, v in vars(obj).items() if not k.startswith("__") or k in ("__init__", "__call__")]
        for part in parts[:200]:
            fn, depth = getattr(part, "__func__", part), 0
            while fn is not None and depth < 5:
                code = getattr(fn, "__code__", None)
                if isinstance(code, types.CodeType):
                    for c in _codes(code):
                        if len(c.co_code) >= 24:  # not `return x`: something worth copying
                            out.setdefault(_signature(c), dotted)
                fn, depth = getattr(fn, "__wrapped__", None), depth + 1
    return out


_LIBRARY_ROOTS = ("attnlab", "torch", "numpy", "scipy", "sklearn", "builtins")


def copied_code(obj, name: str, targets) -> str | None:
    """Why ``obj`` runs a copy of an equivalent's code (bytecode and names equal, whatever it is
    called), or None."""
    library = resolve(targets)
    if not library:
        return None
    known = _library_codes(library)
    originals = {id(o) for _, o, _, _ in library}
    seen, todo = set(), [obj]
    while todo and len(seen) < 200:
        x = todo.pop()
        if id(x) in seen or id(x) in originals:
            continue
        seen.add(id(x))
        if isinstance(x, functools.partial):
            todo.append(x.func)
            continue
        if isinstance(x, (staticmethod, classmethod)):
            todo.append(x.__func__)
            continue
        if isinstance(x, type):
            if str(getattr(x, "__module__", "")).partition(".")[0] in _LIBRARY_ROOTS:
                continue
            todo.extend(v for v in vars(x).values() if callable(v) or isinstance(v, (staticmethod, classmethod)))
            continue
        if not isinstance(x, type):
            for attr in ("__wrapped__", "__func__"):
                inner = getattr(x, attr, None)
                if inner is not None:
                    todo.append(inner)
            if not isinstance(x, types.FunctionType) and callable(x):  # an instance: its class
                todo.append(type(x))
        code = getattr(x, "__code__", None) if isinstance(x, types.FunctionType) else None
        if code is None:
            continue
        for c in _codes(code):
            hit = known.get(_signature(c))
            if hit:
                return f"{name} runs a copy of the library's `{hit}` (the same bytecode under another name)"
        for cell in x.__closure__ or ():
            try:
                todo.append(cell.cell_contents)
            except ValueError:
                pass
        todo.extend(x.__defaults__ or ())
        glob = x.__globals__
        for n in code.co_names:  # the learner's own helpers, defined beside it
            v = glob.get(n) if isinstance(glob, dict) else None
            if isinstance(v, types.FunctionType) and str(getattr(v, "__module__", "")).partition(".")[0] not in _LIBRARY_ROOTS:
                todo.append(v)
    return None


# ---------------------------------------------------------------------------------------------
# Perturbing the equivalents

EPS = 1e-2


def _factor(shape, xp, like=None):
    n = int(np.prod(shape)) if len(shape) else 1
    k = np.arange(n, dtype=np.float64)
    f = (1.0 + EPS * np.cos(0.37 * k + 0.11)).reshape(shape)
    if xp == "torch":
        torch = sys.modules["torch"]
        return torch.as_tensor(f, dtype=like.dtype, device=like.device)
    return f


def perturb(value, depth: int = 0):
    """``value`` with every floating array (numpy or torch) and float scaled by the pattern."""
    if depth > 8:
        return value
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        if value.is_floating_point() or value.is_complex():
            return value * _factor(tuple(value.shape), "torch", value)
        return value
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            return (value * _factor(value.shape, "numpy")).astype(value.dtype, copy=False)
        return value
    if isinstance(value, (float, np.floating)):
        return type(value)(value * (1.0 + EPS * np.cos(0.11)))
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(perturb(v, depth + 1) for v in value)
    if isinstance(value, list):
        return [perturb(v, depth + 1) for v in value]
    return value


_TRAMPOLINE = "__attnlab_value_probe__"

# What a container holding an equivalent is, found once by a scan of the heap (0.2 s with torch
# loaded) and kept (with the container, so that its id is never another's): a dict -> whether it
# is a class's own dict; a tuple -> the functions whose defaults it is.
_SEEN: dict[int, tuple] = {}


def _classify(containers) -> None:
    new = [c for c in containers if id(c) not in _SEEN]
    if not new:
        return
    found: dict[int, list] = {id(c): [] for c in new}
    for holder in gc.get_referrers(*new):
        if isinstance(holder, type):
            for d in gc.get_referents(holder):
                if id(d) in found:
                    found[id(d)].append(holder)
        elif isinstance(holder, types.FunctionType) and id(holder.__defaults__) in found:
            found[id(holder.__defaults__)].append(holder)
    for c in new:
        if isinstance(c, dict):
            _SEEN[id(c)] = (c, bool(found[id(c)]))
        else:
            _SEEN[id(c)] = (c, found[id(c)])


def _trampoline_code(key: int, name: str) -> types.CodeType:
    src = f"def {name}(*args, **kwargs):\n    return {_TRAMPOLINE}[{key}](*args, **kwargs)\n"
    ns: dict = {}
    exec(compile(src, "<attnlab value probe>", "exec"), ns)  # noqa: S102 - the grader's own code
    return ns[name].__code__


class Perturbed:
    """A context: while it is open, the given library objects return perturbed results wherever
    they are reachable; everything is restored when it closes. ``called``: the dotted names of
    the equivalents that ran meanwhile."""

    def __init__(self, library) -> None:
        self.library = library
        self.undo: list = []
        self.called: list[str] = []
        self.originals: list = []   # the copies that run the library's own code meanwhile

    def _wrapper(self, lib, dotted: str):
        called = self.called

        def perturbed(*args, **kwargs):
            if dotted not in called:
                called.append(dotted)
            return perturb(lib(*args, **kwargs))
        self.originals.extend(perturbed.__closure__)  # its cell holds the library's object: never swapped
        return perturbed

    def __enter__(self):
        try:
            self._install()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _install(self) -> None:
        codes: dict[int, tuple] = {}     # id(code) -> (code, new code): every function running it
        refs: dict[int, tuple] = {}      # id(object) -> (object, wrapper): every container holding it
        for dotted, lib, owner, attr in self.library:
            if isinstance(lib, type):  # a class: what its instances compute
                for meth in ("forward", "__call__"):
                    fn = lib.__dict__.get(meth)
                    if not isinstance(fn, types.FunctionType):
                        continue
                    if fn.__code__.co_freevars:
                        self._swap_attribute(lib, meth, fn, self._wrapper(fn, dotted))
                    else:
                        codes.setdefault(id(fn.__code__), (fn.__code__, self._trampoline(fn, dotted)))
                continue
            if isinstance(lib, types.FunctionType) and not lib.__code__.co_freevars:
                codes.setdefault(id(lib.__code__), (lib.__code__, self._trampoline(lib, dotted)))
                continue
            if not callable(lib):
                continue
            wrapper = self._wrapper(lib, dotted)
            self._swap_attribute(owner, attr, lib, wrapper)
            refs.setdefault(id(lib), (lib, wrapper))
        if not codes and not refs:
            return
        mine = {id(self.undo), id(self.library), id(self.__dict__), id(codes), id(refs), id(self.originals)}
        mine |= {id(o) for o in self.originals}
        referrers = gc.get_referrers(*[c for c, _ in codes.values()], *[o for o, _ in refs.values()])
        mine.add(id(referrers))
        modules = {id(vars(m)) for m in list(sys.modules.values()) if hasattr(m, "__dict__")}
        dicts = [r for r in referrers if isinstance(r, dict) and id(r) not in modules and id(r) not in mine]
        _classify(dicts)  # a class's own dict changes only through setattr (done for the owner)
        mine |= {id(d) for d in dicts if _SEEN[id(d)][1]}
        mine |= {id(t) for t in self.library}
        tuples = []
        for r in referrers:
            if id(r) in mine or isinstance(r, types.FrameType):
                continue
            if isinstance(r, tuple):
                if any(id(v) in refs for v in r):
                    tuples.append(r)
                continue
            try:
                self._swap_in(r, codes, refs)
            except Exception:  # noqa: BLE001 - a container that refuses: left as it is
                continue
        if tuples:  # functions' defaults that hold one
            _classify(tuples)
            ids = {id(t) for t in tuples}
            for f in [f for t in tuples for f in _SEEN[id(t)][1]]:
                if isinstance(f, types.FunctionType) and id(f.__defaults__) in ids:
                    r = f.__defaults__
                    f.__defaults__ = tuple(refs[id(v)][1] if id(v) in refs and v is refs[id(v)][0] else v
                                           for v in r)
                    self.undo.append(("defaults", f, r))

    def _trampoline(self, fn: types.FunctionType, dotted: str) -> types.CodeType:
        code = fn.__code__
        original = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
        original.__kwdefaults__ = fn.__kwdefaults__
        self.originals.append(original)
        glob = fn.__globals__
        table = glob.get(_TRAMPOLINE)
        if not isinstance(table, dict):
            table = {}
            glob[_TRAMPOLINE] = table
            self.undo.append(("global", glob))
        key = len(table)
        table[key] = self._wrapper(original, dotted)
        return _trampoline_code(key, code.co_name if code.co_name.isidentifier() else "f")

    def _swap_in(self, r, codes, refs) -> None:
        if isinstance(r, types.FunctionType):
            hit = codes.get(id(r.__code__))
            if hit is not None and r.__code__ is hit[0] and not r.__closure__:
                r.__code__ = hit[1]
                self.undo.append(("code", r, hit[0]))
        elif isinstance(r, dict):
            for k, v in list(r.items()):
                hit = refs.get(id(v))
                if hit is not None and v is hit[0]:
                    r[k] = hit[1]
                    self.undo.append(("item", r, k, v))
        elif isinstance(r, list):
            for i, v in enumerate(r):
                hit = refs.get(id(v))
                if hit is not None and v is hit[0]:
                    r[i] = hit[1]
                    self.undo.append(("item", r, i, v))
        elif isinstance(r, types.CellType):
            v = r.cell_contents
            hit = refs.get(id(v))
            if hit is not None and v is hit[0]:
                r.cell_contents = hit[1]
                self.undo.append(("cell", r, v))
        elif isinstance(r, functools.partial):
            hit = refs.get(id(r.func))
            if hit is not None and r.func is hit[0]:
                state = r.__reduce__()[2]
                r.__setstate__((hit[1],) + tuple(state[1:]))
                self.undo.append(("partial", r, state))

    def _swap_attribute(self, owner, attr, lib, wrapper) -> None:
        try:
            own = attr in getattr(owner, "__dict__", {})
            setattr(owner, attr, wrapper)
        except (AttributeError, TypeError):
            return
        self.undo.append(("attr", owner, attr, lib, own))

    def __exit__(self, *exc) -> None:
        while self.undo:
            entry = self.undo.pop()
            kind = entry[0]
            try:
                if kind == "code":
                    entry[1].__code__ = entry[2]
                elif kind == "global":
                    entry[1].pop(_TRAMPOLINE, None)
                elif kind == "attr":
                    _, owner, attr, lib, own = entry
                    if own:
                        setattr(owner, attr, lib)
                    else:
                        delattr(owner, attr)
                elif kind == "item":
                    entry[1][entry[2]] = entry[3]
                elif kind == "cell":
                    entry[1].cell_contents = entry[2]
                elif kind == "partial":
                    entry[1].__setstate__(entry[2])
                elif kind == "defaults":
                    entry[1].__defaults__ = entry[2]
            except Exception:  # noqa: BLE001
                pass


# ---------------------------------------------------------------------------------------------
# The comparison

def _flat(value, out: list, depth: int = 0) -> None:
    if depth > 8:
        out.append(("?", None))
        return
    if isinstance(value, (tuple, list)):
        out.append(("(", len(value)))
        for v in value:
            _flat(v, out, depth + 1)
        return
    if value is None:
        out.append(("none", None))
        return
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    try:
        arr = np.asarray(value)
    except Exception:  # noqa: BLE001
        out.append(("object", type(value).__name__))
        return
    if arr.dtype.kind not in "biufc":
        out.append(("object", type(value).__name__))
        return
    out.append(("array", np.array(arr, dtype=np.complex128 if arr.dtype.kind == "c" else np.float64)))


def difference(a, b) -> float:
    """How far apart two answers are, relative to their size (inf: a different structure)."""
    fa, fb = [], []
    _flat(a, fa)
    _flat(b, fb)
    if len(fa) != len(fb):
        return float("inf")
    worst = 0.0
    for (ka, va), (kb, vb) in zip(fa, fb):
        if ka != kb:
            return float("inf")
        if ka != "array":
            if va != vb:
                return float("inf")
            continue
        if va.shape != vb.shape:
            return float("inf")
        if va.size == 0:
            continue
        fin_a, fin_b = np.isfinite(va), np.isfinite(vb)
        if not np.array_equal(fin_a, fin_b) or not np.array_equal(va[~fin_a], vb[~fin_b]):
            return float("inf")
        if not fin_a.any():
            continue
        scale = max(float(np.max(np.abs(va[fin_a]))), 1e-300)
        worst = max(worst, float(np.max(np.abs(va[fin_a] - vb[fin_b]))) / scale)
    return worst


NOISE = 1e-6   # relative: a rerun of honest float32 code stays far below it; EPS moves answers by ~1e-3


def moves_with_library(run, base_value, library) -> str | None:
    """Call ``run()`` (the learner's function on the call's inputs; returns an outcome with
    ``error`` and ``value``) with the equivalents perturbed; the dotted name of what the answer
    followed, or None. ``base_value``: the answer of the normal call."""
    if not library:
        return None
    with Perturbed(library) as p:
        outcome = run()
    if not p.called or getattr(outcome, "error", None) is not None:
        return None  # nothing of the library ran, or the perturbed run failed: not an answer
    moved = difference(base_value, outcome.value)
    if moved <= NOISE:
        return None
    control = run()  # the same call unperturbed: a function that is not deterministic moves too
    if getattr(control, "error", None) is not None or difference(base_value, control.value) > NOISE:
        return None
    return ", ".join(f"`{n}`" for n in p.called[:3])
