"""Trusted grading of one submission: read it, run it in a sandbox, judge its answers.

The trusted process (this module) never runs learner code. It reads the submitted notebook as
data, writes a job for :mod:`attnlab.course.sandbox` in a throwaway folder outside the course,
runs it with a wall-clock budget, a memory limit and bounded output, and judges the plain arrays
that come back against the references. Every submission ends as a :class:`Result` with one
status: graded, late, timed out, out of memory, kernel died, malformed notebook, missing
notebook or tampering detected.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from attnlab.checks import Outcome

from . import tamper
from .plan import AssignmentPlan, job_calls
from .sandbox import decode

STATUSES = ("graded", "late", "timed out", "out of memory", "kernel died", "malformed notebook",
            "missing notebook", "tampering detected", "grader error")


@dataclass
class Limits:
    notebook_seconds: float = 300.0   # wall-clock budget for the whole notebook
    cell_seconds: float = 60.0        # one cell of the learner's code
    call_seconds: float = 10.0        # one call of an exercise function on one input
    memory_mib: int = 2048            # address space of the learner's process
    output_chars: int = 20_000        # learner output kept per cell
    file_mib: int = 64                # largest file the learner's process may write


@dataclass
class Submission:
    student: str
    assignment: str
    folder: Path
    timestamp: dt.datetime | None = None


@dataclass
class CellVerdict:
    grade_id: str
    score: float
    max_score: float
    lines: list[str]     # success lines, or the failure message
    passed: bool


@dataclass
class Result:
    student: str
    assignment: str
    notebook: str
    status: str
    score: float
    max_score: float
    details: list[str] = field(default_factory=list)
    cells: list[CellVerdict] = field(default_factory=list)
    timestamp: str = ""
    learner_nb: dict | None = None          # the submitted notebook (v4), for the autograded copy
    cell_log: list[dict] = field(default_factory=list)
    cell_map: list[int] = field(default_factory=list)   # job cell -> index in learner_nb (-1: restored)
    seconds: float = 0.0

    def row(self) -> dict:
        return {"student_id": self.student, "assignment": self.assignment, "notebook": self.notebook,
                "status": self.status, "score": f"{self.score:g}", "max_score": f"{self.max_score:g}",
                "timestamp": self.timestamp, "detail": "; ".join(self.details)}


# ---------------------------------------------------------------------------------------------
# Reading a submission

def read_notebook(path: Path) -> tuple[dict | None, str]:
    """The notebook as nbformat 4 data, or None and what is wrong with it.

    Notebooks in format 4 are read as plain JSON (importing nbformat costs seconds, which would
    delay every batch); older formats are converted by nbformat.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, f"cannot read {path.name}: {exc.strerror}"
    if len(raw) > 50 * 2**20:
        return None, f"{path.name} is {len(raw) / 2**20:.0f} MiB, larger than any real notebook"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"{path.name} is not UTF-8 text (byte {exc.start})"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return None, f"{path.name} is not a readable notebook (invalid JSON: {str(exc)[:120]})"
    if not isinstance(data, dict):
        return None, f"{path.name} is not a readable notebook (no notebook object)"
    note = ""
    if data.get("nbformat") != 4:
        import nbformat

        try:
            data = json.loads(nbformat.writes(nbformat.reads(text, as_version=4)))
        except Exception as exc:  # noqa: BLE001 - any parse or conversion failure
            return None, f"{path.name} is not a readable notebook ({type(exc).__name__}: {str(exc)[:120]})"
        note = f"{path.name} was converted from nbformat {data.get('metadata', {}).get('orig_nbformat', '?')}"
    cells = data.get("cells")
    if not isinstance(cells, list):
        return None, f"{path.name} is not a readable notebook (no list of cells)"
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            return None, f"{path.name} has a cell that is not a notebook cell"
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            return None, f"{path.name} has a cell whose source is not text"
        cell["source"] = source
        if not isinstance(cell.get("metadata", {}), dict):
            cell["metadata"] = {}
        cell.setdefault("metadata", {})
    return data, note


def parse_utc(text: str) -> dt.datetime:
    """A timestamp as nbgrader stores it: naive UTC."""
    from dateutil.parser import parse

    stamp = parse(text)
    if stamp.tzinfo is not None:
        stamp = stamp.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return stamp


