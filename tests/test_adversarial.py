"""Grading an instructor can trust: the adversarial corpus (``tests/adversarial.py``) graded in one
batch beside correct submissions.

Asserts: the batch finishes; the correct submissions get full marks; no cheat scores on the
exercise it cheated; each submission gets the right status (one row per notebook in
``grades.csv``); nothing outside each submission's throwaway copy changed; regrading gives the
same scores.
"""
from __future__ import annotations

import csv
import hashlib

import pytest

import adversarial as adv
import coursekit as ck

pytestmark = pytest.mark.notebooks

GRADING_OUTPUTS = ("autograde/gradebook.db", "autograde/autograded", "autograde/feedback",
                   "autograde/grades.csv", "autograde/.grading")


def snapshot(course):
    """A hash of every file of the course that grading must not change."""
    digest = {}
    for path in sorted(course.rglob("*")):
        rel = path.relative_to(course).as_posix()
        if rel.startswith(GRADING_OUTPUTS):
            continue
        if path.is_symlink():  # a link a submission holds: where it points, not what (grading updates the gradebook)
            digest[rel] = "link to " + str(path.readlink())
        elif path.is_file():
            digest[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest


def _rows(course):
    with open(course / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        return {r["student_id"]: r for r in csv.DictReader(fh)}


def _modes():
    """Both isolation modes: the full corpus under bubblewrap (where the host has it) and a
    sample under the in-process guard (hosts without user namespaces); without bubblewrap the
    full corpus runs under the guard."""
    from attnlab.course import boundary

    if boundary._probe().isolated:
        return ["bwrap", "guard"]
    return ["guard"]


GUARD_SAMPLE = {"read_solutions", "dir_fd", "fork_exec_new_session", "shadow_json_module", "symlinked_notebook",
                "fifos", "kim lee", "kim_lee", "honest_configuration", "honest_shell_and_tmp", "calls_reference",
                "getattr_reference", "vandal", "sqlite_gradebook", "late", "syntax_error",
                "stub_allclose", "corrupted_json"}


@pytest.fixture(scope="module", params=_modes())
def graded(request, tmp_path_factory):
    mode = request.param
    course = ck.make_course(tmp_path_factory.mktemp(f"adversarial-{mode}"))
    proc = ck.course_command(course, "release", adv.ASSIGNMENT)
    assert proc.returncode == 0, proc.stderr
    adv.set_duedate(course, adv.ASSIGNMENT, "2026-01-01 00:00:00 UTC")
    full = mode == "bwrap" or _modes() == ["guard"]
    corpus = adv.build_corpus(course, correct=2, mode=mode, names=None if full else GUARD_SAMPLE)
    before = snapshot(course)
    env = {"ATTNLAB_ISOLATION": mode}
    proc = ck.course_command(course, "grade", "--jobs", "2", "--cell-timeout", "10", "--timeout", "90", env=env)
    return course, corpus, before, proc, mode


def test_batch_finishes(graded):
    course, corpus, _, proc, mode = graded
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert len(adv.attacks()) >= 50
    if mode == "guard":
        assert "NOT ISOLATED" in proc.stderr
        assert all("not isolated" in r["detail"] for r in _rows(course).values()
                   if r["status"] not in ("missing notebook", "malformed notebook"))
    else:
        assert "ran under bubblewrap" in proc.stderr


def test_nothing_outlives_grading(graded):
    """No process started by a submission (the private fork_exec, a new session) is left."""
    import os

    left = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if adv.MARKER.encode() in fh.read():
                    left.append(pid)
        except OSError:
            pass
    assert not left, f"processes of a submission outlived grading: {left}"


def test_one_row_per_submission_with_the_right_status(graded):
    course, corpus, _, _, mode = graded
    rows = _rows(course)
    assert set(rows) == {student for student, _ in corpus}
    wrong = {}
    for student, attack in corpus:
        expected = attack.expected(mode) if attack else "graded"
        if rows[student]["status"] != expected:
            wrong[student] = (rows[student]["status"], expected, rows[student]["detail"][:200])
    assert not wrong, "status (got, expected, detail): " + repr(wrong)
    for student, attack in corpus:
        if attack and attack.status != "graded":
            assert rows[student]["detail"], f"{student}: a {attack.status} with no word of why"


def test_scores(graded):
    course, corpus, _, _, mode = graded
    source = ck.load(ck.solution_path(adv.ASSIGNMENT))
    full = ck.max_points(source)
    cells_of = adv.exercise_cells(source)
    scores = ck.cell_scores(course, adv.ASSIGNMENT)
    rows = _rows(course)
    for student, attack in corpus:
        got = scores.get(student, {})
        if attack is None:
            assert got == full, f"{student} (correct) lost points: {got}"
            continue
        for exercise in attack.zero:
            for gid in cells_of[exercise]:
                assert got.get(gid, 0) == 0, f"{attack.name} scored {got.get(gid)} on {gid}"
        for exercise in attack.full:
            for gid in cells_of[exercise]:
                assert got.get(gid) == full[gid], f"{attack.name} lost the points of {gid}: {got.get(gid)}"
        assert float(rows[student]["score"]) == sum(got.values())


def test_nothing_outside_the_copies_changed(graded):
    course, _, before, _, mode = graded
    assert snapshot(course) == before
    assert (course.parent / "canary.txt").read_text() == "must survive grading"


def test_feedback_explains_without_revealing_hidden_tests(graded):
    course, corpus, _, _, mode = graded
    text = ck.feedback_text(course, "x_calls_reference", adv.ASSIGNMENT)
    assert "attnlab.softmax" in text and "BEGIN HIDDEN TESTS" not in text and "hidden=True" not in text
    assert "malformed notebook" in ck.feedback_text(course, "x_corrupted_json", adv.ASSIGNMENT)


def test_regrading_gives_the_same_scores(graded):
    course, _, _, _, mode = graded
    if mode != "bwrap" and "bwrap" in _modes():
        pytest.skip("regrading is checked once, under bubblewrap")
    first = ck.cell_scores(course, adv.ASSIGNMENT)
    students = ["correct00", "x_syntax_error", "x_calls_reference", "x_stub_allclose"]
    args = [a for s in students for a in ("--student", s)]
    proc = ck.course_command(course, "grade", *args, "--no-feedback", env={"ATTNLAB_ISOLATION": mode})
    assert proc.returncode == 0, proc.stderr[-2000:]
    again = ck.cell_scores(course, adv.ASSIGNMENT)
    assert {s: again[s] for s in students} == {s: first[s] for s in students}
    assert set(_rows(course)) == set(first), "a regrade of some students dropped the others' rows"
