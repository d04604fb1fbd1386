"""Warm sandboxes: one long-lived, bubblewrapped worker ("zygote") per grading job slot.

A fresh sandbox pays, for every submission, bubblewrap's start, the interpreter's start and the
imports of numpy, matplotlib, attnlab, IPython (and torch where the job's cells use it): most of a
correct submission's time. A zygote pays them once per job slot: it is started under the same
boundary as a sandbox (:func:`attnlab.course.boundary.command`: its own filesystem view, no
network, its own PID namespace, a cgroup and the job's writable space where the host allows),
imports those libraries and then forks one child per submission, which runs
:func:`attnlab.course.sandbox.main` on a fresh IPython namespace exactly as a fresh sandbox would
(the same job on its stdin, the same limits, set by the child itself). No learner code ever runs in
the zygote.

Nothing of one submission reaches the next: the child's memory is its own copy (copy-on-write),
every process it leaves behind is killed by the zygote before it reports the child's end, and the
grader empties the slot's ``work``, ``results`` and ``tmp`` (the only places the sandbox can
write) before the next submission is copied in, all but the mount points of the interpreter, the
virtualenv and attnlab where they live under ``/tmp`` (:func:`boundary.mount_points_in`). A slot whose child was killed by the grader (time,
memory) or that misbehaves in any way is thrown away; the next submission starts a new one.

On by default; ``ATTNLAB_WARM=0`` (or ``attnlab-course grade --cold``) turns it off. A memory
probe (notebooks 06, 08) is a fresh child of the submission's zygote in its emptied slot, measured
from outside as a fresh sandbox is (see ``stages.run.run_sandbox``): the grader resets the child's
peak (``/proc/PID/clear_refs``) before any learner code runs, and the zygote's ``wait4`` gives the
kernel's count of its peak; the main run's answers are kept aside meanwhile
(:func:`keep_results`). The preflight always starts a fresh sandbox.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import boundary
from .wire import ZYGOTE_PRELOAD

ENV = "ATTNLAB_WARM"
SLOT = ("work", "results", "tmp", "shm")  # everything a warm worker's sandbox can write
START_SECONDS = 120.0


def enabled() -> bool:
    """On unless ``ATTNLAB_WARM`` says off (``0``, ``no``, ``off``, ``false``)."""
    return os.environ.get(ENV, "").strip().lower() not in ("0", "no", "off", "false")


def _empty(folder: Path, keep: frozenset = frozenset()) -> None:
    """Remove everything inside ``folder`` (a bind-mount point: the folder itself stays) but the
    mount points in ``keep`` (:func:`boundary.mount_points_in`) and the folders above them,
    whose other contents go."""
    try:
        os.chmod(folder, 0o700)
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        path = Path(entry.path)
        if path in keep:
            continue
        try:
            if entry.is_dir(follow_symlinks=False) and any(path in k.parents for k in keep):
                _empty(path, keep)  # (left mode 700, as bubblewrap made it)
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
                if os.path.lexists(entry.path):  # a folder made unreadable: allow, then again
                    for root, dirs, _ in os.walk(entry.path):
                        for d in dirs:
                            os.chmod(os.path.join(root, d), 0o700)
                    os.chmod(entry.path, 0o700)
                    shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except OSError:
            pass


class Zygote:
    """One warm worker and its slot folder (``work``, ``results``, ``tmp``, seen as ``/job``)."""

    def __init__(self, scratch: Path, memory_bytes: int, space_bytes: int, space_files: int,
                 hide: list[str], preload: list[str], give_fonts) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="warm-", dir=scratch))
        self.mounts = frozenset(boundary.mount_points_in(self.folder))  # kept when the slot is emptied
        self.space = boundary.WritableSpace(self.folder, space_bytes, space_files)
        for name in SLOT:
            (self.folder / name).mkdir(exist_ok=True)
        self.give_fonts = give_fonts
        give_fonts(self.folder / "tmp")
        self.preload = list(preload)
        self.cgroup = boundary.Cgroup(int(memory_bytes * 1.5) + 1024 * 2**20)  # + the zygote's own libraries
        ours, theirs = socket.socketpair()
        self.ctl = ours
        inside = boundary.JOB_ROOT
        argv = [sys.executable, "-I", "-m", "attnlab.course.sandbox", "--zygote", inside, str(theirs.fileno()),
                *self.preload]
        cmd = self.cgroup.wrap(boundary.command(self.folder, argv, boundary.clean_env(f"{inside}/work", "/tmp"), hide=hide,
                                                warm=True))
        try:
            self.proc = subprocess.Popen(cmd, cwd=str(self.folder), env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, start_new_session=True,
                                         pass_fds=(theirs.fileno(),))
        finally:
            theirs.close()
        self.reader = self.ctl.makefile("rb")
        self.ctl.settimeout(START_SECONDS)
        try:
            line = self.reader.readline()
        except OSError:
            line = b""
        self.ctl.settimeout(None)
        self.alive = line == b"ready\n"
        self.child = None
        if not self.alive:
            self.close()

    def covers(self, preload: list[str]) -> bool:
        return all(m in self.preload or m in ZYGOTE_PRELOAD for m in preload)

    def start(self) -> "WarmChild":
        """Fork the submission's process on two fresh pipes; the caller has filled ``work``."""
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        try:
            socket.send_fds(self.ctl, [b"run"], [stdin_r, stdout_w])
        finally:
            os.close(stdin_r)
            os.close(stdout_w)
        child = WarmChild(self, os.fdopen(stdin_w, "wb"), os.fdopen(stdout_r, "rb"))
        self.child = child
        return child

    def reset(self) -> None:
        """Empty the slot for the next submission (after its child and all its processes ended)."""
        for name in SLOT:
            _empty(self.folder / name, self.mounts)
        self.space.was_full = False
        self.give_fonts(self.folder / "tmp")

    def close(self) -> None:
        self.alive = False
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
        try:
            self.proc.wait(timeout=30)
        except (subprocess.TimeoutExpired, AttributeError):
            pass
        for f in (getattr(self, "reader", None), getattr(self, "ctl", None)):
            try:
                f.close()
            except (OSError, AttributeError):
                pass
        self.cgroup.remove()
        self.space.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class WarmChild:
    """The submission's process in a zygote, with the parts of ``subprocess.Popen`` that
    :func:`attnlab.course.stages.run.run_sandbox` uses."""

    def __init__(self, zygote: Zygote, stdin, stdout) -> None:
        self.zygote, self.stdin, self.stdout = zygote, stdin, stdout
        self.returncode = None
        self.killed = False
        self.pid = zygote.proc.pid  # for the memory backstop: the zygote's tree (cgroup first)
        self._answer = None
        self._thread = threading.Thread(target=self._wait, daemon=True)
        self._thread.start()

    def _wait(self) -> None:
        try:
            line = self.zygote.reader.readline()
            self._answer = json.loads(line) if line else {}
        except (OSError, ValueError):
            self._answer = {}

    def check(self) -> tuple[bool, int | None, int | None]:
        """(ended, exit code, peak resident KiB) without waiting."""
        if self._thread.is_alive():
            if self.zygote.proc.poll() is not None:  # the zygote itself died
                self.returncode = -9
                return True, self.returncode, None
            return False, None, None
        answer = self._answer if isinstance(self._answer, dict) else {}
        code = answer.get("exit")
        self.returncode = code if isinstance(code, int) and not isinstance(code, bool) else -9
        if not answer:
            self.zygote.alive = False
        return True, self.returncode, answer.get("maxrss")

    def kill(self) -> None:
        """Stop it (time or memory): the whole zygote goes, the next submission starts a new one."""
        self.killed = True
        self.zygote.close()
        if self.returncode is None:
            self.returncode = -9

    def poll(self):
        return self.returncode

    def python_pid(self) -> int | None:
        """The host pid of this child (the zygote's only child while no learner code has run:
        what a memory probe measures from outside), or None."""
        import psutil

        argv = ["-I", "-m", "attnlab.course.sandbox", "--zygote"]
        for _ in range(50):
            try:
                tree = psutil.Process(self.zygote.proc.pid).children(recursive=True)
                ours = {p.pid: p for p in tree if p.cmdline()[1:5] == argv}
                roots = [pid for pid, p in ours.items() if p.ppid() not in ours]  # the zygote itself
                kids = [pid for pid, p in ours.items() if roots and p.ppid() == roots[0]]
                if len(roots) == 1 and len(kids) == 1:
                    return kids[0]
            except psutil.AccessDenied:
                return None
            except psutil.Error:  # a process that ended while we looked
                pass
            time.sleep(0.01)
        return None

    def healthy(self) -> bool:
        return self.returncode == 0 and not self.killed and self.zygote.alive

    def wait(self, timeout=None):
        self._thread.join(timeout)
        return self.check()[1]


