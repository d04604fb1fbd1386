"""Everything the course imports is declared in pyproject.toml, where the code that imports it is
installed: the library and every notebook need only the base dependencies (``pip install attnlab``
on Colab, say), the instructor's tools the ``course`` and ``site`` extras, the tests and benchmarks
the ``test`` extra. The imports are read from the code (every ``import`` statement, lazy ones
included, and every notebook's code cells), not listed by hand."""
from __future__ import annotations

import ast
import functools
import importlib.metadata
import json
import re
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from coursekit import ROOT
from test_environment import _project

# Which extras each part of the repository may rely on (base = "").
GROUPS = {
    "library": ("src/attnlab/**/*.py", ("",)),
    "course tools": ("src/attnlab/course/**/*.py", ("", "course", "site")),
    "notebooks": ("solutions/*/*.ipynb", ("",)),
    "student notebooks": ("notebooks/*/*.ipynb", ("",)),
    "tests": ("tests/**/*.py", ("", "course", "site", "test")),
    "benchmarks": ("benchmarks/**/*.py", ("", "course", "site", "test")),
    "tools": ("tools/**/*.py", ("", "test")),
    "deploy": ("deploy/**/*.py", ("", "course", "test")),
}
MAGIC = re.compile(r"^\s*[%!].*$", re.M)


def _sources(pattern: str):
    for path in sorted(ROOT.glob(pattern)):
        if "__pycache__" in path.parts or ".venv" in path.parts:
            continue
        if pattern.startswith("src/attnlab/**") and "course" in path.relative_to(ROOT / "src" / "attnlab").parts[:1]:
            continue  # the library proper; attnlab.course is its own group
        if path.suffix == ".ipynb":
            nb = json.loads(path.read_text(encoding="utf-8"))
            for cell in nb["cells"]:
                if cell["cell_type"] == "code":
                    src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
                    yield path, MAGIC.sub("", src)
        else:
            yield path, path.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def imported_modules(source: str) -> frozenset[str]:
    """The top-level names of every absolute import in ``source``."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def _providers() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def _local_modules() -> set[str]:
    """Modules of the repository itself (attnlab, the tests' and benchmarks' helpers)."""
    names = {"attnlab"}
    for folder in ("tests", "benchmarks", "tools", "deploy"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix == ".py":
                names.add(path.stem)
            elif path.is_dir() and (path / "__init__.py").exists() or path.is_dir() and any(path.glob("*.py")):
                names.add(path.name)
    return names


def declared(project: dict) -> dict[str, set[str]]:
    """``{extra: {distribution}}`` with self-references (``attnlab[course,site]``) expanded."""
    raw = {"": list(project["dependencies"]), **project["optional-dependencies"]}
    me = canonicalize_name(project["name"])

    def expand(extra: str, seen=()) -> set[str]:
        out = set()
        for text in raw[extra]:
            req = Requirement(text)
            if canonicalize_name(req.name) == me:
                for sub in sorted(req.extras) + [""]:
                    if sub not in seen:
                        out |= expand(sub, (*seen, extra))
            else:
                out.add(canonicalize_name(req.name))
        return out

    return {extra: expand(extra) for extra in raw}


def undeclared(project: dict) -> list[str]:
    """One line per import that no declared distribution of its group provides."""
    providers = _providers()
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    local = _local_modules()
    extras = declared(project)
    problems = []
    for group, (pattern, allowed) in GROUPS.items():
        ok = set().union(*(extras.get(e, set()) for e in allowed))
        for path, source in _sources(pattern):
            for module in sorted(imported_modules(source) - stdlib - local):
                # not installed here: a package declared for other Pythons only (tomli on 3.10)
                dists = {canonicalize_name(d) for d in providers.get(module, [])} or {canonicalize_name(module)}
                where = f"{path.relative_to(ROOT)} ({group})"
                if not dists & ok:
                    problems.append(f"{where} imports {module} (from {', '.join(sorted(dists))}), "
                                    f"not declared in pyproject.toml for this part (extras {allowed})")
    return sorted(set(problems))


def test_every_import_is_declared():
    problems = undeclared(_project())
    assert not problems, "undeclared imports:\n" + "\n".join(problems)


@pytest.mark.parametrize("name, where", [
    ("scikit-learn", "06_attention_as_kernel_machine"),
    ("threadpoolctl", "08_efficient_attention"),
    ("nbformat", "src/attnlab/course"),
])
def test_removing_a_declaration_is_caught(name, where):
    """The test above can fail: drop one declaration and the code that imports it is named."""
    project = _project()
    stripped = {**project, "dependencies": [r for r in project["dependencies"] if Requirement(r).name != name],
                "optional-dependencies": {k: [r for r in v if Requirement(r).name != name]
                                          for k, v in project["optional-dependencies"].items()}}
    problems = undeclared(stripped)
    assert any(where in p for p in problems), f"removing {name} went unnoticed: {problems[:5]}"


def test_a_notebook_may_not_rely_on_an_extra():
    """Notebooks run where only the base install is (a Colab runtime): an import of the course
    extra's nbformat in a notebook cell is reported even though nbformat is declared."""
    project = _project()
    extras = declared(project)
    assert "nbformat" in extras["course"] and "nbformat" not in extras[""]
    assert imported_modules("import nbformat\nfrom sklearn.svm import SVC\n") == {"nbformat", "sklearn"}
