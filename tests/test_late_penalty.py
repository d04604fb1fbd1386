"""The late-submission penalty (attnlab.course.late, configured in autograde/nbgrader_config.py):
late work loses exactly the configured points, on-time work loses nothing, no score goes below 0,
and the penalty reaches the gradebook, grades.csv, the detail and the feedback."""
from __future__ import annotations

import csv
import datetime as dt

import pytest

import coursekit as ck
from attnlab.course import late
from attnlab.course.stages.handoff import Result
from attnlab.course.stages.judge import mark_late

ASSIGNMENT = "01_weighted_averages"
UTC = dt.timezone.utc
DUE = dt.datetime(2026, 12, 1, 23, 59, tzinfo=UTC)


def _plugin(method: str, points: float = 0.0) -> late.LatePenalty:
    return late.LatePenalty(penalty_method=method, points=points)


def _result(score: float = 10.0, status: str = "graded") -> Result:
    return Result("bob", ASSIGNMENT, f"{ASSIGNMENT}.ipynb", status, score, 12.0)


def test_the_rules_count_started_periods_and_stop_at_the_score():
    hour, day = 3600.0, 86400.0
    assert late.penalty(_plugin("per_hour", 0.5), "bob", 10, 1) == 0.5          # a started hour counts
    assert late.penalty(_plugin("per_hour", 0.5), "bob", 10, hour) == 0.5
    assert late.penalty(_plugin("per_hour", 0.5), "bob", 10, hour + 1) == 1.0
    assert late.penalty(_plugin("per_day", 2), "bob", 10, 2 * day + hour) == 6.0
    assert late.penalty(_plugin("per_day", 2), "bob", 3, 30 * day) == 3.0       # never more than the score
    assert late.penalty(_plugin("zero"), "bob", 7.5, 1) == 7.5
    assert late.penalty(_plugin("none"), "bob", 10, 30 * day) == 0.0           # nbgrader's default
    assert late.penalty(_plugin("per_day", 2), "bob", 10, 0) == 0.0             # on time
    assert late.penalty(None, "bob", 10, day) == 0.0


def test_mark_late_takes_the_penalty_off_the_score_and_says_so():
    r = _result(10.0)
    mark_late(r, DUE + dt.timedelta(hours=25), DUE, _plugin("per_day", 3))      # 2 started days
    assert (r.status, r.score, r.late_penalty) == ("late", 4.0, 6.0)
    assert r.details[0] == ("submitted 25.0 hours after the due date: late penalty 6 point(s) "
                            "(3 point(s) per started day late)")

    on_time = _result(10.0)
    mark_late(on_time, DUE - dt.timedelta(minutes=1), DUE, _plugin("per_day", 3))
    assert (on_time.status, on_time.score, on_time.late_penalty, on_time.details) == ("graded", 10.0, 0.0, [])
    exactly = _result(10.0)
    mark_late(exactly, DUE, DUE, _plugin("per_day", 3))
    assert (exactly.score, exactly.late_penalty) == (10.0, 0.0)

    low = _result(2.0)
    mark_late(low, DUE + dt.timedelta(days=40), DUE, _plugin("per_day", 3))
    assert (low.score, low.late_penalty) == (0.0, 2.0), "a penalty never makes a score negative"

    default = _result(10.0)
    mark_late(default, DUE + dt.timedelta(days=3), DUE, late.load(ck.ROOT))
    assert (default.status, default.score, default.late_penalty) == ("late", 10.0, 0.0)
    assert default.details == ["submitted 3.0 days after the due date"]

    timed_out = _result(5.0, "timed out")                                     # late and timed out
    mark_late(timed_out, DUE + dt.timedelta(minutes=5), DUE, _plugin("per_hour", 1))
    assert (timed_out.status, timed_out.score) == ("timed out", 4.0) and "late penalty 1" in timed_out.details[0]


