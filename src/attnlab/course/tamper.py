"""Static reading of a submission's code, run by the trusted grader (no learner code runs here).

Two kinds of findings, each a short sentence for the instructor and the learner:

* **borrowed answers**: the name an exercise defines ends up bound to a library's version of it
  (``from attnlab import softmax`` in any cell, ``from attnlab import *``, ``softmax =
  attnlab.softmax``, a subclass of ``nn.MultiheadAttention``), or the exercise's own body calls
  one (``attnlab.softmax`` inside ``softmax``, ``F.scaled_dot_product_attention`` inside
  ``scaled_dot_product_attention``). Every binding of the name in every cell is read, cell-magic
  bodies (``%%time``) included; the binding that runs last is the one graded. Only uses inside
  the function's (or class's) body count: a self-test beside it that compares with the library
  is fine. The exercise scores zero.
* **tampering**: code anywhere in the submission that patches a library function
  (``np.allclose = ...``; writing configuration such as ``plt.rcParams[...]`` or
  ``torch.backends.cudnn.deterministic`` is fine), reaches into the grader or the interpreter
  (``attnlab.checks``, ``sys.modules``, builtins, IPython's transformers or exception handlers,
  closures and frames through ``gc``), or opens ``sqlite3``/``ctypes``.

What static reading cannot see (``getattr(m, "soft" + "max")``, ``exec``) is caught where the
code runs: the sandbox reports an exercise that is, wraps or calls a library's version of itself
(:func:`runtime_targets`, :mod:`attnlab.course.sandbox`).
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass

# Library functions that implement an exercise under another name.
EXTRA_FORBIDDEN: dict[str, set[str]] = {
    "softmax": {"logsumexp", "log_softmax"},
    "scaled_dot_product_attention": {"MultiheadAttention", "multi_head_attention_forward"},
    "multi_head_attention": {"MultiheadAttention", "multi_head_attention_forward"},
    "MultiHeadAttention": {"MultiheadAttention", "multi_head_attention_forward"},
    "kernel_ridge_fit": {"KernelRidge"},
    "kernel_ridge_predict": {"KernelRidge"},
}

# Where the library versions live, for the sandbox's tripwires: (module, attribute) pairs.
_LIBRARY_HOMES = ("attnlab", "attnlab.torch", "torch", "torch.nn", "torch.nn.functional", "scipy.special",
                  "sklearn.kernel_ridge", "numpy")

LIBRARY_MODULES = ("attnlab", "torch", "scipy", "sklearn", "numpy", "jax", "tensorflow")

DEFAULT_ALIASES = {"np": "numpy", "plt": "matplotlib.pyplot", "F": "torch.nn.functional", "nn": "torch.nn",
                   "at": "attnlab.torch", "attnlab": "attnlab", "torch": "torch", "numpy": "numpy",
                   "scipy": "scipy", "math": "math", "sys": "sys", "os": "os", "builtins": "builtins",
                   "matplotlib": "matplotlib", "IPython": "IPython", "checks": "attnlab.checks"}

SUSPICIOUS_ATTRIBUTES = {
    "settrace": "sys.settrace", "setprofile": "sys.setprofile",
    "addaudithook": "an audit hook", "set_custom_exc": "IPython's exception handler",
    "input_transformers_post": "IPython's input transformers",
    "input_transformers_cleanup": "IPython's input transformers",
    "ast_transformers": "IPython's AST transformers", "excepthook": "sys.excepthook",
    "get_referrers": "the garbage collector's references", "get_referents": "the garbage collector's references",
    "get_objects": "every object through the garbage collector",
    "showtraceback": "IPython's traceback display",
    "run_cell": "IPython's cell runner", "events": "IPython's event hooks",
    "__closure__": "a function's closure", "cell_contents": "a function's closure",
    "f_back": "the interpreter's frames", "f_globals": "the interpreter's frames",
    "_getframe": "the interpreter's frames", "_fork_exec": "subprocess's private fork_exec",
    "fork_exec": "subprocess's private fork_exec",
    # issue 40: what switches off the grader's watch of torch (its function mode) during a call
    "DisableTorchFunction": "torch's function-mode switch", "_pop_torch_function_stack": "torch's function modes",
    "_set_torch_function_mode": "torch's function modes", "_pop_mode": "torch's function modes",
    "_pop_mode_temporarily": "torch's function modes",
    "_DisableTorchDispatch": "torch's dispatch switch", "_unset_dispatch_mode": "torch's dispatch modes",
}
SUSPICIOUS_DOTTED = {"sys.modules": "sys.modules"}
SUSPICIOUS_NAMES = {
    "__builtins__": "the builtins", "builtins": "the builtins", "ctypes": "ctypes",
    "sqlite3": "sqlite3 (the gradebook)", "_posixsubprocess": "_posixsubprocess",
}
SUSPICIOUS_MODULES = ("ctypes", "sqlite3", "_posixsubprocess", "_ctypes")
PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun", "debug"}


@dataclass(frozen=True)
class Finding:
    kind: str        # "borrowed" or "tampering"
    exercise: str    # the exercise it concerns ("" for tampering)
    detail: str


@functools.lru_cache(maxsize=1024)
def parse(source: str) -> ast.AST | None:
    """Parse a cell as IPython runs it (magics become ``get_ipython()`` calls; the body of a
    Python cell magic such as ``%%time`` is parsed as the code it is); None if not Python.

    The readings of a submission parse each cell several times, and most cells are the same in
    every submission of a batch, so trees are cached: callers read them and never modify them."""
    from IPython.core.inputtransformer2 import TransformerManager

    stripped = source.lstrip()
    if stripped.startswith("%%"):
        first, _, body = stripped.partition("\n")
        magic = first[2:].split()[0] if first[2:].split() else ""
        if magic in PYTHON_CELL_MAGICS:
            return parse(body)
    try:
        return ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def defined_names(source: str) -> list[str]:
    """The functions and classes a (source) solution cell defines: the exercises it holds."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))]


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        parts.append(_dotted(node.func) + "()")
    return ".".join(reversed(parts))


