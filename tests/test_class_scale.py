"""A class graded right wherever it lives and whatever it hands in (issue 38).

A class, not one submission: right, wrong, blank, broken, tampering, pasted images of every kind
and odd student ids, graded by ``attnlab-course grade`` the way an instructor runs it, with the
course and its virtualenv under ``/tmp`` (where a warm worker's slot holds the mount points of the
venv) and elsewhere, warm (one worker grading more than 20 submissions in a row) and cold; every
row compared with the score it must have. Then the batch's own rules: a fault of the grader is
never a learner's status (a warm worker's is graded again in a fresh sandbox; a fresh sandbox's
stops the batch, with the process's own error in ``grading.log``), and a batch never exits 0
with a missing row or a penalising status beside full marks.
"""
from __future__ import annotations

import base64
import copy
import csv
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import uuid
from pathlib import Path

import pytest

import coursekit as ck
from attnlab.course import boundary, grade as batch, grading, warm
from attnlab.course.stages import handoff
from attnlab.course.plan import plan_assignment
from attnlab.course.stages import run as run_stage

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("class_scale")]

A = "01_weighted_averages"
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==")
GIF = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
JPEG = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffd9")
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4" onload="alert(1)"><rect width="4" height="4"/></svg>'


def _isolated():
    if not boundary.probe().isolated:
        pytest.skip(f"no OS boundary here: {boundary.probe().why}")


def _with_cell(nb: dict, source: str, cell_type: str = "code", **extra) -> dict:
    nb = copy.deepcopy(nb)
    cell = {"cell_type": cell_type, "metadata": {}, "source": source, **extra}
    if cell_type == "code":
        cell.update(outputs=[], execution_count=None)
    nb["cells"].insert(2, cell)
    return nb


def _pasted(nb: dict, name: str, mime: str, data: bytes | str) -> dict:
    b64 = base64.b64encode(data if isinstance(data, bytes) else data.encode()).decode()
    return _with_cell(nb, f"My sketch: ![sketch](attachment:{name})", "markdown",
                      attachments={name: {mime: b64}})


