"""What instructors read after ``make grade``: the course's CSV built from nbgrader's gradebook,
manual grades kept across regrades, ``nbgrader export`` writing the same CSV, due dates from the
instructor's file, and the CLI's defaults matching the Makefile."""
from __future__ import annotations

import csv
import os
import re
import subprocess
import sys

import pytest

import coursekit as ck
from attnlab.course import records

ASSIGNMENT = "01_weighted_averages"
# a 1x1 PNG, as a learner's plot would be embedded
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return {r["student_id"]: r for r in csv.DictReader(fh)}


def _nbgrader(course, *args):
    env = dict(os.environ, ATTNLAB_COURSE_ROOT=str(course),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course / "autograde", env=env,
                          capture_output=True, text=True, timeout=300)


def test_needs_manual_grade_rule():
    # nbgrader's rule: no automatic score -> a person must grade it
    assert records.needs_manual_grade(None, None, None, False)
    assert not records.needs_manual_grade(2.0, None, 0.0, True)
    # a reviewed manual score stays reviewed while the automatic score does not move ...
    assert not records.needs_manual_grade(0.0, 2.0, 0.0, False)
    # ... and asks for review again when it does, or when it was never reviewed
    assert records.needs_manual_grade(2.0, 1.0, 0.0, False)
    assert records.needs_manual_grade(0.0, 2.0, 0.0, True)


