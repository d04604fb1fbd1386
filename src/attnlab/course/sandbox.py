"""The learner's side of trusted grading: run one submission's code, call its functions on the
check inputs, write back plain arrays. Started by :mod:`attnlab.course.grading` as

    python -m attnlab.course.sandbox JOB_DIR

in a throwaway folder, never inside the course, under bubblewrap where the host allows
(:mod:`attnlab.course.boundary`). The job (the cells to run and the calls to make) comes from
the trusted grader on stdin; results go to ``JOB_DIR/results/`` as
``NNNN.npz`` (arrays only) plus ``NNNN.json`` (plain data). Nothing learner code does here can
change a verdict except the arrays it returns: the grader compares them with the reference in
its own process.

Under bubblewrap the kernel is the wall: the course is not in this process's view of the
filesystem, it has no network, and every process it starts dies with it. Before any learner code
runs, an audit hook (PEP 578) is installed as a tripwire: it reports processes started and native
libraries loaded, and refuses reaching the course's paths (tampering). Without bubblewrap the
same hook is the only guard (it also refuses processes, native code, the network and writes
outside the work folder and /tmp), which Python code can get around: rows then say "not
isolated". Resource limits bound memory (address space), file size and, under bubblewrap, the
number of tasks; the grader bounds wall-clock time and output.
"""
from __future__ import annotations

import time as _time

STARTED = _time.time()  # the harness starts (after attnlab's own import): the grader's stage times

import contextlib
import io
import json
import os
import pickle
import resource
import signal
import sys
import time
import traceback
import types
from pathlib import Path

import numpy as np

from . import borrowing, kernel_state
from .borrowing import _borrowed_object, _library_frame, _library_objects, _snapshot_library_code
from .kernel_state import (
    _adopt_descendants, _children_seconds, _end_the_rest, _limit_tasks, _reap, _refuse_keyrings,
)
from .wire import (
    HARNESS_MARK, MEASURE_MARK, NEXT_MARK, READY_MARK, ZYGOTE_PRELOAD, decode, encode,
)

MAX_STDOUT = 20_000  # characters of learner output kept per cell


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that a bare ``except Exception`` can't swallow it."""


# The harness's own deadline (monotonic) and the _Timeout objects its alarm raised: a time-out is
# the harness's only when it is one of these (the class itself is within reach of learner code),
# and an alarm that goes off before the deadline (learner code re-armed the timer) runs out the rest.
_ALARM: dict = {"due": 0.0, "raised": []}
_MONOTONIC = time.monotonic


def _on_alarm(signum, frame):  # noqa: ARG001
    left = _ALARM["due"] - _MONOTONIC()
    if left > 0.005:
        signal.setitimer(signal.ITIMER_REAL, left)
        return
    exc = _Timeout()
    _ALARM["raised"].append(exc)
    del _ALARM["raised"][:-16]
    raise exc


def _arm(seconds: float) -> None:
    """The alarm, ``seconds`` from now (0: off)."""
    _ALARM["due"] = _MONOTONIC() + seconds if seconds else 0.0
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _alarmed(exc) -> bool:
    """Whether ``exc`` is a time-out the harness's own alarm raised (told by identity)."""
    return exc is not None and any(exc is e for e in _ALARM["raised"])


def _out_of_memory(exc) -> bool:
    """Whether ``exc`` is a memory error an allocation raised: a ``MemoryError`` that a ``raise``
    statement of the learner's own code made is the learner's error, not an out-of-memory status."""
    if not isinstance(exc, MemoryError):
        return False
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return True
    code = tb.tb_frame.f_code
    try:
        import dis

        op = dis.opname[code.co_code[tb.tb_lasti]]
    except (IndexError, ValueError):
        return True
    return not (op in ("RAISE_VARARGS", "RERAISE") and not _LIBRARY_FILE(code.co_filename))


class _BoundedText(io.TextIOBase):
    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.dropped = 0
        self.limit = limit

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        room = self.limit - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def text(self) -> str:
        tail = f"\n... [{self.dropped} more characters of output dropped]" if self.dropped else ""
        return "".join(self.parts) + tail


# ---------------------------------------------------------------------------------------------
# The audit hook

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

# Messages: a refusal of something an honest learner may do ends in NOTE_MARK (a note in the
# row's detail); a refusal of reaching the course ends in TAMPER_MARK ("tampering detected").
TAMPER_MARK = "is not allowed while grading"
NOTE_MARK = "is refused while grading"


class _Refusal(PermissionError):
    """A refusal the guard raised. Only these count (for tampering or a note), told by identity
    (:func:`refused`), never by their text, which learner code can raise too."""


_REFUSALS: list = []  # the last refusals the guard raised: (the object itself, "tamper" or "note")


def _refusal(text: str) -> _Refusal:
    exc = _Refusal(text)
    _REFUSALS.append((exc, "tamper" if TAMPER_MARK in text else "note"))  # (its kind as made)
    del _REFUSALS[:-64]
    return exc


def refused(exc) -> str:
    """``"tamper"`` or ``"note"`` when ``exc`` is a refusal the guard raised (the very object, as
    it raised it: a copy, a subclass or the same words raised by learner code are not); ``""``
    otherwise."""
    return next((kind for r, kind in _REFUSALS if r is exc), "") if exc is not None else ""

_PROCESS_EVENTS = frozenset({
    "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.exec", "os.system",
    "subprocess.Popen", "pty.spawn", "os.setsid", "os.kill", "os.killpg", "signal.pthread_kill"})
_NATIVE_EVENTS = frozenset({"ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle"})
_ALWAYS_BLOCKED = frozenset({
    "sqlite3.connect", "sqlite3.connect/handle", "resource.setrlimit", "resource.prlimit",
    "sys.remote_exec", "sys.addaudithook"})
_NETWORK_EVENTS = frozenset({"socket.connect", "socket.bind", "socket.sendto", "webbrowser.open"})
_PATH_EVENTS = frozenset({"os.listdir", "os.scandir", "os.chdir", "glob.glob", "os.stat"})
_WRITE_EVENTS = frozenset({"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink", "os.link",
                           "os.chmod", "os.chown", "os.truncate", "os.utime", "shutil.rmtree",
                           "shutil.copyfile", "shutil.copymode", "shutil.copystat", "shutil.move"})
_NATIVE_MODULES = frozenset({"_ctypes", "ctypes", "_posixsubprocess"})

NOTES: list[str] = []   # what the tripwire saw (reported with the cell it happened in)
CALLING: list[str] = []  # while the grader calls an exercise: the processes and threads it starts
_START_EVENTS = _PROCESS_EVENTS - {"os.kill", "os.killpg", "signal.pthread_kill", "os.setsid"} | {
    "_thread.start_new_thread"}
_ORIGINAL_SETPROFILE, _ORIGINAL_GETPROFILE = sys.setprofile, sys.getprofile  # before any learner code


# What a graded run allows (numpy, torch's tensor operations, the course's helpers, plotting), said
# where it refuses the rest: no processes, no threads but the libraries' own, no ctypes, no
# TorchScript or torch.compile, no changes to the profile or trace functions (docs/grading.md).
ALLOWED = "graded runs do not allow it"
# Refused when learner code asks (the innermost frame that is not the standard library's is not a
# library's): C code through ctypes, and the profile and trace functions (PyEval_SetProfile
# raises sys.setprofile too, whoever calls it).
_GATED_EVENTS = frozenset({
    "ctypes.call_function", "ctypes.cdata", "ctypes.cdata/buffer", "ctypes.addressof", "ctypes.string_at",
    "ctypes.wstring_at", "ctypes.PyObj_FromPtr", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.dlopen",
    "sys.setprofile", "sys.settrace", "code.__new__"})


