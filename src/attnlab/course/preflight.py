"""Before a batch: can the sandbox run the grader's Python at all?

A sandbox that cannot start the interpreter (a venv it does not see), import the course's library
or create its namespaces fails every submission the same way, and each one would be recorded as
the learner's ``kernel died`` with a score of 0 while the batch "succeeds". So ``make grade``
first runs a trivial job through the same boundary, with the same interpreter, environment and
mounts as a submission; when that fails, the batch stops before any grade is written, with the
cause and the fix.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import boundary
from .stages.handoff import Limits

OK = "attnlab-preflight-ok"
# What a sandbox does before a learner's first cell: import the kernel and the libraries the
# notebooks preload (torch among them), take the same address-space limit, then import and
# allocate as a first cell would, and write to the job's own /tmp.
PROBE = """\
import sys, tempfile
import numpy, IPython, torch, attnlab, attnlab.checks
from attnlab.course import sandbox
sandbox.limit_address_space(int(sys.argv[1]))
import numpy.random, matplotlib.pyplot
numpy.ones(2**20)
with tempfile.NamedTemporaryFile() as fh:
    fh.write(b"x")
print(%r)
""" % OK
SECONDS = 120.0


class PreflightFailed(SystemExit):
    """The grader cannot run any submission: nothing was graded."""


def diagnose(output: str, python: str) -> tuple[str, str]:
    """``(cause, fix)`` for what the failed probe printed."""
    text = output.lower()
    if "execvp" in text or ("no such file" in text and python.lower() in text):
        return (f"the sandbox cannot see the grader's Python {python}",
                "keep the course's virtual environment in a folder the sandbox mounts (any folder but "
                "/proc, /dev and the sandbox's own /job); if it is already, report this as a bug")
    if "failed to map segment" in text or "memoryerror" in text or "cannot allocate memory" in text:
        return ("the sandbox's memory limit leaves no room for the libraries every notebook loads",
                "grade with a larger --memory (MiB); if the default fails, report this as a bug")
    if "modulenotfounderror" in text or "importerror" in text:
        line = next((ln for ln in output.splitlines() if "Error" in ln), "").strip()
        return (f"the grader's Python cannot import what every submission needs inside the sandbox ({line})",
                "run `make bootstrap` again (or `pip install -e '.[course]'`) in the course's virtual "
                "environment, and grade with that environment's attnlab-course")
    if "namespace" in text or "bwrap" in text or "operation not permitted" in text:
        return ("bubblewrap cannot create the sandbox here",
                "grade as a user allowed to create user namespaces (or as root), or set "
                f"{boundary.ENV}=guard to grade without the boundary (README, 'How grading works')")
    return ("the sandbox's Python did not run", "read the output above; fix the environment and grade again")


def check(python: str | None = None, hide: list[str] = (), isolation: boundary.Isolation | None = None,
          memory_bytes: int | None = None) -> None:
    """Run the probe; raise :class:`PreflightFailed` naming the cause and the fix. ``memory_bytes``:
    the learner's address space (``Limits.memory_mib``)."""
    memory_bytes = memory_bytes or Limits().memory_mib * 2**20

    python = python or sys.executable
    isolation = isolation or boundary.probe()
    job_dir = Path(tempfile.mkdtemp(prefix="attnlab-preflight-"))
    try:
        for part in ("work", "results", "tmp"):
            (job_dir / part).mkdir()
        argv = [python, "-I", "-c", PROBE, str(int(memory_bytes))]
        if isolation.isolated:
            env = boundary.clean_env(f"{boundary.JOB_ROOT}/work", "/tmp")
            cmd = boundary.command(job_dir, argv, env, hide=list(hide))
            popen_env, cwd = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, str(job_dir)
        else:
            cmd = argv
            popen_env, cwd = boundary.clean_env(str(job_dir / "work"), str(job_dir / "tmp")), str(job_dir / "work")
        try:
            proc = subprocess.run(cmd, cwd=cwd, env=popen_env, stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=SECONDS)
            output = (proc.stdout + proc.stderr).decode("utf-8", "replace")
            ok = proc.returncode == 0 and OK in output
        except subprocess.TimeoutExpired:
            output, ok = f"(no answer in {SECONDS:.0f} s)", False
        except OSError as exc:
            output, ok = f"{type(exc).__name__}: {exc}", False
    finally:
        shutil.rmtree(job_dir, ignore_errors=True)
    if ok:
        return
    cause, fix = diagnose(output, python)
    tail = "\n".join("    " + ln for ln in output.strip().splitlines()[-12:])
    raise PreflightFailed(
        f"error: the grading sandbox cannot run Python ({isolation.mode} mode), so every submission would "
        f"score 0. Nothing was graded; no grade, CSV or feedback was written.\n"
        f"  cause: {cause}\n  fix: {fix}\n  the probe printed:\n{tail}")


if __name__ == "__main__":  # python -m attnlab.course.preflight: the same check, by hand
    check()
    print(f"the grading sandbox runs {sys.executable} ({boundary.probe().mode} mode)")
    sys.exit(os.EX_OK)
