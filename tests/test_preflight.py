"""A grader that cannot run Python in its sandbox stops before writing any grade (it never records
every learner as ``kernel died`` with 0 points), and a virtualenv kept under /tmp stays visible
inside the sandbox, whose own /tmp is a private folder."""
from __future__ import annotations

import functools
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import coursekit as ck
from attnlab.course import boundary, grade, preflight


def test_preflight_passes_with_the_grader_s_own_python():
    preflight.check()


def test_preflight_names_an_interpreter_the_sandbox_cannot_run():
    with pytest.raises(preflight.PreflightFailed) as info:
        preflight.check(python="/nonexistent/venv/bin/python")
    text = str(info.value.code)
    assert "Nothing was graded" in text and "cause:" in text and "fix:" in text
    assert "cannot see the grader's Python /nonexistent/venv/bin/python" in text


@pytest.mark.skipif(not Path("/usr/bin/python3").exists(), reason="needs the system's python3")
def test_preflight_names_a_python_without_the_course():
    """The system's Python (no numpy, no attnlab in it: `python -I` ignores user site-packages)."""
    probe = subprocess.run(["/usr/bin/python3", "-I", "-c", "import attnlab"], capture_output=True)
    if probe.returncode == 0:
        pytest.skip("the system's python3 has attnlab installed")
    with pytest.raises(preflight.PreflightFailed, match="cannot import"):
        preflight.check(python="/usr/bin/python3")


def test_diagnosis_of_a_sandbox_that_cannot_start():
    cause, fix = preflight.diagnose("bwrap: No permissions to creating new namespace", "/x/python")
    assert "bubblewrap" in cause and boundary.ENV in fix


def test_a_failed_preflight_writes_no_grade(tmp_path, monkeypatch):
    """The whole batch stops first: no gradebook entry, no CSV, no feedback page."""
    course = ck.make_course(tmp_path)
    nb = ck.load(ck.solution_path("01_weighted_averages"))
    ck.submit(course, "ada", "01_weighted_averages", nb)
    monkeypatch.setattr(preflight, "check", functools.partial(preflight.check, python="/nonexistent/bin/python"))
    with pytest.raises(preflight.PreflightFailed):
        grade.grade(course, jobs=1)
    assert not (course / "autograde" / "grades.csv").exists()
    assert not (course / "autograde" / "feedback").exists()
    assert not (course / "autograde" / "autograded").exists()


@pytest.mark.skipif(not boundary.probe().isolated, reason="bubblewrap is not usable here")
def test_a_folder_under_tmp_is_visible_in_the_sandbox(monkeypatch):
    """Mounts apply in order: the job's private /tmp first, then the interpreter's folders on top,
    so a venv under the host's /tmp is still there (it was hidden before: every grade was 0)."""
    outside = Path(tempfile.mkdtemp(prefix="attnlab-venv-", dir="/tmp"))
    job = Path(tempfile.mkdtemp(prefix="attnlab-job-"))
    try:
        (outside / "marker.txt").write_text("seen\n")
        for part in ("work", "results", "tmp"):
            (job / part).mkdir()
        real = boundary._readonly_roots
        monkeypatch.setattr(boundary, "_readonly_roots", lambda: [*real(), str(outside)])
        cmd = boundary.command(job, ["/bin/cat", str(outside / "marker.txt")], {"PATH": "/usr/bin:/bin"})
        assert cmd.index(str(job / "tmp")) < cmd.index(str(outside)), "a root under /tmp is bound before /tmp"
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and proc.stdout == "seen\n", proc.stderr
        # and the rest of the host's /tmp stays hidden
        hidden = subprocess.run(boundary.command(job, ["/bin/ls", "/tmp"], {"PATH": "/usr/bin:/bin"}),
                                capture_output=True, text=True, timeout=60)
        assert job.name not in hidden.stdout
    finally:
        shutil.rmtree(outside, ignore_errors=True)
        shutil.rmtree(job, ignore_errors=True)


def test_the_module_runs_by_hand():
    proc = subprocess.run([sys.executable, "-m", "attnlab.course.preflight"], capture_output=True, text=True,
                          timeout=180)
    assert proc.returncode == 0 and "the grading sandbox runs" in proc.stdout, proc.stderr


def test_preflight_names_a_memory_limit_the_libraries_do_not_fit_in():
    """The class of failure PyPI's CUDA torch caused: the address-space limit is taken above what
    the libraries mapped, and a limit too small for a first import is the grader's, named."""
    preflight.check(memory_bytes=256 * 2**20)  # room for a first cell above the libraries
    cause, fix = preflight.diagnose("ImportError: x.so: failed to map segment from shared object", "/p")
    assert "memory limit" in cause and "--memory" in fix


def test_a_page_that_does_not_show_its_notebook_is_not_written():
    """An empty or truncated render (seen on one Python: pages 'written' with nothing in them)
    is an error with its reason, never a page."""
    from attnlab.course.feedback import FeedbackIncomplete, check_page

    nb = {"cells": [{"cell_type": "code", "metadata": {"nbgrader": {"grade": True, "grade_id": "test_softmax"}}},
                    {"cell_type": "code", "metadata": {"nbgrader": {"grade": False, "grade_id": "setup"}}}]}
    check_page("<html><body><div id='test_softmax'>...</div></body></html>", nb)
    with pytest.raises(FeedbackIncomplete, match="not a whole HTML document"):
        check_page("", nb)
    with pytest.raises(FeedbackIncomplete, match="1 of the 1 graded cells"):
        check_page("<html><body></body></html>", nb)