def keep_results(z: Zygote, scratch: Path) -> Path:
    """Copy the slot's ``results`` (its regular files) to a folder of the grader's own, before
    memory probes reuse the slot."""
    kept = Path(tempfile.mkdtemp(prefix="kept-", dir=scratch))
    _copy_files(z.folder / "results", kept)
    return kept


def put_back_results(z: Zygote, kept: Path) -> None:
    """Put what :func:`keep_results` kept back into the slot's ``results`` (made again if the
    slot was thrown away meanwhile: the grader judges from there), then remove ``kept``."""
    results = z.folder / "results"
    results.mkdir(parents=True, exist_ok=True)
    _empty(results)
    _copy_files(kept, results)
    shutil.rmtree(kept, ignore_errors=True)


def _copy_files(src: Path, dst: Path) -> None:
    try:
        entries = list(os.scandir(src))
    except OSError:
        return
    for entry in entries:
        if entry.is_file(follow_symlinks=False):  # never a FIFO, a link or a folder
            try:
                shutil.copyfile(entry.path, dst / entry.name, follow_symlinks=False)
            except OSError:
                pass


class Pool:
    """The batch's zygotes, one taken by a job slot at a time."""

    def __init__(self) -> None:
        self.free: list[Zygote] = []
        self.lock = threading.Condition()
        self.closed = False
        self.ended = False  # every worker closed (the threads that started them may end)
        self.starting = 0  # zygotes that :meth:`prestart` is still starting

    def prestart(self, count: int, make, preload: list[str]) -> None:
        """Start ``count`` zygotes (``make(modules)``) in the background, while the batch does its
        own preparation (preflight, plans, the gradebook): the first submissions then find their
        workers warm, instead of each waiting for a start of its own."""
        wanted = list(dict.fromkeys([*preload, "torch", "attnlab.torch"]))
        with self.lock:
            self.starting += count
        for _ in range(count):
            threading.Thread(target=self._start_one, args=(make, wanted), daemon=True).start()

    def _start_one(self, make, wanted: list[str]) -> None:
        try:
            z = make(wanted)
        except Exception:  # noqa: BLE001 - no warm worker: take() starts one, or a fresh sandbox runs
            z = None
        with self.lock:
            keep = z is not None and z.alive and not self.closed
            if keep:
                self.free.append(z)
        if z is not None and not keep:
            z.close()  # before the pool hears that the start is over: its folder goes with the batch
        with self.lock:
            self.starting -= 1
            self.lock.notify_all()
            # bubblewrap's --die-with-parent ends the zygote when the *thread* that started it
            # ends: this one stays until the pool has closed its workers
            while keep and not self.ended:
                self.lock.wait()

    def take(self, preload: list[str], make) -> Zygote | None:
        """A free zygote that has ``preload`` loaded (waiting for one that :meth:`prestart` is
        starting), else a new one (``make(modules)``) that has it and whatever a free one had
        (torch always: most notebooks use it)."""
        wanted = list(dict.fromkeys([*preload, "torch", "attnlab.torch"]))
        with self.lock:
            while True:
                for i, z in enumerate(self.free):
                    if z.alive and z.covers(preload):
                        return self.free.pop(i)
                if not self.starting or self.closed:
                    break
                self.lock.wait(1.0)
            if self.free:  # one that lacks a library: replaced by one that has both
                old = self.free.pop(0)
                wanted = list(dict.fromkeys([*old.preload, *wanted]))
            else:
                old = None
        if old is not None:
            old.close()
        try:
            z = make(wanted)
        except Exception:  # noqa: BLE001 - no warm worker: the submission gets a fresh sandbox
            return None
        return z if z.alive else None

    def give(self, z: Zygote, healthy: bool) -> None:
        if not healthy or not z.alive or self.closed:
            z.close()
            return
        try:
            z.reset()
        except Exception:  # noqa: BLE001
            z.close()
            return
        with self.lock:
            self.free.append(z)

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.lock.notify_all()
            deadline = time.monotonic() + START_SECONDS + 10  # a zygote still starting closes itself
            while self.starting and time.monotonic() < deadline:  # (_start_one) before the batch's folder goes
                self.lock.wait(0.5)
            zs, self.free = self.free, []
        for z in zs:
            z.close()
        with self.lock:
            self.ended = True
            self.lock.notify_all()


_POOLS: dict[str, Pool] = {}
_POOLS_LOCK = threading.Lock()


def pool_for(scratch: Path) -> Pool:
    with _POOLS_LOCK:
        return _POOLS.setdefault(str(scratch), Pool())


def close_pool(scratch: Path) -> None:
    with _POOLS_LOCK:
        pool = _POOLS.pop(str(scratch), None)
    if pool is not None:
        pool.close()
