"""nbgrader's exchange end to end with the course's grader, learners as other Unix users:

release_assignment -> fetch_assignment -> submit -> collect -> attnlab-course grade ->
release_feedback -> fetch_feedback, for three learners (one on time, one late, one who renamed
the notebook and gets a status page), with the exchange's timestamps and secrets kept.
Needs root (to create the learners' accounts and run their commands as them).
"""
from __future__ import annotations

import csv
import datetime as dt
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import coursekit as ck

pytestmark = pytest.mark.notebooks

ASSIGNMENT = "01_weighted_averages"
LEARNERS = ("attnlab_ontime", "attnlab_late", "attnlab_renamed")


def _need_root():
    if os.geteuid() != 0:
        pytest.skip("needs root: creates learner accounts and runs their commands as them")
    for tool in ("useradd", "runuser", "setpriv"):
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool} to run learners as other Unix users")


def _user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/sh", name], check=True)
        return pwd.getpwnam(name)


def _env(exchange: Path, home: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "NBGRADER"))}
    env.update(ATTNLAB_EXCHANGE=str(exchange), PYTHONDONTWRITEBYTECODE="1",
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    if home is not None:
        env.update(HOME=str(home), MPLCONFIGDIR=str(home / ".mpl"))
    return env


def _instructor(course: Path, exchange: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(_env(exchange), ATTNLAB_COURSE_ROOT=str(course))
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course / "autograde", env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "[ERROR]" not in proc.stderr, f"nbgrader {args}: {proc.stderr[-3000:]}"
    return proc


def _as_user(name: str) -> list[str]:
    """Run as the learner. Where this Python lives under a folder only root may enter (pyenv in
    /root, as on CI machines), the learner keeps one capability, to look up and read files (not
    to write them): what it writes and where it may write stay the learner's."""
    probe = subprocess.run(["runuser", "-u", name, "--", sys.executable, "-c", "pass"], capture_output=True)
    if probe.returncode == 0:
        return ["runuser", "-u", name, "--"]
    return ["setpriv", f"--reuid={name}", f"--regid={name}", "--clear-groups",
            "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]


def _learner(name: str, home: Path, exchange: Path, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([*_as_user(name), sys.executable, "-m", "nbgrader", *args],
                          cwd=home, env=_env(exchange, home), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "[ERROR]" not in proc.stderr, f"{name}: nbgrader {args}: {proc.stderr[-3000:]}"
    return proc


def test_exchange_cycle_with_learners_as_other_users(tmp_path):
    _need_root()
    users = {name: _user(name) for name in LEARNERS}
    course = ck.make_course(tmp_path)
    proc = ck.course_command(course, "release", ASSIGNMENT)
    assert proc.returncode == 0, proc.stderr
    # the exchange and the learners' homes live where the learners can reach them
    base = Path(tempfile.mkdtemp(prefix="attnlab-exchange-test-", dir="/tmp"))
    try:
        base.chmod(0o755)
        exchange = base / "exchange"
        exchange.mkdir()
        exchange.chmod(0o777)  # as nbgrader's docs set it up: everyone may create their inbox entries
        homes = {}
        for name, user in users.items():
            home = base / name
            home.mkdir()
            os.chown(home, user.pw_uid, user.pw_gid)
            # the learner's own nbgrader configuration (what deploy/ installs for every learner)
            shutil.copy(ck.ROOT / "deploy" / "learner" / "nbgrader_config.py", home / "nbgrader_config.py")
            homes[name] = home

        _instructor(course, exchange, "release_assignment", ASSIGNMENT, "--force")
        submitted = {
            "attnlab_ontime": ck.completed_student_notebook(ASSIGNMENT),
            "attnlab_late": ck.completed_student_notebook(ASSIGNMENT),
            "attnlab_renamed": ck.completed_student_notebook(ASSIGNMENT),
        }
        for i, name in enumerate(LEARNERS):
            home = homes[name]
            _learner(name, home, exchange, "fetch_assignment", ASSIGNMENT)
            nb_path = home / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
            assert nb_path.is_file() and nb_path.stat().st_uid == users[name].pw_uid
            if name == "attnlab_renamed":
                nb_path.unlink()
                nb_path = nb_path.with_name("my_attempt.ipynb")
            subprocess.run([*_as_user(name), "tee", str(nb_path)],
                           input=json.dumps(submitted[name]), text=True, stdout=subprocess.DEVNULL, check=True)
            if name == "attnlab_late":
                # due date between the first learner's submission and the others'
                due = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
                (course / "autograde" / "due_dates.csv").write_text(
                    f"name,duedate\n{ASSIGNMENT},{due:%Y-%m-%d %H:%M:%S} UTC\n")
                time.sleep(1.1)
            _learner(name, home, exchange, "submit", ASSIGNMENT)
            if name == "attnlab_ontime":
                time.sleep(1.1)

        _instructor(course, exchange, "collect", ASSIGNMENT)
        for name in LEARNERS:
            folder = course / "autograde" / "submitted" / name / ASSIGNMENT
            assert (folder / "timestamp.txt").is_file() and (folder / "submission_secret.txt").is_file()

        proc = ck.course_command(course, "grade", ASSIGNMENT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        with open(course / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
            rows = {r["student_id"]: r for r in csv.DictReader(fh)}
        full = sum(ck.max_points(ck.load(ck.solution_path(ASSIGNMENT))).values())
        assert rows["attnlab_ontime"]["status"] == "graded" and float(rows["attnlab_ontime"]["score"]) == full
        assert rows["attnlab_late"]["status"] == "late" and "after the due date" in rows["attnlab_late"]["detail"]
        assert float(rows["attnlab_late"]["score"]) == full
        assert rows["attnlab_renamed"]["status"] == "missing notebook"
        for name in LEARNERS:
            for folder in ("autograded", "feedback"):
                if folder == "autograded" and name == "attnlab_renamed":
                    continue
                kept = course / "autograde" / folder / name / ASSIGNMENT
                assert (kept / "timestamp.txt").read_text() == \
                    (course / "autograde" / "submitted" / name / ASSIGNMENT / "timestamp.txt").read_text()
                assert (kept / "submission_secret.txt").is_file()

        _instructor(course, exchange, "release_feedback", ASSIGNMENT)
        for name in LEARNERS:
            _learner(name, homes[name], exchange, "fetch_feedback", ASSIGNMENT)
            pages = list((homes[name] / ASSIGNMENT / "feedback").glob("*/*.html"))
            assert len(pages) == 1, (name, pages)
            text = pages[0].read_text(encoding="utf-8")
            if name == "attnlab_renamed":
                assert pages[0].name == "my_attempt.html" and "missing notebook" in text
            else:
                assert pages[0].name == f"{ASSIGNMENT}.html" and "softmax" in text
    finally:
        shutil.rmtree(base, ignore_errors=True)
