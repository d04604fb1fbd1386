"""A tiny graded class for the export and report tests, built without the sandbox: notebook 01's
grade cells run in-process (as tests/test_catalogue.py runs them) on three learners' answers, and
their verdicts go into a scratch course's nbgrader gradebook and grading store through the same
functions ``make grade`` uses (records.record_in_gradebook, records.store).

The class: ``alice`` (the solution: full marks), ``=bob`` (the blank student notebook; a manual
score of 1 on ``test_softmax``), ``carol`` (a softmax without the max subtraction: loses
``test_softmax_stable``), ``dave<script>`` (timed out, with a detail a browser would run).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import coursekit as ck

ASSIGNMENT = "01_weighted_averages"
FULL = 12.0
EXPECTED = {"alice": 12.0, "=bob": 1.0, "carol": 11.0, "dave<script>": 0.0}
MISTAKE = "no max subtraction"
EVIL_DETAIL = "timed out after 60 s <img src=x onerror=alert(1)>"
SECONDS = {"alice": 3.0, "=bob": 2.0, "carol": 4.5, "dave<script>": 60.0}


def _verdicts(replace: dict[str, str]):
    from attnlab.course.stages.handoff import CellVerdict

    nb = ck.load(ck.solution_path(ASSIGNMENT))
    ns = ck.setup_namespace(nb)
    ck.run_solutions(nb, ns, replace)
    points = ck.max_points(nb)
    out = []
    for gid in ck.grade_cells(nb):
        exc = ck.run_grade_cell(nb, ns, gid)
        if exc is None:
            out.append(CellVerdict(gid, points[gid], points[gid], ["ok"], True))
        else:
            out.append(CellVerdict(gid, 0.0, points[gid], [str(exc)], False))
    return out


def build(tmp: Path) -> Path:
    """The scratch course with its gradebook and grading store; returns the course folder."""
    from nbgrader.api import Gradebook

    from attnlab.course import records
    from attnlab.course.stages.handoff import Result

    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    course = ck.make_course(tmp)
    solution = ck.load(ck.solution_path(ASSIGNMENT))
    student = ck.load(ck.release_path(ASSIGNMENT))
    stubs = {gid: c["source"] for gid, c in ck.solution_cells(student).items() if c["cell_type"] == "code"}
    wrong = next(w for w in ck.catalogue(ASSIGNMENT) if w.solution == "softmax" and w.message == MISTAKE)
    answers = {"alice": {}, "=bob": stubs, "carol": {"softmax": wrong.code}}
    results = []
    for who, replace in answers.items():
        cells = _verdicts(replace)
        results.append(Result(who, ASSIGNMENT, f"{ASSIGNMENT}.ipynb", "graded", sum(v.score for v in cells),
                              FULL, cells=cells, seconds=SECONDS[who]))
    points = ck.max_points(solution)
    timed_out = [_timed_out(gid, p) for gid, p in points.items()]
    results.append(Result("dave<script>", ASSIGNMENT, f"{ASSIGNMENT}.ipynb", "timed out", 0.0, FULL,
                          details=[EVIL_DETAIL], cells=timed_out, seconds=SECONDS["dave<script>"]))
    db = "sqlite:///" + str(course / "autograde" / "gradebook.db")
    with Gradebook(db) as gb:
        gb.update_or_create_assignment(ASSIGNMENT)
        gb.update_or_create_notebook(ASSIGNMENT, ASSIGNMENT)
        for gid, p in points.items():
            gb.update_or_create_grade_cell(gid, ASSIGNMENT, ASSIGNMENT, max_score=p, cell_type="code")
        for r in results:
            records.record_in_gradebook(gb, r, ASSIGNMENT)
        # an instructor's manual score in formgrader: 1 of 2 on bob's softmax
        grade = gb.find_grade("test_softmax", ASSIGNMENT, ASSIGNMENT, "=bob")
        grade.manual_score = 1.0
        gb.db.commit()
    records.store(course, results)
    return course


def _timed_out(gid: str, points: float):
    from attnlab.course.stages.handoff import CellVerdict

    return CellVerdict(gid, 0.0, points, ["the notebook timed out"], False)
