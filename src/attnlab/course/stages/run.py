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

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import attnlab

from .. import boundary, tamper, unprivileged, warm, wire
from ..plan import BASE_PRELOAD, AssignmentPlan, job_calls
from .channel import Channel, Sendable
from .collect import copy_submission
from .fonts import _give_font_list
from .handoff import GraderFault, Job, Limits, Ran, SandboxRun, Submission, Trip, _Stopwatch
from .read import AST_LOCK, _load_json, _preload, job_cells


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
        env = boundary.clean_env(f"{inside}/work", "/tmp")
        cgroup = boundary.Cgroup(int(limits.memory_mib * 2**20 * 1.5))
        cmd = cgroup.wrap(boundary.command(job_dir, argv, env, hide=list(hide), as_pid_1=probe))
        return cmd, cgroup, {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, str(job_dir)
    cmd = [sys.executable, "-I", "-m", "attnlab.course.sandbox", str(job_dir)]
    return cmd, None, boundary.clean_env(str(job_dir / "work"), str(job_dir / "tmp")), str(job_dir / "work")


def _probe_peak(peak_r: int | None, w: _Watched, group_peak: int | None) -> int | None:
    """A memory probe's peak resident bytes over its baseline. The learner's process: the
    waiter's count (the pipe ``peak_r``, closed here) or, for a warm worker's child (no pipe),
    its zygote's ``wait4`` (``w.maxrss``); ``w.window``: (peak before the call, baseline of the
    call). Every process it started, summed: the cgroup's peak over the call (``group_peak`` over
    ``w.group_base``) where there is one, and the largest sum of the tree's resident sizes
    sampled during the call. The largest of these counts."""
    maxrss = w.maxrss
    if peak_r is not None:
        try:
            text = os.read(peak_r, 64).decode("ascii", "replace").strip()
            maxrss = int(text) * 1024 if text.isdigit() else None
        except OSError:
            maxrss = None
        finally:
            os.close(peak_r)
    base, window = w.base, w.window
    if base is None or maxrss is None or w.killed:
        return None
    peak = max(maxrss - base, 0)
    if window is not None and window[0] is not None and window[1] is not None:
        # the cells' peak over the first baseline; the call's over the first baseline and over
        # the resident size it started from, whichever is lower
        peak = max(window[0] - base, maxrss - base, maxrss - window[1], 0)
    if group_peak is not None and w.group_base is not None:
        peak = max(peak, group_peak - w.group_base)
    if w.tree_peak is not None and w.tree_base is not None:
        peak = max(peak, w.tree_peak - w.tree_base)
    return peak


def _tree_rss(pid: int | None) -> int | None:
    """Resident bytes of process ``pid`` and all its descendants, summed (None: unknown)."""
    import psutil  # (imported here: only the grader's batch needs it, not the modules that import this one)

    if pid is None:
        return None
    try:
        top = psutil.Process(pid)
        total = top.memory_info().rss
        for child in top.children(recursive=True):
            try:
                total += child.memory_info().rss
            except psutil.Error:
                pass
        return total
    except psutil.Error:
        return None


HOW = {"reset": "peak resident memory of a process of its own and every process it starts, read by the grader",
       "peak so far": "peak resident memory of a process of its own and every process it starts, read by the "
                      "grader (its peak before the baseline could not be reset)"}


def run_sandbox(job_dir: Path, job: dict, limits: Limits, isolation: boundary.Isolation,
                hide: list[str] = (), zygote=None) -> SandboxRun:
    """Run the sandbox on ``job`` (sent on its stdin, :class:`~.channel.Channel`), under bubblewrap
    when ``isolation`` allows, with the wall-clock budget, a memory backstop and bounded output.

    A memory probe (``job["probe"]``) also measures the peak resident size of the learner's
    process from outside: when the sandbox says it is ready (no learner code has run yet) the
    grader resets that process's peak and reads its baseline, then lets it go on; when the
    process has ended, ``wait4`` gives the kernel's count of its peak resident size (the
    process cannot reset it: ``/proc`` is read-only inside the boundary)."""
    start = time.perf_counter()
    probe = bool(job.get("probe"))
    sent = Sendable(job)  # before anything starts: a call that cannot be sent stops here, loudly
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
    channel = Channel(proc, sent, job_dir / "results", probe)
    channel.start()
    group_peak = None
    try:
        watched = _watch(proc, channel, limits, cgroup, job_dir, start, warm_child=cmd is None)
        if watched.killed and cmd is None:
            proc.kill()  # the warm worker goes with it
        elif watched.killed:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.returncode is None:
            proc.wait()
        if (cgroup is not None and not watched.killed and proc.returncode not in (0, None)
                and cgroup.oom_killed()):
            watched.killed = "memory"
        watched.filled = watched.filled or (os.path.ismount(job_dir) and boundary.space_full(job_dir))
        group_peak = cgroup.peak() if probe and watched.group_base is not None else None
    finally:
        if proc.returncode is None and proc.poll() is None:
            proc.kill()
            proc.wait()
        unprivileged.end_all(user)  # whatever the sandbox's own user left running, wherever it went
        if cgroup is not None and cmd is not None:
            cgroup.remove()
    output = channel.finish()
    peak = _probe_peak(peak_r, watched, group_peak) if probe else None
    return SandboxRun(proc.returncode, watched.killed, time.perf_counter() - start, output, peak,
                      HOW.get(watched.how, watched.how), watched.filled, started_at, time.time(),
                      channel.harness.is_set())


@dataclass
class _Watched:
    """What watching a running sandbox found: why the grader stopped it (None: it ended), a
    probe's baseline and measured window, a warm child's peak, and a full writable space."""
    killed: str | None = None
    base: int | None = None
    how: str = ""
    window: tuple | None = None  # a probe: (peak before the call, baseline of the call)
    maxrss: int | None = None    # a warm child's peak, from its zygote's wait4
    filled: bool = False
    # The call's window, every process counted (a process the call starts holds memory too):
    group_base: int | None = None  # the cgroup's usage when the call started (its peak reset then)
    tree_base: int | None = None   # resident bytes of the sandbox's process tree then, and their
    tree_peak: int | None = None   # largest sum sampled during the call (where no cgroup counts)


def _watch(proc, channel: Channel, limits: Limits, cgroup, job_dir: Path, start: float,
           warm_child: bool) -> _Watched:
    """Wait for the sandbox to end, within its wall-clock budget and memory backstop; answer a
    probe's ready and measure marks (baseline, then ``go``)."""
    import psutil  # (imported here: only the grader's batch needs it, not the modules that import this one)

    w = _Watched()
    rss_limit = limits.memory_mib * 2**20 * 1.25
    try:
        ps = psutil.Process(proc.pid)
    except psutil.Error:
        ps = None
    probe, ready, closed = channel.probe, channel.ready, channel.closed
    next_memory_check, python_pid, closed_at = 0.0, None, 0.0
    capped = os.path.ismount(job_dir)  # a boundary.WritableSpace: noted once it is full
    while True:
        channel.woken.clear()  # (cleared before the flags are read: a mark set after this wakes the wait below)
        if warm_child:
            done, _, kib = proc.check()
            if done:
                w.maxrss = kib * 1024 if isinstance(kib, int) else None
                return w
        else:
            done, status, _ = os.wait4(proc.pid, os.WNOHANG)
            if done:
                proc.returncode = os.waitstatus_to_exitcode(status)
                return w
        if probe and ready.is_set() and not w.how:
            python_pid = proc.python_pid() if warm_child else _python_pid(proc)
            w.base, w.how = _baseline(python_pid)
            w.how = w.how or "no baseline"
            channel.go()
        if probe and channel.measure.is_set() and w.window is None:
            # The cells have run: what they left resident is the call's own baseline too, so
            # memory they gave back (pages dropped with madvise) is no headroom for the call.
            before_kib = _status_kib(python_pid, "VmHWM") if python_pid else None
            base2, how2 = _baseline(python_pid) if python_pid else (None, "")
            w.window = (None if before_kib is None else before_kib * 1024, base2 if how2 == "reset" else None)
            w.group_base = cgroup.reset_peak() if cgroup is not None else None
            w.tree_base = w.tree_peak = _tree_rss(python_pid)
            channel.go()
        if w.tree_base is not None:  # every tick of the call: the whole tree's resident bytes
            w.tree_peak = max(w.tree_peak or 0, _tree_rss(python_pid) or 0)
        # Wake at once when the probe says it is ready or the sandbox's output ends (its
        # exit), not at the next tick. (Code that closes its own stdout and goes on running
        # only gets the usual tick back after half a second.)
        if closed.is_set():
            closed_at = closed_at or time.perf_counter()
            time.sleep(0.002 if time.perf_counter() - closed_at < 0.5 else 0.1)
        elif probe and (w.window is None or w.tree_base is not None):
            channel.woken.wait(0.02)  # a probe: answer its marks as they come, sample its call often
        else:
            closed.wait(0.1)
        elapsed = time.perf_counter() - start
        if elapsed > limits.notebook_seconds:
            w.killed = "timeout"
            return w
        if ps is not None and elapsed >= next_memory_check:  # the address-space limit is the
            next_memory_check = elapsed + 0.5                 # main bound; this is a backstop
            rss = cgroup.usage() if cgroup is not None and cgroup.paths else None
            if rss is None:  # without a cgroup: resident sizes (shared pages counted twice)
                try:
                    rss = sum(p.memory_info().rss for p in [ps, *ps.children(recursive=True)])
                except psutil.Error:
                    rss = 0
            if rss > rss_limit:
                w.killed = "memory"
                return w
            w.filled = w.filled or (capped and boundary.space_full(job_dir))


@dataclass
class Worker:
    """Where one submission's run happens: a job folder, and the warm worker (``zygote``) whose
    child runs it there, or None for a fresh sandbox."""
    folder: Path
    zygote: Any = None


def zygote_maker(scratch: Path, limits: Limits, denied: list[Path]):
    """``make(modules)``: a new warm worker (:class:`attnlab.course.warm.Zygote`) for this batch."""
    hide = [str(d) for d in denied]

    def make(modules):
        return warm.Zygote(scratch, int(limits.memory_mib * 2**20), limits.space_mib * 2**20, limits.space_files,
                           hide, modules, lambda tmp: _give_font_list(scratch, tmp))
    return make


def prestart_workers(scratch: Path, limits: Limits, denied: list[Path], jobs: int) -> None:
    """The batch's warm workers, one per job slot, started now in the background with what most
    notebooks preload, so that they start while the batch prepares; nothing when there is no
    boundary or warm workers are off (``ATTNLAB_WARM=0``)."""
    if jobs < 1 or not warm.enabled() or not boundary.probe().isolated:
        return
    warm.pool_for(scratch).prestart(jobs, zygote_maker(scratch, limits, denied), list(BASE_PRELOAD))


@contextlib.contextmanager
def warm_worker(trip: Trip) -> Iterator[Worker | None]:
    """A warm worker's slot for ``trip`` (:mod:`attnlab.course.warm`), handed back to its pool
    when the trip leaves it; None when no warm worker could be had (a fresh sandbox runs it)."""
    with AST_LOCK:
        preload = _preload(trip.plan, job_cells(trip.plan, trip.read.nb)[0], trip.isolation)
    pool = warm.pool_for(trip.scratch)
    watch = _Stopwatch(trip.result.stages)
    zygote = pool.take(preload, zygote_maker(trip.scratch, trip.limits, trip.denied))
    watch.lap("warm worker")
    if zygote is None:
        yield None
        return
    try:
        yield Worker(zygote.folder, zygote)
    finally:
        watch = _Stopwatch(trip.result.stages)
        child = zygote.child
        pool.give(zygote, healthy=child is not None and child.returncode == 0 and not child.killed)
        watch.lap("cleanup")


@contextlib.contextmanager
def fresh_worker(trip: Trip) -> Iterator[Worker]:
    """A fresh job folder under the batch's scratch, its writable space bounded, deleted after."""
    job_dir = Path(tempfile.mkdtemp(prefix="job-", dir=trip.scratch))
    space = boundary.WritableSpace(job_dir, trip.limits.space_mib * 2**20, trip.limits.space_files)
    try:
        yield Worker(job_dir)
    finally:
        watch = _Stopwatch(trip.result.stages)
        space.close()
        shutil.rmtree(job_dir, ignore_errors=True)
        watch.lap("cleanup")


def _allowed_roots() -> list[str]:
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


def sandbox_stages(stages: dict[str, float], run, results: Path) -> None:
    """Split the sandbox's wall time by its own stamps (``timing.json``, wall clock); whatever
    they do not cover (a sandbox that died, stamps that make no sense) stays ``sandbox other``."""
    total = max(0.0, run.ended_at - run.started_at)
    try:
        stamps = _load_json(results / "timing.json", 4096)
    except Exception:  # noqa: BLE001
        stamps = {}
    marks = [("sandbox start", "process"), ("interpreter", "started"), ("interpreter", "main"),
             ("imports", "imports"), ("shell", "shell"), ("cells", "cells"), ("calls", "calls")]
    last, covered = run.started_at, 0.0
    for stage, key in marks:
        t = stamps.get(key) if isinstance(stamps, dict) else None
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not last <= t <= run.ended_at:
            continue
        stages[stage] = stages.get(stage, 0.0) + (t - last)
        covered += t - last
        last = t
    if covered:
        stages["sandbox exit"] = stages.get("sandbox exit", 0.0) + (run.ended_at - last)
        covered += run.ended_at - last
    stages["sandbox other"] = stages.get("sandbox other", 0.0) + max(0.0, total - covered)