def _is_library(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in LIBRARY_MODULES


def _aliases(trees: list[ast.AST]) -> dict[str, str]:
    """Local name -> module it stands for, from every import in the notebook."""
    out = dict(DEFAULT_ALIASES)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        out[a.asname] = a.name
                    else:
                        out[a.name.split(".")[0]] = a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    if a.name != "*":
                        out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _module_exports(module: str, name: str) -> bool:
    """Whether ``from module import *`` binds ``name`` (imports the library, trusted)."""
    import importlib

    try:
        mod = importlib.import_module(module)
    except Exception:  # noqa: BLE001 - an unknown module binds nothing we know of
        return False
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in vars(mod) if not n.startswith("_")]
    return name in names


# ---------------------------------------------------------------------------------------------
# Borrowed answers

def _top_level(tree: ast.AST):
    """Statements run when the cell runs, in order (inside if/for/with/try blocks too, not
    inside function or class bodies)."""
    stack = list(reversed(getattr(tree, "body", [])))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith)):
            children = []
            for field in ("body", "orelse", "finalbody"):
                children.extend(getattr(node, field, []) or [])
            for h in getattr(node, "handlers", []) or []:
                children.extend(h.body)
            stack.extend(reversed(children))


def _body_uses(node: ast.AST, exercise: str, aliases: dict[str, str]) -> str | None:
    """A library version of ``exercise`` used inside the body of ``node`` (a def or class)."""
    forbidden = {exercise} | EXTRA_FORBIDDEN.get(exercise, set())
    parts = list(node.body) + (list(node.bases) if isinstance(node, ast.ClassDef) else [])
    for part in parts:
        for sub in ast.walk(part):
            if isinstance(sub, ast.Attribute) and sub.attr in forbidden:
                base = _dotted(sub.value)
                if base.split(".")[0] not in ("self", "cls") and not base.startswith("super()"):
                    return _dotted(sub)
            elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                target = aliases.get(sub.id, "")
                if _is_library(target) and target.rsplit(".", 1)[-1] in forbidden:
                    return target
            elif isinstance(sub, ast.ImportFrom) and _is_library(sub.module) and any(
                    a.name in forbidden for a in sub.names):
                return f"{sub.module}.{next(a.name for a in sub.names if a.name in forbidden)}"
    return None


