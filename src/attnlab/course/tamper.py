"""Static checks of a submission's code, run by the trusted grader (no learner code runs here).

Two kinds of findings, each a short sentence for the instructor and the learner:

* **borrowed answers**: a solution cell that calls the function it was asked to write from a
  library (``attnlab.softmax`` inside ``softmax``, ``F.scaled_dot_product_attention`` inside
  ``scaled_dot_product_attention``, ``nn.MultiheadAttention`` inside ``MultiHeadAttention``);
  the exercise scores zero.
* **tampering**: code anywhere in the submission that patches a library (``np.allclose = ...``),
  reaches into the grader or the interpreter (``attnlab.checks``, ``sys.modules``, builtins,
  IPython's transformers or exception handlers, ``sqlite3``, ``ctypes``), or rebinds an
  exercise's name to a library's function.

Only cells the learner wrote or changed are read (the notebook's own demo cells use the
references legitimately). A determined learner can hide a call from static analysis
(``getattr(m, "soft" + "max")``); the sandbox's audit hook and the isolated comparison cover much
of what it misses, and the README says what is not covered.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

# Library functions that implement an exercise under another name.
EXTRA_FORBIDDEN: dict[str, set[str]] = {
    "softmax": {"logsumexp"},
    "scaled_dot_product_attention": {"MultiheadAttention", "multi_head_attention_forward"},
    "multi_head_attention": {"MultiheadAttention", "multi_head_attention_forward"},
    "MultiHeadAttention": {"MultiheadAttention", "multi_head_attention_forward"},
    "kernel_ridge_fit": {"KernelRidge"},
    "kernel_ridge_predict": {"KernelRidge"},
}

LIBRARY_NAMES = {"np", "numpy", "attnlab", "at", "torch", "nn", "F", "math", "sys", "os",
                 "builtins", "IPython", "plt", "matplotlib", "scipy", "checks"}

SUSPICIOUS_ATTRIBUTES = {
    "modules": "sys.modules", "settrace": "sys.settrace", "setprofile": "sys.setprofile",
    "addaudithook": "an audit hook", "set_custom_exc": "IPython's exception handler",
    "input_transformers_post": "IPython's input transformers",
    "input_transformers_cleanup": "IPython's input transformers",
    "ast_transformers": "IPython's AST transformers", "excepthook": "sys.excepthook",
    "get_referrers": "the garbage collector", "showtraceback": "IPython's traceback display",
    "run_cell": "IPython's cell runner", "events": "IPython's event hooks",
}
SUSPICIOUS_NAMES = {
    "__builtins__": "the builtins", "builtins": "the builtins", "ctypes": "ctypes",
    "sqlite3": "sqlite3 (the gradebook)", "gc": "the garbage collector",
    "__import__": "__import__", "importlib": "importlib",
    "inspect": "the interpreter's frames",
}


@dataclass(frozen=True)
class Finding:
    kind: str        # "borrowed" or "tampering"
    exercise: str    # the exercise it concerns ("" for tampering)
    detail: str


def parse(source: str) -> ast.AST | None:
    """Parse a cell as IPython runs it (magics become ``get_ipython()`` calls); None if it is
    not valid Python."""
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        return ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError):
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
    return ".".join(reversed(parts))


def borrowed(source: str, exercises: list[str]) -> list[Finding]:
    """Calls of a library's version of an exercise inside the learner's solution cell."""
    tree = parse(source)
    if tree is None:
        return []
    findings = []
    for exercise in exercises:
        forbidden = {exercise} | EXTRA_FORBIDDEN.get(exercise, set())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in forbidden:
                base = _dotted(node.value)
                if base not in ("self", "cls", "super()"):
                    findings.append(Finding("borrowed", exercise,
                                            f"{exercise} uses the library's `{_dotted(node)}` instead of its own code"))
            elif isinstance(node, ast.ImportFrom) and any(a.name in forbidden for a in node.names):
                name = next(a.name for a in node.names if a.name in forbidden)
                findings.append(Finding("borrowed", exercise,
                                        f"{exercise} imports `{name}` from {node.module} instead of writing it"))
    return _unique(findings)


def tampering(source: str, exercises: list[str]) -> list[Finding]:
    """Patching libraries or reaching into the grader, in a cell the learner wrote or changed."""
    tree = parse(source)
    if tree is None:
        return []
    imported = set(LIBRARY_NAMES)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported |= {a.asname or a.name for a in node.names}
    return _unique(tampering_rest(tree, imported, exercises))


def tampering_rest(tree: ast.AST, imported: set[str], exercises: list[str]) -> list[Finding]:
    findings = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        for target in targets:
            for t in ast.walk(target):
                if isinstance(t, ast.Attribute) and _dotted(t).split(".")[0] in imported and _dotted(t).split(".")[0] != "self":
                    findings.append(Finding("tampering", "", f"patches `{_dotted(t)}`"))
        if isinstance(node, ast.Call) and _dotted(node.func) in ("setattr", "delattr") and node.args:
            base = _dotted(node.args[0])
            if base and base.split(".")[0] in imported:
                findings.append(Finding("tampering", "", f"patches `{base}` with {_dotted(node.func)}"))
        if isinstance(node, ast.Attribute) and node.attr in SUSPICIOUS_ATTRIBUTES:
            findings.append(Finding("tampering", "", f"touches {SUSPICIOUS_ATTRIBUTES[node.attr]} (`{_dotted(node)}`)"))
        if isinstance(node, ast.Name) and node.id in SUSPICIOUS_NAMES:
            findings.append(Finding("tampering", "", f"touches {SUSPICIOUS_NAMES[node.id]} (`{node.id}`)"))
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("ctypes", "sqlite3", "importlib", "gc") or alias.name.startswith(
                        ("attnlab.checks", "attnlab.course")):
                    findings.append(Finding("tampering", "", f"imports {alias.name}"))
        if isinstance(node, ast.ImportFrom) and node.module and (
                node.module.startswith(("attnlab.checks", "attnlab.course"))
                or node.module.split(".")[0] in ("ctypes", "sqlite3", "importlib", "gc")):
            findings.append(Finding("tampering", "", f"imports from {node.module}"))
        if isinstance(node, ast.Attribute) and _dotted(node).startswith(("attnlab.checks", "attnlab.course")):
            findings.append(Finding("tampering", "", f"reaches into the grader (`{_dotted(node)}`)"))
        if isinstance(node, ast.Assign):  # rebinding an exercise to a library function
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            value = _dotted(node.value) if isinstance(node.value, ast.Attribute) else ""
            for name in names:
                if name in exercises and value and value.split(".")[-1] in {name} | EXTRA_FORBIDDEN.get(name, set()):
                    findings.append(Finding("borrowed", name, f"{name} is rebound to the library's `{value}`"))
    return findings


def _unique(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in findings:
        if f not in seen:
            seen.add(f)
            out.append(f)
    return out
