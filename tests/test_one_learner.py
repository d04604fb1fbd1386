"""One learner never stops the class: a class of honest learners graded beside one learner for
each way a single submission used to stop or spoil a batch (a library the course does not
install, a folder name that is not UTF-8, control and bidirectional characters in an id, the
warm worker signalled, slowed, moved or limited, a fork flood, a filled disk). Warm and cold,
``--jobs 1`` and ``2``: the batch exits 0, every honest learner keeps full marks, and every
other learner has a row with a status (and the learner whose import merely failed keeps the
marks its code earned).

The rule behind it (docs/grading.md, "What the grader promises"): a sandbox that never reaches
the learner's first cell is the grader's fault only when the course's own notebook fails there
too; nothing the notebook names is loaded before its first cell unless it is the course's own
library; the learner's process cannot reach its warm worker (a seccomp filter refuses signals,
priorities, CPUs and limits aimed at it) and a worker whose scheduling state changed anyway is
replaced; an id that is not plain text is stored under its escape.
"""
from __future__ import annotations

import csv
import os
import shutil
import sys

import pytest

import coursekit as ck
from attnlab.course import boundary, escape, grading
from attnlab.course.plan import plan_assignment
from attnlab.course.stages import handoff

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("one-learner")]

A = "01_weighted_averages"
HONEST = int(os.environ.get("ATTNLAB_ONE_LEARNER_HONEST", "3"))  # the closing note's run: 30

# (folder name, extra first cell, expected (status, full marks?)); the folder names are str, or
# bytes for a name that is not UTF-8
STOPPERS = [
    ("imports-pandas", "import pandas as pd", ("graded", True)),
    ("optional-pandas", "try:\n    import pandas\nexcept ImportError:\n    pandas = None", ("graded", True)),
    ("imports-missing-sub", "import torch.attnlab_no_such_module", ("graded", True)),
    ("stops-worker", "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)", ("graded", True)),
    ("kills-worker", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)", ("graded", True)),
    ("kills-group", "import os, signal\nos.killpg(0, signal.SIGKILL)", ("graded", True)),
    ("slows-worker", "import os\nos.setpriority(os.PRIO_PROCESS, os.getppid(), 19)", ("graded", True)),
    ("pins-worker", "import os\nos.sched_setaffinity(os.getppid(), {0})", ("graded", True)),
    ("slows-everyone", "import os\nos.setpriority(os.PRIO_USER, 0, 19)", ("graded", True)),
    ("fork-flood", "import os, time\nfor _ in range(300):\n    try:\n        if os.fork() == 0:\n"
                   "            time.sleep(20)\n            os._exit(0)\n    except OSError:\n        break",
     ("graded", True)),
    ("fills-disk", "for i in range(25):\n    with open(f'/tmp/fill{i}', 'wb') as fh:\n        fh.write(b'0' * 50 * 2**20)",
     ("out of memory", None)),
    (b"not-utf8-\xff\xfe", "", ("graded", True)),
    ("tab\there", "", ("graded", True)),
    ("bidi\u202eevil", "", ("graded", True)),
]


def _first(nb: dict, source: str) -> dict:
    if source:
        nb["cells"].insert(1, {"cell_type": "code", "execution_count": None, "id": "added", "metadata": {},
                               "outputs": [], "source": source})
    return nb


def _submit(course, name, nb) -> str:
    import json

    base = os.fsencode(course / "autograde" / "submitted")
    folder = os.path.join(base, name if isinstance(name, bytes) else os.fsencode(name), os.fsencode(A))
    os.makedirs(folder)
    with open(os.path.join(folder, os.fsencode(f"{A}.ipynb")), "w", encoding="utf-8") as fh:
        json.dump(nb, fh)
    return escape.shown(os.fsdecode(name) if isinstance(name, bytes) else name)


def _rows(course) -> dict[str, dict]:
    with open(course / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        return {r["student_id"].lstrip("'"): r for r in csv.DictReader(fh)}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    if not boundary.probe().isolated:
        pytest.skip("needs bubblewrap (the warm workers): " + boundary.probe().why)
    course = ck.make_course(tmp_path_factory.mktemp("one-learner"))
    full = ck.completed_student_notebook(A)
    expected = {}
    for i in range(HONEST):
        expected[_submit(course, f"honest{i:02d}", full)] = ("graded", True)
    for name, source, want in STOPPERS:
        expected[_submit(course, name, _first(ck.completed_student_notebook(A), source))] = want
    return course, expected


@pytest.mark.parametrize("jobs,warmth", [("2", "warm"), ("1", "warm"), ("2", "cold")])
def test_one_learner_never_stops_the_class(course, jobs, warmth):
    course, expected = course
    for name in ("grades.csv", "gradebook.db", ".grading", "autograded", "feedback", "grading.log"):
        path = course / "autograde" / name
        shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)
    env = {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    proc = ck.course_command(course, "grade", A, "--jobs", jobs, *(["--cold"] if warmth == "cold" else []),
                             env=env, timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = _rows(course)
    assert set(rows) == set(expected), sorted(set(rows) ^ set(expected))
    full = float(rows["honest00"]["max_score"])
    wrong = {}
    for sid, (status, keeps) in expected.items():
        row = rows[sid]
        got = (row["status"], float(row["score"]) == full)
        if row["status"] != status or (keeps is not None and got[1] != keeps):
            wrong[sid] = (got, row["detail"][:300])
    assert wrong == {}
    for sid in expected:  # an id that is not plain text says how it is stored
        if sid != escape.shown(sid) or "\\" in sid:
            assert "not plain text" in rows[sid]["detail"], rows[sid]["detail"]
    assert all(sid.isprintable() for sid in rows)


def test_a_sandbox_that_fails_where_the_reference_starts_is_the_learners_row(tmp_path, monkeypatch):
    """A fault attributed by the reference: the learner's job (not the reference's) is broken
    before its first cell; the course's own notebook starts in the same kind of sandbox, so the
    row is the learner's, with what failed, and nothing stops."""
    if not boundary.probe().isolated:
        pytest.skip("needs bubblewrap: " + boundary.probe().why)
    from attnlab.course.stages import run as run_stage

    real = run_stage.prepare

    def prepare(plan, nb, sub, *args, **kwargs):  # the learner's job only, never the reference's
        job = real(plan, nb, sub, *args, **kwargs)
        if sub.student == "learner":
            job.spec["preload"] = [*job.spec["preload"], "attnlab_no_such_module"]
        return job

    monkeypatch.setattr(run_stage, "prepare", prepare)
    folder = tmp_path / "learner"
    folder.mkdir()
    import json

    (folder / f"{A}.ipynb").write_text(json.dumps(ck.completed_student_notebook(A)), encoding="utf-8")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    from attnlab.course import warm

    try:
        result = grading.grade_submission(handoff.Submission("learner", A, folder), plan_assignment(ck.ROOT, A),
                                          handoff.Limits(), scratch, [ck.ROOT])
    finally:
        warm.close_pool(scratch)
    assert not result.fault, result.fault
    assert result.status == "kernel died" and result.score == 0, (result.status, result.details)
    assert "attnlab_no_such_module" in result.details[0] and "course's own notebook starts" in result.details[0]
