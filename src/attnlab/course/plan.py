"""What grading an assignment means, worked out from the source notebook (trusted, once).

Each grade cell of a source notebook is a docstring followed by calls ``check_x(name)`` and
``check_x(name, hidden=True)``. For every call, the check is asked for its :class:`CheckSpec`
(inputs, reference, known mistakes) without running any learner code; the sandbox later calls
the learner's ``name`` on those inputs and the trusted grader judges the answers with the spec.
"""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path

import attnlab.checks as checks_module
from attnlab.checks import CheckSpec, SpecRecorded, SpecRecorder

from .tamper import defined_names


class PlanError(Exception):
    """The course itself cannot be graded in isolation (a grade cell of an unsupported form)."""


@dataclass
class CheckCall:
    check: str
    learner_name: str
    hidden: bool
    spec: CheckSpec
    first_id: int = 0  # id of its first case's call in the sandbox job


@dataclass
class GradeCell:
    grade_id: str
    points: float
    calls: list[CheckCall]


@dataclass
class AssignmentPlan:
    assignment: str
    notebook: str                       # file name, "<assignment>.ipynb"
    source: dict                        # the source notebook (solutions + hidden tests)
    release: dict                       # the student notebook
    grade_cells: list[GradeCell]
    exercises: dict[str, list[str]]     # solution grade_id -> names it defines
    setup: dict[str, str]               # readonly code cell grade_id -> source
    demo_sources: set[str] = field(default_factory=set)  # ordinary code cells as released
    preload: list[str] = field(default_factory=list)

    @property
    def max_score(self) -> float:
        return sum(c.points for c in self.grade_cells)

    @property
    def all_exercises(self) -> list[str]:
        return [name for names in self.exercises.values() for name in names]


def _nbg(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _spec_of(check_name: str, hidden: bool, grade_id: str) -> CheckSpec:
    fn = getattr(checks_module, check_name, None)
    if fn is None:
        raise PlanError(f"grade cell {grade_id}: attnlab.checks has no {check_name}")
    recorder = SpecRecorder()
    try:
        fn(recorder, hidden=hidden)
    except SpecRecorded:
        return recorder.spec
    raise PlanError(f"grade cell {grade_id}: {check_name} does not build on run_check, so it "
                    "cannot be run isolated")


def parse_grade_cell(grade_id: str, source: str) -> list[tuple[str, str, bool]]:
    """``[(check name, learner name, hidden)]`` for a grade cell of the supported form."""
    tree = ast.parse(source)
    calls = []
    for i, stmt in enumerate(tree.body):
        if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # the rubric docstring
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id.startswith("check_") and len(call.args) == 1
                and isinstance(call.args[0], ast.Name)):
            raise PlanError(f"grade cell {grade_id}: line {stmt.lineno} is not `check_x(name[, hidden=True])`")
        hidden = False
        for kw in call.keywords:
            if kw.arg != "hidden" or not isinstance(kw.value, ast.Constant):
                raise PlanError(f"grade cell {grade_id}: unsupported argument in line {stmt.lineno}")
            hidden = bool(kw.value.value)
        calls.append((call.func.id, call.args[0].id, hidden))
    if not calls:
        raise PlanError(f"grade cell {grade_id} calls no check")
    return calls


# What every sandbox imports before the learner's first cell (the cards define the checks); a
# notebook that uses torch, sklearn or scipy adds those.
BASE_PRELOAD = ("numpy", "matplotlib.pyplot", "attnlab", "attnlab.checks", "attnlab.cards")


def plan_assignment(root: Path, assignment: str) -> AssignmentPlan:
    notebook = f"{assignment}.ipynb"
    source = json.loads((root / "solutions" / assignment / notebook).read_text(encoding="utf-8"))
    release_path = root / "notebooks" / assignment / notebook
    release = json.loads(release_path.read_text(encoding="utf-8")) if release_path.exists() else source
    grade_cells, exercises, setup = [], {}, {}
    next_id = 0
    for cell in source["cells"]:
        meta = _nbg(cell)
        if cell["cell_type"] != "code":
            continue
        if meta.get("grade"):
            calls = []
            for check, name, hidden in parse_grade_cell(meta["grade_id"], cell["source"]):
                spec = _spec_of(check, hidden, meta["grade_id"])
                calls.append(CheckCall(check, name, hidden, spec, next_id))
                next_id += len(spec.cases)
            grade_cells.append(GradeCell(meta["grade_id"], float(meta["points"]), calls))
        elif meta.get("solution"):
            exercises[meta["grade_id"]] = defined_names(cell["source"])
        elif meta.get("locked"):
            setup[meta["grade_id"]] = cell["source"]
    demo = {c["source"] for c in release["cells"] if c["cell_type"] == "code" and not _nbg(c)}
    text = "\n".join(c["source"] for c in source["cells"] if c["cell_type"] == "code")
    preload = list(BASE_PRELOAD)
    for lib in ("torch", "sklearn", "scipy"):
        if lib in text:
            preload.append(lib if lib != "sklearn" else "sklearn.svm")
    if "torch" in text:
        preload.append("attnlab.torch")
    return AssignmentPlan(assignment, notebook, source, release, grade_cells, exercises, setup, demo, preload)


def job_calls(plan: AssignmentPlan) -> list[dict]:
    """The calls the sandbox makes: every case of every check call, numbered. A check that
    measures memory is called plainly here (its answer); the grader measures its memory in a
    process of its own (``stages.measure._measure_outside``), never trusting the learner's process."""
    out = []
    for cell in plan.grade_cells:
        for cc in cell.calls:
            outside = getattr(cc.spec.invoke, "measured_outside", None)
            invoke = outside[0] if outside else cc.spec.invoke
            for i, case in enumerate(cc.spec.cases):
                out.append({"id": cc.first_id + i, "name": cc.learner_name, "invoke": invoke,
                            "args": case.args, "kwargs": case.kwargs})
    return out
