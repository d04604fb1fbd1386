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

Which library functions count for an exercise follows the course's order (``docs/contract.md``: later
notebooks import *earlier* building blocks from ``attnlab``): an exercise's equivalents are its
own library versions (:func:`attnlab.course.tamper.runtime_targets`) and the library functions
that compute it as a special case and come at or after it in the course (``mix_tokens`` is
``scaled_dot_product_attention`` on rescaled inputs; a softmax is the weights of any attention
function). Calling the library for an *earlier* exercise stays allowed (``attnlab.softmax``
inside ``mix_tokens``, ``attnlab.scaled_dot_product_attention`` inside ``self_attention``).
"""
from __future__ import annotations

import dis
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


def _bodies(code):
    """``code`` and the functions defined in it: what a copy is judged by. A comprehension, a
    generator expression or a lambda is a line or two of a body (``(x,) = (np.asarray(a) for a in
    (x,))`` is an idiom the library itself uses in many places), never a copy on its own."""
    return (c for c in _codes(code) if c is code or not c.co_name.startswith("<"))


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
                    for c in _bodies(code):
                        if len(c.co_code) >= 24:  # not `return x`: something worth copying
                            out.setdefault(_signature(c), dotted)
                fn, depth = getattr(fn, "__wrapped__", None), depth + 1
    return out


_LIBRARY_ROOTS = ("attnlab", "torch", "numpy", "scipy", "sklearn", "builtins")


def _global_names(code) -> list[str]:
    """The global names ``code`` (and the code nested in it) reads, not its attribute names
    (``attnlab.softmax`` reads the global ``attnlab``, not a global ``softmax``)."""
    import dis

    out: dict[str, None] = {}
    for c in _codes(code):
        for ins in dis.get_instructions(c):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME") and isinstance(ins.argval, str):
                out[ins.argval] = None
    return list(out)


def copied_code(obj, name: str, targets) -> str | None:
    """Why ``obj`` runs a copy of an equivalent's code (bytecode and names equal, whatever it is
    called), or None."""
    library = resolve(targets)
    known = _library_codes(library) if library else {}
    originals = {id(o) for _, o, _, _ in library}
    # issue 40: every code object of the course library the exercise does not allow, by content
    # (a copy through marshal, or through its source, a global renamed) or by identity (the
    # library's own function, bound to the exercise or handed to it), whatever it is called
    try:
        whole, table = surface(), library_copies(name)
    except Exception:  # noqa: BLE001 - the name-based comparison still stands
        whole, table = {}, {}
    seen, todo = set(), [obj]
    while todo and len(seen) < 200:
        x = todo.pop()
        if id(x) in seen or id(x) in originals:
            continue
        seen.add(id(x))
        if isinstance(x, functools.partial):
            todo.append(x.func)
            todo.extend(x.args)
            todo.extend(x.keywords.values())
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
        entry = whole.get(id(code))
        if entry is not None:
            _, dotted, place, kind = entry
            if kind == "library" and not allows(name, place, dotted):
                return (f"{name} is the library's `{dotted}`" if x is obj
                        else f"{name} hands its work to the library's `{dotted}`")
            continue  # the library's own code that the exercise may use: not the learner's
        for c in _bodies(code):
            hit = known.get(_signature(c))
            if hit:
                return f"{name} runs a copy of the library's `{hit}` (the same bytecode under another name)"
        hit = copy_of(code, name, table) if table else None
        if hit:
            return f"{name} runs a copy of the library's `{hit}` (its code, whatever it is called)"
        for cell in x.__closure__ or ():
            try:
                todo.append(cell.cell_contents)
            except ValueError:
                pass
        todo.extend(x.__defaults__ or ())
        glob = x.__globals__
        for n in _global_names(code):  # the learner's own helpers, defined beside it
            v = glob.get(n) if isinstance(glob, dict) else None
            if isinstance(v, types.FunctionType) and (
                    str(getattr(v, "__module__", "")).partition(".")[0] not in _LIBRARY_ROOTS
                    or (str(v.__module__).startswith("attnlab") and id(v.__code__) not in whole)):
                todo.append(v)  # the learner's helpers (one that only says it is the course's too)
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
# Issue 40: an answer that drifts between reruns is not excused by its drift. It was borrowed when
# the perturbation moved it this many times further than two unperturbed reruns differ (honest
# noise as large as the move is never accused; a drift kept below the checks' tolerance is judged).
DRIFT = 20.0


def moves_with_library(run, base_value, library) -> str | None:
    """Call ``run()`` (the learner's function on the call's inputs; returns an outcome with
    ``error`` and ``value``) with the equivalents perturbed; the dotted name of what the answer
    followed, or None. ``base_value``: the answer of the normal call (None: the input is new, so
    the perturbed run is the first the function sees of it, and two unperturbed reruns follow)."""
    if not library:
        return None
    with Perturbed(library) as p:
        outcome = run()
    return _followed(run, outcome, p, base_value)


def probe(run_fresh, run_same, base_value, library) -> str | None:
    """The value probe (issue 40): first on a fresh input (``run_fresh``: nothing tells it from a
    hidden case, so a function honest only on inputs it has seen is borrowed there too), and on
    the visible case itself (``run_same``, ``base_value`` its answer) only where the fresh input
    is not one the function accepts."""
    if not library:
        return None
    if run_fresh is not None:
        with Perturbed(library) as p:
            outcome = run_fresh()
        if getattr(outcome, "error", None) is None:
            return _followed(run_fresh, outcome, p, None)
    return moves_with_library(run_same, base_value, library)


def _followed(run, outcome, p, base_value) -> str | None:
    if not p.called or getattr(outcome, "error", None) is not None:
        return None  # nothing of the library ran, or the perturbed run failed: not an answer
    if base_value is not None and difference(base_value, outcome.value) <= NOISE:
        return None
    control, again = run(), run()  # unperturbed: how far the function drifts by itself
    if getattr(control, "error", None) is not None or getattr(again, "error", None) is not None:
        return None
    moved = difference(control.value, outcome.value)
    spread = difference(control.value, again.value)
    if base_value is not None:
        spread = max(spread, difference(base_value, control.value))
    if moved <= NOISE or moved <= DRIFT * spread:
        return None
    return ", ".join(f"`{n}`" for n in p.called[:3])


FRESH = 1e-3   # how far the value probe's input is moved from the visible case it starts from


def fresh_inputs(args, kwargs):
    """``(args, kwargs)`` like the call's, each floating array (numpy or torch) moved by a fixed
    relative pattern: an input the learner's function has not seen, which nothing tells from a
    hidden case. None when nothing in the call is a floating array."""
    moved = [False]

    def move(v, depth=0):
        torch = sys.modules.get("torch")
        if depth > 6:
            return v
        if isinstance(v, np.ndarray) and v.dtype.kind == "f" and v.size:
            moved[0] = True
            k = np.arange(v.size, dtype=np.float64).reshape(v.shape)
            return (v * (1.0 + FRESH * np.sin(0.73 * k + 0.29))).astype(v.dtype)
        if torch is not None and isinstance(v, torch.Tensor) and v.is_floating_point() and v.numel():
            moved[0] = True
            k = torch.arange(v.numel(), dtype=torch.float64).reshape(v.shape)
            return (v.detach() * (1.0 + FRESH * torch.sin(0.73 * k + 0.29)).to(v.dtype)).requires_grad_(
                v.requires_grad)
        if isinstance(v, tuple) and not hasattr(v, "_fields"):
            return tuple(move(x, depth + 1) for x in v)
        if isinstance(v, list):
            return [move(x, depth + 1) for x in v]
        return v

    out = (tuple(move(a) for a in args), {k: move(v) for k, v in (kwargs or {}).items()})
    return out if moved[0] else None


# ---------------------------------------------------------------------------------------------
# Issue 40: what an exercise *allows*, not a list of what it forbids
#
# During a graded call of exercise E, a call into the course library counts as borrowing unless
# E allows it: the library versions of the exercises that come *before* E in the course (later
# notebooks import earlier building blocks, docs/contract.md), the support code that computes no
# exercise (data, plots), public helpers of earlier notebooks, what E's prompt hands the learner
# (``PROMPT_GIVES``) and the objects the grader itself passes in. Everything else of the package,
# public or private, whatever the name or route that reaches its code, is a tripwire. Outside the
# course library the same rule reads names, since there is no list to keep: a torch function or
# op (through ``torch.*``, ``torch.ops.aten``, ``torch._C``, C calling C: a TorchFunctionMode sees
# them all) or a Python function of another library whose name says it computes an exercise
# (``*softmax*``, ``*logsumexp*``, ``*attention*``, ...) counts as that exercise's library version.

COURSE = (
    ("01", ("weighted_average", "softmax", "mix_tokens")),
    ("02", ("attend", "score_variance", "scaled_dot_product_attention")),
    ("03", ("self_attention", "append_ones", "absorb_bias", "SelfAttention")),
    ("04", ("causal_mask", "padding_mask", "masked_softmax", "cross_attention")),
    ("05", ("split_heads", "merge_heads", "multi_head_attention", "MultiHeadAttention", "merge_value_output")),
    ("06", ("gaussian_attention_weights", "nadaraya_watson", "fit_bandwidth", "kernel_ridge_fit",
            "kernel_ridge_predict", "linear_attention", "linear_attention_recurrent")),
    ("07", ("AdditiveAttention", "MultiplicativeAttention", "AttentionDecoder", "greedy_decode",
            "alignment_accuracy")),
    ("08", ("merge_softmax_stats", "online_softmax_update", "tiled_attention", "weights_from_logsumexp",
            "tiled_attention_backward")),
    ("09", ("sinusoidal_positional_encoding", "TransformerEncoderLayer", "TransformerDecoderLayer",
            "decode_with_cache")),
    ("10", ("image_to_tokens", "tokens_to_image", "positional_encoding_2d", "spatial_self_attention",
            "ChannelAttention", "patchify")),
    ("11", ("rope", "halves_to_interleaved_weights", "grouped_query_attention", "sliding_window_mask", "ring_cache_decode_step",
            "kv_cache_bytes")),
    ("12", ("icl_prompt", "linear_self_attention", "gd_step_prediction", "prefix_matching_score",
            "induction_score", "soft_align")),
    ("13", ("attention_with_mods", "alibi_slopes", "alibi_score_mod", "softcap_score_mod", "document_mask_mod",
            "prefix_lm_mask_mod", "sink_window_keys", "mla_attention", "topk_attention")),
)
_RANK = {name: int(nb) * 100 + i for nb, names in COURSE for i, name in enumerate(names)}

# What an exercise's prompt hands the learner from a later notebook (library versions by name).
PROMPT_GIVES = {"SelfAttention": ("masked_softmax",),   # notebook 03: "you may use at.masked_softmax"
                # notebook 09 hands out the recomputing decoder to compare with (the check's work per
                # step names its use as "recomputes the prefix each step")
                "decode_with_cache": ("decode_by_recomputation",)}
# Library versions handed out before their own exercise: usable from this place in the course on
# (at.masked_softmax, in notebook 03's prompt, computes nothing beyond the softmax of notebook 01).
GIVEN_FROM = {"masked_softmax": 299}

# Course modules that compute no exercise (data, plots, records of claims): always allowed.
SUPPORT_MODULES = ("attnlab.toylang", "attnlab.plots", "attnlab.claims", "attnlab.shapes", "attnlab.checkpoints")
# The grader's own code: never the learner's to call (checks, cards), or the harness (course).
GRADER_MODULES = ("attnlab.checks", "attnlab.cards", "attnlab.course")
# Notebooks of course modules that define no exercise, for their public helpers.
_MODULE_NOTEBOOK = {"attnlab.scores": 2, "attnlab.torch.seq2seq": 7, "attnlab.torch.translation": 7,
                    "attnlab.torch.rnn_attention": 7, "attnlab.translation_metrics": 7}
_NEVER = 10 ** 9


def rank(exercise: str) -> int | None:
    """The exercise's place in the course (notebook * 100 + position), None if unknown."""
    if exercise in _RANK:
        return _RANK[exercise]
    try:
        # (imported here: it imports every card's module, the sandbox imports this one before the
        # learner's cells, and only an exercise missing from _RANK needs a card)
        from attnlab.cards import card

        c = card(exercise)
    except Exception:  # noqa: BLE001
        c = None
    if c is not None and str(c.notebook)[:2].isdigit():
        return int(str(c.notebook)[:2]) * 100 + 50
    return None


