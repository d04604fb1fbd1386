"""``attnlab-course export``: the gradebook as Canvas's and Moodle's grade import CSVs, one row
per learner, a column per graded assignment, scores from the gradebook (manual grades included),
every status other than ``graded`` in the last column, formula cells escaped, ids mapped by a
roster, an id that could pass for another row refused, and bad input refused with a message
naming what was wrong."""
from __future__ import annotations

import csv
import shutil

import pytest

import classbook as cb
import coursekit as ck
from pathlib import Path

from attnlab.course import cli, escape

ASSIGNMENTS = ck.assignments()


pytestmark = pytest.mark.xdist_group("lms_export")  # the module's fixture is built once, on one worker


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return cb.build(tmp_path_factory.mktemp("lms"))


def _export(course, monkeypatch, *args):
    monkeypatch.setenv("ATTNLAB_COURSE_ROOT", str(course))
    return cli.main(["export", *args])


def _read(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


STATUS = "attnlab status"


def test_canvas_has_its_columns_points_row_and_one_row_per_learner(course, monkeypatch, tmp_path, capsys):
    out = tmp_path / "canvas.csv"
    assert _export(course, monkeypatch, "--format", "canvas", "--output", str(out)) == 0
    rows = _read(out)
    # only the graded assignment is a column (the class submitted 01 only), then the statuses
    assert rows[0] == ["Student", "ID", "SIS User ID", "Section", cb.ASSIGNMENT, STATUS]
    # Canvas's "Points Possible" row: each assignment's points, from the gradebook or solutions/
    assert rows[1][0].strip() == "Points Possible"
    assert rows[1][4:] == [f"{cb.FULL:g}", ""]
    learners = rows[2:]
    ids = [r[2] for r in learners]
    assert sorted(ids) == sorted(["'=bob", "alice", "carol", "dave<script>"])  # once each; =bob escaped
    for r in learners:
        sid = r[2][1:] if r[2].startswith("'") else r[2]
        assert r[0] == r[2]  # no roster: the student id names the learner too
        assert r[1] == "" and r[3] == ""  # Canvas's own user id and the section need a roster
        assert float(r[4]) == cb.EXPECTED[sid]  # bob's 1 is the manual score from formgrader
        # dave's 0 is a timeout, not a blank notebook: the row says so
        assert r[5] == (f"{cb.ASSIGNMENT}: timed out" if sid == "dave<script>" else "")
    assert "1 submission(s) with a status other than graded" in capsys.readouterr().err


def test_every_assignment_on_request_and_no_status_column_on_request(course, monkeypatch, tmp_path, capsys):
    out = tmp_path / "canvas.csv"
    assert _export(course, monkeypatch, "--format", "canvas", "--output", str(out), "--all-assignments",
                   "--no-status-column") == 0
    rows = _read(out)
    assert rows[0] == ["Student", "ID", "SIS User ID", "Section", *ASSIGNMENTS]
    assert all(float(p) > 0 for p in rows[1][4:])
    for r in rows[2:]:
        assert r[5:] == [""] * (len(ASSIGNMENTS) - 1)  # nothing submitted: empty, not 0
    err = capsys.readouterr().err
    assert "no status column written" in err and f"'dave<script>' {cb.ASSIGNMENT}: timed out" in err


def test_moodle_has_an_identifier_and_a_column_per_grade_item(course, monkeypatch, tmp_path):
    out = tmp_path / "moodle.csv"
    assert _export(course, monkeypatch, "--format", "moodle", "--output", str(out)) == 0
    rows = _read(out)
    assert rows[0] == ["ID number", "Username", "Email address", "Full name", cb.ASSIGNMENT, STATUS]
    assert len(rows) == 1 + len(cb.EXPECTED)  # no points row in Moodle's format
    got = {r[1]: r for r in rows[1:]}
    assert set(got) == {"'=bob", "alice", "carol", "dave<script>"}
    assert got["carol"][:4] == ["carol", "carol", "", "carol"]
    assert [float(got[k][4]) for k in ("alice", "'=bob", "carol", "dave<script>")] == [12.0, 1.0, 11.0, 0.0]
    assert [got[k][5] for k in ("alice", "'=bob", "carol")] == ["", "", ""]
    assert got["dave<script>"][5] == f"{cb.ASSIGNMENT}: timed out"


@pytest.fixture
def scratch(course, tmp_path):
    """A copy of the graded class, to add learners and statuses to."""
    return Path(shutil.copytree(course, tmp_path / "scratch"))


def _add(course, student, status, assignment=cb.ASSIGNMENT, score=0.0):
    """A learner known to the gradebook, with a stored status (as `make grade` leaves them)."""
    from nbgrader.api import Gradebook

    from attnlab.course import records
    from attnlab.course.stages.handoff import Result

    with Gradebook("sqlite:///" + str(course / "autograde" / "gradebook.db")) as gb:
        gb.update_or_create_student(student)
    records.store(course, [Result(student, assignment, f"{assignment}.ipynb", status, score, cb.FULL)])


@pytest.mark.parametrize("fmt", ["canvas", "moodle"])
def test_every_status_reaches_the_export_and_only_graded_assignments_are_columns(scratch, monkeypatch,
                                                                                 tmp_path, fmt):
    statuses = ["tampering detected", "kernel died", "malformed notebook", "missing notebook", "grader error",
                "late", "out of memory"]
    for i, status in enumerate(statuses):
        _add(scratch, f"learner{i}", status)
    other = ASSIGNMENTS[1]
    _add(scratch, "erin", "timed out", assignment=other, score=1.0)  # graded, only in the store
    out = tmp_path / f"{fmt}.csv"
    assert _export(scratch, monkeypatch, "--format", fmt, "--output", str(out)) == 0
    rows = _read(out)
    assert rows[0][4:] == [cb.ASSIGNMENT, other, STATUS]  # no column for what no one handed in
    got = {r[1 if fmt == "moodle" else 2]: r[-1] for r in rows[1:]}
    for i, status in enumerate(statuses):
        assert got[f"learner{i}"] == f"{cb.ASSIGNMENT}: {status}"
    assert got["erin"] == f"{other}: timed out"
    assert got["alice"] == "" and got["dave<script>"] == f"{cb.ASSIGNMENT}: timed out"


FORGERS = ["Points Possible", "    points possible", "x\n    Points Possible,,,,12", "a\rb", "tab\there",
           "line\u2028sep", "rtl\u202eoverride", "iso\u2066late"]


@pytest.mark.parametrize("sid", FORGERS)
def test_a_learner_id_never_forges_a_canvas_row(scratch, monkeypatch, tmp_path, capsys, sid):
    _add(scratch, sid, "graded", score=12.0)
    out = tmp_path / "canvas.csv"
    capsys.readouterr()
    assert _export(scratch, monkeypatch, "--format", "canvas", "--output", str(out)) == 0
    err = capsys.readouterr().err
    warning = next(line for line in err.splitlines() if line.startswith("warning: left out"))
    assert repr(escape.shown(sid)) in warning and "--roster" in warning and warning.isprintable()  # named, how to fix
    rows = _read(out)  # left out alone: the rest of the class is written, and no row is forged
    assert [r[0].strip() for r in rows].count("Points Possible") == 1
    assert len(rows) == 2 + len(cb.EXPECTED) and all(sid not in r for r in rows)
    # mapped by a roster to their LMS identity, the learner is exported, under that identity
    roster = tmp_path / "roster.csv"
    with open(roster, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["student_id", "name", "sis_id"], [sid, "Kim Lee", "S042"]])
    assert _export(scratch, monkeypatch, "--format", "canvas", "--output", str(out), "--roster", str(roster)) == 0
    rows = _read(out)
    assert [r[0].strip() for r in rows].count("Points Possible") == 1 and rows[1][0].strip() == "Points Possible"
    assert next(r for r in rows if r[2] == "S042")[:5] == ["Kim Lee", "", "S042", "", "12"]