def _learner_caller(libraries: tuple[str, ...], mine: tuple[str, ...]):
    """``called()``: whether the code that raised the audit event being handled is the
    learner's. The frames are walked from the innermost out, passing over the standard
    library's and frozen ones (a ``functools`` or ``unittest.mock`` that hands a learner's call
    on is not its author); the first other frame decides: a library's file (site-packages, the
    course's own package) is not the learner's, anything else (a cell, a module beside the
    notebook) is."""
    import sysconfig

    realpath = os.path.realpath
    stdlib = tuple({realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "platstdlib")})
    kinds: dict[str, str] = {}
    getframe = sys._getframe

    def kind(filename: str) -> str:
        k = kinds.get(filename)
        if k is None:
            real = realpath(filename) if filename[:1] == os.sep else filename
            if filename.startswith("<frozen "):
                k = "stdlib"
            elif filename[:1] != os.sep or _inside(real, mine):
                k = "learner"
            elif _inside(real, stdlib) and "-packages" not in real:
                k = "stdlib"
            elif _inside(real, libraries):
                k = "library"
            else:
                k = "learner"
            if len(kinds) < 10_000:
                kinds[filename] = k
        return k

    def called() -> bool:
        frame = getframe(2)  # (0: this function, 1: the hook; 2: the code that raised the event)
        while frame is not None:
            k = kind(frame.f_code.co_filename)
            if k != "stdlib":
                return k == "learner"
            frame = frame.f_back
        return False
    def anywhere() -> bool:  # a learner's frame anywhere on the stack (numpy saving for a cell counts)
        frame = getframe(2)
        while frame is not None:
            if kind(frame.f_code.co_filename) == "learner":
                return True
            frame = frame.f_back
        return False

    called.library_file = lambda filename: kind(filename) != "learner"
    called.anywhere = anywhere
    return called


def _refuse_compilers() -> None:
    """TorchScript and ``torch.compile`` refused once learner code may run (called just before):
    what they run is compiled code the grader's watch cannot see. The entry points are replaced
    where torch keeps them, the C ones included (``torch._C._jit_script_compile``, ...)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return

    def refuse(what):
        def refused(*args, **kwargs):  # noqa: ARG001
            raise _refusal(f"{what} {NOTE_MARK}: {ALLOWED}")
        refused.__name__ = what.rpartition(".")[2]
        return refused

    for owner, names in ((torch, ("compile",)),
                         (getattr(torch, "jit", None), ("script", "trace", "trace_module", "load", "script_if_tracing")),
                         (sys.modules.get("torch.jit._script"), ("script",)),
                         (sys.modules.get("torch.jit._trace"), ("trace", "trace_module")),
                         (getattr(torch, "_C", None), tuple(n for n in dir(torch._C) if n.startswith(
                             ("_jit_script", "_create_function_from", "_jit_pass", "_create_module_with_type",
                              "_jit_trace", "import_ir_module"))))):
        for name in names if owner is not None else ():
            if hasattr(owner, name):
                try:
                    setattr(owner, name, refuse(f"{getattr(owner, '__name__', 'torch')}.{name}"))
                except (AttributeError, TypeError):
                    pass


def _quiet_progress_monitor() -> None:
    """tqdm's monitor thread off while the grader calls an exercise (``monitor_interval = 0``;
    nobody watches a bar there): a progress bar inside the call then starts no thread, so an
    honest loop with a bar is never a thread beside the call. (Only where the cells imported
    tqdm: nothing is imported for it.)"""
    tqdm = sys.modules.get("tqdm")
    cls = getattr(tqdm, "tqdm", None)
    if isinstance(cls, type):
        try:
            cls.monitor_interval = 0
        except (AttributeError, TypeError):
            pass


def _inside(path: str, roots) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def install_guard(work: str, results: str, denied: list[str], allowed: list[str], isolated: bool,
                  scratch: list[str] = (), own_tmp: str = "", gate: bool = True) -> None:
    """The tripwire (and, without the OS boundary, the guard).

    Under bubblewrap the kernel is the wall: the course is not in the sandbox's view at all. The
    hook then only reports what it sees (a process started, a native library loaded) and refuses
    what never serves a learner (the course's paths, sqlite, changing limits, another audit hook),
    so that trying to reach the course still shows as tampering.

    Without the boundary (``isolated=False``) it also refuses starting processes, loading native
    code, the network, opening folders as descriptors and writing outside the work folder and
    ``/tmp``: those refusals are notes, not tampering, since honest code can trigger them.
    ``denied``: folders that may not be read (the course, other jobs) unless under ``allowed``.
    """
    realpath, fsdecode, isdir = os.path.realpath, os.fsdecode, os.path.isdir
    work, results = realpath(work), realpath(results)
    mine = (work, results) + ((realpath(own_tmp),) if own_tmp else ())  # the job's own folders
    denied = tuple(realpath(d) for d in denied)
    libraries = tuple(realpath(a) for a in allowed)
    allowed = libraries + mine
    scratch = tuple(realpath(s) for s in scratch)
    tmp = tuple(realpath(t) for t in {"/tmp", "/var/tmp", "/dev/shm"} if os.path.isdir(t))
    writable = mine + tmp
    notes = NOTES
    PE, NE, AB, NW, PA, WE, NM = (_PROCESS_EVENTS, _NATIVE_EVENTS, _ALWAYS_BLOCKED, _NETWORK_EVENTS,
                                 _PATH_EVENTS, _WRITE_EVENTS, _NATIVE_MODULES)

    def is_str(x) -> bool:
        return isinstance(x, (str, bytes, os.PathLike))

    def readable(path) -> bool:
        real = realpath(fsdecode(path))
        return _inside(real, allowed) or not (_inside(real, denied) or _inside(real, scratch))

    def may_write(path) -> bool:
        real = realpath(fsdecode(path))
        return _inside(real, mine) or (_inside(real, tmp) and not _inside(real, scratch))

    def refuse(what: str) -> None:
        raise _refusal(f"{what} {NOTE_MARK} (the submission is not isolated)")

    def graders_own(path) -> bool:
        """The results folder, where the harness writes what the grader reads: never the
        learner's to read, list or write (nor to tell a memory probe from the run by)."""
        real = realpath(fsdecode(path))
        return gate and (real == results or real.startswith(results + os.sep)) and learner_called.anywhere()

    calling, starts = CALLING, _START_EVENTS
    learner_called = _learner_caller(libraries, mine)
    global _LIBRARY_FILE
    _LIBRARY_FILE = learner_called.library_file
    gated, processes = _GATED_EVENTS, _START_EVENTS - {"_thread.start_new_thread"}
    # every event a branch below acts on: the rest (frame reads, code objects made, ...: many on
    # every graded call, under the grader's profile) return at once
    acted_on = starts | AB | NE | PE | NW | PA | WE | gated | {"import", "open"}

    def hook(event: str, args: tuple) -> None:
        if event not in acted_on:
            return
        # The allow-list of the graded run: no process is started once learner code may run, and
        # learner code (the innermost frame that is not the standard library's) may not call C
        # through ctypes nor change the profile or trace functions the grader watches with.
        if not gate:  # (the grader's own tests of the kernel's layer beneath it: job["gate"] False)
            pass
        elif event in processes and learner_called.anywhere():
            raise _refusal(f"starting a process ({event}) {NOTE_MARK}: {ALLOWED}")
        elif event in gated and learner_called():
            what = ("changing the grader's watch" if event.startswith("sys.") else "making a code object by hand"
                    if event == "code.__new__" else "calling C code through ctypes")
            raise _refusal(f"{what} ({event}) {NOTE_MARK}: {ALLOWED}")
        if calling and event in starts and len(calling) < 10 and not (
                event == "_thread.start_new_thread" and args and _threading_thread(args[0])):
            calling.append(event)  # a thread started by threading gets the call's profile itself
        if event in AB:
            raise _refusal(f"{event} {TAMPER_MARK}")
        if event in NE:  # the libraries' own native code (torch loads some with ctypes) is fine
            if event != "ctypes.dlopen" or not args or not is_str(args[0]) or "/" not in fsdecode(args[0]):
                return
            if _inside(realpath(fsdecode(args[0])), libraries):
                return
        if event in PE or event in NE:
            kind = "starting a process" if event in PE else "loading a native library"
            if isolated:
                if len(notes) < 20:
                    notes.append(f"{kind} ({event})")
                return
            refuse(f"{kind} ({event})")
        if event in NW:
            if not isolated:
                refuse(f"the network ({event})")
            return
        if event == "import" and not isolated and args and args[0] in NM:
            refuse(f"importing {args[0]}")
        if event == "open":
            path, mode, flags = (list(args) + [None, None])[:3]
            if path is None or isinstance(path, int):
                return
            if not readable(path):
                raise _refusal(f"reading {fsdecode(path)} {TAMPER_MARK}")
            if graders_own(path):
                raise _refusal(f"the grader's results folder ({event}) {NOTE_MARK}: {ALLOWED}")
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS)
            if not isolated:
                if writing and not may_write(path):
                    refuse(f"writing {fsdecode(path)}")
                if mode is None and isinstance(flags, int) and isdir(path) and not _inside(
                        realpath(fsdecode(path)), writable):
                    refuse(f"opening the folder {fsdecode(path)} as a descriptor")
        elif event in PA:
            if args and is_str(args[0]) and not readable(args[0]):
                raise _refusal(f"{event} on {fsdecode(args[0])} {TAMPER_MARK}")
            if args and is_str(args[0]) and graders_own(args[0]):
                raise _refusal(f"the grader's results folder ({event}) {NOTE_MARK}: {ALLOWED}")
        elif event in WE:
            for arg in args[:2]:
                if is_str(arg) and not readable(arg):
                    raise _refusal(f"{event} on {fsdecode(arg)} {TAMPER_MARK}")
                if is_str(arg) and graders_own(arg):
                    raise _refusal(f"the grader's results folder ({event}) {NOTE_MARK}: {ALLOWED}")
                if not isolated and is_str(arg) and not may_write(arg):
                    refuse(f"{event} on {fsdecode(arg)}")

    sys.addaudithook(hook)
    if not isolated:  # the private fork_exec raises no audit event: take it away
        import subprocess

        def fork_exec(*args, **kwargs):  # noqa: ARG001
            refuse("starting a process (fork_exec)")
        subprocess._fork_exec = fork_exec
        try:
            import _posixsubprocess

            _posixsubprocess.fork_exec = fork_exec
        except ImportError:
            pass