@pytest.mark.notebooks
def test_manual_grade_reaches_the_csv_and_survives_a_regrade(tmp_path):
    from nbgrader.api import Gradebook

    course = ck.make_course(tmp_path)
    wrong = next(w for w in ck.catalogue(ASSIGNMENT) if w.solution == "softmax")
    alice = ck.completed_student_notebook(ASSIGNMENT)
    own = next(c for c in alice["cells"] if c["cell_type"] == "code" and not ck.nbg(c))
    own["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "alice was here\n"},
                      {"output_type": "display_data", "metadata": {}, "data": {"image/png": PNG, "text/plain": "<Figure>"}},
                      {"output_type": "display_data", "data": "not a mime bundle"}]
    ck.submit(course, "alice", ASSIGNMENT, alice)
    ck.submit(course, "bob", ASSIGNMENT, ck.completed_student_notebook(ASSIGNMENT, {"softmax": wrong.code}))
    proc = ck.course_command(course, "grade", ASSIGNMENT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    full = ck.max_points(ck.load(ck.solution_path(ASSIGNMENT)))
    csv_path = course / "autograde" / "grades.csv"
    rows = _rows(csv_path)
    header = next(csv.reader(open(csv_path, encoding="utf-8")))
    assert header[: len(records.CSV_FIELDS)] == records.CSV_FIELDS
    assert header[len(records.CSV_FIELDS):] == list(full), "one column per grade cell, in notebook order"
    assert rows["alice"]["detail"] == "" and float(rows["alice"]["score"]) == sum(full.values())
    lost = wrong.fails[0]
    assert float(rows["bob"][lost]) == 0 and float(rows["bob"]["score"]) < sum(full.values())
    assert f"lost points: {lost} 0/" in rows["bob"]["detail"] and wrong.message in rows["bob"]["detail"]
    assert rows["bob"]["needs_manual_grade"] == "no"

    # feedback a learner can read: exercise names, wrapping lines, MathJax from disk, own outputs
    feedback = course / "autograde" / "feedback"
    page = (feedback / "bob" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
    assert "Test cell" not in page and ">softmax: normalises along any axis, for any shape</a>" in page
    assert "white-space: pre-wrap" in page and "cdnjs" not in page
    # (in a folder no student id can take: a student called "mathjax" once collided with it)
    assert 'src="../../.mathjax/MathJax.js?config=' in page and (feedback / ".mathjax" / "MathJax.js").is_file()
    page = (feedback / "alice" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
    assert "alice was here" in page and f"data:image/png;base64,{PNG}" in page

    # formgrader's way of giving a manual score (its API handler does exactly this)
    db = "sqlite:///" + str(course / "autograde" / "gradebook.db")
    with Gradebook(db) as gb:
        grade = gb.find_grade(lost, ASSIGNMENT, ASSIGNMENT, "bob")
        grade.manual_score = full[lost]
        grade.needs_manual_grade = False
        gb.db.commit()

    # `nbgrader export` writes the course's CSV (same columns), with the manual score
    csv_path.unlink()
    proc = _nbgrader(course, "export")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = _rows(csv_path)
    assert float(rows["bob"][lost]) == full[lost]
    assert f"{lost} graded by hand: {full[lost]:g}/{full[lost]:g} (automatic 0)" in rows["bob"]["detail"]
    assert set(rows) == {"alice", "bob"} and rows["bob"]["status"] == "graded"

    # regrading keeps the manual score, and the reviewed cell is not flagged again
    proc = ck.course_command(course, "grade", ASSIGNMENT, "--student", "bob")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = _rows(csv_path)
    assert float(rows["bob"][lost]) == full[lost] and rows["bob"]["needs_manual_grade"] == "no"
    assert set(rows) == {"alice", "bob"}
    with Gradebook(db) as gb:
        grade = gb.find_grade(lost, ASSIGNMENT, ASSIGNMENT, "bob")
        assert grade.manual_score == full[lost] and grade.auto_score == 0 and not grade.needs_manual_grade
    # nbgrader's own format is still one flag away
    other = course / "nbgrader-format.csv"
    proc = _nbgrader(course, "export", "--exporter=nbgrader.plugins.CsvExportPlugin", f"--to={other}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "raw_score" in other.read_text().splitlines()[0]


def test_cli_default_jobs_match_the_makefile():
    makefile = (ck.ROOT / "Makefile").read_text()
    jobs = int(re.search(r"^JOBS\s*\?=\s*(\d+)", makefile, re.M).group(1))
    from attnlab.course import cli

    assert cli.DEFAULT_JOBS == jobs
    proc = subprocess.run([sys.executable, "-m", "attnlab.course.cli", "grade", "--help"],
                          capture_output=True, text=True)
    assert f"(default: {jobs})" in proc.stdout


def test_plain_generate_assignment_writes_the_committed_format(tmp_path):
    """`nbgrader generate_assignment` run by hand writes notebooks/ exactly as `make release`."""
    course = ck.make_course(tmp_path)
    target = course / "notebooks" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    target.write_text("{}")
    proc = _nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert target.read_bytes() == ck.release_path(ASSIGNMENT).read_bytes()


def test_due_dates_file_is_applied_and_checked(tmp_path, monkeypatch):
    from nbgrader.api import Gradebook

    # nbgrader runs `alembic` from PATH when it creates a gradebook
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    from attnlab.course import release

    course = ck.make_course(tmp_path)
    (course / "autograde" / "due_dates.csv").write_text(
        f"name,duedate\n{ASSIGNMENT},2026-12-01 23:59:00 UTC\n02_query_key_value,\n")
    dates = release.apply_due_dates(course)
    assert str(dates[ASSIGNMENT]) == "2026-12-01 23:59:00" and dates["02_query_key_value"] is None
    with Gradebook("sqlite:///" + str(course / "autograde" / "gradebook.db")) as gb:
        assert str(gb.find_assignment(ASSIGNMENT).duedate) == "2026-12-01 23:59:00"
    for text, word in ((f"name,duedate\n{ASSIGNMENT},next friday\n", "next friday"),
                       ("name,duedate\n99_nothing,2026-12-01\n", "99_nothing"),
                       ("assignment,due\n", "name,duedate")):
        (course / "autograde" / "due_dates.csv").write_text(text)
        with pytest.raises(SystemExit, match=word):
            release.read_due_dates(course)


def test_clean_grading_keeps_the_gradebook_aside(tmp_path):
    course = tmp_path / "c"
    (course / "autograde" / "feedback" / "s").mkdir(parents=True)
    (course / "autograde" / "grades.csv").write_text("x")
    (course / "autograde" / "gradebook.db").write_text("db")
    (course / "autograde" / "grading.log").write_text("log")
    (course / "autograde" / "report").mkdir()
    proc = subprocess.run(["make", "-s", "-f", str(ck.ROOT / "Makefile"), "clean-grading"], cwd=course,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "deleting" in proc.stdout and "moved autograde/gradebook.db" in proc.stdout
    assert not (course / "autograde" / "feedback").exists() and not (course / "autograde" / "grades.csv").exists()
    assert not (course / "autograde" / "grading.log").exists() and not (course / "autograde" / "report").exists()
    (backup,) = (course / "autograde" / "backups").glob("gradebook-*.db")
    assert backup.read_text() == "db"


@pytest.mark.parametrize("value, written", [
    ("=1+2", "'=1+2"), ("+cmd", "'+cmd"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "\\x09x"),
    ("\rx", "\\x0dx"), ("a\nb", "a\\x0ab"), ("=\x1b]0;t\x07", "'=\\x1b]0;t\\x07"), ("\uff1d1", "'\uff1d1"),
    ("-0.5", "-0.5"), ("12", "12"), ("1e-3", "1e-3"), ("", ""),
    ("graded", "graded"), ("kim lee", "kim lee"), (None, ""), (2.5, "2.5")])
def test_csv_cells_a_spreadsheet_would_run_are_quoted(value, written):
    assert records.csv_cell(value) == written


def test_saved_outputs_and_markdown_are_made_inert():
    from attnlab.course import safehtml

    pwn = "window.x = 1"
    data = safehtml.safe_data({"text/html": f"<script>{pwn}</script><b onclick='{pwn}'>b</b><table><tr><td>1</td></tr></table>",
                               "application/javascript": pwn, "text/plain": "x",
                               "image/svg+xml": f"<svg onload='{pwn}'/>", "image/png": f'"><script>{pwn}</script>',
                               "application/vnd.jupyter.widget-view+json": {"model_id": "m"}})
    assert set(data) == {"text/html", "text/plain"}
    assert "script" not in data["text/html"] and "onclick" not in data["text/html"] and "<td>1</td>" in data["text/html"]
    svg = safehtml.safe_data({"image/svg+xml": f"<svg onload='{pwn}'/>"})["text/html"]
    assert svg.startswith('<img src="data:image/svg+xml;base64,')  # an image: its scripts never run
    assert safehtml.safe_data({"text/markdown": {"not": "text"}, "image/png": {"x": 1}}) == {}
    page = safehtml.safe_markdown_cell(f"$a < b$ and $$\\sum_i w_i = 1$$ <img src=x onerror='{pwn}'>\n\n"
                                       "[x](javascript:alert(1))\n\n```\nx\n\ny\n```")
    assert "$a &lt; b$" in page and "$$\\sum_i w_i = 1$$" in page and "\n" not in page
    assert "onerror" not in page and "href" not in page and ">x</a>" in page and "x&#10;&#10;y" in page
    assert safehtml.safe_outputs([{"output_type": "stream", "name": "stdout", "text": {"x": 1}}, "junk",
                                  {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["t"]}]) == [
        {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["t"]}]
