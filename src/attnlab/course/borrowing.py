"""Borrowed answers, seen where the code runs (the sandbox's side only: imported by
:mod:`attnlab.course.sandbox`, never by the grader): a learner's name bound to the library's
version of itself, and the course library's own code told from the learner's (its code objects as
loaded before the first cell, and whether a frame runs them). The sandbox counts this module's
code as its own harness code (``sandbox._harness_codes``)."""
from __future__ import annotations

import sys
import types


def _library_objects(targets) -> list[tuple[str, object]]:
    """``[(dotted name, object)]`` for the targets whose module is already loaded."""
    out = []
    for module, attr in targets:
        mod = sys.modules.get(module)
        if mod is None and "." in module:  # a class such as torch.Tensor
            head, _, cls = module.rpartition(".")
            mod = getattr(sys.modules.get(head), cls, None) if head in sys.modules else None
        obj = getattr(mod, attr, None) if mod is not None else None
        if obj is not None:
            out.append((f"{module}.{attr}", obj))
    return out


def _code_names(code, depth: int = 0) -> set[str]:
    names = set(code.co_names)
    if depth < 8:
        for const in code.co_consts:
            if hasattr(const, "co_names"):
                names |= _code_names(const, depth + 1)
    return names


def _borrowed_object(obj, name: str, targets) -> str | None:
    """Why ``obj`` (what the learner's ``name`` is bound to) is a library's version of itself:
    the object itself, a wrapper of it (partial, ``__wrapped__``, a bound method), a subclass,
    or a function whose own code refers to it by a name bound to it. None if none of these."""
    import functools  # (here, as in the harness: loaded when the check runs, after the cells)

    library = _library_objects(targets)
    if not library:
        return None

    codes = {id(getattr(lib, "__code__", None)): dotted for dotted, lib in library if hasattr(lib, "__code__")}

    def which(x):
        for dotted, lib in library:
            try:
                if x is lib:
                    return dotted
            except Exception:  # noqa: BLE001
                pass
        code = getattr(x, "__code__", None) if not isinstance(x, type) else None
        return codes.get(id(code)) if code is not None else None  # a copy of its code object

    seen, todo = set(), [obj]
    while todo and len(seen) < 50:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        hit = which(x)
        if hit:
            if getattr(x, "__code__", None) is not None and not any(x is lib for _, lib in library):
                return f"{name} runs a copy of the library's `{hit}` (its code object)"
            return f"{name} is the library's `{hit}`" if x is obj else f"{name} wraps the library's `{hit}`"
        if isinstance(x, type):
            for dotted, lib in library:
                try:
                    if isinstance(lib, type) and x is not lib and issubclass(x, lib):
                        return f"{name} subclasses the library's `{dotted}`"
                except Exception:  # noqa: BLE001
                    pass
            for base in getattr(x, "__mro__", ())[:-1]:
                if getattr(base, "__module__", "") in ("__main__", "builtins") or base is x:
                    todo.extend(v for v in vars(base).values() if callable(v) or isinstance(v, (staticmethod, classmethod)))
            continue
        if isinstance(x, (staticmethod, classmethod)):
            todo.append(x.__func__)
            continue
        if isinstance(x, functools.partial):
            todo.append(x.func)
            todo.extend(x.args)
            todo.extend(x.keywords.values())
            continue
        for attr in ("__wrapped__", "__func__"):
            inner = getattr(x, attr, None) if not isinstance(x, type) else None
            if inner is not None:
                todo.append(inner)
        code = getattr(x, "__code__", None)
        if code is None:
            continue
        glob = getattr(x, "__globals__", {}) or {}
        for n in _code_names(code):
            if n in glob and which(glob[n]):
                return f"{name} calls the library's `{which(glob[n])}` (bound to `{n}`)"
        for cell in getattr(x, "__closure__", None) or ():
            try:
                todo.append(cell.cell_contents)
            except ValueError:
                pass
        todo.extend(getattr(x, "__defaults__", None) or ())
    return None


# The code objects of the course library's modules loaded before the learner's first cell (kept
# alive, so that an id is never another's): only these count as "the library calling itself".
_LIBRARY_CODE: dict[int, object] = {}
_SNAPSHOT_MODULES: set[str] = set()


def _is_library_module(name: str) -> bool:
    return name == "attnlab" or name.startswith("attnlab.")


def _snapshot_library_code() -> None:
    for name, mod in list(sys.modules.items()):
        if not _is_library_module(name) or not hasattr(mod, "__dict__"):
            continue
        _SNAPSHOT_MODULES.add(name)
        todo = [v for v in list(vars(mod).values())
                if isinstance(v, type) and v.__module__ == name or getattr(v, "__module__", None) == name]
        seen: set[int] = set()
        while todo and len(seen) < 50_000:
            x = todo.pop()
            if id(x) in seen:
                continue
            seen.add(id(x))
            if isinstance(x, types.CodeType):
                _LIBRARY_CODE[id(x)] = x
                todo.extend(c for c in x.co_consts if isinstance(c, types.CodeType))
            elif isinstance(x, type):
                todo.extend(vars(x).values())
            elif isinstance(x, (staticmethod, classmethod)):
                todo.append(x.__func__)
            elif isinstance(x, property):
                todo.extend(f for f in (x.fget, x.fset, x.fdel) if f is not None)
            else:
                code = getattr(x, "__code__", None)
                if isinstance(code, types.CodeType):
                    todo.append(code)
                inner = getattr(x, "__wrapped__", None)
                if inner is not None:
                    todo.append(inner)
    try:  # issue 40: the map of the course library's code, read before any learner code runs
        from attnlab.course import equivalents  # (here: its map is read once the libraries are loaded)

        equivalents.surface()
        equivalents.read_library()
    except Exception:  # noqa: BLE001 - read again at the first call
        pass


def _library_frame(frame, prefixes: tuple[str, ...]) -> bool:
    """Whether ``frame`` runs the course library's own code under one of ``prefixes``: its
    globals are the real module's (not a learner's namespace that calls itself ``attnlab.x``),
    and its code was loaded before the learner's cells (or, for a module imported since, comes
    from that module's file)."""
    glob = frame.f_globals
    name = glob.get("__name__", "")
    if not isinstance(name, str) or not any(name == p or name.startswith(p + ".") for p in prefixes):
        return False
    module = sys.modules.get(name)
    if module is None or getattr(module, "__dict__", None) is not glob:
        return False
    if name in _SNAPSHOT_MODULES:
        return id(frame.f_code) in _LIBRARY_CODE
    return frame.f_code.co_filename == getattr(module, "__file__", None)
