"""The import graph of ``attnlab`` (issue 42): no circle, the trusted grader never imports the
module that runs learner code, and an import inside a function says why it is there.

The graph has one edge per ``import`` statement between two modules of the package, wherever the
statement sits (module top or inside a function: a function-level import is a dependency all the
same). A package's ``__init__`` is the module of the package itself; importing a submodule does not
count as importing its parent package (Python runs the parent first, but depends on nothing in it).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "attnlab"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]):
    """(imported module, statement, inside a function) for each import of a module of the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    inside = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(id(n) for n in ast.walk(fn) if n is not fn)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        for target in targets:
            if target in modules and target != name:
                yield target, node, id(node) in inside


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: {t for t, _, _ in _imports(name, path, modules)} for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_checker_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_package_has_no_import_circle():
    found = circles(_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_graph_sees_every_module():
    graph = _graph()
    assert {"attnlab.checks._core", "attnlab.checks._run", "attnlab.course.grading",
            "attnlab.course.stages.judge", "attnlab.course.wire"} <= set(graph)
    assert "attnlab.checks._core" in graph["attnlab.checks._run"]  # an edge the checker must see
    assert "attnlab.course.wire" in graph["attnlab.course.stages.judge"]


def test_nothing_imports_the_module_that_runs_learner_code():
    """The trusted side (the grader, the judge, the warm workers) starts the sandbox as a program
    (``python -m attnlab.course.sandbox``) and shares only :mod:`attnlab.course.wire` with it."""
    graph = _graph()
    importers = sorted(name for name, targets in graph.items() if "attnlab.course.sandbox" in targets)
    assert importers == [], importers


# The sandbox's own parts, kept in modules of their own: the sandbox's side only, like the sandbox.
SANDBOX_PARTS = ("attnlab.course.borrowing", "attnlab.course.kernel_state")


def trusted_importers(graph: dict[str, set[str]]) -> list[str]:
    """``"importer -> part"`` for every module but the sandbox that imports one of its parts."""
    return sorted(f"{name} -> {part}" for name, targets in graph.items() for part in SANDBOX_PARTS
                  if part in targets and name != "attnlab.course.sandbox")


def test_the_checker_finds_a_trusted_importer_of_a_sandbox_part():
    graph = {"attnlab.course.sandbox": {"attnlab.course.borrowing", "attnlab.course.kernel_state"},
             "attnlab.course.grading": {"attnlab.course.kernel_state"}}
    assert trusted_importers(graph) == ["attnlab.course.grading -> attnlab.course.kernel_state"]
    assert trusted_importers({"attnlab.course.sandbox": set(SANDBOX_PARTS)}) == []


def test_only_the_sandbox_imports_its_parts():
    """The sandbox's parts (:mod:`attnlab.course.borrowing`, :mod:`attnlab.course.kernel_state`)
    run on the learner's side: the sandbox imports them, nothing on the trusted side does."""
    graph = _graph()
    assert set(SANDBOX_PARTS) <= graph["attnlab.course.sandbox"], graph["attnlab.course.sandbox"]
    found = trusted_importers(graph)
    assert found == [], found


@pytest.mark.parametrize("where", ["attnlab.course", "attnlab.checks"])
def test_an_import_inside_a_function_of_the_package_says_why(where):
    """Imports sit at the module's top; one inside a function (a lazy heavy library, or a module
    that is only needed on one path) carries a comment on its line or the line above."""
    modules = _modules()
    silent = []
    for name, path in modules.items():
        if not name.startswith(where):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for _, node, inside in _imports(name, path, modules):
            if not inside:
                continue
            line, above = lines[node.lineno - 1], lines[node.lineno - 2].strip() if node.lineno > 1 else ""
            if "#" not in line and not above.startswith("#"):
                silent.append(f"{path.relative_to(SRC)}:{node.lineno}: {line.strip()}")
    assert not silent, "imports inside functions with no comment saying why:\n" + "\n".join(silent)