def _in(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _owned_codes(obj, depth: int = 0):
    """The code objects ``obj`` (a function, class, method, property) runs, nested ones included."""
    if depth > 4:
        return
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        for f in (obj.fget, obj.fset, obj.fdel):
            if f is not None:
                yield from _owned_codes(f, depth + 1)
        return
    if isinstance(obj, type):
        for v in list(vars(obj).values()):
            if isinstance(v, type) and v.__module__ != obj.__module__:
                continue
            yield from _owned_codes(v, depth + 1)
        return
    code = getattr(obj, "__code__", None) if isinstance(obj, types.FunctionType) else None
    if isinstance(code, types.CodeType):
        yield from _codes(code)
    inner = getattr(obj, "__wrapped__", None) if isinstance(obj, types.FunctionType) else None
    if inner is not None:
        yield from _owned_codes(inner, depth + 1)


def _course_modules():
    for name, mod in list(sys.modules.items()):
        if (name == "attnlab" or name.startswith("attnlab.")) and getattr(mod, "__dict__", None) is not None:
            yield name, mod


def _module_notebook(name: str, mod) -> int | None:
    if name in _MODULE_NOTEBOOK:
        return _MODULE_NOTEBOOK[name]
    found = [_RANK[k] // 100 for k, v in vars(mod).items()
             if k in _RANK and getattr(v, "__module__", None) == name]
    return max(found) if found else None


_SURFACE: dict = {"key": None, "codes": {}, "seen": None}


def surface() -> dict[int, tuple]:
    """Every code object of the course library, loaded from its own files: ``id(code) -> (code,
    dotted name of what owns it, rank, kind)``; kind is "library", "support" or "grader", rank the
    place in the course from which it is allowed (``_NEVER``: private, never allowed by itself)."""
    # Read on every graded call and by the copy finder: sys.modules is walked again only when it
    # changed size (an import, a removal); a module swapped for another of the same count keeps the
    # old reading, whose code stays the library's (and code from the course's files that the map
    # does not hold is judged by its file: Watch._judge).
    seen = len(sys.modules)
    if _SURFACE["seen"] == seen:
        return _SURFACE["codes"]
    modules = sorted(name for name, _ in _course_modules())
    key = tuple(modules)
    if _SURFACE["key"] == key:
        _SURFACE["seen"] = seen
        return _SURFACE["codes"]
    # kept from every earlier reading (the sandbox reads it before the first cell): a function a
    # cell later removes from its module stays the library's
    out: dict[int, tuple] = dict(_SURFACE["codes"])
    for name, mod in _course_modules():
        path = getattr(mod, "__file__", None)
        kind = "grader" if _in(name, GRADER_MODULES) else "support" if _in(name, SUPPORT_MODULES) else "library"
        notebook = _module_notebook(name, mod)
        for attr, obj in list(vars(mod).items()):
            if getattr(obj, "__module__", None) != name or attr.startswith("__"):
                continue
            if attr in _RANK and not attr.startswith("_"):
                place = min(_RANK[attr], GIVEN_FROM.get(attr, _NEVER))
            elif kind != "library":
                place = -1
            elif attr.startswith("_") or notebook is None:
                place = _NEVER
            else:
                place = notebook * 100 + 99
            for code in _owned_codes(obj):
                if path is None or code.co_filename != path:
                    continue  # a function planted in the module by other code: not the library's
                out.setdefault(id(code), (code, f"{name}.{attr}", place, kind))
    _SURFACE.update(key=key, codes=out, seen=seen)
    return out


def allows(exercise: str, place: int, dotted: str) -> bool:
    """Whether ``exercise`` may call the course library's ``dotted`` (at ``place`` in the course)."""
    here = rank(exercise)
    if here is None:
        return True
    if place < here:
        return True
    return dotted.rpartition(".")[2] in PROMPT_GIVES.get(exercise, ())


# What the name of a function of another library says it computes (issue 40: the rule, not a list).
_NAMED = (("masked_softmax", "masked_softmax"), ("softmax", "softmax"), ("softmin", "softmax"),
          ("logsumexp", "softmax"), ("cross_entropy", "softmax"), ("multi_head_attention", "multi_head_attention"),
          ("multiheadattention", "multi_head_attention"), ("transformer_encoder", "TransformerEncoderLayer"),
          ("transformer_decoder", "TransformerDecoderLayer"), ("transformerencoder", "TransformerEncoderLayer"),
          ("transformerdecoder", "TransformerDecoderLayer"), ("attention", "scaled_dot_product_attention"),
          ("_sdp", "scaled_dot_product_attention"), ("attn", "scaled_dot_product_attention"),
          ("kernelridge", "kernel_ridge_predict"))


def named_exercise(name: str) -> str | None:
    """The exercise a library function computes, read from its (qualified) name."""
    low = name.lower()
    for part, exercise in _NAMED:
        if part in low:
            return exercise
    return None


def forbids_named(exercise: str, computed: str | None) -> bool:
    """Whether a library function computing ``computed`` is off limits in ``exercise``: the same
    exercise or a later one (an earlier exercise is a building block the course allows)."""
    if computed is None:
        return False
    here, there = rank(exercise), _RANK.get(computed)
    if here is None or there is None:
        return False
    there = min(there, GIVEN_FROM.get(computed, _NEVER))
    return there >= here and computed not in PROMPT_GIVES.get(exercise, ())


def _third_party_roots() -> tuple[str, ...]:
    import sysconfig

    roots = {p for k, p in sysconfig.get_paths().items() if k in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots |= {getattr(sys, "base_prefix", ""), getattr(sys, "prefix", "")}
    return tuple(sorted(r.rstrip("/") + "/" for r in roots if r))


THIRD_PARTY = _third_party_roots()
COURSE_DIR = __file__.rsplit("/course/", 1)[0] + "/"   # attnlab's own files, wherever it is installed


def third_party(filename: str) -> bool:
    """Code of the interpreter or an installed library (not the learner's, not the course's)."""
    if filename.startswith(COURSE_DIR):
        return False
    return filename.startswith(THIRD_PARTY) or filename.startswith("<frozen")


def allowed_objects(args, kwargs) -> set[int]:
    """Ids of the course-library code objects the grader's own arguments carry (a feature map, a
    model, a vocabulary): the learner's function may call what it is handed. Read without running
    any code of the objects (types and instance dictionaries only): it runs inside the watch."""
    out: set[int] = set()
    seen: set[int] = set()
    todo = list(args) + list((kwargs or {}).values())
    while todo and len(seen) < 2000:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        t = type(x)
        if t in (tuple, list):
            todo.extend(x[:256])
            continue
        if t is dict:
            todo.extend(list(dict.values(x))[:256])
            continue
        if t is functools.partial:
            todo.extend([x.func, *x.args, *x.keywords.values()])
            continue
        if t is types.MethodType:
            todo.extend([x.__func__, x.__self__])
            continue
        if t is types.FunctionType:
            if str(x.__module__).startswith("attnlab"):
                out.update(id(c) for c in _owned_codes(x))
            continue
        cls = x if isinstance(x, type) else t
        ours = [b for b in cls.__mro__ if str(b.__dict__.get("__module__", "")).startswith("attnlab")]
        for base in ours:
            out.update(id(c) for c in _owned_codes(base))
        if ours and not isinstance(x, type):  # an object of the course's: what it holds (sub-modules)
            try:
                state = object.__getattribute__(x, "__dict__")
            except Exception:  # noqa: BLE001
                continue
            if type(state) is dict:
                todo.extend(list(state.values())[:256])
                modules = state.get("_modules")
                if type(modules) is dict:
                    todo.extend(list(modules.values())[:256])
    return out


# --- copies of the course library's code, by content ----------------------------------------------

def _fingerprints(code) -> tuple[tuple, tuple | None]:
    """Two fingerprints of a code object: exact (bytecode and the names it reads) and loose (the
    bytecode and its constants, names free: a copy with `np` renamed), the loose one only for code
    with a string of its own (an error message) or of some length, never a two-line textbook body."""
    exact = (code.co_code, code.co_names, code.co_argcount, code.co_kwonlyargcount)
    shape = _shape(code)
    consts = code.co_consts
    if consts and isinstance(consts[0], str) and code.co_name != "<module>":
        consts = consts[1:]  # the docstring: a copy may drop or reword it
    strings = [c for c in consts if isinstance(c, str) and len(c) >= 12]
    plain = tuple(c for c in consts if isinstance(c, (str, int, float, bool, type(None))))
    loose = (shape, plain, code.co_argcount) if (strings or len(shape) >= 60) else None
    return exact, loose


_NAME_OPS = {"LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "LOAD_METHOD", "STORE_ATTR", "STORE_GLOBAL",
             "IMPORT_NAME", "IMPORT_FROM", "DELETE_ATTR", "DELETE_GLOBAL"}
_SKIP_OPS = {"CACHE", "PUSH_NULL", "EXTENDED_ARG", "NOP", "RESUME", "PRECALL", "KW_NAMES", "COPY_FREE_VARS",
             "MAKE_CELL"}


# the opcodes that take an argument (3.12 lists them; before, those from HAVE_ARGUMENT up)
_HAS_ARG = frozenset(getattr(dis, "hasarg", range(dis.HAVE_ARGUMENT, 256)))


def _shape(code) -> tuple:
    """The instructions of ``code`` with the names it reads left out (`np` or `numpy`, a method
    call or an attribute then a call: the same computation). Read from the bytecode directly,
    as ``dis.get_instructions`` would give it (``co_code`` holds the unspecialised
    instructions), ten times faster: every code object the learner's calls run is read once."""
    raw, names, has_arg = code.co_code, dis.opname, _HAS_ARG
    out = []
    ext = 0
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1]
        name = names[op]
        if name == "EXTENDED_ARG":
            ext = (ext | arg) << 8
            continue
        arg, ext = ext | arg, 0
        if name in _SKIP_OPS:
            continue
        if name == "LOAD_METHOD":
            name = "LOAD_ATTR"
        if name in _NAME_OPS or name.startswith(("JUMP", "POP_JUMP", "FOR_ITER", "SEND")) or op not in has_arg:
            out.append(name)
        else:
            out.append((name, arg))
    return tuple(out)


_FP: dict[int, tuple] = {}       # id(code) -> (code, fingerprints): each code object read once
_COPIES: dict[tuple, dict] = {}  # (exercise, the surface's modules) -> its table


def read_library() -> None:
    """Fingerprint every course-library code object the copy finder compares with, once: a warm
    worker does it before it forks, so that its children (one per submission) only look them up."""
    for code, _dotted, _place, kind in surface().values():
        if kind == "library" and len(code.co_code) >= 24:
            _fingerprints_kept(code)


def library_copies(exercise: str) -> dict[tuple, str]:
    """Fingerprints of every course-library code object ``exercise`` may not call -> its name."""
    whole = surface()
    key = (exercise, _SURFACE["key"])
    if key in _COPIES:
        return _COPIES[key]
    out: dict[tuple, str] = {}
    for code, dotted, place, kind in whole.values():
        if kind != "library" or allows(exercise, place, dotted) or len(code.co_code) < 24 or code.co_name.startswith("<"):
            continue  # (a comprehension, a generator expression or a lambda is no body of its own: _bodies)
        exact, loose = _fingerprints_kept(code)
        out.setdefault(exact, dotted)
        if loose is not None:
            out.setdefault(loose, dotted)
    _COPIES[key] = out
    return out


def _fingerprints_kept(code) -> tuple[tuple, tuple | None]:
    """``_fingerprints(code)``, worked out once per code object (kept alive with it, so its id is
    not reused): the learner's functions are judged on every graded call."""
    got = _FP.get(id(code))
    if got is None or got[0] is not code:
        got = _FP[id(code)] = (code, _fingerprints(code))
    return got[1]


_COPY_OF: dict[tuple, tuple] = {}  # (id(code), exercise, the surface's modules) -> (code, verdict)


def copy_of(code, exercise: str, table: dict | None = None) -> str | None:
    """The course-library function ``code`` copies (by content), or None."""
    table = library_copies(exercise) if table is None else table
    whole = surface()
    key = (id(code), exercise, _SURFACE["key"], id(table))
    got = _COPY_OF.get(key)
    if got is not None and got[0] is code:
        return got[1]
    verdict = None
    for c in _bodies(code):
        if id(c) in whole:
            continue  # the library's own code object: the tripwires' business, not a copy
        if any(fp is not None and fp in table for fp in _fingerprints_kept(c)):
            verdict = next(table[fp] for fp in _fingerprints_kept(c) if fp is not None and fp in table)
            break
    _COPY_OF[key] = (code, verdict)
    return verdict


# --- torch, whatever the route ------------------------------------------------------------------

def torch_named(func, kwargs) -> str | None:
    """The exercise a torch function or op computes, from its name (and ``enable_gqa``)."""
    name = getattr(func, "__name__", None) or str(func)
    computed = named_exercise(str(name).partition(".")[0] if "::" not in str(name) else str(name))
    if computed == "scaled_dot_product_attention" and kwargs and kwargs.get("enable_gqa"):
        return "grouped_query_attention"
    return computed


def torch_function_mode(on_call):
    """A TorchFunctionMode that reports every torch function or op it sees (all routes into
    torch's C++ argument parser, ``torch.ops`` included, C calling C too) to ``on_call(func,
    kwargs)`` and then runs it; None without torch."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    from torch.overrides import TorchFunctionMode

    class Watch(TorchFunctionMode):
        def __torch_function__(self, func, types_, args=(), kwargs=None):
            on_call(func, kwargs)
            return func(*args, **(kwargs or {}))

    return Watch()


# --- the watch of one graded call (used by sandbox._Tripwires.watching) -----------------------------

def _dotted_of_file(code) -> str:
    fn = code.co_filename
    for root in THIRD_PARTY:
        if fn.startswith(root):
            fn = fn[len(root):]
            break
    fn = fn.rsplit("site-packages/", 1)[-1]
    mod = fn[:-3] if fn.endswith(".py") else fn
    mod = mod.replace("/", ".").removesuffix(".__init__")
    return f"{mod}.{getattr(code, 'co_qualname', code.co_name)}"


_WATCH_SWITCHES = {"_pop_torch_function_stack", "_set_torch_function_mode", "_pop_mode",
                   "_unset_dispatch_mode", "_pop_torch_dispatch_stack"}


class Watch:
    """What one graded call of ``exercise`` may call, judged where the call happens.

    ``on_call(frame)`` for every Python function that starts (the profile's "call" event),
    ``on_c_call(frame, func)`` for every C function Python code calls, and ``mode`` (a
    TorchFunctionMode, entered for the call) for every torch function or op whatever called it.
    ``note(verdict)`` gets a dotted name (the library function called) or ``"=sentence"``.
    ``library_frame(frame)``: whether a frame runs the course library's own code (so that the
    library calling itself, a reference using a private helper, is not the learner's doing);
    ``own``: ids of the grader's wrapper code, looked past."""

    def __init__(self, exercise: str, note, library_frame, own: set[int], allowed_ids: set[int]) -> None:
        self.exercise, self.note, self.library_frame, self.own = exercise, note, library_frame, own
        self.allowed_ids = set(allowed_ids)
        self.active = rank(exercise) is not None
        self.surface = surface() if self.active else {}
        self.judged: dict[int, tuple] = {}
        self.c_judged: dict[str, bool] = {}
        self.t_judged: dict = {}
        self._copies: dict | None = None
        self.mode = torch_function_mode(self.on_torch) if self.active else None

    # -- verdicts on code ------------------------------------------------------------------
    def _judge(self, code) -> tuple | None:
        entry = self.surface.get(id(code))
        if entry is not None:
            _, dotted, place, kind = entry
            if (code.co_name == "<module>" or kind == "support" or dotted.startswith("attnlab.course")
                    or id(code) in self.allowed_ids):
                return None
            if kind == "grader":  # the checks' public functions (a check, a feature map it hands out)
                private = any(part.startswith("_") for part in dotted.split("."))
                return ("grader", dotted) if private else None
            if allows(self.exercise, place, dotted):
                return None
            return ("library", dotted)
        filename = code.co_filename
        if third_party(filename):
            computed = named_exercise(getattr(code, "co_qualname", code.co_name))
            return ("library", _dotted_of_file(code)) if forbids_named(self.exercise, computed) else None
        if filename.startswith(COURSE_DIR):  # the course's files, code the map does not hold
            rel = filename[len(COURSE_DIR):]
            if code.co_name == "<module>" or rel.startswith(("course/", "checks/", "cards/")):
                return None
            return ("library", "attnlab." + rel.removesuffix(".py").replace("/", ".") + "."
                    + getattr(code, "co_qualname", code.co_name))
        if filename.startswith("<attnlab"):
            return None  # the grader's generated code (the value probe's trampolines)
        if self._copies is None:
            self._copies = library_copies(self.exercise)
        hit = copy_of(code, self.exercise, self._copies)
        return ("copy", hit) if hit else None

    def _hand(self, frame) -> None:
        code = frame.f_code
        n = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) + bool(code.co_flags & 8)
        try:
            handed = [frame.f_locals.get(v) for v in code.co_varnames[:n]]
            new = allowed_objects(handed, {}) - self.allowed_ids
        except Exception:  # noqa: BLE001 - nothing handed that can be read
            return
        if new:
            self.allowed_ids |= new
            self.judged.clear()  # verdicts on the library's code may change

    def _caller(self, frame, skip_third_party: bool):
        while frame is not None and (id(frame.f_code) in self.own
                                     or (skip_third_party and third_party(frame.f_code.co_filename))):
            frame = frame.f_back
        return frame

    def on_call(self, frame) -> None:
        code = frame.f_code
        seen = self.judged.get(id(code))
        if seen is None:
            seen = (code, self._judge(code), id(code) not in self.surface and not third_party(code.co_filename))
            self.judged[id(code)] = seen
        verdict = seen[1]
        if seen[2]:  # the learner's code: what the grader hands it (a model its invoke built) is its to call
            caller = frame.f_back
            entry = self.surface.get(id(caller.f_code)) if caller is not None else None
            if entry is not None and entry[3] == "grader":
                self._hand(frame)
        if verdict is None:
            return
        kind, dotted = verdict
        if kind == "copy":
            self.note(f"={self.exercise} runs a copy of the library's `{dotted}` (its code under another name)")
        elif kind == "grader":  # the checks' code, called by the learner's own (not a hook torch runs)
            caller = self._caller(frame.f_back, False)
            if caller is not None and not third_party(caller.f_code.co_filename) and not self.library_frame(caller):
                self.note(dotted)
        else:
            caller = self._caller(frame.f_back, True)
            if caller is not None and not self.library_frame(caller):
                self.note(dotted)

    def on_c_call(self, frame, func) -> None:
        name = getattr(func, "__name__", None)
        if not isinstance(name, str):
            return
        if (name in _WATCH_SWITCHES and self.mode is not None and not third_party(frame.f_code.co_filename)
                and not self.library_frame(frame)):  # torch's own Python pops a mode while it runs it
            self.note(f"={self.exercise} switches off the grader's watch of what it calls (torch's `{name}`)")
            return
        forbidden = self.c_judged.get(name)
        if forbidden is None:
            forbidden = forbids_named(self.exercise, named_exercise(name))
            self.c_judged[name] = forbidden
        if forbidden:
            caller = self._caller(frame, True)
            if caller is not None and not self.library_frame(caller):
                owner = getattr(func, "__module__", None) or type(getattr(func, "__self__", None)).__name__
                self.note(f"{owner}.{name}")

    def on_torch(self, func, kwargs) -> None:
        try:
            verdict = self.t_judged.get(func) if not kwargs else None
        except TypeError:
            verdict = None
        if verdict is None:
            computed = torch_named(func, kwargs)
            verdict = (forbids_named(self.exercise, computed),)
            if not kwargs:
                try:
                    self.t_judged[func] = verdict
                except TypeError:
                    pass
        if not verdict[0]:
            return
        caller = self._caller(sys._getframe(2), True)  # past this and the mode's handler; torch's Python too
        if caller is not None and not self.library_frame(caller):
            self.note("torch." + str(getattr(func, "__name__", func)))

    # -- the torch mode ----------------------------------------------------------------------
    def enter(self) -> None:
        if self.mode is not None:
            self.mode.__enter__()

    def exit(self) -> bool:
        """Leave the torch mode; False if the learner's code took it off the stack meanwhile."""
        if self.mode is None:
            return True
        try:
            from torch.overrides import _get_current_function_mode_stack

            present = any(m is self.mode for m in _get_current_function_mode_stack())
        except Exception:  # noqa: BLE001
            present = True
        if present:
            try:
                self.mode.__exit__(None, None, None)
            except Exception:  # noqa: BLE001
                return False
        return present