def class_of(n_correct: int = 14) -> dict[str, tuple[dict | str, str]]:
    """``{student: (notebook, expected)}``; expected is ``full``, ``zero`` or ``less`` (below
    full marks, above or at 0). Correct work comes before and after the rest, so a warm worker
    grades it as its first, its middle and its last submissions."""
    sol, blank = ck.load(ck.solution_path(A)), ck.load(ck.release_path(A))
    wrong = ck.completed_student_notebook(A, {"softmax": "def softmax(x, axis=-1):\n    e = np.exp(x)\n"
                                                         "    return e / e.sum(axis=axis, keepdims=True)\n"})
    out: dict[str, tuple[dict | str, str]] = {}
    for i in range(n_correct // 2):
        out[f"a{i:02d}"] = (sol, "full")
    out.update({
        "b-blank": (blank, "zero"),
        "b-wrong": (wrong, "less"),
        "b-broken": ("{ this is not a notebook", "zero"),
        "b-tamper": (_with_cell(sol, "import numpy as np\nnp.allclose = lambda *a, **k: True"), "zero"),
        "b-raises": (_with_cell(sol, "raise RuntimeError('my own bug')"), "full"),
        "c-jpeg": (_pasted(sol, "a.jpg", "image/jpeg", JPEG), "full"),
        "c-gif": (_pasted(sol, "a.gif", "image/gif", GIF), "full"),
        "c-png": (_pasted(sol, "a.png", "image/png", PNG), "full"),
        "c-svg": (_pasted(sol, "a.svg", "image/svg+xml", SVG), "full"),
        "c-missing": (_with_cell(sol, "![gone](attachment:gone.png)", "markdown"), "full"),
        ".dotted": (sol, "full"),
        "Points Possible": (sol, "full"),
    })
    for i in range(n_correct // 2, n_correct):
        out[f"z{i:02d}"] = (sol, "full")
    return out


def _submit_class(course: Path, klass: dict) -> None:
    for student, (nb, _) in klass.items():
        ck.submit(course, student, A, nb)


def _rows(course: Path) -> dict[str, dict]:
    with open(course / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        return {r["student_id"]: r for r in csv.DictReader(fh)}


def _wrong_grades(course: Path, klass: dict) -> list[str]:
    rows = _rows(course)
    bad = []
    for student, (_, expected) in klass.items():
        row = rows.get(student)
        if row is None:
            bad.append(f"{student}: no row")
            continue
        score, top = float(row["score"]), float(row["max_score"])
        ok = {"full": score == top and row["status"] == "graded", "zero": score == 0,
              "less": 0 <= score < top}[expected]
        if not ok:
            bad.append(f"{student}: {row['status']} {score:g}/{top:g}, expected {expected}: {row['detail'][:300]}")
    return bad


def _venv_under(folder: Path) -> Path:
    """A virtualenv in ``folder`` whose IPython is its own copy (so the sandbox imports it from
    there, lazily too) and whose other packages are this one's."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    here = Path(sysconfig.get_paths()["purelib"])
    shutil.copytree(here / "IPython", site / "IPython")
    (venv / "share").mkdir()
    (venv / "share" / "jupyter").symlink_to(Path(sys.prefix) / "share" / "jupyter")  # nbconvert's templates
    (site / "zz_course.pth").write_text(f"import site; site.addsitedir({str(here)!r})\n", encoding="utf-8")
    return venv


def _grade(course: Path, python: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, ATTNLAB_COURSE_ROOT=str(course), **(env or {}))
    env["PATH"] = os.pathsep.join([str(python.parent), os.path.dirname(sys.executable), env.get("PATH", "")])
    env.pop("NBGRADER_EXECUTION", None)
    return subprocess.run([str(python), "-m", "attnlab.course.cli", "grade", *args], cwd=course, env=env,
                          text=True, capture_output=True, timeout=900)


def _clean(course: Path) -> None:
    for name in ("grades.csv", "gradebook.db", ".grading", "autograded", "feedback", "grading.log"):
        path = course / "autograde" / name
        shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)


@pytest.mark.parametrize("where", ["tmp", "elsewhere"])
def test_a_class_is_graded_right_warm_and_cold(where, tmp_path):
    """Course and venv together under /tmp, or the course outside /tmp with the venv under it:
    one warm worker grades 26 submissions in a row, then the class again cold; every row as
    expected, both times."""
    _isolated()
    venv = _venv_under(tmp_path)
    python = venv / "bin" / "python"
    if where == "tmp":
        base = tmp_path
    else:  # a course kept elsewhere (the repository's build folder), its venv under /tmp
        base = ck.ROOT / "build" / f"class-scale-{uuid.uuid4().hex[:8]}"
        base.mkdir(parents=True)
    try:
        course = ck.make_course(base)
        klass = class_of()
        _submit_class(course, klass)
        proc = _grade(course, python, A, "--jobs", "1")
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "grader fault" not in (course / "autograde" / "grading.log").read_text(), \
            "a warm worker failed and its submission went to a fresh sandbox"
        assert _wrong_grades(course, klass) == []
        assert len(_rows(course)) == len(klass)
        page = (course / "autograde" / "feedback" / "c-gif" / A / f"{A}.html").read_text(encoding="utf-8")
        assert "data:image/gif;base64," in page
        svg = (course / "autograde" / "feedback" / "c-svg" / A / f"{A}.html").read_text(encoding="utf-8")
        assert "data:image/svg+xml;base64," in svg and "onload" not in svg.split("attnlab-learner-markdown")[1][:2000]

        _clean(course)
        cold = {k: v for i, (k, v) in enumerate(klass.items()) if i % 3 == 0 or not k[0] in "az"}
        shutil.rmtree(course / "autograde" / "submitted")
        _submit_class(course, cold)
        proc = _grade(course, python, A, "--jobs", "2", "--cold")
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert _wrong_grades(course, cold) == []
    finally:
        if where != "tmp":
            shutil.rmtree(base, ignore_errors=True)


def _submission(tmp_path: Path, name: str, nb: dict) -> handoff.Submission:
    folder = tmp_path / name
    folder.mkdir()
    (folder / f"{A}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    return handoff.Submission(name, A, folder)


def _break_preload(monkeypatch, times: int | None):
    """The sandbox's harness imports a module that does not exist (a library gone missing), in
    the first ``times`` runs (every run: None), before any line of the learner's."""
    real = run_stage.prepare
    count = [0]

    def prepare(*args, **kwargs):
        job = real(*args, **kwargs)
        count[0] += 1
        if times is None or count[0] <= times:
            job.spec["preload"] = [*job.spec["preload"], "attnlab_no_such_module"]
        return job

    monkeypatch.setattr(run_stage, "prepare", prepare)


def test_a_warm_workers_fault_is_graded_again_in_a_fresh_sandbox(tmp_path, monkeypatch):
    _isolated()
    monkeypatch.setenv(warm.ENV, "1")
    _break_preload(monkeypatch, times=1)
    plan = plan_assignment(ck.ROOT, A)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    try:
        result = grading.grade_submission(_submission(tmp_path, "s", ck.load(ck.solution_path(A))), plan,
                                          handoff.Limits(), scratch, [ck.ROOT])
    finally:
        warm.close_pool(scratch)
    assert (result.status, result.score) == ("graded", result.max_score), result.details
    assert not result.fault
    assert len(result.faults) == 1 and "attnlab_no_such_module" in result.faults[0], result.faults
    assert "before the notebook's first cell" in result.faults[0]
    assert any("fresh sandbox" in d for d in result.details)


def test_a_fault_no_sandbox_can_get_past_stops_the_batch(tmp_path, monkeypatch):
    """No grade is written, the message names the cause and says it is the grader's, and the
    process's own error (ModuleNotFoundError) is in grading.log, not only 'kernel died'."""
    _isolated()
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    _break_preload(monkeypatch, times=None)
    course = ck.make_course(tmp_path)
    for i in range(4):
        ck.submit(course, f"s{i}", A, ck.load(ck.solution_path(A)))
    with pytest.raises(SystemExit) as stop:
        batch.grade(course, [A], jobs=1)
    message = str(stop.value)
    assert "grader's fault" in message and "grading.log" in message and "before the notebook's first cell" in message
    log = (course / "autograde" / "grading.log").read_text(encoding="utf-8")
    assert "ModuleNotFoundError" in log and "attnlab_no_such_module" in log
    assert not (course / "autograde" / "grades.csv").exists()
    assert "kernel died" not in log


def _result(student, status="graded", score=2.0, cells=(1.0, 1.0), penalty=0.0):
    from attnlab.course.stages.handoff import CellVerdict, Result

    r = Result(student, A, f"{A}.ipynb", status, score, 2.0)
    r.cells = [CellVerdict(f"c{i}", s, 1.0, [], s == 1.0) for i, s in enumerate(cells)]
    r.late_penalty = penalty
    return r


def test_the_batch_rules_stop_a_batch_that_breaks_them(tmp_path):
    subs = [handoff.Submission(s, A, tmp_path) for s in ("ann", "bob", "=cid")]
    good = [_result("ann"), _result("bob", score=0.5, penalty=1.5), _result("=cid", "tampering detected", 0.0, (0.0, 0.0))]
    out = tmp_path / "grades.csv"
    out.write_text("student_id,assignment\nann," + A + "\nbob," + A + "\n'=cid," + A + "\n", encoding="utf-8")
    batch.check_batch(good, subs, out)  # all kept: nothing raised

    out.write_text("student_id,assignment\nann," + A + "\n", encoding="utf-8")
    with pytest.raises(batch.BatchError, match=r"'bob'/01_weighted_averages: graded but no row"):
        batch.check_batch(good, subs, out)
    with pytest.raises(batch.BatchError, match="found but not graded"):
        batch.check_batch(good[:2], subs)
    with pytest.raises(batch.BatchError, match="tampering detected with full marks"):
        batch.check_batch([good[0], good[1], _result("=cid", "tampering detected")], subs)
    with pytest.raises(batch.BatchError, match="not what its cells add up to"):
        batch.check_batch([_result("ann", score=1.0), good[1], good[2]], subs)
    with pytest.raises(batch.BatchError) as err:  # a hostile id forges no line of the message
        batch.check_batch([], [handoff.Submission("x\n\x1b[2Kyy", A, tmp_path)])
    assert "\x1b" not in str(err.value) and str(err.value).count("\n") == 1, str(err.value)


def test_the_slot_keeps_the_mount_points_of_a_venv_under_tmp(tmp_path, monkeypatch):
    """What a warm slot's clean-up keeps: the mount points (and the folders above them) of the
    read-only roots under /tmp, nothing else a learner left there."""
    folder = tmp_path / "slot"
    for name in warm.SLOT:
        (folder / name).mkdir(parents=True)
    monkeypatch.setattr(boundary, "_readonly_roots", lambda: ["/tmp/course/.venv", "/opt/py", "/dev/shm/x/lib"])
    keep = frozenset(boundary.mount_points_in(folder))
    assert keep == {folder / "tmp" / "course" / ".venv", folder / "shm" / "x" / "lib"}
    for path in keep:
        path.mkdir(parents=True)
    (folder / "tmp" / "course" / "left.txt").write_text("a learner's")
    (folder / "tmp" / "course" / "dir").mkdir()
    (folder / "tmp" / "other.txt").write_text("a learner's")
    os.chmod(folder / "tmp" / "course", 0)
    for name in warm.SLOT:
        warm._empty(folder / name, keep)
    assert all(p.is_dir() for p in keep)
    assert sorted(p.name for p in (folder / "tmp" / "course").iterdir()) == [".venv"]
    assert sorted(p.name for p in (folder / "tmp").iterdir()) == ["course"]


def test_collection_reads_no_hard_link(tmp_path):
    """A file with a second name (a hard link to solutions/ or to another learner's notebook) is
    refused as a symbolic link is, and the reason names it; copies leave it out, saying so."""
    from attnlab.course.stages.collect import NotRegular, copy_submission, read_regular

    source = tmp_path / "solution.ipynb"
    source.write_text("{}")
    folder = tmp_path / "sub"
    folder.mkdir()
    os.link(source, folder / f"{A}.ipynb")
    (folder / "own.txt").write_text("mine")
    with pytest.raises(NotRegular, match="hard link"):
        read_regular(folder / f"{A}.ipynb", 1 << 20)
    skipped = copy_submission(folder, tmp_path / "copy")
    assert sorted(p.name for p in (tmp_path / "copy").iterdir()) == ["own.txt"]
    assert any("hard link" in s for s in skipped), skipped
