"""The nbgrader pipeline, end to end, on a scratch copy of the course (``make grade``'s command):

* the completed student notebook gets full marks; the untouched one gets 0;
* submissions made of the catalogue's wrong implementations lose the points of the cells each
  must fail, and their feedback names the mistake;
* the feedback never shows hidden tests; ``grades.csv`` has a row per submission.
"""
from __future__ import annotations

import csv

import pytest

import coursekit as ck

pytestmark = pytest.mark.notebooks


def _wrong_rounds(assignment: str) -> list[dict[str, ck.Wrong]]:
    """Round k replaces every exercise by its k-th wrong implementation (where it has one)."""
    by_exercise: dict[str, list[ck.Wrong]] = {}
    for wrong in ck.catalogue(assignment):
        by_exercise.setdefault(wrong.solution, []).append(wrong)
    depth = max(len(v) for v in by_exercise.values())
    return [{ex: ws[k] for ex, ws in by_exercise.items() if k < len(ws)} for k in range(depth)]


@pytest.mark.parametrize("assignment", ck.assignments())
def test_autograde_scores_and_feedback(assignment, tmp_path):
    course = ck.make_course(tmp_path)
    rounds = _wrong_rounds(assignment)
    ck.submit(course, "complete", assignment, ck.completed_student_notebook(assignment))
    ck.submit(course, "untouched", assignment, ck.load(ck.release_path(assignment)))
    for k, entries in enumerate(rounds):
        replace = {ex: w.code for ex, w in entries.items()}
        ck.submit(course, f"wrong{k}", assignment, ck.completed_student_notebook(assignment, replace))

    proc = ck.course_command(course, "grade", assignment)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    source = ck.load(ck.solution_path(assignment))
    full = ck.max_points(source)
    scores = ck.cell_scores(course, assignment)
    assert scores["complete"] == full, "the completed notebook lost points"
    assert set(scores["untouched"]) == set(full) and not any(scores["untouched"].values()), \
        f"the untouched notebook scored: {scores['untouched']}"
    for k, entries in enumerate(rounds):
        student = f"wrong{k}"
        feedback = ck.feedback_text(course, student, assignment)
        for wrong in entries.values():
            for gid in wrong.fails:
                assert scores[student][gid] == 0, f"{wrong.name} kept the points of {gid}"
            assert wrong.message in feedback, f"the feedback does not name {wrong.message!r}"
        assert "BEGIN HIDDEN TESTS" not in feedback and "hidden=True" not in feedback

    with open(course / "autograde" / "grades.csv", newline="") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh) if r["assignment"] == assignment}
    assert set(rows) == {"complete", "untouched", *(f"wrong{k}" for k in range(len(rounds)))}
    assert float(rows["complete"]["score"]) == sum(full.values())
    assert float(rows["untouched"]["score"]) == 0
