"""Stage 3, run: the learner's notebook and the exercise calls, in a sandbox of their own.

Boundary rules owned here: learner code runs only in :mod:`attnlab.course.sandbox`, started
under bubblewrap (:mod:`attnlab.course.boundary`) when the machine allows, in a throwaway job
folder with a writable space of bounded size, a clean environment, a wall-clock budget, an
address-space limit with a memory backstop (a cgroup, or resident sizes) and bounded output.
The sandbox gets its job on stdin and one call at a time; an answer counts as it was when the
sandbox asked for the next call. A warm worker (``ATTNLAB_WARM=1``, :mod:`attnlab.course.warm`)
may stand in for a fresh process. What comes back is read with bounds (:class:`Ran`).
"""
from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .. import boundary, sandbox, tamper, unprivileged, warm
from ..plan import AssignmentPlan, job_calls
from .collect import copy_submission, read_regular
from .fonts import _give_font_list
from .handoff import GraderFault, Job, Limits, Ran, Submission, _Stopwatch
from .read import AST_LOCK, MAX_RESULT_BYTES, _load_json, _preload, job_cells


def _clean_env(work: str, tmp: str) -> dict:
    env = {
        "PATH": os.path.dirname(sys.executable) + os.pathsep + "/usr/local/bin:/usr/bin:/bin",
        "HOME": work, "MPLCONFIGDIR": os.path.join(tmp, ".matplotlib"), "IPYTHONDIR": os.path.join(tmp, ".ipython"),
        "NBGRADER_EXECUTION": "autograde", "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0",
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8", "TMPDIR": tmp,
    }
    return env


@dataclass
class SandboxRun:
    returncode: int | None
    killed: str | None      # "timeout" or "memory" when the grader stopped it
    seconds: float
    output: str
    peak: int | None = None  # a memory probe: extra peak resident bytes after its baseline
    how: str = ""            # how that peak was measured
    filled: bool = False     # its writable space (boundary.WritableSpace) ran out of bytes or inodes
    started_at: float = 0.0  # wall clock (time.time()) just before the process started, and once it ended:
    ended_at: float = 0.0    # the sandbox's own stamps (timing.json) fall in between
    harness: bool = False    # the sandbox said its harness was set up (sandbox.HARNESS_MARK)


# The memory probe's waiter: a small process between the grader and the sandbox that waits for
# it and writes the kernel's count of its peak resident size (``wait4``'s ``ru_maxrss``, KiB) to
# the pipe whose fd is its first argument (the sandbox does not inherit it). It is needed because a process started by ``vfork`` from the grader inherits the
# grader's own peak at ``exec``; started from this small process, the count is the sandbox's.
WAITER = (
    "import os, subprocess, sys\n"
    "fd = int(sys.argv[1])\n"
    "p = subprocess.Popen(sys.argv[2:])\n"
    "while True:\n"
    "    try:\n"
    "        _, status, usage = os.wait4(p.pid, 0)\n"
    "        break\n"
    "    except InterruptedError:\n"
    "        pass\n"
    "os.write(fd, b'%d\\n' % usage.ru_maxrss)\n"
    "code = os.waitstatus_to_exitcode(status)\n"
    "os._exit(code if code >= 0 else 128 - code)\n"
)


def _python_pid(proc) -> int | None:
    """The host pid of the sandbox's Python (under the waiter, and under bwrap's ``--as-pid-1``)."""
    import psutil

    for _ in range(50):
        try:
            for child in psutil.Process(proc.pid).children(recursive=True):
                argv = child.cmdline()
                if argv[:1] == [sys.executable] and argv[1:4] == ["-I", "-m", "attnlab.course.sandbox"]:
                    return child.pid
        except psutil.Error:
            return None
        time.sleep(0.01)
    return None


