"""``attnlab-course export``: the gradebook as Canvas's and Moodle's grade import CSVs, one row
per learner, scores from the gradebook (manual grades included), formula cells escaped, ids
mapped by a roster, and bad input refused with a message naming what was wrong."""
from __future__ import annotations

import csv

import pytest

import classbook as cb
import coursekit as ck
from attnlab.course import cli

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


def test_canvas_has_its_columns_points_row_and_one_row_per_learner(course, monkeypatch, tmp_path):
    out = tmp_path / "canvas.csv"
    assert _export(course, monkeypatch, "--format", "canvas", "--output", str(out)) == 0
    rows = _read(out)
    assert rows[0] == ["Student", "ID", "SIS User ID", "Section", *ASSIGNMENTS]
    # Canvas's "Points Possible" row: each assignment's points, from the gradebook or solutions/
    assert rows[1][0].strip() == "Points Possible"
    assert rows[1][4] == f"{cb.FULL:g}"
    assert all(float(p) > 0 for p in rows[1][5:])
    learners = rows[2:]
    ids = [r[2] for r in learners]
    assert sorted(ids) == sorted(["'=bob", "alice", "carol", "dave<script>"])  # once each; =bob escaped
    for r in learners:
        sid = r[2][1:] if r[2].startswith("'") else r[2]
        assert r[0] == r[2]  # no roster: the student id names the learner too
        assert r[1] == "" and r[3] == ""  # Canvas's own user id and the section need a roster
        assert float(r[4]) == cb.EXPECTED[sid]  # bob's 1 is the manual score from formgrader
        assert r[5:] == [""] * (len(ASSIGNMENTS) - 1)  # nothing submitted: empty, not 0


def test_moodle_has_an_identifier_and_a_column_per_grade_item(course, monkeypatch, tmp_path):
    out = tmp_path / "moodle.csv"
    assert _export(course, monkeypatch, "--format", "moodle", "--output", str(out)) == 0
    rows = _read(out)
    assert rows[0] == ["ID number", "Username", "Email address", "Full name", *ASSIGNMENTS]
    assert len(rows) == 1 + len(cb.EXPECTED)  # no points row in Moodle's format
    got = {r[1]: r for r in rows[1:]}
    assert set(got) == {"'=bob", "alice", "carol", "dave<script>"}
    assert got["carol"][:4] == ["carol", "carol", "", "carol"]
    assert [float(got[k][4]) for k in ("alice", "'=bob", "carol", "dave<script>")] == [12.0, 1.0, 11.0, 0.0]


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
