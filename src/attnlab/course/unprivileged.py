"""The learner's process as a user of its own, where no namespace can be made for it.

Under bubblewrap (:mod:`attnlab.course.boundary`) the kernel keeps the course out of the
sandbox's view. Where bubblewrap cannot run (a hosted grader's container without user
namespaces: Gradescope's, PrairieLearn's, as a rule) the sandbox's only wall would be the
in-process guard of :mod:`attnlab.course.sandbox`, which Python code can get around. There, when
the grader is root and its own environment names a range of uids (``ATTNLAB_SANDBOX_UID``, the
first of :data:`SPAN`; the hosted graders set it, see :mod:`attnlab.course.hosted`), every
sandbox process starts as a uid of its own from that range: no passwd entry, its own gid, no
supplementary groups, no capabilities (the kernel drops them at ``setuid``), a umask of 077.
What the grader keeps root's (the hosted harness makes its course, its scripts and its results
folder root's, mode 0700) is then closed to the learner's code by the kernel, whatever that code
does to the guard, and the guard stays as the tripwire. A uid owns nothing on the machine, so the
learner reads only what every user may read (the system, the virtualenv, the attnlab package)
and writes only its job folder (handed to it just before it starts) and the world-writable
temporary folders, where its umask keeps what it leaves to itself.

A uid per sandbox (taken in turn from the range) keeps one sandbox's files, processes and
per-user kernel state apart from the next one's; when the sandbox has ended, every process of its
uid is ended too (:func:`end_all`), however it left the sandbox's session. Whether that user can run the sandbox at all
(the interpreter and the virtualenv reachable, the temporary folder passable) is tried once per
process (:func:`probe`); where it cannot, the sandbox runs as the grader's user with the guard
alone, and :func:`summary` says why.
"""
from __future__ import annotations

import itertools
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

ENV = "ATTNLAB_SANDBOX_UID"
DEFAULT_BASE = 2_100_000_000   # far above any account's uid, below 2**31 (some tools read uids as signed)
SLOTS = 256                    # uids one grader process takes in turn, one per sandbox (the last: its probe)
SPAN = 65536 * SLOTS           # the range: a block of SLOTS for each grader process, by its pid
UMASK = 0o077


@dataclass(frozen=True)
class Fence:
    on: bool
    why: str = ""        # why not (off), or the range (on)

    def summary(self) -> str:
        if self.on:
            return f"the learner's code ran as uid {self.why}: a user of its own, shut out of the grader's files"
        return f"the learner's code ran as the grader's user ({self.why})"


_lock = threading.Lock()
_probed: Fence | None = None
_turn = itertools.count()


def base_uid() -> int | None:
    """The first uid of the range the grader's environment names, or None (the fence is off)."""
    value = os.environ.get(ENV, "").strip()
    if not value:
        return None
    try:
        base = int(value)
    except ValueError:
        return None
    return base if 1 <= base <= 2**31 - 1 - SPAN else None


def _uid(base: int, slot: int) -> int:
    """The uid of ``slot`` in this grader process's own block of the range: graders running at
    once (shards, several containers on one host) never share a uid, nor end each other's
    sandboxes (:func:`end_all`)."""
    return base + (os.getpid() % 65536) * SLOTS + slot % SLOTS


def probe() -> Fence:
    """Whether sandboxes run as users of their own here (tried once per process)."""
    global _probed
    with _lock:
        if _probed is None:
            _probed = _probe()
        return _probed


def reset_probe() -> None:
    global _probed
    with _lock:
        _probed = None


