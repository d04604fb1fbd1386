"""The nbgrader pipeline, end to end, on a scratch copy of the course (``make grade``'s command):

* the completed student notebook gets full marks; the untouched one gets 0;
* submissions made of the catalogue's wrong implementations lose the points of the cells each
  must fail, and their feedback names the mistake;
* the feedback never shows hidden tests; ``grades.csv`` has a row per submission;
* the concept checks' answers (before and after) are recorded as the learner wrote them.
"""
from __future__ import annotations

import csv
import json
import re

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


def _answer_the_concept_checks(nb: dict) -> dict[str, dict[str, str]]:
    """Fill the notebook's concept checks (before: every question "a"; after: the right options)
    and return what the grader must record."""
    from attnlab import concepts

    cells = nb["cells"]
    name = next(c for c in cells if c["cell_type"] == "code" and "concepts.ask(" in "".join(c["source"]))
    notebook = re.search(r"ask\(\s*[\"']([^\"']+)", "".join(name["source"])).group(1)
    bank = concepts.bank(notebook)
    answers = {"before": {q.id: "a" for q in bank.questions}, "after": {q.id: q.right for q in bank.questions}}
    for cell in cells:
        text = "".join(cell["source"]) if cell["cell_type"] == "code" else ""
        for when, given in answers.items():
            if re.match(rf"(#.*\n)*concepts_{when} = \{{\}}", text):
                cell["source"] = text.replace(f"concepts_{when} = {{}}", f"concepts_{when} = {given!r}")
    return answers


@pytest.mark.parametrize("assignment", ck.assignments())
def test_autograde_scores_and_feedback(assignment, tmp_path):
    course = ck.make_course(tmp_path)
    rounds = _wrong_rounds(assignment)
    complete = ck.completed_student_notebook(assignment)
    answered = _answer_the_concept_checks(complete)
    ck.submit(course, "complete", assignment, complete)
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

    # the concept checks' answers are recorded as the learner gave them (before and after), and
    # only the learner's own: the untouched notebook answered none
    stored = json.loads((course / "autograde" / ".grading" / "results.json").read_text(encoding="utf-8"))
    recorded = {r["student_id"]: r.get("concepts") for r in stored if r["assignment"] == assignment}
    assert recorded["complete"] == answered, recorded["complete"]
    assert not any((recorded["untouched"] or {}).values()), recorded["untouched"]

    with open(course / "autograde" / "grades.csv", newline="") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh) if r["assignment"] == assignment}
    assert set(rows) == {"complete", "untouched", *(f"wrong{k}" for k in range(len(rounds)))}
    assert float(rows["complete"]["score"]) == sum(full.values())
    assert float(rows["untouched"]["score"]) == 0


def test_plain_nbgrader_autograde_with_the_course_config(tmp_path):
    """Instructors may also run `nbgrader autograde` themselves: the configuration must still
    give full marks to a correct notebook even when it writes to stderr (IgnorePattern), restore
    deleted test cells, and give 0 to the untouched notebook."""
    import os
    import subprocess
    import sys

    assignment = "01_weighted_averages"
    course = ck.make_course(tmp_path)
    noisy = ck.completed_student_notebook(assignment, {"softmax": (
        "import sys\n"
        "def softmax(x, axis=-1):\n"
        "    print('debugging softmax', file=sys.stderr)\n"
        "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n")})
    ck.submit(course, "noisy", assignment, noisy)
    blank = ck.load(ck.release_path(assignment))
    blank["cells"] = [c for c in blank["cells"] if ck.nbg(c).get("grade_id") != "test_softmax"]
    ck.submit(course, "deleted", assignment, blank)
    env = dict(os.environ, ATTNLAB_COURSE_ROOT=str(course),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    for step in (["generate_assignment", assignment, "--force"], ["autograde", assignment, "--force"]):
        proc = subprocess.run([sys.executable, "-m", "nbgrader", *step], cwd=course / "autograde",
                              env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    full = ck.max_points(ck.load(ck.solution_path(assignment)))
    scores = ck.cell_scores(course, assignment)
    assert scores["noisy"] == full
    assert set(scores["deleted"]) == set(full) and not any(scores["deleted"].values())
