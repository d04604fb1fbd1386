"""Helpers the course tests share: find notebooks, run their cells in-process, build
submissions, autograde them with nbgrader in a scratch copy of the course.

Authoring rule that makes in-process checking possible: a grade cell depends only on the
notebook's read-only (setup) cells and its solution cells, never on an ordinary code cell.
"""
from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
RELEASE = ROOT / "notebooks"


@dataclass(frozen=True)
class Wrong:
    """A wrong implementation of one exercise, written the way a learner would write it.

    ``solution``: the grade_id of the solution cell it replaces. ``code``: the cell's new source.
    ``fails``: grade_ids of the test cells that must lose their points. ``message``: a piece of
    the mistake's name that the failing check's message must contain.
    """

    solution: str
    code: str
    fails: tuple[str, ...]
    message: str
    label: str = ""

    @property
    def name(self) -> str:
        return f"{self.solution}:{self.label or self.message}"


def assignments() -> list[str]:
    return sorted(p.name for p in SOLUTIONS.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def solution_path(assignment: str) -> Path:
    return SOLUTIONS / assignment / f"{assignment}.ipynb"


def release_path(assignment: str) -> Path:
    return RELEASE / assignment / f"{assignment}.ipynb"


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def nbg(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def grade_cells(nb: dict) -> dict[str, dict]:
    return {nbg(c)["grade_id"]: c for c in nb["cells"] if nbg(c).get("grade") and c["cell_type"] == "code"}


def solution_cells(nb: dict) -> dict[str, dict]:
    return {nbg(c)["grade_id"]: c for c in nb["cells"] if nbg(c).get("solution")}


PREDICTION_PREFIX = "predict_"  # solution cells holding a predict-then-run answer, not code


def is_prediction(grade_id: str) -> bool:
    """A prediction's solution cell is ``predict_x``; its grade cell ``test_predict_x``."""
    return grade_id.startswith((PREDICTION_PREFIX, "test_" + PREDICTION_PREFIX))


def exercises(nb: dict) -> dict[str, dict]:
    """The code exercises: solution code cells that are not predictions."""
    return {gid: c for gid, c in solution_cells(nb).items()
            if c["cell_type"] == "code" and not is_prediction(gid)}


def predictions(nb: dict) -> dict[str, dict]:
    """The predict-then-run questions' solution cells."""
    return {gid: c for gid, c in solution_cells(nb).items() if is_prediction(gid)}


def catalogue(assignment: str) -> list[Wrong]:
    """The wrong implementations of a notebook's exercises: every mistake and example of its
    cards (:mod:`attnlab.cards`)."""
    from attnlab.cards import cards_of

    return [Wrong(c.solution, code, fails, message, label)
            for c in cards_of(assignment) for code, fails, message, label in c.wrong_versions()]


def card_of(assignment: str, solution: str):
    """The cards of one solution cell."""
    from attnlab.cards import cards_of

    return [c for c in cards_of(assignment) if c.solution == solution]


def assignment_module(assignment: str) -> str:
    return "nb" + assignment  # module names cannot start with a digit


def setup_namespace(nb: dict) -> dict:
    """Run the notebook's read-only code cells (its imports and fixed data) in a fresh namespace."""
    ns: dict = {"__name__": "__notebook__"}
    os.environ.setdefault("MPLBACKEND", "Agg")
    for cell in nb["cells"]:
        meta = nbg(cell)
        if cell["cell_type"] == "code" and meta.get("locked") and not meta.get("grade") and not meta.get("solution"):
            exec(compile(cell["source"], f"<setup {meta.get('grade_id')}>", "exec"), ns)
    return ns


def run_solutions(nb: dict, ns: dict, replace: dict[str, str] | None = None) -> dict:
    """Run every solution cell (or its replacement) in ``ns``."""
    for gid, cell in solution_cells(nb).items():
        if cell["cell_type"] != "code":
            continue
        source = (replace or {}).get(gid, cell["source"])
        exec(compile(source, f"<solution {gid}>", "exec"), ns)
    return ns


def run_grade_cell(nb: dict, ns: dict, grade_id: str) -> BaseException | None:
    """Run one grade cell (visible and hidden tests); return the exception it raised, if any."""
    source = grade_cells(nb)[grade_id]["source"]
    try:
        exec(compile(source, f"<tests {grade_id}>", "exec"), ns)
    except BaseException as exc:  # noqa: BLE001 - a failing test is an outcome here
        return exc
    return None


# ---------------------------------------------------------------------------------------------
# Submissions and nbgrader

def with_replacements(nb: dict, replace: dict[str, str]) -> dict:
    """A copy of ``nb`` whose solution cells named in ``replace`` get new source."""
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        gid = nbg(cell).get("grade_id")
        if gid in replace:
            cell["source"] = replace[gid]
    return nb


def completed_student_notebook(assignment: str, replace: dict[str, str] | None = None) -> dict:
    """The released student notebook with every stub filled by the solution's code (or by a
    replacement), as a learner would submit it."""
    student = load(release_path(assignment))
    solutions = {gid: c["source"] for gid, c in solution_cells(load(solution_path(assignment))).items()}
    solutions.update(replace or {})
    return with_replacements(student, solutions)


def make_course(tmp: Path) -> Path:
    """A scratch copy of the course (config, solutions, release) to grade in."""
    course = tmp / "course"
    (course / "autograde").mkdir(parents=True)
    shutil.copy(ROOT / "autograde" / "nbgrader_config.py", course / "autograde")
    shutil.copytree(SOLUTIONS, course / "solutions", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    shutil.copytree(RELEASE, course / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    return course


def submit(course: Path, student: str, assignment: str, nb: dict | str | bytes) -> Path:
    folder = course / "autograde" / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{assignment}.ipynb"
    if isinstance(nb, dict):
        path.write_text(json.dumps(nb), encoding="utf-8")
    elif isinstance(nb, bytes):
        path.write_bytes(nb)
    else:
        path.write_text(nb, encoding="utf-8")
    return path


def course_command(course: Path, *args: str, timeout: int = 900,
                   env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run ``attnlab-course ARGS`` on the scratch course (``env``: extra variables)."""
    env = dict(os.environ, ATTNLAB_COURSE_ROOT=str(course), PYTHONUNBUFFERED="1", **(env or {}))
    env.pop("NBGRADER_EXECUTION", None)
    return subprocess.run([sys.executable, "-m", "attnlab.course.cli", *args], cwd=course,
                          env=env, text=True, capture_output=True, timeout=timeout)


def cell_scores(course: Path, assignment: str) -> dict[str, dict[str, float]]:
    """``{student: {grade_id: score}}`` from the scratch course's gradebook."""
    from nbgrader.api import Gradebook

    out: dict[str, dict[str, float]] = {}
    with Gradebook("sqlite:///" + str(course / "autograde" / "gradebook.db")) as gb:
        for submission in gb.assignment_submissions(assignment):
            for notebook in submission.notebooks:
                out[submission.student_id] = {g.name: float(g.score) for g in notebook.grades}
    return out


def max_points(nb: dict) -> dict[str, float]:
    return {gid: float(nbg(c)["points"]) for gid, c in grade_cells(nb).items()}


def feedback_text(course: Path, student: str, assignment: str) -> str:
    import html
    import re

    path = course / "autograde" / "feedback" / student / assignment / f"{assignment}.html"
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))


def recorded_spec(check, hidden: bool):
    """The :class:`~attnlab.checks.CheckSpec` a check builds, without running it."""
    import pytest

    from attnlab.checks._run import SpecRecorded, SpecRecorder

    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        check(recorder, hidden=hidden)
    return recorder.spec


def mistakes_not_told_apart(checks, hidden: bool, *, crash_loses_points: bool) -> list[str]:
    """Catalogued mistakes of one exercise's checks that give the reference's answer on every
    case. A mistake that crashes on every case is structural (it loses its points anyway); with
    ``crash_loses_points`` a crash on some case counts as told apart too."""
    from attnlab.checks._core import call, matches

    caught: dict[str, bool] = {}
    for spec in (recorded_spec(check, hidden) for check in checks):
        refs = [call(spec.reference, case) for case in spec.cases]
        assert all(r.error is None for r in refs), spec.exercise
        for mistake in spec.mistakes:
            outs = [call(mistake.impl, case) for case in spec.cases]
            if all(o.error is not None for o in outs):
                caught[mistake.name] = caught.get(mistake.name, True) if not crash_loses_points else True
                continue
            hit = any((crash_loses_points and o.error is not None and o.error != "NotApplicable")
                      or (o.error is None and not matches(o.value, r.value, rtol=spec.rtol, atol=spec.atol))
                      for o, r in zip(outs, refs))
            caught[mistake.name] = caught.get(mistake.name, False) or hit
    return [name for name, ok in caught.items() if not ok]


def beneath_the_allow_list(monkeypatch) -> None:
    """Grade with the interpreter's allow-list off (``job["gate"]``, which only the grader's job sets):
    these probes reach the kernel with ctypes and fork, which the allow-list refuses first; what is
    tested here is the kernel's layer beneath it, for code that got past the interpreter."""
    from attnlab.course.stages import run as run_stage

    real = run_stage.prepare

    def prepare(*args, **kwargs):
        job = real(*args, **kwargs)
        job.spec["gate"] = False
        return job

    monkeypatch.setattr(run_stage, "prepare", prepare)