def _binding(stmt: ast.AST, exercise: str, aliases: dict[str, str]) -> tuple[bool, str | None] | None:
    """If ``stmt`` binds ``exercise``: (True, why it is borrowed) or (True, None) for an honest
    binding; None if it does not bind it."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.name == exercise:
        used = _body_uses(stmt, exercise, aliases)
        if isinstance(stmt, ast.ClassDef):
            for base in stmt.bases:
                name = _dotted(base)
                target = aliases.get(name.split(".")[0], "")
                full = target + name[len(name.split(".")[0]):] if target else name
                if _is_library(full.split(".")[0]) and full.rsplit(".", 1)[-1] in (
                        {exercise} | EXTRA_FORBIDDEN.get(exercise, set())):
                    return True, f"{exercise} subclasses the library's `{name}` instead of being written"
        if used:
            return True, f"{exercise} uses the library's `{used}` instead of its own code"
        return True, None
    if isinstance(stmt, ast.ImportFrom):
        for a in stmt.names:
            if (a.asname or a.name) == exercise:
                if _is_library(stmt.module):
                    return True, f"{exercise} is imported from {stmt.module} instead of written"
                return True, None
            if a.name == "*" and stmt.module and _is_library(stmt.module) and _module_exports(stmt.module, exercise):
                return True, f"{exercise} comes from `from {stmt.module} import *` instead of being written"
    if isinstance(stmt, ast.Import):
        for a in stmt.names:
            if (a.asname or a.name.split(".")[0]) == exercise:
                return True, (f"{exercise} is the library module {a.name}" if _is_library(a.name) else None)
    targets = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and stmt.value is not None:
        targets = [stmt.target]
    names = {t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)}
    if exercise in names:
        value = stmt.value
        forbidden = {exercise} | EXTRA_FORBIDDEN.get(exercise, set())
        for sub in ast.walk(value):
            name = _dotted(sub) if isinstance(sub, (ast.Attribute, ast.Name)) else ""
            if not name:
                continue
            root = name.split(".")[0]
            full = aliases.get(root, "") + name[len(root):] if aliases.get(root) else name
            if _is_library(full.split(".")[0]) and full.rsplit(".", 1)[-1] in forbidden:
                return True, f"{exercise} is rebound to the library's `{name}`"
        return True, None
    return None


def borrowed_in_notebook(sources: list[str], exercises: list[str]) -> dict[str, str]:
    """``{exercise: why}`` for exercises whose effective binding (the last one run, in notebook
    order, in any cell) is a library's version of it."""
    trees = [t for t in (parse(s) for s in sources) if t is not None]
    aliases = _aliases(trees)
    found: dict[str, str] = {}
    for exercise in exercises:
        verdict = None
        for tree in trees:
            for stmt in _top_level(tree):
                b = _binding(stmt, exercise, aliases)
                if b is not None:
                    verdict = b[1]
        if verdict:
            found[exercise] = verdict
    return found


def borrowed(source: str, exercises: list[str]) -> list[Finding]:
    """Borrowed answers in one cell (see :func:`borrowed_in_notebook`)."""
    return [Finding("borrowed", e, d) for e, d in borrowed_in_notebook([source], exercises).items()]


# ---------------------------------------------------------------------------------------------
# Tampering

def _resolve(dotted: str, aliases: dict[str, str]):
    """The object a dotted name stands for in the libraries (imported here, trusted), or a
    sentinel when it cannot be resolved."""
    import importlib

    parts = dotted.split(".")
    module = aliases.get(parts[0])
    if module is None:
        return _UNKNOWN
    try:
        obj = importlib.import_module(module)
    except Exception:  # noqa: BLE001
        try:
            head, _, attr = module.rpartition(".")
            obj = getattr(importlib.import_module(head), attr)
        except Exception:  # noqa: BLE001
            return _UNKNOWN
    for p in parts[1:]:
        try:
            obj = getattr(obj, p)
        except Exception:  # noqa: BLE001
            return _UNKNOWN
    return obj


_UNKNOWN = object()


def _is_patch(dotted: str, aliases: dict[str, str]) -> bool:
    """Whether assigning ``dotted`` replaces library behaviour (a function, class or module)
    rather than writing configuration (a flag, a number, a dict entry)."""
    root = dotted.split(".")[0]
    if root in ("self", "cls") or root not in aliases:
        return False
    target = aliases[root]
    if target.startswith(("attnlab.checks", "attnlab.course", "builtins", "IPython")) or root in ("sys", "builtins"):
        return True
    obj = _resolve(dotted, aliases)
    if obj is _UNKNOWN:  # a new attribute on a library: only suspicious on the grader's side
        return False
    return callable(obj) or type(obj).__name__ == "module"