def read_timestamp(folder: Path) -> dt.datetime | None:
    path = folder / "timestamp.txt"
    if not path.is_file():
        return None
    try:
        return parse_utc(path.read_text(encoding="utf-8", errors="replace").strip())
    except Exception:  # noqa: BLE001 - an unreadable timestamp is treated as none
        return None


# ---------------------------------------------------------------------------------------------
# The job

def _nbg(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def job_cells(plan: AssignmentPlan, nb: dict) -> tuple[list[tuple[str, str]], list[int]]:
    """The cells the sandbox runs, in order, and where each comes from in ``nb``.

    Setup cells run as in the source (restored if deleted); solution cells as the learner wrote
    them; cells the learner added or changed run too (they may hold helpers); the notebook's own
    demo cells and all grade cells do not run (grading needs neither).
    """
    cells, origin = [], []
    present = {_nbg(c).get("grade_id") for c in nb["cells"]}
    for gid, src in plan.setup.items():  # restore deleted setup cells first
        if gid not in present:
            cells.append((f"setup {gid} (restored)", src))
            origin.append(-1)
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        meta = _nbg(cell)
        gid = meta.get("grade_id")
        if meta.get("grade") and not meta.get("solution"):
            continue
        if gid in plan.setup:
            cells.append((f"setup {gid}", plan.setup[gid]))
        elif meta.get("solution"):
            cells.append((f"solution {gid}", cell["source"]))
        elif cell["source"] in plan.demo_sources or not cell["source"].strip():
            continue
        else:
            cells.append((f"cell {index + 1} (yours)", cell["source"]))
        origin.append(index)
    return cells, origin


def _clean_env(work: Path) -> dict:
    env = {
        "PATH": os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin",
        "HOME": str(work), "MPLCONFIGDIR": str(work / ".matplotlib"), "IPYTHONDIR": str(work / ".ipython"),
        "NBGRADER_EXECUTION": "autograde", "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0",
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8", "TMPDIR": str(work),
    }
    return env


@dataclass
class SandboxRun:
    returncode: int | None
    killed: str | None      # "timeout" or "memory" when the grader stopped it
    seconds: float
    output: str


def run_sandbox(job_dir: Path, work: Path, limits: Limits) -> SandboxRun:
    import psutil

    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "attnlab.course.sandbox", str(job_dir)], cwd=work,
                            env=_clean_env(work), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    kept: list[bytes] = []

    def drain() -> None:  # keep the first 20 kB of whatever escapes to the real stdout
        size = 0
        for chunk in iter(lambda: proc.stdout.read(65536), b""):
            if size < 20_000:
                kept.append(chunk[: 20_000 - size])
                size += len(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    killed = None
    rss_limit = limits.memory_mib * 2**20 * 1.25
    try:
        ps = psutil.Process(proc.pid)
    except psutil.Error:
        ps = None
    next_memory_check = 0.0
    while True:
        try:
            proc.wait(timeout=0.1)
            break
        except subprocess.TimeoutExpired:
            pass
        elapsed = time.perf_counter() - start
        if elapsed > limits.notebook_seconds:
            killed = "timeout"
            break
        if ps is not None and elapsed >= next_memory_check:  # the address-space limit is the
            next_memory_check = elapsed + 0.5                 # main bound; this is a backstop
            try:
                rss = sum(p.memory_info().rss for p in [ps, *ps.children(recursive=True)])
            except psutil.Error:
                rss = 0
            if rss > rss_limit:
                killed = "memory"
                break
    if killed:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    reader.join(timeout=5)
    return SandboxRun(proc.returncode, killed, time.perf_counter() - start,
                      b"".join(kept).decode("utf-8", "replace"))


def _load_outcome(results: Path, call_id: int) -> Outcome | None:
    meta_path, arr_path = results / f"{call_id:04d}.json", results / f"{call_id:04d}.npz"
    if not meta_path.is_file():
        return None
    try:
        record = json.loads(meta_path.read_text(encoding="utf-8"))
        if not isinstance(record, dict):
            raise ValueError("not a record")
        value = None
        if record.get("error") is None:
            if arr_path.stat().st_size > 256 * 2**20:
                return Outcome(error="ResultTooLarge", message="the result is too large")
            with np.load(arr_path, allow_pickle=False) as arrays:
                value = decode(record.get("value", {"kind": "none"}), arrays)
        return Outcome(value=value, error=record.get("error"), message=str(record.get("message", ""))[:2000],
                       mutated=bool(record.get("mutated", False)))
    except Exception as exc:  # noqa: BLE001 - a forged or broken result file
        return Outcome(error="BrokenResult", message=f"the result could not be read ({type(exc).__name__})")


def judge(plan: AssignmentPlan, results: Path, stopped: str, borrowed: dict[str, str]) -> list[CellVerdict]:
    """Each grade cell's score from the sandbox's answers (full points only if every case of
    every check in it is right)."""
    verdicts = []
    for cell in plan.grade_cells:
        lines, passed = [], True
        for cc in cell.calls:
            if cc.learner_name in borrowed:
                lines = [f"{cc.learner_name}: no points: {borrowed[cc.learner_name]}. "
                         "Write it yourself from the equation; the library version is what it is checked against."]
                passed = False
                break
            message = None
            for i in range(len(cc.spec.cases)):
                outcome = _load_outcome(results, cc.first_id + i)
                if outcome is None:
                    message = (f"{cc.learner_name} could not be checked: the notebook stopped before "
                               f"the grader could call it ({stopped or 'no answer came back'}).")
                    break
                if outcome.error == "TimeoutError":
                    message = f"{cc.learner_name} did not finish in time: look for an endless loop."
                    break
                if outcome.error == "MemoryError":
                    message = f"{cc.learner_name} ran out of memory on a small input."
                    break
                message = cc.spec.judge(i, outcome)
                if message:
                    break
            if message:
                lines, passed = [message], False
                break
            if not cc.hidden:
                lines.append(cc.spec.success())
        verdicts.append(CellVerdict(cell.grade_id, cell.points if passed else 0.0, cell.points, lines, passed))
    return verdicts


# ---------------------------------------------------------------------------------------------

def _find_notebook(sub: Submission, plan: AssignmentPlan) -> tuple[Path | None, str]:
    path = sub.folder / plan.notebook
    if path.is_file():
        return path, ""
    others = sorted(p.name for p in sub.folder.glob("*.ipynb"))
    found = f"; found {', '.join(others)}: rename it to {plan.notebook}" if others else ""
    return None, f"no {plan.notebook} in the submission{found}"


def grade_submission(sub: Submission, plan: AssignmentPlan, limits: Limits, scratch: Path,
                     denied: list[Path]) -> Result:
    """Grade one submission end to end; never raises (an internal error is a status too)."""
    start = time.perf_counter()
    result = Result(sub.student, sub.assignment, plan.notebook, "graded", 0.0, plan.max_score,
                    timestamp=sub.timestamp.isoformat() if sub.timestamp else "")
    try:
        _grade_into(result, sub, plan, limits, scratch, denied)
    except Exception as exc:  # noqa: BLE001 - one broken submission never stops a batch
        result.status, result.score = "grader error", 0.0
        result.details.append(f"internal error while grading: {type(exc).__name__}: {exc}")
    result.seconds = time.perf_counter() - start
    return result


def _grade_into(result: Result, sub: Submission, plan: AssignmentPlan, limits: Limits, scratch: Path,
                denied: list[Path]) -> None:
    path, why = _find_notebook(sub, plan)
    if path is None:
        result.status = "missing notebook"
        result.details.append(why)
        return
    nb, note = read_notebook(path)
    if nb is None:
        result.status = "malformed notebook"
        result.details.append(note)
        return
    if note:
        result.details.append(note)
    result.learner_nb = nb

    # Static findings (trusted: learner code is read, never run, here).
    borrowed: dict[str, str] = {}
    tampering: list[str] = []
    solution_gids = set(plan.exercises)
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        gid = _nbg(cell).get("grade_id")
        if gid in solution_gids:
            for f in tamper.borrowed(cell["source"], plan.exercises[gid]):
                borrowed.setdefault(f.exercise, f.detail)
        if (gid in plan.setup or (_nbg(cell).get("grade") and not _nbg(cell).get("solution"))
                or cell["source"] in plan.demo_sources):
            continue  # the course's own cells (setup and tests are replaced by the source's anyway)
        for f in tamper.tampering(cell["source"], plan.all_exercises):
            if f.kind == "borrowed":
                borrowed.setdefault(f.exercise, f.detail)
            else:
                tampering.append(f.detail)

    # The sandbox.
    job_dir = Path(scratch) / f"{_safe(sub.student)}__{_safe(sub.assignment)}"
    if job_dir.exists():
        shutil.rmtree(job_dir)
    work = job_dir / "work"
    shutil.copytree(sub.folder, work, ignore=shutil.ignore_patterns(".*", "__pycache__"),
                    symlinks=False, ignore_dangling_symlinks=True)
    (job_dir / "results").mkdir()
    cells, origin = job_cells(plan, nb)
    result.cell_map = origin
    job = {
        "work": str(work), "cells": cells, "calls": job_calls(plan), "preload": plan.preload,
        "cell_timeout": limits.cell_seconds, "call_timeout": limits.call_seconds,
        "memory_bytes": int(limits.memory_mib * 2**20), "file_bytes": int(limits.file_mib * 2**20),
        "denied": [str(d) for d in denied] + [str(Path(scratch).resolve())],
        "allowed": _allowed_roots(),
    }
    with open(job_dir / "job.pkl", "wb") as fh:
        pickle.dump(job, fh)
    run = run_sandbox(job_dir, work, limits)
    results = job_dir / "results"
    try:
        result.cell_log = json.loads((results / "cells.json").read_text(encoding="utf-8"))
        if not isinstance(result.cell_log, list):
            result.cell_log = []
    except Exception:  # noqa: BLE001
        result.cell_log = []
    finished = (results / "done.json").is_file()

    statuses = []
    if run.killed == "timeout":
        statuses.append(("timed out", f"the notebook did not finish within {limits.notebook_seconds:g} s"))
    elif run.killed == "memory":
        statuses.append(("out of memory", f"the notebook used more than {limits.memory_mib} MiB"))
    elif not finished:
        where = result.cell_log[-1]["label"] if result.cell_log else "its first cell"
        statuses.append(("kernel died", f"the notebook's process ended (exit code {run.returncode}) "
                                        f"after {where}, before grading finished"))
    for entry in result.cell_log:
        if not isinstance(entry, dict):
            continue
        error = str(entry.get("error") or "")
        if entry.get("status") == "timeout":
            statuses.append(("timed out", f"{entry.get('label')} ran longer than {limits.cell_seconds:g} s"))
        elif entry.get("status") == "memory":
            statuses.append(("out of memory", f"{entry.get('label')} ran out of memory"))
        elif "not allowed while grading" in error:
            tampering.append(f"{entry.get('label')}: {error}")
        elif error:
            result.details.append(f"{entry.get('label')}: {error[:200]}")
    stopped = statuses[0][1] if statuses else ""
    result.cells = judge(plan, results, stopped, borrowed)
    result.score = sum(v.score for v in result.cells)
    for exercise, detail in borrowed.items():
        tampering.append(detail)
    if tampering:
        statuses.insert(0, ("tampering detected", "; ".join(dict.fromkeys(tampering))))
    if any(v.lines and "ran out of memory" in v.lines[0] for v in result.cells) and not statuses:
        statuses.append(("out of memory", "an exercise ran out of memory"))
    if any(v.lines and "did not finish in time" in v.lines[0] for v in result.cells) and not statuses:
        statuses.append(("timed out", "an exercise did not finish in time"))
    if statuses:
        result.status = statuses[0][0]
        result.details = [d for _, d in statuses] + result.details
    shutil.rmtree(job_dir, ignore_errors=True)


def mark_late(result: Result, timestamp: dt.datetime | None, duedate: dt.datetime | None) -> None:
    """A graded submission handed in after the due date becomes ``late`` (scores unchanged)."""
    if result.status == "graded" and timestamp is not None and duedate is not None and timestamp > duedate:
        result.status = "late"
        result.details.insert(0, f"submitted {_human(timestamp - duedate)} after the due date")


def _allowed_roots() -> list[str]:
    import attnlab

    roots = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(attnlab.__file__))}
    for p in sys.path:
        if p and os.path.isdir(p) and ("site-packages" in p or "dist-packages" in p or p.startswith(sys.base_prefix)):
            roots.add(p)
    return sorted(roots)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:80]


def _human(delta: dt.timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.1f} hours" if hours < 48 else f"{hours / 24:.1f} days"