def test_the_course_configuration_is_the_one_nbgrader_uses(tmp_path):
    from nbgrader.preprocessors import AssignLatePenalties
    from traitlets.config.loader import PyFileConfigLoader

    plugin = late.load(ck.ROOT)
    assert isinstance(plugin, late.LatePenalty) and plugin.penalty_method == "none", \
        "the course's default is nbgrader's: no penalty"
    course = ck.make_course(tmp_path)
    config_file = course / "autograde" / "nbgrader_config.py"
    with open(config_file, "a", encoding="utf-8") as fh:
        fh.write('\nc.LatePenalty.penalty_method = "per_hour"\nc.LatePenalty.points = 0.25\n')
    plugin = late.load(course)
    assert (plugin.penalty_method, plugin.points) == ("per_hour", 0.25)
    # nbgrader's own step (plain `nbgrader autograde`) makes the same plugin from the same file
    step = AssignLatePenalties(config=PyFileConfigLoader("nbgrader_config.py", path=str(course / "autograde")).load_config())
    step.init_plugin()
    assert isinstance(step.plugin_inst, late.LatePenalty)
    assert step.plugin_inst.late_submission_penalty("bob", 10, 3 * 3600) == plugin.late_submission_penalty("bob", 10, 3 * 3600) == 0.75


@pytest.mark.notebooks
def test_make_grade_applies_the_penalty_to_gradebook_csv_and_feedback(tmp_path):
    from nbgrader.api import Gradebook

    course = ck.make_course(tmp_path)
    with open(course / "autograde" / "nbgrader_config.py", "a", encoding="utf-8") as fh:
        fh.write('\nc.LatePenalty.penalty_method = "per_day"\nc.LatePenalty.points = 1.5\n')
    (course / "autograde" / "due_dates.csv").write_text(f"name,duedate\n{ASSIGNMENT},2026-12-01 23:59:00 UTC\n")
    full = sum(ck.max_points(ck.load(ck.solution_path(ASSIGNMENT))).values())
    when = {"ontime": "2026-12-01 23:00:00.000000 UTC",
            "late": "2026-12-04 00:59:00.000000 UTC",        # 2 days 1 hour: 3 started days, 4.5 points
            "verylate": "2027-03-01 00:00:00.000000 UTC"}    # 89 days: more than the whole score
    for student, stamp in when.items():
        path = ck.submit(course, student, ASSIGNMENT, ck.completed_student_notebook(ASSIGNMENT))
        (path.parent / "timestamp.txt").write_text(stamp, encoding="utf-8")
    proc = ck.course_command(course, "grade", ASSIGNMENT)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    with open(course / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh)}
    assert (rows["ontime"]["status"], float(rows["ontime"]["score"])) == ("graded", full)
    assert "penalty" not in rows["ontime"]["detail"]
    assert rows["late"]["status"] == "late" and float(rows["late"]["score"]) == full - 4.5
    assert "late penalty 4.5 point(s) (1.5 point(s) per started day late)" in rows["late"]["detail"]
    assert float(rows["verylate"]["score"]) == 0.0, "the penalty stops at the score"
    assert "late penalty" in rows["verylate"]["detail"]
    for row in rows.values():  # the cells keep their scores: the penalty is on the total
        assert sum(float(row[g]) for g in ck.max_points(ck.load(ck.solution_path(ASSIGNMENT)))) == full

    with Gradebook("sqlite:///" + str(course / "autograde" / "gradebook.db")) as gb:
        penalties = {s: gb.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, s).late_submission_penalty
                     for s in when}
        assert gb.find_submission(ASSIGNMENT, "late").late_submission_penalty == 4.5
    assert penalties == {"ontime": None, "late": 4.5, "verylate": full}

    page = (course / "autograde" / "feedback" / "late" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
    assert "Late submission penalty (Score: -4.5)" in page
    assert "Late submission penalty" not in (course / "autograde" / "feedback" / "ontime" / ASSIGNMENT /
                                            f"{ASSIGNMENT}.html").read_text(encoding="utf-8")

    # `nbgrader export` writes the same scores (the course's export plugin)
    export = course / "export.csv"
    import os
    import subprocess
    import sys
    env = dict(os.environ, ATTNLAB_COURSE_ROOT=str(course),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "export", f"--to={export}"], cwd=course / "autograde",
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(export, newline="", encoding="utf-8") as fh:
        assert {r["student_id"]: r["score"] for r in csv.DictReader(fh)} == {s: r["score"] for s, r in rows.items()}