_MARKS_FD = 1
_CONTROL = None
_FORKED = False  # a warm worker's child (see zygote below)


def address_space_now() -> int:
    """This process's virtual address space, bytes (``VmSize``), or 0 where /proc cannot say."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def limit_address_space(memory_bytes: int) -> int:
    """``RLIMIT_AS`` for the learner's code: ``memory_bytes`` in all, as long as that leaves the
    code at least half of it above what the libraries already mapped. PyPI's Linux torch (the CUDA
    build) maps more than 2 GiB of shared objects before any cell runs: under an absolute limit
    every notebook died at its first import. (The CPU build maps about 0.7 GiB, so there the limit
    stays ``memory_bytes``: a 2 GiB array fails under the default 2048 MiB.) Returns the limit."""
    limit = max(int(memory_bytes), address_space_now() + int(memory_bytes) // 2)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return limit


def _warm_torch() -> None:
    """What torch loads on first use rather than at import, loaded now (on made-up inputs, no
    learner code near): ``torch.broadcast_shapes`` imports sympy (some 35 MiB, 0.5 s) and an
    optimiser's first step torch's compiler stack (some 45 MiB, 1.2 s). A memory probe does it
    before its baseline, so that an honest cell or call is not charged for it; a warm worker does
    it once, for all its children, instead of each training cell paying it again."""
    torch = sys.modules.get("torch")
    if torch is None:
        return
    try:
        torch.broadcast_shapes((2, 1), (1, 3))
        weight = torch.nn.Parameter(torch.zeros(2))
        optimiser = torch.optim.Adam([weight], lr=0.1)
        weight.sum().backward()
        optimiser.step()
        optimiser.zero_grad()
    except Exception:  # noqa: BLE001 - a warm-up only
        pass


def _probe_baseline(shell, warmup, control, mmap_threshold=None) -> None:
    """A memory probe (see ``attnlab.course.grading``), before any learner code runs: warm up
    what the measured call will use (a first cell, torch's lazy imports, the reference on the
    first rows of the same inputs: ``stages.measure._cut``), give freed memory back, tell the
    grader (who resets this process's peak resident size from outside and reads its baseline),
    and wait for its go.

    The garbage collector's full pass over a heap with torch loaded takes 0.2 s, so the objects
    there before the warm-up (the libraries; the warm worker collected its own garbage once, and
    the start-up's is young) are set aside (``gc.freeze``) while the warm-up's garbage is
    collected, and stay aside: the measured call's own collections then walk only what it and the
    cells made, as in a warm worker's main run (put back, they cost the call 0.2 s and more for
    each full pass, and a probe paid several)."""
    import gc

    # (imported here, as every import of this harness is: at the moment it runs, before the guard
    # is armed and before any learner code; the sandbox loads nothing it does not use)
    from attnlab.checks._memory import _live_blocks_only

    if mmap_threshold:  # the check's own (its call frees and reuses blocks of one size)
        _live_blocks_only(int(mmap_threshold))
    else:
        _live_blocks_only()  # the peak follows what the code holds, not the heap's fragments
    gc.collect(1)
    gc.freeze()
    shell.run_cell("pass", store_history=False, silent=True)
    twins = None
    if "torch" in sys.modules:  # the learner's cells import torch: warm up its kernels too
        _warm_torch()
        try:
            import attnlab.torch as twins  # (only when the learner's cells import torch: see above)
        except Exception:  # noqa: BLE001
            twins = None
    for fn, args, kwargs in warmup:
        calls = [(fn, args)]
        twin = getattr(twins, getattr(fn, "__name__", ""), None) if twins is not None else None
        if twin is not None:
            torch = sys.modules["torch"]
            calls.append((twin, tuple(torch.as_tensor(a) if isinstance(a, np.ndarray) else a for a in args)))
        for f, a in calls:
            try:
                f(*a, **kwargs)
            except Exception:  # noqa: BLE001 - a warm-up only
                pass
    gc.collect()
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    os.write(_MARKS_FD, READY_MARK)
    control.readline()  # the grader's go (or end of file if it gave up)


def _process_started() -> float | None:
    """When this process started (wall clock, to 10 ms): the interpreter's own start-up before
    the harness, for the grader's stage times."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            ticks = int(fh.read().rpartition(")")[2].split()[19])
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
        return time.time() - age
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def main(job_dir: str) -> int:
    stamps = {"process": _process_started(), "started": STARTED, "main": time.time()}  # wall clock: timing.json
    # The job (cells, limits; no calls) comes on stdin: no file to find later. The grader's
    # channel moves off fd 0, which the learner's code sees as an empty input.
    control = os.fdopen(os.dup(0), "rb")
    global _MARKS_FD, _CONTROL
    _CONTROL = control
    _MARKS_FD = os.dup(1)  # the marks go on even if a cell closes its stdout
    job = pickle.load(control)
    probe = job.get("probe")
    if _FORKED:  # the zygote is not dumpable, nor its children: let the grader (same user) reset a
        import ctypes  # probe's peak from outside, as in a fresh sandbox; every child alike, so that
                       # nothing of its own process tells a probe from the graded run
        ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE, 1
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin.close()
    sys.stdin = io.StringIO("")
    results = Path(job_dir) / "results"
    work = Path(job_dir) / "work"
    os.chdir(work)
    for mod in job.get("preload", []):  # heavy libraries load before the guard forbids dlopen
        __import__(mod)
    import zipfile  # noqa: F401 - what np.savez needs, loaded before the work folder is on sys.path

    import matplotlib

    matplotlib.use("Agg")
    from IPython.core.interactiveshell import InteractiveShell

    from traitlets.config import Config

    stamps["imports"] = time.time()
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    shell = InteractiveShell.instance(config=config, colors="NoColor")
    shell.showtraceback = shell.showsyntaxerror = _make_showtraceback(shell)
    _notebook_magics(shell)
    signal.signal(signal.SIGALRM, _on_alarm)
    limit_address_space(job["memory_bytes"])
    resource.setrlimit(resource.RLIMIT_FSIZE, (job["file_bytes"], job["file_bytes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if job.get("isolated") and job.get("tasks_max"):
        _limit_tasks(int(job["tasks_max"]))
    from attnlab.checks._core import call as call_once  # bound before any learner code runs
    from attnlab.course import equivalents as values  # borrowing decided by values (issue 26)
    _snapshot_library_code()  # what "the library calling itself" may be, before any learner code runs

    stamps["shell"] = time.time()
    if probe:  # before the work folder is on sys.path: nothing of the submission runs before it
        _probe_baseline(shell, probe.get("warmup", []), control, probe.get("mmap_threshold"))

    # As in Jupyter, the notebook's folder comes first on sys.path, but only now: Python started
    # isolated (-I), so nothing shipped with the submission ran before this harness.
    sys.path.insert(0, str(work))
    if job.get("gate", True):
        _refuse_compilers()
    install_guard(str(work), str(results), job["denied"], job["allowed"], bool(job.get("isolated")),
                  job.get("scratch", []), job.get("tmp", ""), job.get("gate", True))
    _note_raw_threads()
    # The kernel's keyrings, which nothing empties between two children of a warm worker: a warm
    # child that cannot refuse them is a grader fault (graded again in a fresh sandbox).
    if not _refuse_keyrings() and _FORKED:
        raise SystemExit("the keyrings could not be refused")
    end_descendants = _adopt_descendants()  # every process the cells start is counted, then ended

    os.write(_MARKS_FD, HARNESS_MARK)
    cell_log = []
    real_stdout = sys.stdout
    harness = os.getpid()
    for index, (label, source) in enumerate(job["cells"]):
        out = _BoundedText(MAX_STDOUT)
        sys.stdout = sys.stderr = out
        shell._last_error = shell._last_exc = None
        start = time.perf_counter()
        _arm(job["cell_timeout"])
        status = "ok"
        try:
            result = shell.run_cell(source, store_history=False, silent=False)
            if not result.success:
                status = "error"
        except BaseException as exc:  # noqa: BLE001 - SystemExit and friends end the cell only
            status = "timeout" if _alarmed(exc) else "memory" if _out_of_memory(exc) else "error"
            shell._last_error, shell._last_exc = f"{type(exc).__name__}: {exc}", exc
        finally:
            if os.getpid() != harness:  # a process the cell forked: it ends with the cell
                os._exit(0)
            _arm(0)
            sys.stdout, sys.stderr = real_stdout, sys.__stderr__
        error, ended = getattr(shell, "_last_error", None), getattr(shell, "_last_exc", None)
        # what ended the cell, told by the exception object (a class the learner names _Timeout or
        # MemoryError, a text that reads like a refusal, are the learner's error, nothing more)
        if _alarmed(ended):  # IPython caught the alarm itself
            status, error = "timeout", f"the cell ran longer than {job['cell_timeout']:g} s"
        elif _out_of_memory(ended):
            status = "memory"
        notes = list(dict.fromkeys(NOTES))
        NOTES.clear()
        cell_log.append({"index": index, "label": label, "status": status, "error": error,
                         "refused": refused(ended),  # the guard's own refusal ended it: "tamper", "note"
                         "seconds": round(time.perf_counter() - start, 3), "stdout": out.text(),
                         "notes": notes})
        _write_json(results / "cells.json", cell_log)

    stamps["cells"] = time.time()
    namespace = shell.user_ns
    timed_out: set[str] = set()
    watch = job.get("watch", {})
    borrowed: dict[str, str] = {}
    for name, targets in watch.items():  # is, wraps or subclasses a library version of itself
        if name in namespace:
            found = _borrowed_object(namespace[name], name, targets) or _copied_code(
                values, namespace[name], name)
            if found:
                borrowed[name] = found
    tripwires = _Tripwires()
    _VALUE_PROBE["module"] = values
    while _answer_next(control, namespace, watch, tripwires, timed_out, borrowed, results, job,
                       real_stdout, call_once):
        pass
    if job.get("probe"):  # a memory probe ends with its measured call: no value probe after it
        _VALUE_PROBE["pending"].clear()
    for name, (args, kwargs, invoke, answer) in list(_VALUE_PROBE["pending"].items()):
        if name in borrowed or name in timed_out or name not in namespace:
            continue
        moved = _value_probe(namespace[name], name, args, kwargs, invoke, answer, job, real_stdout, call_once)
        if moved:
            borrowed[name] = (f"{name} calls the library's {moved} when the grader runs it: its answer "
                              "moved when the grader changed what the library returns")
    _VALUE_PROBE["pending"].clear()
    _write_json(results / "borrowed.json", borrowed)
    _write_json(results / "value_probe.json", {"seconds": round(_VALUE_PROBE["seconds"], 3),
                                               "calls": _VALUE_PROBE["counts"]})
    stamps["calls"] = time.time()
    _write_json(results / "timing.json", stamps)  # for the grader's stage times only, never a verdict
    _write_json(results / "done.json", {"ok": True})
    sys.stdout.flush()
    end_descendants()
    os._exit(0)  # skip interpreter teardown (atexit handlers the learner may have registered)


# ---------------------------------------------------------------------------------------------
# Borrowed answers, seen where the code runs: the tripwires of a graded call (what the learner's
# names hold, and the library's own code told from theirs: :mod:`attnlab.course.borrowing`)

_HARNESS: dict[int, object] = {}


def _harness_codes() -> dict[int, object]:
    """The code of this harness itself (it runs as ``__main__``, not as a module of the course
    library) and of the parts it keeps in modules of their own (:mod:`.borrowing`,
    :mod:`.kernel_state`), each told by its own file: the call watch counts it as the library's
    own, never as the learner's."""
    if not _HARNESS:
        for names, module, filename in ((globals(), __name__, __file__),
                                        *((vars(m), m.__name__, m.__file__) for m in (borrowing, kernel_state))):
            _walk_harness(names, module, filename)
    return _HARNESS


def _walk_harness(names: dict, module: str, filename: str) -> None:
    todo = [v for v in list(names.values()) if getattr(v, "__module__", None) == module]
    while todo and len(_HARNESS) < 20_000:
        x = todo.pop()
        if isinstance(x, types.CodeType):
            if x.co_filename == filename and id(x) not in _HARNESS:
                _HARNESS[id(x)] = x
                todo.extend(c for c in x.co_consts if isinstance(c, types.CodeType))
        elif isinstance(x, type):
            todo.extend(v for v in vars(x).values() if getattr(v, "__module__", None) == module
                        or isinstance(v, (staticmethod, classmethod, property)))
        elif isinstance(x, (staticmethod, classmethod)):
            todo.append(x.__func__)
        elif isinstance(x, property):
            todo.extend(f for f in (x.fget, x.fset, x.fdel) if f is not None)
        elif isinstance(getattr(x, "__code__", None), types.CodeType):
            todo.append(x.__code__)


class _Tripwires:
    """While the grader calls an exercise, its library versions are replaced by wrappers that
    note the call (and pass it on, so the answer is still judged on its own)."""

    def __init__(self) -> None:
        self.hits: dict[str, str] = {}
        self.saved: list[tuple[object, str, object, bool]] = []
        self.current = ""
        self.targets: list = []
        self.armed: set[str] = set()
        # What identifies a library version however the learner reached it (a list, a default
        # argument, an instance, a copy of its code): id -> (object kept alive, dotted name).
        self.codes: dict[int, tuple[object, str]] = {}
        self.cfuncs: dict[int, tuple[object, str]] = {}
        self.methods: dict[str, tuple[type, str]] = {}
        self.own_codes: set[int] = set()   # the wrappers' code: look past them to who called
        self.handed: set[int] = set()      # issue 40: library code the grader's own arguments carry
        sys.meta_path.insert(0, _ArmAfterImport(self))  # a library first imported during a call

    def allow(self, args, kwargs) -> None:
        """The course-library objects the grader hands the exercise in this call (a feature map,
        a model) are the learner's to call (issue 40: what the exercise allows)."""
        values = _VALUE_PROBE["module"]
        try:
            self.handed = values.allowed_objects(args, kwargs) if values is not None else set()
        except Exception:  # noqa: BLE001
            self.handed = set()

    def arm(self, exercise: str, targets) -> None:
        if self.current == exercise:
            return
        self.disarm()
        self.current = exercise
        self.targets = list(targets)
        self.rearm()

    def rearm(self) -> None:
        """Wrap the library versions of the current exercise that are loaded and not yet wrapped
        (called again when the learner's code imports a library during the call)."""
        if not self.current:
            return
        exercise = self.current
        for dotted, lib in _library_objects(self.targets):
            if dotted in self.armed:
                continue
            module, _, attr = dotted.rpartition(".")
            owner = sys.modules.get(module)
            if owner is None:
                head, _, cls = module.rpartition(".")
                owner = getattr(sys.modules.get(head), cls, None)
            if owner is None:
                continue
            self._identify(dotted, lib, owner)
            wrapper = self._wrap(exercise, dotted, lib)
            if wrapper is None:
                continue
            own = attr in getattr(owner, "__dict__", {})
            try:
                setattr(owner, attr, wrapper)
            except (AttributeError, TypeError):
                continue
            self.saved.append((owner, attr, lib, own))
            self.armed.add(dotted)

    def _identify(self, dotted: str, lib, owner) -> None:
        """Remember what ``lib`` runs: the code objects of a Python function (and of what it
        wraps) or of a class's own methods; a C function itself; a C method by name and class."""
        if isinstance(owner, type) and not hasattr(lib, "__code__"):  # torch.Tensor.softmax
            self.methods[dotted.rpartition(".")[2]] = (owner, dotted)
        parts = list(vars(lib).values()) if isinstance(lib, type) else [lib]
        for part in parts[:200]:
            obj, depth = getattr(part, "__func__", part), 0
            while obj is not None and depth < 5:
                code = getattr(obj, "__code__", None)
                if code is not None:
                    self.codes[id(code)] = (code, dotted)
                elif callable(obj) and not isinstance(obj, type):
                    self.cfuncs[id(obj)] = (obj, dotted)
                obj, depth = getattr(obj, "__wrapped__", None), depth + 1

    def _noted(self, caller, dotted: str) -> None:
        """A library version ran; it counts unless the library called itself (the checks, or
        a reference that uses another) or the grader's own wrapper passed the call on."""
        while caller is not None and id(caller.f_code) in self.own_codes:
            caller = caller.f_back
        if caller is not None and _library_frame(caller, ("attnlab",)):
            return
        if self.current:
            self.hits.setdefault(self.current, dotted)

    @contextlib.contextmanager
    def watching(self):
        """While the exercise is called: a profile function that sees every Python and C call,
        so a library version counts however it was reached; processes and threads started are
        noted (what they run cannot be watched)."""
        codes, cfuncs, methods, noted = self.codes, self.cfuncs, self.methods, self._noted
        allowlist = self._allowlist()   # issue 40: the rest of the library, by what the exercise allows
        on_call = allowlist.on_call if allowlist is not None else None
        on_c_call = allowlist.on_c_call if allowlist is not None else None

        def profile(frame, event, arg):
            if event == "call":
                hit = codes.get(id(frame.f_code))
                if hit is not None:
                    noted(frame.f_back, hit[1])
                elif on_call is not None:
                    on_call(frame)
            elif event == "c_call":
                hit = cfuncs.get(id(arg))
                if hit is None and methods:
                    named = methods.get(getattr(arg, "__name__", None))
                    if named is not None and isinstance(getattr(arg, "__self__", None), named[0]):
                        hit = named
                if hit is not None:
                    noted(frame, hit[1])
                elif on_c_call is not None:
                    on_c_call(frame, arg)

        import threading

        _quiet_progress_monitor()
        threads = _foreign_threads()  # a thread the cells left would answer unwatched, were it to run
        had_child = _reap()[1]  # children of the cells: ended ones waited for, live ones noted
        children = _children_seconds()
        CALLING[:] = ["calling"]
        if allowlist is not None:
            allowlist.enter()   # torch's functions and ops, whatever route reaches them
        threading.setprofile(profile)
        _ORIGINAL_SETPROFILE(profile)
        returned = False
        try:
            yield
            returned = True
        finally:
            # CPython drops a profile function that raises: a time limit (or a MemoryError) that
            # lands inside it ends the watch too. Only a call that returned normally is judged
            # on it; a call that raised earns nothing anyway.
            still = _ORIGINAL_GETPROFILE() is profile or not returned
            _ORIGINAL_SETPROFILE(None)
            threading.setprofile(None)
            if allowlist is not None and not allowlist.exit() and returned and self.current:
                self.hits.setdefault(self.current, f"={self.current} switches off the grader's watch of what "
                                                   "it calls (torch's function mode)")
            started = CALLING[1:]
            CALLING.clear()
            name = self.current
            ran = _ran_meanwhile(threads, _foreign_threads())
            if name and ran:
                self.hits.setdefault(name, f"={name} was called while a thread your cells started ran code "
                                           f"({', '.join(ran[:3])}): {ALLOWED}")
            if name and not still:
                self.hits.setdefault(name, f"={name} switches off the grader's watch of what it calls (sys.setprofile)")
            waited = _children_seconds() > children
            if name and (started or waited or (any(_reap()) and not had_child)):
                what = "a thread" if started and all(e == "_thread.start_new_thread" for e in started) else "a process"
                self.hits.setdefault(name, f"={name} starts {what} when the grader calls it, and what runs "
                                           "there cannot be watched")

    def _allowlist(self):
        """Issue 40: the watch of everything the exercise does not allow (the course library's
        whole surface, torch's functions and ops, other libraries' functions named for what the
        exercise computes, copies of the library's code), or None."""
        values = _VALUE_PROBE["module"]
        name = self.current
        if values is None or not name:
            return None

        def note(verdict: str) -> None:
            if self.current == name:
                self.hits.setdefault(name, verdict)

        harness = _harness_codes()

        def library_frame(frame) -> bool:
            return id(frame.f_code) in harness or _library_frame(frame, ("attnlab",))

        try:
            return values.Watch(name, note, library_frame, self.own_codes, self.handed)
        except Exception:  # noqa: BLE001 - the name-based tripwires still stand
            return None

    def _wrap(self, exercise: str, dotted: str, lib):
        hits = self.hits

        def note() -> None:
            if self.current != exercise:  # a wrapper kept by someone after its call: not this exercise's
                return
            if not _library_frame(sys._getframe(2), ("attnlab.checks", "attnlab.course")):
                hits.setdefault(exercise, dotted)

        if isinstance(lib, type):
            try:
                class Watched(lib):  # type: ignore[misc, valid-type]
                    def __init__(self, *args, **kwargs):
                        note()
                        super().__init__(*args, **kwargs)
                Watched.__name__ = Watched.__qualname__ = lib.__name__
                self.own_codes.add(id(Watched.__init__.__code__))
                return Watched
            except TypeError:  # a final class
                return None
        if not callable(lib):
            return None

        def watched(*args, **kwargs):
            note()
            return lib(*args, **kwargs)
        self.own_codes.add(id(watched.__code__))
        return watched

    def disarm(self) -> None:
        for owner, attr, lib, own in reversed(self.saved):
            try:
                if own:
                    setattr(owner, attr, lib)
                else:
                    delattr(owner, attr)
            except (AttributeError, TypeError):
                pass
        self.saved.clear()
        self.armed.clear()
        self.codes.clear()
        self.cfuncs.clear()
        self.methods.clear()
        self.handed = set()
        self.current = ""


class _ArmAfterImport:
    """A meta-path finder: when a library (``attnlab``, ``torch``, ``scipy``, ``sklearn``,
    ``numpy``) is first imported while an exercise is being called (``__import__("tor" + "ch")``
    in its body), its library versions become tripwires as soon as the outermost import has
    finished, before the learner's code can take them."""

    ROOTS = ("attnlab", "torch", "scipy", "sklearn", "numpy")

    def __init__(self, tripwires: _Tripwires) -> None:
        self.tripwires = tripwires
        self.depth = 0
        self.busy = False

    def find_spec(self, name, path=None, target=None):
        if (self.busy or not self.tripwires.current or name in sys.modules
                or name.partition(".")[0] not in self.ROOTS):
            return None
        self.busy = True
        try:
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None:
                    break
            else:
                return None
        finally:
            self.busy = False
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _ArmingLoader(spec.loader, self)
        return spec


class _ArmingLoader:
    def __init__(self, loader, hook: _ArmAfterImport) -> None:
        self._loader, self._hook = loader, hook

    def __getattr__(self, name):  # resources, get_code, is_package, ...: the real loader's
        return getattr(self._loader, name)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        self._hook.depth += 1
        try:
            self._loader.exec_module(module)
        finally:
            self._hook.depth -= 1
            if self._hook.depth == 0:
                self._hook.tripwires.rearm()


def _note_raw_threads() -> None:
    """Python 3.11 raises no audit event when a thread starts: wrap ``_thread.start_new_thread``
    (and threading's copy of it) so that a thread started while an exercise is called, outside
    ``threading`` (which gives new threads the call's profile), is noted."""
    import _thread
    import threading

    original = _thread.start_new_thread

    def start_new_thread(function, *args, **kwargs):
        if CALLING and len(CALLING) < 10 and not _threading_thread(function):
            CALLING.append("_thread.start_new_thread")
        return original(function, *args, **kwargs)

    _thread.start_new_thread = start_new_thread
    if getattr(threading, "_start_new_thread", None) is original:
        threading._start_new_thread = start_new_thread


def _foreign_threads() -> dict[int, tuple]:
    """Every Python thread but this one (``sys._current_frames``, however it was started) and the
    libraries' own progress monitor (tqdm's, told by its frames: one of tqdm's monitor module and
    none outside the libraries and the standard library): ident -> its stack now, as
    ``(frame, f_lasti)`` pairs from the innermost out (the frames themselves are held, so that no
    id is reused). A thread whose stack is the same after an exercise's call ran no code during it;
    an idle one (a ticker waiting on an event) costs nothing. (torch's own pools run no Python.)"""
    me, found = threading_ident(), {}
    monitor = sys.modules.get("tqdm._monitor")
    monitor_file = os.path.realpath(monitor.__file__) if monitor is not None and getattr(monitor, "__file__", None) else ""
    monitor_class = getattr(monitor, "TMonitor", None) if monitor_file else None
    active = dict(getattr(sys.modules.get("threading"), "_active", {}))
    for ident, frame in sys._current_frames().items():
        if ident == me:
            continue
        stack = []
        while frame is not None and len(stack) < 200:
            stack.append((frame, frame.f_lasti))
            frame = frame.f_back
        files = [f.f_code.co_filename for f, _ in stack]
        # tqdm's monitor: its frames, or (just started, still in threading's bootstrap) its own
        # thread class, exactly; either way no frame outside the libraries and the stdlib
        own = monitor_file in map(os.path.realpath, files) or type(active.get(ident)) is monitor_class
        if monitor_file and own and all(f.startswith("<frozen ") or _LIBRARY_FILE(f) for f in files):
            continue
        found[ident] = tuple(stack)
    return found


def _ran_meanwhile(before: dict[int, tuple], after: dict[int, tuple]) -> list[str]:
    """The threads of ``after`` (:func:`_foreign_threads`) that started in between. (A thread alive
    before the call never runs beside it in a sandbox: the call is then answered in a process of
    its own, :func:`_answer_next`.)"""
    names = getattr(sys.modules.get("threading"), "_active", {})
    ran = [i for i in after if i not in before]
    return [f"{getattr(names.get(i), 'name', None) or 'a thread'!s:.40}" for i in ran]


def threading_ident() -> int:
    import _thread

    return _thread.get_ident()


_LIBRARY_FILE = lambda filename: False  # noqa: E731 - set by install_guard: a library's or the stdlib's file


def _threading_thread(target) -> bool:
    threading = sys.modules.get("threading")
    return threading is not None and isinstance(getattr(target, "__self__", None), threading.Thread)


# The exception names the grader acts on when a call's answer comes back: a check's own exceptions
# (``CheckRaised``: the check could not use the learner's object, or measured too much memory),
# and the harness's verdicts on the call (out of time, out of memory). Learner code may name its
# own exceptions so too: only the grader's own objects keep the name (:func:`_own_names`).
_HARNESS_NAMES = frozenset({"TimeoutError", "MemoryError", "ResultTooLarge", "BrokenResult", "NotProbed"})


def _checks_own(exc) -> bool:
    """Whether ``exc`` is a check's own exception: an instance of the very class an
    ``attnlab.checks`` module defines under that name (a learner's class of the same name, or one
    that subclasses it, is not)."""
    from attnlab.checks._core import CheckRaised  # (here: loaded with the checks, before learner code)

    cls = type(exc)
    if not (isinstance(exc, CheckRaised) and isinstance(cls.__module__, str) and isinstance(cls.__qualname__, str)
            and cls.__module__.startswith("attnlab.checks")):
        return False
    found = sys.modules.get(cls.__module__)
    for part in cls.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is cls


def _raised_by_checks(exc) -> bool:
    """Whether the frame that raised ``exc`` runs the checks' own code (``_library_frame``: the
    real module's globals and code loaded before the learner's cells)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and _library_frame(tb.tb_frame, ("attnlab.checks",))


def _own_names(invoke):
    """``invoke`` (the check's way of calling the learner's function), with every exception that
    carries a name the grader acts on, and is not the grader's own object, renamed
    ``"<name> (from your code)"``: a class the learner calls ``TooMuchMemory`` or ``NotAModule``, a
    ``TimeoutError`` the learner raises (only the harness's alarm means time), a class called
    ``MemoryError`` that is not Python's or that a ``raise`` of the learner's made (only an
    allocation that failed means memory). The learner's words stay the learner's error."""
    from attnlab.checks._core import CheckRaised  # (here: loaded with the checks, before learner code)

    def run(fn, *args, **kwargs):
        try:
            return invoke(fn, *args, **kwargs) if invoke is not None else fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - renamed or raised again as it is
            name = type(exc).__name__
            genuine = (_out_of_memory(exc) if name == "MemoryError"
                       else _raised_by_checks(exc) if name in _HARNESS_NAMES  # (the checks' own timer)
                       else _checks_own(exc) if name in CheckRaised.names
                       else True)
            if genuine:
                raise
            raise type(f"{name} (from your code)", (Exception,), {})(str(exc)) from None
    return run


class _Case:
    """The bit of ``attnlab.checks.Case`` that ``call`` uses."""

    def __init__(self, args, kwargs) -> None:
        self.args, self.kwargs = args, kwargs


def _notebook_magics(shell) -> None:
    """What a notebook kernel does and a plain IPython shell refuses: ``%matplotlib inline``
    (``notebook``, ``widget``, ...) and ``%pylab`` raise "Implement enable_gui" here, which would
    stop the rest of the learner's cell. Figures stay off-screen (Agg) whatever is asked."""
    def matplotlib_magic(line=""):  # noqa: ARG001 - every backend a notebook may ask for
        return None

    def pylab_magic(line=""):  # noqa: ARG001
        from IPython.core.pylabtools import import_pylab

        import_pylab(shell.user_ns, import_all="--no-import-all" not in line)

    shell.register_magic_function(matplotlib_magic, "line", "matplotlib")
    shell.register_magic_function(pylab_magic, "line", "pylab")
    shell.enable_gui = lambda gui=None: None


def _make_showtraceback(shell):
    def showtraceback(*args, **kwargs):  # noqa: ARG001
        etype, value, tb = sys.exc_info()
        text = "".join(traceback.format_exception_only(etype, value)).strip() if etype else "error"
        shell._last_error = text  # reported once, as the cell's error, by the grader
        shell._last_exc = value  # what it was, for the harness (sandbox.refused, the alarm)
    return showtraceback


def _answer_next(control, *rest) -> bool:
    """Ask for the next call and answer it (no frame of the loop ever holds a call). While a
    thread the cells started is alive, the call is answered in a process forked for it: fork
    copies the calling thread only, so no thread of the learner's can answer for the exercise,
    whatever it waits for (an idle ticker costs nothing)."""
    call = _next_call(control)
    if call is None:
        return False
    job = rest[6]
    if job.get("probe") or not _foreign_threads():
        _answer(call, *rest)
        return True
    namespace, watch, tripwires, timed_out, borrowed, results, job, real_stdout, call_once = rest
    name = call["name"]

    def alone():
        _answer(call, *rest)
        pending = _VALUE_PROBE["pending"].get(name)
        try:
            pickle.dumps(pending)
        except Exception:  # noqa: BLE001 - no value probe for it, then
            pending = None
        return {"timed_out": name in timed_out, "borrowed": borrowed.get(name), "pending": pending}

    back = _alone(alone, job["call_timeout"] + 5.0)
    if back is None:  # it could not be forked, or its process died: said in its answer's place
        record = {"id": call["id"], "error": "TimeoutError" if name not in namespace else "BrokenResult",
                  "message": f"{name} did not answer: its process ended before it could"}
        _write_json(results / f"{call['id']:04d}.json", record)
        return True
    if back.get("timed_out"):
        timed_out.add(name)
    if back.get("borrowed") and name not in borrowed:
        borrowed[name] = back["borrowed"]
    if back.get("pending") is not None and name not in _VALUE_PROBE["pending"]:
        _VALUE_PROBE["pending"][name] = back["pending"]
    return True


def _alone(work, timeout: float):
    """``work()`` in a process forked for it (only this thread is in it), its result pickled back;
    None where it could not be forked, failed, or ran past ``timeout`` seconds."""
    import select

    try:
        read, write = os.pipe()
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:
        code = 1
        try:
            os.close(read)
            data = pickle.dumps(work())
            with os.fdopen(write, "wb") as fh:
                fh.write(data)
            code = 0
        except BaseException:  # noqa: BLE001 - never back into the parent's loop
            pass
        finally:
            os._exit(code)
    os.close(write)
    chunks, deadline = [], _MONOTONIC() + timeout
    with os.fdopen(read, "rb", buffering=0) as fh:
        while True:
            left = deadline - _MONOTONIC()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                chunks = []
                break
            ready, _, _ = select.select([fh], [], [], left)
            if ready:
                chunk = fh.read(1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    try:
        return pickle.loads(b"".join(chunks)) if status == 0 else None
    except Exception:  # noqa: BLE001
        return None


def _answer(call, namespace, watch, tripwires, timed_out, borrowed, results, job, real_stdout, call_once) -> None:
    """Answer one call; its inputs live in this frame only, gone when it returns."""
    call_id, name, invoke, args, kwargs = call["id"], call["name"], call["invoke"], call["args"], call["kwargs"]
    record = {"id": call_id}
    arrays: dict = {}
    answer = None
    tripwires.arm(name, _tripwire_targets(name, watch))
    if name in timed_out:
        record.update(error="TimeoutError", message=f"{name} did not finish in time on an earlier input")
    elif name not in namespace:
        record.update(error="NameError", message=f"name '{name}' is not defined")
    else:
        probe = job.get("probe")
        if probe and probe.get("measure") == call_id and _CONTROL is not None:  # measured from here
            os.write(_MARKS_FD, MEASURE_MARK)
            _CONTROL.readline()
        sys.stdout = sys.stderr = _BoundedText(0)
        _arm(job["call_timeout"])
        tripwires.allow(args, kwargs)  # what the grader hands the exercise is the learner's to call
        # A memory probe makes the run's calls in the run's order (nothing the function counts tells
        # it from the run); its measured call is not judged for borrowing (the run's watch did that):
        # no profile function slows it down or adds to what it holds.
        watch_call = contextlib.nullcontext() if probe else tripwires.watching()
        try:
            with watch_call:
                outcome = call_once(namespace[name], _Case(args, kwargs), _own_names(invoke))
                # issue 40: the answer becomes plain numbers inside the call, under its watch (an
                # object whose __array__ or __torch_function__ computes later earns nothing)
                desc = encode(outcome.value, arrays) if outcome.error is None else None
            record.update(error=outcome.error, message=outcome.message[:2000], mutated=outcome.mutated,
                          kind=outcome.kind, own=outcome.own, bases=list(outcome.bases))
            if outcome.error is None:
                record["value"] = desc
                answer = decode(desc, arrays)
        except BaseException as exc:  # noqa: BLE001
            if _alarmed(exc):
                timed_out.add(name)
                record.update(error="TimeoutError", message=f"{name} did not finish in {job['call_timeout']} s")
            elif _out_of_memory(exc):
                record.update(error="MemoryError", message="out of memory")
            else:
                record.update(error=f"{type(exc).__name__} (from your code)" if isinstance(exc, (_Timeout, MemoryError))
                              else type(exc).__name__, message=str(exc)[:2000])
        finally:
            _arm(0)
            sys.stdout, sys.stderr = real_stdout, sys.__stderr__
    tripwires.disarm()
    hit = tripwires.hits.get(name)
    if hit and name not in borrowed:
        borrowed[name] = hit[1:] if hit.startswith("=") else f"{name} calls the library's `{hit}` when the grader runs it"
    if name in watch and "value" in record and name not in _VALUE_PROBE["pending"]:
        # the exercise's first answered call (a visible case: its inputs are public), asked again
        # with the library perturbed once the grader's calls are over, so that no extra call of
        # the learner's function comes between the grader's own
        _VALUE_PROBE["pending"][name] = (args, kwargs, invoke, answer)
    if record.get("error") == "MemoryError":
        record["message"] = "out of memory"
    try:
        np.savez(results / f"{call_id:04d}.npz", **arrays)
    except Exception as exc:  # noqa: BLE001 - e.g. a result larger than the file limit
        record = {"id": call_id, "error": "ResultTooLarge", "message": str(exc)[:200]}
    _write_json(results / f"{call_id:04d}.json", record)


_VALUE_PROBE: dict = {"module": None, "counts": {}, "seconds": 0.0, "pending": {}}
VALUE_PROBES_PER_EXERCISE = 1   # the first answered call of each exercise is run again, perturbed


def _tripwire_targets(name: str, watch: dict) -> list:
    """What is a tripwire while the grader calls ``name``: its library versions by name (the
    job's ``watch``) and every library function that computes it (issue 26: the equivalents,
    whatever name reaches them). The library computing the exercise during any graded call is
    caught there, wherever the answer is kept afterwards (a cache, a default argument, a table),
    so a kept answer cannot outlast the value probe's repeat of the call."""
    if name not in watch:
        return []
    targets = [tuple(t) for t in watch[name]]
    values = _VALUE_PROBE["module"]
    if values is not None:
        try:
            targets += [t for t in values.equivalents(name) if t not in targets]
        except Exception:  # noqa: BLE001 - the name-based tripwires still stand
            pass
    return targets


def _copied_code(values, obj, name: str) -> str | None:
    try:
        return values.copied_code(obj, name, values.equivalents(name))
    except Exception:  # noqa: BLE001 - a learner object that refuses to be read: not a copy
        return None


def _value_probe(fn, name, args, kwargs, invoke, base, job, real_stdout, call_once) -> str | None:
    """Issue 26: call the exercise once more with its library equivalents perturbed (on the first
    call of each exercise that answered, after the grader's calls); what its answer followed, or None."""
    values, counts = _VALUE_PROBE["module"], _VALUE_PROBE["counts"]
    if values is None or counts.get(name, 0) >= VALUE_PROBES_PER_EXERCISE:
        return None
    counts[name] = counts.get(name, 0) + 1
    start = time.perf_counter()

    def run():
        _arm(job["call_timeout"])
        try:
            return call_once(fn, _Case(args, kwargs), invoke)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    fresh = values.fresh_inputs(args, kwargs) if hasattr(values, "fresh_inputs") else None

    def run_fresh():  # issue 40: an input the function has not seen, like a hidden case
        _arm(job["call_timeout"])
        try:
            return call_once(fn, _Case(*fresh), invoke)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    sys.stdout = sys.stderr = _BoundedText(0)
    try:
        library = values.resolve(values.equivalents(name))
        if hasattr(values, "probe"):
            return values.probe(run_fresh if fresh is not None else None, run, base, library)
        return values.moves_with_library(run, base, library)
    except BaseException:  # noqa: BLE001 - a probe that cannot run (a timeout) decides nothing
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout, sys.stderr = real_stdout, sys.__stderr__
        _VALUE_PROBE["seconds"] += time.perf_counter() - start


def _next_call(control):
    """Ask the grader for the next call and wait for it (None: no more calls, or no grader)."""
    os.write(_MARKS_FD, NEXT_MARK)
    try:
        call = pickle.load(control)
    except (EOFError, pickle.UnpicklingError, OSError):
        return None
    return call if isinstance(call, dict) else None


def _write_json(path: Path, data) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------
# A warm worker ("zygote"): one per grading job slot, started under the same boundary as a
# sandbox. It imports what every sandbox imports (no learner code ever runs in it), then, for each
# submission, forks a child that runs :func:`main` exactly as a fresh sandbox would, on the
# stdin/stdout pipes the grader sends with the request. The child writes nothing the zygote reads:
# its memory is a copy (copy-on-write), its files are the job folder and /tmp, which the grader
# empties between children, and every process it leaves behind is killed before the next starts.
# (What the kernel keeps beyond a process, and its clean-up: :mod:`attnlab.course.kernel_state`.)


def zygote(job_dir: str, control_fd: int, preload: list[str]) -> int:
    import gc
    import socket

    import ctypes

    ctl = socket.socket(fileno=control_fd)
    # Its children may not trace it (and change what the next one inherits), nor make POSIX
    # message queues (which would outlive them in this IPC namespace); System V objects they make
    # are removed after each (_remove_ipc).
    if ctypes.CDLL(None).prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE, 0
        return 1
    resource.setrlimit(resource.RLIMIT_MSGQUEUE, (0, 0))
    for mod in (*ZYGOTE_PRELOAD, *preload):
        __import__(mod)
    sys.modules["matplotlib"].use("Agg")
    _warm_torch()
    _snapshot_library_code()  # the library's code and its fingerprints, read once: each child inherits them
    gc.collect()  # once: its children inherit no garbage (a probe collects only what it makes)
    # What is loaded now is the libraries' (no learner code has run): set apart from the collector,
    # so that a child's collections, and the value probe's search for what holds a library
    # function (gc.get_referrers), walk only what the child made. Library objects are judged by
    # their code wherever they are reached (the grader's watch); the probe swaps them where the
    # learner's own objects hold them.
    gc.freeze()
    sys.stdout.flush()
    state = kernel_state.scheduling_state()  # its nice value, CPUs and limits: the same after every child
    ctl.sendall(b"ready\n")
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(ctl, 64, 2)
        except OSError:
            os._exit(0)
        if not msg or len(fds) != 2:
            os._exit(0)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the submission's process
            code = 70
            try:
                ctl.close()
                for target, fd in ((0, fds[0]), (1, fds[1]), (2, fds[1])):
                    os.dup2(fd, target)
                os.close(fds[0])
                os.close(fds[1])
                global STARTED, _FORKED
                STARTED = time.time()
                _FORKED = True
                code = main(job_dir)
            except BaseException:  # noqa: BLE001 - never back into the zygote's loop
                with contextlib.suppress(BaseException):
                    traceback.print_exc()
            finally:
                os._exit(code if isinstance(code, int) else 70)
        for fd in fds:
            os.close(fd)
        while True:
            try:
                _, status, usage = os.wait4(pid, 0)
                break
            except InterruptedError:
                continue
        if not _end_the_rest() or kernel_state.scheduling_state() != state:
            os._exit(1)  # the grader throws this worker away: the next child gets a new one
        code = os.waitstatus_to_exitcode(status)
        ctl.sendall(json.dumps({"exit": code, "maxrss": usage.ru_maxrss}).encode() + b"\n")


if __name__ == "__main__":
    if sys.argv[1] == "--zygote":
        sys.exit(zygote(sys.argv[2], int(sys.argv[3]), sys.argv[4:]))
    sys.exit(main(sys.argv[1]))