def _probe() -> Fence:
    base = base_uid()
    if base is None:
        return Fence(False, f"{ENV} is not set")
    if not sys.platform.startswith("linux") or not hasattr(os, "setgroups"):
        return Fence(False, f"needs Linux, this is {sys.platform}")
    if os.geteuid() != 0:
        return Fence(False, "the grader is not root")
    # The user must reach the interpreter, the virtualenv, attnlab and a folder in the temporary
    # folder (where the jobs are): tried as the sandbox will be run.
    folder = Path(tempfile.mkdtemp(prefix="attnlab-uid-probe-"))
    try:
        uid = _uid(base, SLOTS - 1)
        os.chmod(folder, 0o700)
        os.chown(folder, uid, uid)
        code = f"import os; os.chdir({str(folder)!r}); import attnlab.course.sandbox; open('ok', 'w').close()"
        proc = subprocess.run([sys.executable, "-I", "-c", code], cwd="/", env={"PATH": "/usr/bin:/bin"},
                              capture_output=True, timeout=300, **_popen_user(uid))
        if proc.returncode != 0 or not (folder / "ok").is_file():
            tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            return Fence(False, f"a user of its own cannot run the sandbox here: {tail[0][:200]}")
    except (OSError, subprocess.SubprocessError) as exc:
        return Fence(False, f"a user of its own could not be tried ({type(exc).__name__}: {exc})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return Fence(True, f"{_uid(base, 0)} to {_uid(base, SLOTS - 2)} (one per sandbox)")


def _popen_user(uid: int) -> dict:
    return {"user": uid, "group": uid, "extra_groups": [], "umask": UMASK}


def _passable(folder: Path) -> None:
    """Let every user pass through ``folder`` (not list it) if it is the grader's own."""
    try:
        st = os.stat(folder)
        if st.st_uid == os.geteuid() and not st.st_mode & stat.S_IXOTH:
            os.chmod(folder, stat.S_IMODE(st.st_mode) | stat.S_IXOTH)
    except OSError:
        pass


def _give(path: Path, uid: int) -> None:
    """``path`` and everything under it to ``uid`` (links themselves, never followed)."""
    os.lchown(path, uid, uid)
    if path.is_dir() and not path.is_symlink():
        for dirpath, dirnames, filenames in os.walk(path):  # follows no link to a folder
            for name in dirnames + filenames:
                os.lchown(os.path.join(dirpath, name), uid, uid)


def hand_over(job_dir: Path, isolated: bool) -> dict:
    """Keywords for ``subprocess.Popen`` that start the sandbox of ``job_dir`` as a user of its
    own, once its ``work``, ``results`` and ``tmp`` are that user's; ``{}`` where the fence is off
    (under bubblewrap, or :func:`probe` says it cannot be used). The job folder itself stays
    the grader's (the user passes through it), and so does the folder of jobs above it."""
    if isolated:
        return {}
    fence = probe()
    if not fence.on:
        return {}
    base = base_uid()
    if base is None:
        return {}
    uid = _uid(base, next(_turn) % (SLOTS - 1))  # (the last one is the probe's)
    job_dir = Path(job_dir)
    for name in ("work", "results", "tmp"):
        if (job_dir / name).is_dir() and not (job_dir / name).is_symlink():
            _give(job_dir / name, uid)
            os.chmod(job_dir / name, 0o700)  # that user's alone
    st = os.stat(job_dir)
    os.chmod(job_dir, stat.S_IMODE(st.st_mode) & ~0o066 | 0o011)  # passable, not listable
    _passable(job_dir.parent)
    return _popen_user(uid)


def summary() -> str:
    return probe().summary()


_END_ALL = ("import os, signal\n"
            "for _ in range(100):\n"
            "    try:\n"
            "        os.kill(-1, signal.SIGKILL)\n"
            "    except ProcessLookupError:\n"
            "        break\n")


def end_all(user: dict) -> None:
    """End every process left by the sandbox's user (``user``: what :func:`hand_over` returned),
    wherever it went: a process that left the sandbox's session and process group, or whose
    parent ended, is still that user's. ``kill(-1)`` sent as that user reaches exactly the
    processes of that uid (and, with a uid per sandbox, no other sandbox's)."""
    uid = user.get("user") if user else None
    if uid is None:
        return
    kill = shutil.which("kill", path="/usr/bin:/bin")
    argv = [kill, "-KILL", "-1"] if kill else [sys.executable, "-I", "-S", "-c", _END_ALL]
    for _ in range(10):  # again while it found processes (one may have forked meanwhile)
        try:
            done = subprocess.run(argv, cwd="/", env={"PATH": "/usr/bin:/bin"}, capture_output=True,
                                  timeout=30, **_popen_user(uid))
        except (OSError, subprocess.SubprocessError):
            return
        if done.returncode != 0 or argv[0] != kill:  # kill(1) fails once no process of the uid is left
            return
