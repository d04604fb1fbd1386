"""The operating-system boundary around a submission's sandbox (Linux, bubblewrap).

Each sandbox runs under ``bwrap`` with a filesystem view of its own: the system (``/usr``,
``/lib``, ``/etc``, ...), the virtualenv and the ``attnlab`` package read-only; the job's work
folder (that submission's copy, nothing else) and results folder read-write at ``/job``; a
private ``/tmp`` (these three on tmpfs mounts with a size and an inode cap where the grader is
root: :class:`WritableSpace`); no network, no IPC, its own PID namespace (every process it starts dies
with it), its own user namespace with further user namespaces disabled (``--disable-userns``,
bubblewrap >= 0.8), a read-only ``/proc`` (a process cannot reset its own peak-memory counters),
no capabilities, ``--die-with-parent`` and ``--new-session``. The course (gradebook, solutions, source
notebooks, other submissions) is not in that view at all. Where a cgroup can be created (root,
or a delegated cgroup v2 subtree) the whole sandbox also gets a memory limit and a task limit;
otherwise the sandbox sets ``RLIMIT_NPROC`` and ``RLIMIT_AS`` for itself and every process it
starts (``RLIMIT_NPROC`` binds unprivileged users only: root ignores it).

Where bubblewrap or user namespaces are missing (macOS, locked-down hosts) :func:`probe` says
why, and grading falls back to the in-process guard of :mod:`attnlab.course.sandbox`; every
row then says "not isolated". ``ATTNLAB_ISOLATION=guard`` forces the fallback (tests, hosts
where bwrap misbehaves); ``ATTNLAB_ISOLATION=bwrap`` makes a missing bwrap an error.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

import attnlab

ENV = "ATTNLAB_ISOLATION"
# Benchmarks only (benchmarks/bench_grading.py measures what the cap costs): "1" leaves every job
# folder on disk, as on a host where the grader is not root. It is read from the grader's own
# environment, which no submission can set; the course never sets it.
NO_SPACE_CAP_ENV = "ATTNLAB_BENCH_NO_SPACE_CAP"
JOB_ROOT = "/job"            # where the job folder appears inside the sandbox
SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/opt")
TASKS_MAX = 64               # processes and threads of one sandbox (cgroup pids.max / RLIMIT_NPROC)


@dataclass(frozen=True)
class Isolation:
    mode: str        # "bwrap" or "guard"
    why: str = ""    # for "guard": why the OS boundary is not available

    @property
    def isolated(self) -> bool:
        return self.mode == "bwrap"

    def summary(self) -> str:
        if self.isolated:
            return "isolation: each submission ran under bubblewrap (own filesystem view, no network, own PID namespace)"
        return (f"isolation: NOT ISOLATED ({self.why}): submissions ran under the in-process guard only; "
                "see README, 'What the isolation does'")


_probed: Isolation | None = None
_lock = threading.Lock()
_disable_userns: bool | None = None   # whether this bwrap knows --disable-userns (>= 0.8)


def probe() -> Isolation:
    """Whether sandboxes can run under bubblewrap here (tried once per process)."""
    global _probed
    with _lock:
        if _probed is None:
            _probed = _probe()
        return _probed


def reset_probe() -> None:
    global _probed, _disable_userns
    with _lock:
        _probed = _disable_userns = None


def _userns_options() -> list[str]:
    """``--unshare-user --disable-userns`` where this bubblewrap has it (0.8 and later): the
    submission cannot make user namespaces of its own (and the capabilities they bring)."""
    global _disable_userns
    if _disable_userns is None:
        try:
            out = subprocess.run(["bwrap", "--help"], capture_output=True, text=True, timeout=30)
            _disable_userns = "--disable-userns" in (out.stdout + out.stderr)
        except (OSError, subprocess.TimeoutExpired):
            _disable_userns = False
    return ["--unshare-user", "--disable-userns"] if _disable_userns else []


def _probe() -> Isolation:
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted in ("guard", "none", "off", "fallback"):
        return Isolation("guard", f"{ENV}={wanted}")
    if not sys.platform.startswith("linux"):
        why = f"bubblewrap needs Linux, this is {sys.platform}"
    elif shutil.which("bwrap") is None:
        why = "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    else:
        try:
            proc = subprocess.run(["bwrap", "--unshare-all", *_userns_options(), "--die-with-parent",
                                   "--ro-bind", "/", "/", "--proc", "/proc", "--remount-ro", "/proc",
                                   "--dev", "/dev", "true"],
                                  capture_output=True, timeout=30)
            why = "" if proc.returncode == 0 else (
                "bwrap cannot create namespaces here (" + proc.stderr.decode("utf-8", "replace").strip()[:160] + ")")
        except (OSError, subprocess.TimeoutExpired) as exc:
            why = f"bwrap did not run ({exc})"
    if not why:
        return Isolation("bwrap")
    if wanted == "bwrap":
        raise RuntimeError(f"{ENV}=bwrap, but {why}")
    return Isolation("guard", why)


def _readonly_roots() -> list[str]:
    """What the sandbox must read: the interpreter, the virtualenv, the attnlab package."""
    roots = {os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix),
             os.path.realpath(os.path.dirname(attnlab.__file__))}
    exe = os.path.realpath(sys.executable)
    roots.add(os.path.dirname(os.path.dirname(exe)))
    for p in sys.path:
        if p and os.path.isdir(p) and ("site-packages" in p or "dist-packages" in p):
            roots.add(os.path.realpath(p))
    # Drop roots inside another root or inside the system folders (already there).
    out = []
    for r in sorted(roots, key=len):
        if r in ("/", "") or any(r == s or r.startswith(s + "/") for s in SYSTEM_DIRS):
            continue
        if any(r == o or r.startswith(o.rstrip("/") + "/") for o in out):
            continue
        out.append(r)
    return out


def command(job_dir: Path, argv: list[str], env: dict[str, str], hide: list[str] = (),
            as_pid_1: bool = False, warm: bool = False) -> list[str]:
    """The bwrap command line that runs ``argv`` with ``job_dir`` as ``/job`` (``work``,
    ``results`` and ``tmp`` inside it) and nothing else of the host's writable files.
    ``hide``: folders (the course) covered by an empty tmpfs should they lie inside a system
    folder that is bound (a course kept under ``/opt``). ``as_pid_1``: ``argv`` is bwrap's own
    child (no reaper in between), so the kernel's account of its peak resident size reaches
    whoever waits for bwrap (the grader's memory probe). ``warm``: a warm worker that outlives
    its submissions (:mod:`attnlab.course.warm`): nothing is writable but the job folder's
    ``work``, ``results``, ``tmp`` and ``shm`` (as ``/dev/shm``), all emptied by the grader between
    submissions; the sandbox's own root and ``/dev`` are read-only."""
    cmd = ["bwrap", "--unshare-all", *_userns_options(), "--die-with-parent", "--new-session", "--clearenv"]
    if as_pid_1:
        cmd.append("--as-pid-1")
    bound = []
    for d in SYSTEM_DIRS:
        if os.path.isdir(d) and not os.path.islink(d):
            cmd += ["--ro-bind", d, d]
            bound.append(d)
        elif os.path.islink(d):  # merged /usr: /bin -> usr/bin
            cmd += ["--symlink", os.readlink(d), d]
    for h in hide:
        real = os.path.realpath(h)
        if os.path.isdir(real) and any(real.startswith(d + "/") for d in bound):
            cmd += ["--tmpfs", real]
    # The job's private /tmp first, then the interpreter, the virtualenv and attnlab on top of it:
    # a venv or a course kept under the host's /tmp stays visible (mounts apply in order).
    cmd += ["--proc", "/proc", "--remount-ro", "/proc", "--dev", "/dev"]
    if warm:
        cmd += ["--bind", str(job_dir / "shm"), "/dev/shm", "--remount-ro", "/dev"]
    cmd += ["--bind", str(job_dir / "tmp"), "/tmp"]
    for r in _readonly_roots():
        cmd += ["--ro-bind", r, r]
    cmd += ["--dir", JOB_ROOT,
            "--bind", str(job_dir / "work"), f"{JOB_ROOT}/work",
            "--bind", str(job_dir / "results"), f"{JOB_ROOT}/results",
            "--chdir", f"{JOB_ROOT}/work"]
    if warm:
        cmd += ["--remount-ro", "/"]
    if os.geteuid() == 0:
        cmd += ["--cap-drop", "ALL"]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + ["--"] + argv


def mount_points_in(job_dir: Path) -> list[Path]:
    """The folders of ``job_dir`` that a sandbox's :func:`command` mounts something on: the
    read-only roots (the interpreter, the virtualenv, attnlab) that lie under ``/tmp`` or
    ``/dev/shm``, whose mount points bubblewrap makes inside the job's ``tmp`` or ``shm``.
    Whoever empties those folders between submissions (a warm worker's slot) must keep these and
    the folders above them: removing a mount point from outside detaches its mount inside the
    sandbox (Linux 3.18 and later), and the next submission would find no venv."""
    out = []
    for root in _readonly_roots():
        for inside, folder in (("/tmp", "tmp"), ("/dev/shm", "shm")):
            if root.startswith(inside + "/"):
                out.append(Path(job_dir) / folder / os.path.relpath(root, inside))
    return out


class Cgroup:
    """A cgroup (v2, or v1 ``memory`` + ``pids``) bounding one sandbox's memory and task count;
    ``paths`` is empty where none could be made (then the sandbox's rlimits are the bound)."""

    def __init__(self, memory_bytes: int, tasks: int = TASKS_MAX) -> None:
        self.paths: list[Path] = []
        self._peak_fd: int | None = None  # cgroup v2: the descriptor whose peak reset_peak reset
        name = f"attnlab-{uuid.uuid4().hex[:12]}"
        try:
            v2 = Path("/sys/fs/cgroup")
            if (v2 / "cgroup.controllers").is_file():
                base = self._own_v2(v2)
                if base is not None:
                    path = base / name
                    path.mkdir()
                    self.paths.append(path)
                    (path / "memory.max").write_text(str(memory_bytes))
                    (path / "memory.swap.max").write_text("0") if (path / "memory.swap.max").exists() else None
                    (path / "pids.max").write_text(str(tasks))
            else:
                mem, pids = Path("/sys/fs/cgroup/memory"), Path("/sys/fs/cgroup/pids")
                if os.access(mem, os.W_OK) and os.access(pids, os.W_OK):
                    (mem / name).mkdir()
                    self.paths.append(mem / name)
                    (mem / name / "memory.limit_in_bytes").write_text(str(memory_bytes))
                    (pids / name).mkdir()
                    self.paths.append(pids / name)
                    (pids / name / "pids.max").write_text(str(tasks))
        except OSError:
            self.remove()
            self.paths = []

    @staticmethod
    def _own_v2(root: Path) -> Path | None:
        try:
            rel = Path("/proc/self/cgroup").read_text().strip().split("::", 1)[1]
        except (OSError, IndexError):
            return None
        own = root / rel.lstrip("/")
        for cand in (own.parent, root):  # a sibling of ours (delegated subtree), or the root
            if os.access(cand, os.W_OK) and "memory" in (cand / "cgroup.subtree_control").read_text():
                return cand
        return None

    def procs_files(self) -> list[str]:
        return [str(p / "cgroup.procs") for p in self.paths]

    def wrap(self, cmd: list[str]) -> list[str]:
        """``cmd`` started from a shell that first moves itself into the cgroup(s)."""
        if not self.paths:
            return cmd
        joins = " && ".join(f'echo $$ > "{f}"' for f in self.procs_files())
        return ["/bin/sh", "-c", f'{joins} && exec "$@"', "sh", *cmd]

    def usage(self) -> int | None:
        """Bytes of memory the sandbox's processes use together (None if unknown)."""
        for p in self.paths:
            for name in ("memory.current", "memory.usage_in_bytes"):
                try:
                    return int((p / name).read_text())
                except (OSError, ValueError):
                    continue
        return None

    def reset_peak(self) -> int | None:
        """Start counting the cgroup's peak from now (every process in it, summed) and return
        its usage now, the baseline; None where the peak cannot be reset (cgroup v2 before Linux
        6.12) or there is no cgroup."""
        for p in self.paths:
            try:
                if (p / "memory.max_usage_in_bytes").is_file():  # v1: writing 0 resets it
                    (p / "memory.max_usage_in_bytes").write_text("0")
                    return int((p / "memory.usage_in_bytes").read_text())
                if (p / "memory.peak").is_file():  # v2: a write resets the peak this descriptor reads
                    fd = os.open(p / "memory.peak", os.O_RDWR)
                    try:
                        os.write(fd, b"reset\n")
                    except OSError:
                        os.close(fd)
                        return None
                    self._peak_fd = fd
                    return int((p / "memory.current").read_text())
            except (OSError, ValueError):
                return None
        return None

    def peak(self) -> int | None:
        """The cgroup's peak usage since :meth:`reset_peak` (None: not reset, or unreadable)."""
        fd = self._peak_fd
        try:
            if fd is not None:
                return int(os.pread(fd, 64, 0))
            for p in self.paths:
                if (p / "memory.max_usage_in_bytes").is_file():
                    return int((p / "memory.max_usage_in_bytes").read_text())
        except (OSError, ValueError):
            return None
        finally:
            if fd is not None:
                os.close(fd)
                self._peak_fd = None
        return None

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of this cgroup for memory."""
        for p in self.paths:
            try:
                if (p / "memory.events").is_file():
                    events = dict(line.split() for line in (p / "memory.events").read_text().splitlines())
                    if int(events.get("oom_kill", 0)) > 0:
                        return True
                elif (p / "memory.failcnt").is_file() and int((p / "memory.failcnt").read_text()) > 0:
                    return True
            except (OSError, ValueError):
                pass
        return False

    def remove(self) -> None:
        for p in reversed(self.paths):
            for _ in range(50):
                try:
                    p.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # processes still leaving
                    try:
                        for pid in (p / "cgroup.procs").read_text().split():
                            os.kill(int(pid), 9)
                    except (OSError, ValueError):
                        pass
                    threading.Event().wait(0.02)


# The job's writable space ----------------------------------------------------------------------
SPACE_BYTES = 1024 * 2**20   # the submission's copy and its /tmp together
SPACE_FILES = 20_000         # files and folders in them (the copy holds at most 2,000)
RESULTS_BYTES = 768 * 2**20  # the answers the sandbox writes back (each at most 64 MiB)
RESULTS_FILES = 4_096


def _mount_tmpfs(folder: Path, size: int, files: int) -> str:
    """Mount a tmpfs of ``size`` bytes and ``files`` inodes on ``folder``; "" or why not."""
    try:
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},nr_inodes={files},mode=0700,nosuid,nodev",
                               "attnlab-job", str(folder)], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc) or type(exc).__name__
    return "" if proc.returncode == 0 else (proc.stderr.decode("utf-8", "replace").strip()[:160] or "mount failed")


class WritableSpace:
    """A job folder on a tmpfs of its own with a size and an inode cap, mounted by the grader
    before the submission is copied in (the sandbox's ``work`` and ``tmp`` live there), and its
    ``results`` folder on a second one, so one submission can fill neither the host's disk nor
    its inode table, and a learner who fills their own space still gets their answers back:
    writing beyond the caps fails with ``ENOSPC`` inside the sandbox, and :meth:`check` notes
    it. Mounting needs root (``CAP_SYS_ADMIN``); elsewhere ``mounted`` is False with ``why``
    (the job folder stays on disk, each file bounded by ``RLIMIT_FSIZE``)."""

    def __init__(self, folder: Path, size: int = SPACE_BYTES, files: int = SPACE_FILES) -> None:
        self.folder, self.size, self.files = Path(folder), int(size), int(files)
        self.mounts: list[Path] = []
        self.was_full = False
        if not sys.platform.startswith("linux"):
            self.why = "not Linux"
        elif os.environ.get(NO_SPACE_CAP_ENV) == "1":
            self.why = f"switched off for a benchmark ({NO_SPACE_CAP_ENV}=1)"
        elif os.geteuid() != 0:
            self.why = "the grader is not root"
        else:
            self.why = _mount_tmpfs(self.folder, self.size, self.files)
            if not self.why:
                self.mounts.append(self.folder)
                results = self.folder / "results"
                results.mkdir()
                self.why = _mount_tmpfs(results, RESULTS_BYTES, RESULTS_FILES)
                if not self.why:
                    self.mounts.append(results)
                else:
                    self.close()

    @property
    def mounted(self) -> bool:
        return bool(self.mounts)

    def check(self) -> bool:
        """Whether the space is (or was, when last asked) out of bytes or inodes."""
        if self.mounted and not self.was_full:
            self.was_full = space_full(self.folder)
        return self.was_full

    def describe(self) -> str:
        return f"{self.size / 2**20:.0f} MiB and {self.files} files"

    def close(self) -> None:
        for mount in reversed(self.mounts):
            try:
                subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.mounts = []


def space_full(folder: Path) -> bool:
    """Whether the file system of ``folder`` is out of bytes or inodes (less than 1 MiB or 16
    files left)."""
    try:
        st = os.statvfs(folder)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 2**20 or st.f_favail < 16


def clean_env(work: str, tmp: str) -> dict:
    """The environment a sandbox starts with: nothing of the grader's own, its home and temporary
    folders ``work`` and ``tmp``, one thread per numerical library, nbgrader's execution flag."""
    env = {
        "PATH": os.path.dirname(sys.executable) + os.pathsep + "/usr/local/bin:/usr/bin:/bin",
        "HOME": work, "MPLCONFIGDIR": os.path.join(tmp, ".matplotlib"), "IPYTHONDIR": os.path.join(tmp, ".ipython"),
        "NBGRADER_EXECUTION": "autograde", "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0",
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8", "TMPDIR": tmp,
    }
    return env