@pytest.mark.parametrize("fmt", ["canvas", "moodle"])
def test_formula_comma_and_quote_ids_stay_one_row_each(scratch, monkeypatch, tmp_path, fmt):
    tricky = ["=HYPERLINK(\"http://x\")", "+1+2", "-cmd", "@SUM(A1)", 'a,"b",c', "Student"]
    for sid in tricky:
        _add(scratch, sid, "graded", score=3.0)
    if fmt == "moodle":
        _add(scratch, "Points Possible", "graded", score=3.0)  # no such row in Moodle's format: plain data
    out = tmp_path / f"{fmt}.csv"
    assert _export(scratch, monkeypatch, "--format", fmt, "--output", str(out)) == 0
    rows = _read(out)
    assert len({len(r) for r in rows}) == 1  # every row as wide as the header: no cell spilled
    assert len(rows) == (2 if fmt == "canvas" else 1) + len(cb.EXPECTED) + len(tricky) + (fmt == "moodle")
    names = [r[1 if fmt == "moodle" else 2] for r in rows[1:]]
    for sid in tricky:
        written = "'" + sid if sid[0] in "=+-@" else sid
        assert names.count(written) == 1, (sid, names)
    assert not any(n and n[0] in "=+-@" for n in names)  # no cell a spreadsheet would run