def tampering(source: str, exercises: list[str], aliases: dict[str, str] | None = None) -> list[Finding]:
    """Patching libraries or reaching into the grader, in a cell the learner wrote or changed."""
    tree = parse(source)
    if tree is None:
        return []
    aliases = aliases if aliases is not None else _aliases([tree])
    return _unique(tampering_rest(tree, aliases, exercises))


def tampering_in_notebook(sources: list[str], exercises: list[str]) -> list[Finding]:
    trees = [t for t in (parse(s) for s in sources) if t is not None]
    aliases = _aliases(trees)
    out = []
    for tree in trees:
        out.extend(tampering_rest(tree, aliases, exercises))
    return _unique(out)


def tampering_rest(tree: ast.AST, aliases, exercises: list[str]) -> list[Finding]:
    if isinstance(aliases, set):  # the old signature: a set of imported names
        aliases = {**DEFAULT_ALIASES, **{n: n for n in aliases}}
    findings = []
    public_checks = set()  # `attnlab.checks` inside a call of a public check (`attnlab.checks.check_softmax(f)`)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr.startswith("check_"):
            root = _dotted(node).split(".")[0]
            if (aliases.get(root, root) + _dotted(node)[len(root):]).startswith("attnlab.checks.check_"):
                public_checks.update(id(n) for n in ast.walk(node.value))
    for node in ast.walk(tree):
        if id(node) in public_checks:
            continue
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        for target in targets:
            elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            for t in elts:  # only the attribute itself: `m[np.tril_indices(n)] = x` patches nothing
                if isinstance(t, ast.Attribute) and _is_patch(_dotted(t), aliases):
                    findings.append(Finding("tampering", "", f"patches `{_dotted(t)}`"))
        if isinstance(node, ast.Call) and _dotted(node.func) in ("setattr", "delattr") and node.args:
            base = _dotted(node.args[0])
            if base and base.split(".")[0] in aliases and base.split(".")[0] not in ("self", "cls"):
                findings.append(Finding("tampering", "", f"patches `{base}` with {_dotted(node.func)}"))
        if isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            if node.attr in SUSPICIOUS_ATTRIBUTES and not (node.attr == "events" and not dotted.startswith("get_ipython")):
                findings.append(Finding("tampering", "", f"touches {SUSPICIOUS_ATTRIBUTES[node.attr]} (`{dotted}`)"))
            if dotted in SUSPICIOUS_DOTTED:
                findings.append(Finding("tampering", "", f"touches {SUSPICIOUS_DOTTED[dotted]} (`{dotted}`)"))
            root = dotted.split(".")[0]
            full = aliases.get(root, root) + dotted[len(root):]
            if full.startswith(("attnlab.checks", "attnlab.course")) and not (
                    full.startswith("attnlab.checks.check_") and isinstance(node.ctx, ast.Load)):
                findings.append(Finding("tampering", "", f"reaches into the grader (`{full}`)"))
        if isinstance(node, ast.Name) and node.id in SUSPICIOUS_NAMES:
            findings.append(Finding("tampering", "", f"touches {SUSPICIOUS_NAMES[node.id]} (`{node.id}`)"))
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in SUSPICIOUS_MODULES or alias.name.startswith(
                        ("attnlab.checks._", "attnlab.course")):
                    findings.append(Finding("tampering", "", f"imports {alias.name}"))
        if isinstance(node, ast.ImportFrom) and node.module and (
                node.module.startswith(("attnlab.checks._", "attnlab.course"))
                or node.module.split(".")[0] in SUSPICIOUS_MODULES):
            findings.append(Finding("tampering", "", f"imports from {node.module}"))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                "attnlab.course" in node.value or "attnlab.checks._" in node.value):
            findings.append(Finding("tampering", "", "names the grader's modules in a string"))
    return findings


def _unique(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in findings:
        if f not in seen:
            seen.add(f)
            out.append(f)
    return out


# ---------------------------------------------------------------------------------------------
# What the sandbox watches at run time

def runtime_targets(exercise: str) -> list[tuple[str, str]]:
    """``(module, attribute)`` of the library versions of ``exercise`` the sandbox replaces by
    tripwires while it calls the learner's ``exercise`` (those that exist are used)."""
    names = [exercise] + sorted(EXTRA_FORBIDDEN.get(exercise, set()))
    out = [(m, n) for n in names for m in _LIBRARY_HOMES]
    if exercise == "softmax":
        out.append(("torch.Tensor", "softmax"))
    return out