def _status_kib(pid: int, field: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def _baseline(pid: int | None) -> tuple[int | None, str]:
    """Reset the peak resident size of process ``pid`` from outside (``/proc/PID/clear_refs``,
    writable by the grader, read-only inside the sandbox) and read its resident size: the
    memory probe's baseline, taken before any learner code runs."""
    if pid is None:
        return None, ""
    try:
        with open(f"/proc/{pid}/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
        rss = _status_kib(pid, "VmRSS")
        return (None if rss is None else rss * 1024), "reset"
    except OSError:  # not ours to reset (another user's process): its peak so far is the baseline
        hwm = _status_kib(pid, "VmHWM")
        return (None if hwm is None else hwm * 1024), "peak so far"


def _command(job_dir: Path, limits: Limits, isolation: boundary.Isolation, hide, zygote, probe: bool):
    """How the sandbox starts: ``(argv, cgroup, env, cwd)``; argv None for a warm worker's child
    (:mod:`attnlab.course.warm`), which starts itself in its own cgroup."""
    if zygote is not None and isolation.isolated:  # (a probe's peak: its zygote's wait4, warm.WarmChild)
        return None, zygote.cgroup, None, None
    if isolation.isolated:
        inside = boundary.JOB_ROOT
        argv = [sys.executable, "-I", "-m", "attnlab.course.sandbox", inside]
        env = _clean_env(f"{inside}/work", "/tmp")
        cgroup = boundary.Cgroup(int(limits.memory_mib * 2**20 * 1.5))
        cmd = cgroup.wrap(boundary.command(job_dir, argv, env, hide=list(hide), as_pid_1=probe))
        return cmd, cgroup, {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, str(job_dir)
    cmd = [sys.executable, "-I", "-m", "attnlab.course.sandbox", str(job_dir)]
    return cmd, None, _clean_env(str(job_dir / "work"), str(job_dir / "tmp")), str(job_dir / "work")


def _keep_answers(results: Path, answers: dict[str, bytes | None], calls: list[dict]) -> None:
    """Put back each answer as it was when the sandbox asked for the next call; remove any
    answer that was not there when the grader moved on (it does not count)."""
    for name, data in answers.items():
        try:
            (results / name).unlink(missing_ok=True)
            if data is not None:
                (results / name).write_bytes(data)
        except OSError:
            pass
    for call in calls:
        for ext in (".json", ".npz"):
            name = f"{call['id']:04d}{ext}"
            if name not in answers:
                try:
                    (results / name).unlink(missing_ok=True)
                except OSError:
                    pass


def _probe_peak(peak_r: int | None, base: int | None, window, killed: str | None,
                maxrss: int | None = None) -> int | None:
    """A memory probe's peak resident bytes over its baseline, from the waiter's count (the pipe
    ``peak_r``, closed here) or, for a warm worker's child (no pipe), ``maxrss`` from its
    zygote's ``wait4``; ``window``: (peak before the call, baseline of the call)."""
    if peak_r is not None:
        try:
            text = os.read(peak_r, 64).decode("ascii", "replace").strip()
            maxrss = int(text) * 1024 if text.isdigit() else None
        except OSError:
            maxrss = None
        finally:
            os.close(peak_r)
    if base is None or maxrss is None or killed:
        return None
    peak = max(maxrss - base, 0)
    if window is not None and window[0] is not None and window[1] is not None:
        # the cells' peak over the first baseline; the call's over the first baseline and over
        # the resident size it started from, whichever is lower
        peak = max(window[0] - base, maxrss - base, maxrss - window[1], 0)
    return peak


HOW = {"reset": "peak resident memory of a process of its own, read by the grader",
       "peak so far": "peak resident memory of a process of its own, read by the grader "
                      "(its peak before the baseline could not be reset)"}


def run_sandbox(job_dir: Path, job: dict, limits: Limits, isolation: boundary.Isolation,
                hide: list[str] = (), zygote=None) -> SandboxRun:
    """Run the sandbox on ``job`` (sent on its stdin), under bubblewrap when ``isolation`` allows,
    with the wall-clock budget, a memory backstop and bounded output.

    A memory probe (``job["probe"]``) also measures the peak resident size of the learner's
    process from outside: when the sandbox says it is ready (no learner code has run yet) the
    grader resets that process's peak and reads its baseline, then lets it go on; when the
    process has ended, ``wait4`` gives the kernel's count of its peak resident size (the
    process cannot reset it: ``/proc`` is read-only inside the boundary)."""
    import psutil

    start = time.perf_counter()
    probe = bool(job.get("probe"))
    cmd, cgroup, popen_env, cwd = _command(job_dir, limits, isolation, hide, zygote, probe)
    peak_r = peak_w = None
    if probe and cmd is not None:
        peak_r, peak_w = os.pipe()
        cmd = [sys.executable, "-I", "-S", "-c", WAITER, str(peak_w), *cmd]
    started_at = time.time()
    user: dict = {}
    try:
        if cmd is None:
            proc = zygote.start()
        else:
            # without bubblewrap, a user of its own where the grader may make one (unprivileged.py)
            user = unprivileged.hand_over(job_dir, isolation.isolated)
            proc = subprocess.Popen(cmd, cwd=cwd, env=popen_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    pass_fds=(peak_w,) if peak_w is not None else (), **user)
    finally:
        if peak_w is not None:
            os.close(peak_w)
    calls = list(job.get("calls", []))
    payload = pickle.dumps({k: v for k, v in job.items() if k != "calls"})
    results = job_dir / "results"
    marks = [0]  # how many NEXT_MARKs the sandbox has written
    marked = threading.Condition()
    kept: list[bytes] = []
    ready = threading.Event()
    harness = threading.Event()  # the sandbox's HARNESS_MARK: learner code may run from here on
    measure = threading.Event()  # a memory probe's measured call is about to run
    closed = threading.Event()  # the sandbox's stdout reached its end: it has exited, or is exiting
    answers: dict[str, bytes | None] = {}  # the answers as they were when the sandbox asked for the next call

    def wait_mark(n: int) -> bool:
        with marked:
            while marks[0] < n and not closed.is_set():
                marked.wait(0.1)
            return marks[0] >= n

    def keep(names) -> None:
        for name in names:
            try:
                answers[name] = read_regular(results / name, MAX_RESULT_BYTES + (1 << 20))
            except (OSError, ValueError) as exc:
                answers[name] = None
                if name.endswith(".npz") and isinstance(exc, ValueError):  # far too large: say so
                    answers[name[:-4] + ".json"] = json.dumps({
                        "id": int(name[:4]), "error": "ResultTooLarge",
                        "message": "the result is far larger than the expected answer"}).encode()

    def feed() -> None:
        """The job, then one call at a time: call k+1 is written only after the sandbox asked for
        it, and call k's answer is kept as it was then (a later call cannot change it)."""
        try:
            proc.stdin.write(payload)
            proc.stdin.flush()
            for k, call in enumerate(calls):
                if not wait_mark(k + 1):
                    return
                keep(["cells.json"] if k == 0 else [f"{calls[k - 1]['id']:04d}.json", f"{calls[k - 1]['id']:04d}.npz"])
                with marked:
                    proc.stdin.write(pickle.dumps(call))
                    proc.stdin.flush()
            if wait_mark(len(calls) + 1):
                keep(["cells.json"] if not calls else [f"{calls[-1]['id']:04d}.json", f"{calls[-1]['id']:04d}.npz"])
            proc.stdin.close()
        except (OSError, ValueError):  # the sandbox died before reading its job
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()

    def drain() -> None:  # keep the first 20 kB of whatever escapes to the real stdout
        size, seen, tail, before = 0, b"", b"", b""
        try:
            for chunk in iter(lambda: proc.stdout.read1(65536), b""):
                if probe and not ready.is_set():
                    seen = (seen + chunk)[-4096:]
                    if sandbox.READY_MARK in seen:
                        ready.set()
                joined = tail + chunk
                if probe and sandbox.MEASURE_MARK in joined:
                    measure.set()
                if not harness.is_set():
                    before = (before + chunk)[-4096:]
                    if sandbox.HARNESS_MARK in before:
                        harness.set()
                found = joined.count(sandbox.NEXT_MARK)
                tail = joined[-(len(sandbox.NEXT_MARK) - 1):]
                if found:
                    with marked:
                        marks[0] += found
                        marked.notify_all()
                if size < 20_000:
                    for mark in (sandbox.NEXT_MARK, sandbox.READY_MARK, sandbox.HARNESS_MARK):
                        chunk = chunk.replace(mark, b"")
                    kept.append(chunk[: 20_000 - size])
                    size += len(chunk)
        finally:
            closed.set()
            with marked:
                marked.notify_all()

    def go() -> None:  # a probe waits for this line at its ready and measure marks
        try:
            with marked:
                proc.stdin.write(b"go\n")
                proc.stdin.flush()
        except (OSError, ValueError):
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    killed = None
    rss_limit = limits.memory_mib * 2**20 * 1.25
    try:
        ps = psutil.Process(proc.pid)
    except psutil.Error:
        ps = None
    next_memory_check = 0.0
    base, how, maxrss = None, "", None  # maxrss: a warm child's peak, from its zygote's wait4
    python_pid, window = None, None  # a probe: the sandbox's Python; (peak before the call, baseline of the call)
    capped = os.path.ismount(job_dir)  # a boundary.WritableSpace: noted once it is full
    filled = False
    closed_at = 0.0
    try:
        while True:
            if cmd is None:
                done, _, kib = proc.check()
                if done:
                    maxrss = kib * 1024 if isinstance(kib, int) else None
                    break
            else:
                done, status, _ = os.wait4(proc.pid, os.WNOHANG)
                if done:
                    proc.returncode = os.waitstatus_to_exitcode(status)
                    break
            if probe and ready.is_set() and not how:
                python_pid = proc.python_pid() if cmd is None else _python_pid(proc)
                base, how = _baseline(python_pid)
                how = how or "no baseline"
                go()
            if probe and measure.is_set() and window is None:
                # The cells have run: what they left resident is the call's own baseline too, so
                # memory they gave back (pages dropped with madvise) is no headroom for the call.
                before_kib = _status_kib(python_pid, "VmHWM") if python_pid else None
                base2, how2 = _baseline(python_pid) if python_pid else (None, "")
                window = (None if before_kib is None else before_kib * 1024, base2 if how2 == "reset" else None)
                go()
            # Wake at once when the probe says it is ready or the sandbox's output ends (its
            # exit), not at the next tick. (Code that closes its own stdout and goes on running
            # only gets the usual tick back after half a second.)
            if closed.is_set():
                closed_at = closed_at or time.perf_counter()
                time.sleep(0.002 if time.perf_counter() - closed_at < 0.5 else 0.1)
            elif probe and not ready.is_set():
                ready.wait(0.02)
            else:
                closed.wait(0.1)
            elapsed = time.perf_counter() - start
            if elapsed > limits.notebook_seconds:
                killed = "timeout"
                break
            if ps is not None and elapsed >= next_memory_check:  # the address-space limit is the
                next_memory_check = elapsed + 0.5                 # main bound; this is a backstop
                rss = cgroup.usage() if cgroup is not None and cgroup.paths else None
                if rss is None:  # without a cgroup: resident sizes (shared pages counted twice)
                    try:
                        rss = sum(p.memory_info().rss for p in [ps, *ps.children(recursive=True)])
                    except psutil.Error:
                        rss = 0
                if rss > rss_limit:
                    killed = "memory"
                    break
                filled = filled or (capped and boundary.space_full(job_dir))
        if killed and cmd is None:
            proc.kill()  # the warm worker goes with it
        elif killed:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.returncode is None:
            proc.wait()
        if cgroup is not None and not killed and proc.returncode not in (0, None) and cgroup.oom_killed():
            killed = "memory"
        filled = filled or (capped and boundary.space_full(job_dir))
    finally:
        if proc.returncode is None and proc.poll() is None:
            proc.kill()
            proc.wait()
        unprivileged.end_all(user)  # whatever the sandbox's own user left running, wherever it went
        if cgroup is not None and cmd is not None:
            cgroup.remove()
    reader.join(timeout=5)
    writer.join(timeout=1)
    _keep_answers(results, answers, calls)
    peak = _probe_peak(peak_r, base, window, killed, maxrss) if probe else None
    return SandboxRun(proc.returncode, killed, time.perf_counter() - start,
                      b"".join(kept).decode("utf-8", "replace"), peak, HOW.get(how, how), filled,
                      started_at, time.time(), harness.is_set())


def _grade_warm(result, sub, plan, limits, scratch, denied, nb, isolation, borrowed, tampering,
                _run_and_judge) -> bool:
    """Run the submission in a warm worker's child (:mod:`attnlab.course.warm`); False if no warm
    worker could be had (then a fresh sandbox runs it). ``_run_and_judge``: the driver's rest of
    the trip (run, measure, judge), run here with ``zygote=`` the worker."""
    with AST_LOCK:
        preload = _preload(plan, job_cells(plan, nb)[0], isolation)
    pool = warm.pool_for(scratch)
    hide = [str(d) for d in denied]

    def make(modules):
        return warm.Zygote(scratch, int(limits.memory_mib * 2**20), limits.space_mib * 2**20, limits.space_files,
                           hide, modules, lambda tmp: _give_font_list(scratch, tmp))

    watch = _Stopwatch(result.stages)
    zygote = pool.take(preload, make)
    watch.lap("warm worker")
    if zygote is None:
        return False
    try:
        _run_and_judge(result, plan, limits, scratch, denied, nb, zygote.folder, isolation, borrowed, tampering,
                       sub, zygote=zygote)
    finally:
        watch = _Stopwatch(result.stages)
        child = zygote.child
        pool.give(zygote, healthy=child is not None and child.returncode == 0 and not child.killed)
        watch.lap("cleanup")
    return True


def _allowed_roots() -> list[str]:
    import attnlab

    roots = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(attnlab.__file__))}
    for p in sys.path:
        if p and os.path.isdir(p) and ("site-packages" in p or "dist-packages" in p or p.startswith(sys.base_prefix)):
            roots.add(p)
    return sorted(roots)


def prepare(plan: AssignmentPlan, nb: dict, sub: Submission, job_dir: Path, limits: Limits, scratch: Path,
            denied: list[Path], isolation: boundary.Isolation, zygote=None) -> Job:
    """The job folder (the submission's files in ``work/``, ``results/``, ``tmp/`` with the font
    list) and the job the sandbox reads: the cells, the calls, the limits and the boundary."""
    skipped = copy_submission(sub.folder, job_dir / "work", exist_ok=zygote is not None)
    (job_dir / "results").mkdir(exist_ok=True)  # a tmpfs of its own where boundary.WritableSpace mounted one
    if zygote is None:  # (a warm worker's slot has its tmp, with the font list)
        (job_dir / "tmp").mkdir()
        _give_font_list(scratch, job_dir / "tmp")
    with AST_LOCK:
        cells, origin = job_cells(plan, nb)
        preload = _preload(plan, cells, isolation)
    inside = Path(boundary.JOB_ROOT) if isolation.isolated else job_dir
    spec = {
        "cells": cells, "calls": job_calls(plan), "preload": preload,
        "cell_timeout": limits.cell_seconds, "call_timeout": limits.call_seconds,
        "memory_bytes": int(limits.memory_mib * 2**20), "file_bytes": int(limits.file_mib * 2**20),
        "denied": [str(d) for d in denied], "scratch": [str(Path(scratch).resolve())] if not isolation.isolated else [],
        "allowed": _allowed_roots(), "isolated": isolation.isolated, "tmp": str(inside / "tmp") if not isolation.isolated else "",
        "tasks_max": boundary.TASKS_MAX,
        "watch": {cc.learner_name: tamper.runtime_targets(cc.learner_name)
                  for cell in plan.grade_cells for cc in cell.calls},
    }
    return Job(job_dir, spec, cells, origin, skipped)


def run(job: Job, limits: Limits, isolation: boundary.Isolation, denied: list[Path], zygote=None) -> Ran:
    """Run the job; what came back, read with bounds: the cells' log (one entry per job cell at
    most, the grader's own labels), whether the sandbox finished, and the exercises its
    tripwires saw reach for a reference (only names the job watched)."""
    ran = run_sandbox(job.folder, job.spec, limits, isolation, hide=[str(d) for d in denied], zygote=zygote)
    if not ran.harness:  # no line of the learner's ran: the grader's own fault, never a status
        how = (f"was stopped ({ran.killed})" if ran.killed else f"ended (exit code {ran.returncode})")
        raise GraderFault(f"the {'warm worker' if zygote is not None else 'sandbox'}'s process {how} "
                          "before the notebook's first cell ran", ran.output)
    results = job.results
    try:
        cell_log = _load_json(results / "cells.json", 16 * 2**20)
    except Exception:  # noqa: BLE001
        cell_log = []
    if not isinstance(cell_log, list):
        cell_log = []
    cell_log = [e for e in cell_log if isinstance(e, dict)][: len(job.cells)]
    try:
        seen = _load_json(results / "borrowed.json", 2**20)
    except Exception:  # noqa: BLE001
        seen = {}
    borrowed = {}
    if isinstance(seen, dict):
        for name, why in seen.items():
            if name in job.spec["watch"] and isinstance(why, str):
                borrowed.setdefault(name, why[:300])
    labels = [label for label, _ in job.cells]
    for i, entry in enumerate(cell_log):
        entry["label"] = labels[i]  # the grader's own labels, not what came back
        entry["error"] = str(entry.get("error") or "")[:2000] or None
    return Ran(ran, results, cell_log, (results / "done.json").is_file(), borrowed)