def test_roster_maps_ids_and_formula_cells_are_escaped(course, monkeypatch, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "\ufeffStudent_ID,name,canvas_id,sis_id,section,email,username,id_number\n"  # Excel's BOM, any case
        "carol,\"Diaz, Carol\",1003,S003,-2,carol@uni.example,cdiaz,7003\n"
        "alice,@SUM(A1:A9),1001,+S001,A,alice@uni.example,asmith,7001\n"
        "frank,Frank Roe,1006,S006,B,frank@uni.example,froe,7006\n",  # on the roster, nothing submitted
        encoding="utf-8")
    out = tmp_path / "canvas.csv"
    assert _export(course, monkeypatch, "--format", "canvas", "--output", str(out), "--roster", str(roster)) == 0
    rows = {r[2]: r for r in _read(out)[2:]}
    assert rows["S003"][:5] == ["Diaz, Carol", "1003", "S003", "-2", "11"]  # -2 is a number: kept
    assert rows["'+S001"][:5] == ["'@SUM(A1:A9)", "1001", "'+S001", "A", "12"]  # formulas quoted
    assert rows["S006"][:4] == ["Frank Roe", "1006", "S006", "B"] and set(rows["S006"][4:]) == {""}
    assert rows["dave<script>"][0] == "dave<script>"  # not on the roster: its own id
    assert len(rows) == 5
    out = tmp_path / "moodle.csv"
    assert _export(course, monkeypatch, "--format", "moodle", "--output", str(out), "--roster", str(roster)) == 0
    rows = {r[1]: r for r in _read(out)[1:]}
    assert rows["cdiaz"][:5] == ["7003", "cdiaz", "carol@uni.example", "Diaz, Carol", "11"]
    assert rows["asmith"][3] == "'@SUM(A1:A9)"


def test_bad_input_is_refused_with_a_clear_message(course, monkeypatch, tmp_path, capsys):
    out = str(tmp_path / "x.csv")
    with pytest.raises(SystemExit) as exc:
        _export(course, monkeypatch, "--format", "blackboard", "--output", out)
    assert exc.value.code == 2 and "invalid choice: 'blackboard'" in capsys.readouterr().err
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nalice,Alice\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        _export(course, monkeypatch, "--format", "canvas", "--output", out, "--roster", str(roster))
    assert "no student_id column" in str(exc.value.code) and str(roster) in str(exc.value.code)
    roster.write_text("student_id,name\nalice,A\nalice,B\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        _export(course, monkeypatch, "--format", "canvas", "--output", out, "--roster", str(roster))
    assert "'alice' appears twice" in str(exc.value.code)
    with pytest.raises(SystemExit) as exc:
        _export(course, monkeypatch, "--format", "canvas", "--output", out, "--roster", str(tmp_path / "none.csv"))
    assert "no such file" in str(exc.value.code)
    empty = ck.make_course(tmp_path / "empty")  # a course never graded: no gradebook
    with pytest.raises(SystemExit) as exc:
        _export(empty, monkeypatch, "--format", "moodle", "--output", out)
    assert "no gradebook at" in str(exc.value.code) and "make grade" in str(exc.value.code)
    assert not (empty / "autograde" / "gradebook.db").exists()  # and none was made by asking
