"""Trusted grading of one submission: read it, run it in a sandbox, judge its answers.

The trusted process (this module) never runs learner code. It reads the submitted notebook as
data, writes a job for :mod:`attnlab.course.sandbox` in a throwaway folder outside the course,
runs it with a wall-clock budget, a memory limit and bounded output, and judges the plain arrays
that come back against the references. Every submission ends as a :class:`Result` with one
status: graded, late, timed out, out of memory, kernel died, malformed notebook, missing
notebook or tampering detected.
"""
from __future__ import annotations

import ast
import contextlib
import datetime as dt
import functools
import io
import json
import os
import pickle
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from attnlab.checks import Outcome

from . import boundary, sandbox, tamper, warm
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
    grader_mib: int = 6144            # the grader's own heap (RLIMIT_DATA), whatever it reads
    space_mib: int = 1024             # the job's writable space (copy, /tmp, results): a tmpfs of this size
    space_files: int = 20_000         # ... and this many files (boundary.WritableSpace)


@contextlib.contextmanager
def grader_memory_bound(limits: Limits):
    """Bound the trusted grader's own memory for the duration of a batch: ``RLIMIT_DATA`` (heap
    and private writable mappings, Linux >= 4.7) set to ``limits.grader_mib``, never above the
    hard limit nor below the sandboxes' own limit. Whatever a submission makes the grader read
    (a notebook of plots, a forged result), an allocation beyond it is a ``MemoryError`` in
    that submission's thread, so that submission's ``grader error``, not a machine out of
    memory. The previous limit is restored afterwards (tests grade in their own process)."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    except (ImportError, OSError, ValueError, AttributeError):  # not on this platform
        yield None
        return
    want = max(int(limits.grader_mib), 2 * int(limits.memory_mib)) * 2**20
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft != resource.RLIM_INFINITY and soft <= want:
        yield soft  # already bound at least as tightly
        return
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (want, hard))
    except (OSError, ValueError):
        yield None
        return
    try:
        yield want
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


@dataclass
class Submission:
    student: str
    assignment: str
    folder: Path
    timestamp: dt.datetime | None = None
    refused: str = ""    # why the folder is graded as empty (a symbolic link: collection follows none)


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
    late_penalty: float = 0.0    # points taken off for lateness (already out of `score`)
    stages: dict[str, float] = field(default_factory=dict)  # seconds per stage (see STAGES), for timing only

    def row(self) -> dict:
        return {"student_id": self.student, "assignment": self.assignment, "notebook": self.notebook,
                "status": self.status, "score": f"{self.score:g}", "max_score": f"{self.max_score:g}",
                "timestamp": self.timestamp, "detail": "; ".join(self.details)}


# ---------------------------------------------------------------------------------------------
# Reading a submission

AST_LOCK = threading.Lock()   # parsing learner code: one thread at a time (see _grade_into)

# CPython 3.11 keeps the recursion depth of the AST converter in state shared by all threads, so
# two threads calling ast.parse at once (two grading jobs, or a job and the main thread) can fail
# with "SystemError: AST constructor recursion depth mismatch". Every ast.parse in the grader's
# process (ours, IPython's, ast.literal_eval's) therefore goes through one lock.
_PARSE_LOCK = threading.RLock()


def _serialised_parse(parse):
    def parse_one_at_a_time(*args, **kwargs):
        with _PARSE_LOCK:
            return parse(*args, **kwargs)
    parse_one_at_a_time.__wrapped__ = parse
    parse_one_at_a_time.__doc__ = parse.__doc__
    parse_one_at_a_time.attnlab_serialised = True
    return parse_one_at_a_time


if not getattr(ast.parse, "attnlab_serialised", False):
    ast.parse = _serialised_parse(ast.parse)
MAX_NOTEBOOK_BYTES = 512 * 2**20   # the file, outputs included (plots make notebooks big)
MAX_SOURCE_CHARS = 4 * 2**20       # the code and text a learner wrote: far above any real notebook
MAX_DEPTH = 40                     # nesting of JSON in a notebook; deeper metadata is dropped
MAX_RESULT_BYTES = 64 * 2**20      # one answer coming back from the sandbox


class NotRegular(OSError):
    """A path that is a link, a FIFO, a device or a folder where a regular file was expected."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file, never following a symbolic link nor blocking on a FIFO;
    ``ValueError`` if it holds more than ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == 40 or os.path.islink(path):  # ELOOP: the last component is a link
            raise NotRegular(f"{path.name} is a symbolic link") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"{path.name} is not a regular file")
        if info.st_size > limit:
            raise ValueError(f"{path.name} is {info.st_size / 2**20:.0f} MiB, more than {limit / 2**20:.0f} MiB")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise ValueError(f"{path.name} is larger than {limit / 2**20:.0f} MiB")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _too_deep(value, limit: int) -> bool:
    """Whether ``value`` (parsed JSON) nests deeper than ``limit`` (iterative: no recursion)."""
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return True
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return False


_NBGRADER_KEYS = {"grade": bool, "solution": bool, "locked": bool, "task": bool,
                  "grade_id": str, "points": (int, float), "schema_version": int}


def _clean_nbgrader(meta) -> dict | None:
    """The cell's nbgrader metadata with only well-typed known fields (None if unusable)."""
    if not isinstance(meta, dict):
        return None
    out = {}
    for key, value in meta.items():
        kind = _NBGRADER_KEYS.get(key)
        if kind is None:  # other fields (checksum, cell_type, ...) kept when they are plain values
            if isinstance(key, str) and isinstance(value, (str, int, float, bool, type(None))) and len(str(value)) < 200:
                out[key] = value
        elif isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)):
            out[key] = value
    if "points" in out and not (0 <= out["points"] < 1e6):
        del out["points"]
    if "grade_id" in out and len(out["grade_id"]) > 200:
        del out["grade_id"]
    return out


_LONE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # a surrogate escape in JSON (pairs are checked by clean_text)


def read_notebook(path: Path) -> tuple[dict | None, str]:
    """The notebook as nbformat 4 data, or None and what is wrong with it. Never raises.

    Read defensively: regular files only; size limits on what the learner wrote (sources), not
    on outputs; metadata of the wrong type or nested too deep is dropped; cells without ids get
    one. Notebooks in format 4 are read as plain JSON (importing nbformat costs seconds, which
    would delay every batch); older formats are converted by nbformat.
    """
    try:
        return _read_notebook(path)
    except Exception as exc:  # noqa: BLE001 - whatever the file is, it is a verdict, not a crash
        return None, f"{path.name} is not a readable notebook ({type(exc).__name__}: {str(exc)[:120]})"


def _read_notebook(path: Path) -> tuple[dict | None, str]:
    try:
        raw = read_regular(path, MAX_NOTEBOOK_BYTES)
    except NotRegular as exc:
        return None, f"{exc}: submit the notebook file itself"
    except ValueError as exc:
        return None, f"{exc}: larger than any real notebook"
    except OSError as exc:
        return None, f"cannot read {path.name}: {exc.strerror}"
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (Windows editors) is not an error
    except UnicodeDecodeError as exc:
        return None, f"{path.name} is not UTF-8 text (byte {exc.start})"
    del raw
    try:
        data = json.loads(text)
        if _LONE_SURROGATE.search(text):
            data = clean_text(data)
    except RecursionError:
        return None, f"{path.name} is not a readable notebook (JSON nested too deep)"
    except ValueError as exc:
        return None, f"{path.name} is not a readable notebook (invalid JSON: {str(exc)[:120]})"
    if not isinstance(data, dict):
        return None, f"{path.name} is not a readable notebook (no notebook object)"
    notes = []
    if data.get("nbformat") != 4:
        import nbformat

        try:
            data = json.loads(nbformat.writes(nbformat.reads(text, as_version=4)))
        except Exception as exc:  # noqa: BLE001 - any parse or conversion failure
            return None, f"{path.name} is not a readable notebook ({type(exc).__name__}: {str(exc)[:120]})"
        orig = data.get("metadata", {}).get("orig_nbformat", "?") if isinstance(data.get("metadata"), dict) else "?"
        notes.append(f"{path.name} was converted from nbformat {orig}")
    del text
    cells = data.get("cells")
    if not isinstance(cells, list):
        return None, f"{path.name} is not a readable notebook (no list of cells)"
    if not isinstance(data.get("metadata"), dict) or _too_deep(data["metadata"], MAX_DEPTH):
        data["metadata"] = {}
    minor = data.get("nbformat_minor")
    if not isinstance(minor, int) or isinstance(minor, bool) or not 0 <= minor <= 5:
        data["nbformat_minor"] = 5
    written, seen_ids, dropped = 0, set(), 0
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            return None, f"{path.name} has a cell that is not a notebook cell"
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            return None, f"{path.name} has a cell whose source is not text"
        written += len(source)
        cell["source"] = source
        meta = cell.get("metadata")
        if not isinstance(meta, dict) or _too_deep(meta, MAX_DEPTH):
            dropped += meta is not None
            meta = {}
        if "nbgrader" in meta:
            clean = _clean_nbgrader(meta["nbgrader"])
            if clean != meta["nbgrader"]:
                dropped += 1
            if clean:
                meta["nbgrader"] = clean
            else:
                meta.pop("nbgrader")
        cell["metadata"] = meta
        if cell["cell_type"] == "code":
            if not isinstance(cell.get("outputs"), list) or _too_deep(cell["outputs"], MAX_DEPTH):
                cell["outputs"] = []
            if not isinstance(cell.get("execution_count"), int):
                cell["execution_count"] = None
        else:
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
            if "attachments" in cell and (not isinstance(cell["attachments"], dict)
                                          or _too_deep(cell["attachments"], MAX_DEPTH)):
                cell.pop("attachments")
        cid = cell.get("id")
        if not isinstance(cid, str) or not cid or len(cid) > 64 or cid in seen_ids:
            cid = uuid.uuid4().hex[:12]
            cell["id"] = cid
            data["nbformat_minor"] = max(data.get("nbformat_minor", 5), 5)
        seen_ids.add(cid)
        for key in list(cell):
            if key not in ("cell_type", "id", "metadata", "source", "outputs", "execution_count", "attachments"):
                cell.pop(key)
    if written > MAX_SOURCE_CHARS:
        return None, (f"{path.name} holds {written / 2**20:.1f} MiB of code and text, more than any "
                      f"real notebook ({MAX_SOURCE_CHARS / 2**20:.0f} MiB)")
    if dropped:
        notes.append(f"metadata of {dropped} cell(s) was not valid notebook metadata and was ignored")
    if any(cell.get("id") is None for cell in cells):  # pragma: no cover - every cell got an id above
        return None, f"{path.name} has cells without ids"
    return data, "; ".join(notes)


def parse_utc(text: str) -> dt.datetime:
    """A timestamp as nbgrader stores it: naive UTC."""
    from dateutil.parser import parse

    stamp = parse(text)
    if stamp.tzinfo is not None:
        stamp = stamp.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return stamp


def read_timestamp(folder: Path) -> dt.datetime | None:
    path = folder / "timestamp.txt"
    try:
        return parse_utc(read_regular(path, 4096).decode("utf-8", "replace").strip())
    except Exception:  # noqa: BLE001 - an unreadable timestamp is treated as none
        return None


# ---------------------------------------------------------------------------------------------
# The job

def _nbg(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


@functools.lru_cache(maxsize=1024)
def _names(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """(names a cell binds at top level, every name its code refers to, in functions too);
    cached, as most cells are the same in every submission."""
    tree = tamper.parse(source)
    if tree is None:
        return frozenset(), frozenset()
    bound = set()
    for stmt in tamper._top_level(tree):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            targets = (stmt.targets if isinstance(stmt, ast.Assign) else
                       [stmt.target] if hasattr(stmt, "target") else [i.optional_vars for i in stmt.items if i.optional_vars])
            bound |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    used: set[str] = set()
    try:
        import symtable

        stack = [symtable.symtable(ast.unparse(tree), "<cell>", "exec")]
    except (SyntaxError, ValueError, RecursionError):
        return frozenset(bound), frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    while stack:  # global names referenced at top level and inside functions and classes
        table = stack.pop()
        top = table.get_type() == "module"
        for sym in table.get_symbols():
            if sym.is_referenced() and (top or sym.is_global()):
                used.add(sym.get_name())
        stack.extend(table.get_children())
    return frozenset(bound), frozenset(used)


def needed_demo_cells(cells: list[tuple[str, str, bool]]) -> set[int]:
    """Indices of the demo cells (``is_demo``) whose names the other cells (or needed demo
    cells) use: the helpers an exercise needs run, a demo that only shows something does not."""
    needed: set[str] = set()
    keep: set[int] = set()
    for i in range(len(cells) - 1, -1, -1):
        _, source, is_demo = cells[i]
        bound, used = _names(source)
        if not is_demo:
            needed |= used
        elif bound & needed:
            keep.add(i)
            needed |= used
    return keep


def job_cells(plan: AssignmentPlan, nb: dict) -> tuple[list[tuple[str, str]], list[int]]:
    """The cells the sandbox runs, in order, and where each comes from in ``nb``.

    Setup cells run as in the source (restored first if deleted); the learner's solution cells
    and the cells they added or changed run as written; the course's own demo cells run when a
    cell that runs uses a name they define (a helper defined in a demo cell works, as in
    Jupyter), other demo cells and the grade cells do not (grading needs neither).
    """
    candidates = []
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code" and cell["source"] in plan.demo_sources and not _nbg(cell):
            candidates.append((str(index), cell["source"], True))
        elif cell["cell_type"] == "code" and not (_nbg(cell).get("grade") and not _nbg(cell).get("solution")):
            candidates.append((str(index), cell["source"], False))
    keep_demo = {int(candidates[i][0]) for i in needed_demo_cells(candidates)}
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
        elif not cell["source"].strip():
            continue
        elif cell["source"] in plan.demo_sources:
            if index not in keep_demo:
                continue
            cells.append((f"demo cell {index + 1}", cell["source"]))
        else:
            cells.append((f"cell {index + 1} (yours)", cell["source"]))
        origin.append(index)
    return cells, origin


def _clean_env(work: str, tmp: str) -> dict:
    env = {
        "PATH": os.path.dirname(sys.executable) + os.pathsep + "/usr/local/bin:/usr/bin:/bin",
        "HOME": work, "MPLCONFIGDIR": os.path.join(tmp, ".matplotlib"), "IPYTHONDIR": os.path.join(tmp, ".ipython"),
        "NBGRADER_EXECUTION": "autograde", "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0",
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8", "TMPDIR": tmp,
    }
    return env


# matplotlib's font list, built once per course ------------------------------------------------
# Every sandbox gets a fresh MPLCONFIGDIR, so matplotlib would scan the fonts again in each one
# (0.2-0.3 s of each notebook's start). The grader builds the list once, in a process of its own
# that runs no learner code, keeps it in the course (autograde/.grading/, one folder per
# matplotlib version) for later batches, and gives each sandbox a copy of it (a learner who edits
# theirs changes nothing for anyone else). Until the list is ready, sandboxes build their own.

_FONT_LISTS: dict[str, list[Path]] = {}
_FONT_LOCK = threading.Lock()


def font_list_folder(root: Path) -> Path:
    try:
        from importlib.metadata import version

        tag = version("matplotlib")
    except Exception:  # noqa: BLE001 - no matplotlib: nothing to build
        tag = "unknown"
    return Path(root) / "autograde" / ".grading" / f"matplotlib-{tag}"


def build_font_list(folder: Path) -> list[Path]:
    """Build matplotlib's font list into ``folder`` unless it is there; its files (none if
    matplotlib could not build it)."""
    folder = Path(folder)
    files = sorted(folder.glob("fontlist-*.json"))
    if files:
        return files
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".building-", dir=folder.parent))
        try:
            env = dict(_clean_env(str(work), str(work)), MPLCONFIGDIR=str(work))
            proc = subprocess.run([sys.executable, "-I", "-c", "import matplotlib.font_manager"], env=env,
                                  cwd=work, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
            if proc.returncode == 0 and list(work.glob("fontlist-*.json")):
                try:
                    work.rename(folder)  # atomic; another batch's build may have won the race
                except OSError:
                    pass
        finally:
            shutil.rmtree(work, ignore_errors=True)
    except (OSError, subprocess.SubprocessError):
        pass
    return sorted(folder.glob("fontlist-*.json"))


def start_font_list(folder: Path, scratch: Path) -> None:
    """Make matplotlib's font list in ``folder`` available to the sandboxes of the batch whose
    scratch folder is ``scratch``: at once if a batch built it before, otherwise built in the
    background."""
    key = str(scratch)
    with _FONT_LOCK:
        if key in _FONT_LISTS:
            return
        files = sorted(Path(folder).glob("fontlist-*.json"))
        _FONT_LISTS[key] = files
    if files:
        return

    def build() -> None:
        files = build_font_list(folder)
        with _FONT_LOCK:
            _FONT_LISTS[key] = files

    threading.Thread(target=build, daemon=True, name="font-list").start()


def _give_font_list(scratch: Path, tmp: Path) -> None:
    """Copy the course's font list (if ready for this batch) into a job's ``tmp/.matplotlib``."""
    with _FONT_LOCK:
        files = list(_FONT_LISTS.get(str(scratch), []))
    if not files:
        return
    dest = tmp / ".matplotlib"
    try:
        dest.mkdir(exist_ok=True)
        for f in files:
            shutil.copyfile(f, dest / f.name)
    except OSError:
        pass  # matplotlib builds its own


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
    cgroup = None
    if zygote is not None and isolation.isolated:  # a warm worker's child (attnlab.course.warm)
        cmd, cgroup = None, zygote.cgroup
    elif isolation.isolated:
        inside = boundary.JOB_ROOT
        argv = [sys.executable, "-I", "-m", "attnlab.course.sandbox", inside]
        env = _clean_env(f"{inside}/work", "/tmp")
        cgroup = boundary.Cgroup(int(limits.memory_mib * 2**20 * 1.5))
        cmd = cgroup.wrap(boundary.command(job_dir, argv, env, hide=list(hide), as_pid_1=probe))
        popen_env, cwd = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, str(job_dir)
    else:
        cmd = [sys.executable, "-I", "-m", "attnlab.course.sandbox", str(job_dir)]
        popen_env, cwd = _clean_env(str(job_dir / "work"), str(job_dir / "tmp")), str(job_dir / "work")
    peak_r = peak_w = None
    if probe and cmd is not None:  # (a warm child's peak: its zygote's wait4, see warm.WarmChild)
        peak_r, peak_w = os.pipe()
        cmd = [sys.executable, "-I", "-S", "-c", WAITER, str(peak_w), *cmd]
    started_at = time.time()
    try:
        if cmd is None:
            proc = zygote.start()
        else:
            proc = subprocess.Popen(cmd, cwd=cwd, env=popen_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    pass_fds=(peak_w,) if peak_w is not None else ())
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
        size, seen, tail = 0, b"", b""
        try:
            for chunk in iter(lambda: proc.stdout.read1(65536), b""):
                if probe and not ready.is_set():
                    seen = (seen + chunk)[-4096:]
                    if sandbox.READY_MARK in seen:
                        ready.set()
                joined = tail + chunk
                if probe and sandbox.MEASURE_MARK in joined:
                    measure.set()
                found = joined.count(sandbox.NEXT_MARK)
                tail = joined[-(len(sandbox.NEXT_MARK) - 1):]
                if found:
                    with marked:
                        marks[0] += found
                        marked.notify_all()
                if size < 20_000:
                    chunk = chunk.replace(sandbox.NEXT_MARK, b"").replace(sandbox.READY_MARK, b"")
                    kept.append(chunk[: 20_000 - size])
                    size += len(chunk)
        finally:
            closed.set()
            with marked:
                marked.notify_all()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    killed = None
    rss_limit = limits.memory_mib * 2**20 * 1.25
    try:
        ps = psutil.Process(proc.pid)
    except psutil.Error:
        ps = None
    next_memory_check = 0.0
    base, how, maxrss = None, "", None
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
                done, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if done:
                    proc.returncode = os.waitstatus_to_exitcode(status)
                    maxrss = usage.ru_maxrss * 1024  # KiB on Linux
                    break
            if probe and ready.is_set() and not how:
                python_pid = proc.python_pid() if cmd is None else _python_pid(proc)
                base, how = _baseline(python_pid)
                how = how or "no baseline"
                try:
                    with marked:
                        proc.stdin.write(b"go\n")
                        proc.stdin.flush()
                except (OSError, ValueError):
                    pass
            if probe and measure.is_set() and window is None:
                # The cells have run: what they left resident is the call's own baseline too, so
                # memory they gave back (pages dropped with madvise) is no headroom for the call.
                before_kib = _status_kib(python_pid, "VmHWM") if python_pid else None
                base2, how2 = _baseline(python_pid) if python_pid else (None, "")
                window = (None if before_kib is None else before_kib * 1024, base2 if how2 == "reset" else None)
                try:
                    with marked:
                        proc.stdin.write(b"go\n")
                        proc.stdin.flush()
                except (OSError, ValueError):
                    pass
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
        if cgroup is not None and cmd is not None:
            cgroup.remove()
    reader.join(timeout=5)
    writer.join(timeout=1)
    for name, data in answers.items():  # what the sandbox answered when it asked for the next call
        try:
            (results / name).unlink(missing_ok=True)
            if data is not None:
                (results / name).write_bytes(data)
        except OSError:
            pass
    for call in calls:  # an answer not there when the grader moved on does not count
        for ext in (".json", ".npz"):
            name = f"{call['id']:04d}{ext}"
            if name not in answers:
                try:
                    (results / name).unlink(missing_ok=True)
                except OSError:
                    pass
    peak = None
    if probe:
        if peak_r is not None:
            try:
                text = os.read(peak_r, 64).decode("ascii", "replace").strip()
                maxrss = int(text) * 1024 if text.isdigit() else None
            except OSError:
                maxrss = None
            finally:
                os.close(peak_r)
        if base is not None and maxrss is not None and not killed:
            peak = max(maxrss - base, 0)
            if window is not None and window[0] is not None and window[1] is not None:
                # the cells' peak over the first baseline; the call's over the first baseline and
                # over the resident size it started from, whichever is lower
                peak = max(window[0] - base, maxrss - base, maxrss - window[1], 0)
    return SandboxRun(proc.returncode, killed, time.perf_counter() - start,
                      b"".join(kept).decode("utf-8", "replace"), peak,
                      {"reset": "peak resident memory of a process of its own, read by the grader",
                       "peak so far": "peak resident memory of a process of its own, read by the grader "
                                      "(its peak before the baseline could not be reset)"}.get(how, how), filled,
                      started_at, time.time())


def _load_json(path: Path, limit: int = 4 * 2**20):
    return clean_text(json.loads(read_regular(path, limit).decode("utf-8")))


def _clean_str(text: str) -> str:
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:  # lone surrogates ("\\udcff" in JSON, bytes decoded with surrogateescape)
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def clean_text(value):
    """``value`` (parsed JSON) with every string made encodable as UTF-8: a lone surrogate, which
    JSON allows and a learner's output or error message can hold, becomes its escape (``\\udcff``)
    instead of failing the CSV, the gradebook or the feedback later. Iterative: any depth."""
    if isinstance(value, str):
        return _clean_str(value)
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in list(node):
                v = node[key]
                if isinstance(key, str) and _clean_str(key) is not key:
                    del node[key]
                    key = _clean_str(key)
                    node[key] = v
                if isinstance(v, str):
                    node[key] = _clean_str(v)
                elif isinstance(v, (dict, list)):
                    stack.append(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, str):
                    node[i] = _clean_str(v)
                elif isinstance(v, (dict, list)):
                    stack.append(v)
    return value


SMALL_RESULT_BYTES = 2**20   # an answer this small is read without asking the reference
RESULT_SLACK = 16            # a wrong answer may be this many times the reference's size


@dataclass(frozen=True)
class AnswerBound:
    """What the reference's answer to one case looks like: the most bytes and dimensions a
    learner's answer to it may declare before the grader allocates anything for it."""
    nbytes: int
    ndim: int

    @staticmethod
    def of(spec, index: int) -> "AnswerBound":
        from attnlab.checks._core import call

        try:
            ref = call(spec.reference, spec.cases[index])
        except Exception:  # noqa: BLE001 - a check without a plain reference: the general caps
            return AnswerBound(MAX_RESULT_BYTES, 32)
        arrays = _leaf_arrays(ref.value) if ref.error is None else []
        if not arrays:
            return AnswerBound(SMALL_RESULT_BYTES, 8)
        ref_bytes = sum(a.size * 8 for a in arrays)
        return AnswerBound(min(MAX_RESULT_BYTES, max(SMALL_RESULT_BYTES, RESULT_SLACK * ref_bytes)),
                           max(a.ndim for a in arrays) + 2)


def _leaf_arrays(value, depth: int = 0) -> list[np.ndarray]:
    if isinstance(value, (tuple, list)) and depth < 8:
        return [a for v in value for a in _leaf_arrays(v, depth + 1)]
    try:
        arr = np.asarray(value)
    except Exception:  # noqa: BLE001 - an object: no array
        return []
    return [arr] if arr.dtype.kind in "biufc" else []


def _load_arrays(path: Path, limit: int = MAX_RESULT_BYTES, bound=None) -> dict[str, np.ndarray]:
    """The arrays of a results ``.npz``. Every member's header is read first and checked (a
    plain dtype, float64 or bool as the sandbox writes them; no more dimensions and bytes than
    ``bound()``, the reference's answer with room for a wrong shape, allows; ``limit`` in all)
    before anything is allocated for any array's data."""
    import zipfile

    from numpy.lib import format as npformat

    raw = read_regular(path, limit + (1 << 20))
    out, headers = {}, []
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        members = archive.infolist()
        if len(members) > 64:
            raise ValueError("too many arrays")
        for info in members:  # headers only
            if not info.filename.endswith(".npy") or info.file_size > limit:
                raise ValueError(f"unexpected member {info.filename[:40]!r}")
            with archive.open(info) as fh:
                version = npformat.read_magic(fh)
                if version == (1, 0):
                    shape, fortran, dtype = npformat.read_array_header_1_0(fh)
                elif version == (2, 0):
                    shape, fortran, dtype = npformat.read_array_header_2_0(fh)
                else:
                    raise ValueError(f"unsupported .npy version {version}")
            if dtype not in (np.dtype(np.float64), np.dtype(bool)) or len(shape) > 32:
                raise ValueError(f"unexpected array type {dtype} of {len(shape)} dimensions")
            nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize if shape else dtype.itemsize
            if nbytes < 0 or nbytes > info.file_size:
                raise ValueError("the arrays are larger than they say")
            headers.append((info, shape, fortran, dtype, nbytes))
        total = sum(h[4] for h in headers)
        if total > limit:
            raise ValueError("the arrays are larger than they say")
        ndim = max((len(h[1]) for h in headers), default=0)
        if bound is not None and (total > SMALL_RESULT_BYTES or ndim > 8):
            b = bound()
            if total > b.nbytes or ndim > b.ndim:
                raise ValueError(f"the arrays are larger than they say: {total} bytes in {ndim} dimensions "
                                 f"where the reference's answer allows {b.nbytes} in {b.ndim}")
        for info, shape, fortran, dtype, nbytes in headers:
            with archive.open(info) as fh:  # past the header again, then the data
                version = npformat.read_magic(fh)
                (npformat.read_array_header_1_0 if version == (1, 0) else npformat.read_array_header_2_0)(fh)
                data = fh.read(nbytes + 1)
            if len(data) != nbytes:
                raise ValueError("the array data does not match its header")
            out[info.filename[:-4]] = np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")
    return out


def _load_outcome(results: Path, call_id: int, bound=None) -> Outcome | None:
    """The answer the sandbox wrote for one call; ``bound`` (a function returning an
    :class:`AnswerBound`) says how large it may be."""
    meta_path, arr_path = results / f"{call_id:04d}.json", results / f"{call_id:04d}.npz"
    try:
        record = _load_json(meta_path)
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - a forged or broken result file
        return Outcome(error="BrokenResult", message=f"the result could not be read ({type(exc).__name__})")
    try:
        if not isinstance(record, dict):
            raise ValueError("not a record")
        value = None
        if record.get("error") is None:
            try:
                arrays = _load_arrays(arr_path, bound=bound)
            except ValueError as exc:
                if "larger" in str(exc) or "MiB" in str(exc):
                    return Outcome(error="ResultTooLarge", message="the result is far larger than the expected answer")
                raise
            value = decode(record.get("value", {"kind": "none"}), arrays)
        error = record.get("error")
        return Outcome(value=value, error=str(error)[:100] if error is not None else None,
                       message=str(record.get("message", ""))[:2000], mutated=bool(record.get("mutated", False)))
    except Exception as exc:  # noqa: BLE001 - a forged or broken result file
        return Outcome(error="BrokenResult", message=f"the result could not be read ({type(exc).__name__})")


def judge(plan: AssignmentPlan, results: Path, stopped: str, borrowed: dict[str, str],
          outcomes: dict[int, Outcome] | None = None) -> list[CellVerdict]:
    """Each grade cell's score from the sandbox's answers (full points only if every case of
    every check in it is right); ``outcomes``: answers the grader measured itself (memory)."""
    outcomes = outcomes or {}
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
                outcome = outcomes.get(cc.first_id + i) or _load_outcome(
                    results, cc.first_id + i, bound=lambda spec=cc.spec, i=i: AnswerBound.of(spec, i))
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
                message = _judged(cc, i, outcome)
                if message:
                    break
            if message:
                lines, passed = [message], False
                break
            if not cc.hidden:
                lines.append(cc.spec.success())
        verdicts.append(CellVerdict(cell.grade_id, cell.points if passed else 0.0, cell.points, lines, passed))
    return verdicts


# A check's verdict depends on the case and the answer only (CheckSpec.judge: "the same message
# for the same answer"), and most submissions of a class give the same answers: each verdict is
# worked out once per batch (the reference run once per case), keyed by a digest of the answer.
_VERDICTS: dict[tuple, tuple] = {}
_VERDICTS_MAX = 200_000


def _digest(value, h, depth: int = 0) -> None:
    if isinstance(value, tuple) and depth < 16:
        h.update(b"(%d" % len(value))
        for v in value:
            _digest(v, h, depth + 1)
        h.update(b")")
    elif isinstance(value, np.ndarray):
        h.update(f"a{value.dtype.str}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, sandbox.Opaque):
        h.update(b"o" + value.type_name.encode("utf-8", "backslashreplace"))
    else:
        h.update(b"r" + repr(value).encode("utf-8", "backslashreplace"))


def _judged(cc, i: int, outcome: Outcome) -> str | None:
    """``cc``'s verdict on case ``i`` for ``outcome`` (cached for the same answer)."""
    import hashlib

    h = hashlib.sha256()
    h.update(repr((outcome.error, outcome.message, bool(outcome.mutated))).encode("utf-8", "backslashreplace"))
    _digest(outcome.value, h)
    key = (id(cc.spec), cc.hidden, cc.learner_name, cc.check, i, h.digest())
    hit = _VERDICTS.get(key)
    if hit is not None and hit[0] is cc.spec:  # (the spec is kept in the entry: its id is not reused)
        return hit[1]
    message = _hidden_message(cc, i, outcome) if cc.hidden else cc.spec.judge(i, outcome)
    if len(_VERDICTS) >= _VERDICTS_MAX:
        _VERDICTS.clear()
    _VERDICTS[key] = (cc.spec, message)
    return message


def _hidden_message(cc, i: int, outcome: Outcome) -> str | None:
    """A hidden test's verdict, told without anything of that call: the check and the mistake
    it names, never the learner's exception text or type, the shapes or values of its answer,
    nor the hidden inputs (a function that raises ``ValueError(repr(x))`` gets nothing back)."""
    verdict = cc.spec.verdict(i, outcome)
    if verdict is None:
        return None
    message, mistake = verdict
    name = cc.learner_name
    if outcome.error == "NotImplementedError" or (outcome.error == "NameError" and message.startswith(
            f"{cc.spec.exercise} is not defined")):
        return message  # the check's own words, nothing of the call in them
    if outcome.error in ("TooMuchMemory", "MemoryNotMeasured"):
        return message  # the grader's own measurement, made outside the learner's process
    what = (f"{name} raised an error on a hidden test ({cc.check})" if outcome.error is not None
            else f"{name} does not match the reference on a hidden test ({cc.check})")
    if mistake is not None:
        return f"{what}: this looks like a known mistake: {mistake.name}."
    return (f"{what}. Hidden tests show nothing of their inputs or of what your code did with them: "
            "try your function on inputs of your own (other shapes, sizes and values) and compare "
            "with the equation.")


# ---------------------------------------------------------------------------------------------

def static_findings(plan: AssignmentPlan, nb: dict) -> tuple[dict[str, str], list[str]]:
    """Borrowed answers (every binding of an exercise name, in every cell, in the order they
    run) and tampering (in the cells the learner wrote or changed)."""
    run_order, learner_cells = [], []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        meta = _nbg(cell)
        gid = meta.get("grade_id")
        if meta.get("grade") and not meta.get("solution"):
            continue  # grade cells are replaced by the source's
        if gid in plan.setup:
            run_order.append(plan.setup[gid])
            continue
        run_order.append(cell["source"])
        if cell["source"] not in plan.demo_sources:
            learner_cells.append(cell["source"])
    borrowed = tamper.borrowed_in_notebook(run_order, plan.all_exercises)
    trees = [t for t in (tamper.parse(s) for s in run_order) if t is not None]
    aliases = tamper._aliases(trees)
    tampering = []
    for source in learner_cells:
        for f in tamper.tampering(source, plan.all_exercises, aliases=aliases):
            tampering.append(f.detail)
    return borrowed, list(dict.fromkeys(tampering))


def _find_notebook(sub: Submission, plan: AssignmentPlan) -> tuple[Path | None, str]:
    path = sub.folder / plan.notebook
    if os.path.lexists(path):
        return path, ""
    try:
        others = sorted(p.name for p in sub.folder.glob("*.ipynb"))[:5]
    except OSError:
        others = []
    found = f"; found {', '.join(others)}: rename it to {plan.notebook}" if others else ""
    return None, f"no {plan.notebook} in the submission{found}"


MAX_COPY_BYTES = 512 * 2**20   # all the files of one submission copied into its sandbox
MAX_COPY_FILES = 2000


def copy_submission(src: Path, dst: Path, exist_ok: bool = False) -> list[str]:
    """Copy a submission's regular files and folders into ``dst`` without following symbolic
    links (as ``unzip`` keeps them) and without opening FIFOs or devices; return what was left
    out and why."""
    skipped: list[str] = []
    count, size = 0, 0
    dst.mkdir(exist_ok=exist_ok)
    stack = [(src, dst, 0)]
    while stack:
        folder, target, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            skipped.append(f"{folder.relative_to(src) if folder != src else '.'}: unreadable ({exc.strerror})")
            continue
        for entry in entries:
            rel = os.path.relpath(entry.path, src)
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue
            try:
                if entry.is_symlink():
                    skipped.append(f"{rel} (a symbolic link)")
                elif entry.is_dir(follow_symlinks=False):
                    if depth >= 8:
                        skipped.append(f"{rel} (folders nested too deep)")
                        continue
                    (target / entry.name).mkdir()
                    stack.append((Path(entry.path), target / entry.name, depth + 1))
                elif entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    if count >= MAX_COPY_FILES or size + info.st_size > MAX_COPY_BYTES:
                        skipped.append(f"{rel} (the submission's files are too many or too large)")
                        continue
                    data = read_regular(Path(entry.path), MAX_COPY_BYTES - size)
                    (target / entry.name).write_bytes(data)
                    count, size = count + 1, size + len(data)
                else:
                    skipped.append(f"{rel} (not a regular file)")
            except (OSError, ValueError) as exc:
                skipped.append(f"{rel} ({exc})")
    return skipped


# Where a submission's time goes, in the order it is spent (Result.stages, seconds; the sandbox's
# own stages from its timing.json, wall clock; benchmarks/bench_class.py prints them).
STAGES = (
    ("read", "reading the notebook (host)"),
    ("static", "static findings (host)"),
    ("prepare", "job folder, copy, cells (host)"),
    ("sandbox start", "sandbox start: fork, cgroup, bwrap"),
    ("interpreter", "interpreter start + numpy/attnlab import"),
    ("imports", "preload imports (torch, matplotlib, IPython)"),
    ("shell", "IPython shell + limits"),
    ("cells", "learner's cells"),
    ("calls", "exercise calls (one at a time)"),
    ("sandbox exit", "sandbox exit + reaping"),
    ("sandbox other", "sandbox, not otherwise timed"),
    ("judge", "judging the answers (host)"),
    ("memory probes", "memory probes (nb 08, own sandboxes)"),
    ("cleanup", "removing the job folder (host)"),
    ("record", "gradebook + autograded notebook (host)"),
    ("feedback", "feedback page (host)"),
    ("polish", "feedback polish, per assignment (host, shared out)"),
)


class _Stopwatch:
    """Adds the seconds since the last ``lap`` to ``stages[name]``."""

    def __init__(self, stages: dict[str, float]) -> None:
        self.stages, self.last = stages, time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.stages[name] = self.stages.get(name, 0.0) + (now - self.last)
        self.last = now


def _sandbox_stages(stages: dict[str, float], run, results: Path) -> None:
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


def grade_submission(sub: Submission, plan: AssignmentPlan, limits: Limits, scratch: Path,
                     denied: list[Path]) -> Result:
    """Grade one submission end to end; never raises (an internal error is a status too)."""
    start = time.perf_counter()
    result = Result(sub.student, sub.assignment, plan.notebook, "graded", 0.0, plan.max_score,
                    timestamp=sub.timestamp.isoformat() if sub.timestamp else "")
    try:
        _grade_into(result, sub, plan, limits, scratch, denied)
    except MemoryError:  # the grader's own bound (grader_memory_bound): this submission only
        result.status, result.score, result.learner_nb = "grader error", 0.0, None
        result.cells = []
        result.details.append(f"internal error while grading: the grader would have needed more than "
                              f"its {limits.grader_mib} MiB to read this submission")
    except Exception as exc:  # noqa: BLE001 - one broken submission never stops a batch
        result.status, result.score = "grader error", 0.0
        result.details.append(f"internal error while grading: {type(exc).__name__}: {exc}")
    result.seconds = time.perf_counter() - start
    return result


def _grade_into(result: Result, sub: Submission, plan: AssignmentPlan, limits: Limits, scratch: Path,
                denied: list[Path]) -> None:
    if sub.refused:
        result.status = "missing notebook"
        result.details.append(f"{sub.refused}: not followed, graded as empty; submit the files themselves")
        return
    path, why = _find_notebook(sub, plan)
    if path is None:
        result.status = "missing notebook"
        result.details.append(why)
        return
    watch = _Stopwatch(result.stages)
    nb, note = read_notebook(path)
    watch.lap("read")
    if nb is None:
        result.status = "malformed notebook"
        result.details.append(note)
        return
    if note:
        result.details.append(note)
    result.learner_nb = nb

    # Static findings (trusted: learner code is read, never run, here).
    with AST_LOCK:  # CPython 3.11's ast is not safe to use from several threads at once
        borrowed, tampering = static_findings(plan, nb)
    watch.lap("static")

    # The sandbox.
    isolation = boundary.probe()
    if isolation.isolated and warm.enabled() and _grade_warm(result, sub, plan, limits, scratch, denied, nb,
                                                               isolation, borrowed, tampering):
        return
    job_dir = Path(tempfile.mkdtemp(prefix="job-", dir=scratch))
    space = boundary.WritableSpace(job_dir, limits.space_mib * 2**20, limits.space_files)
    try:
        _run_and_judge(result, plan, limits, scratch, denied, nb, job_dir, isolation, borrowed, tampering, sub)
    finally:
        watch = _Stopwatch(result.stages)
        space.close()
        shutil.rmtree(job_dir, ignore_errors=True)
        watch.lap("cleanup")


def _grade_warm(result, sub, plan, limits, scratch, denied, nb, isolation, borrowed, tampering) -> bool:
    """Run the submission in a warm worker's child (:mod:`attnlab.course.warm`); False if no warm
    worker could be had (then a fresh sandbox runs it)."""
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


def _run_and_judge(result, plan, limits, scratch, denied, nb, job_dir, isolation, borrowed, tampering, sub,
                   zygote=None):
    watch = _Stopwatch(result.stages)
    work = job_dir / "work"
    links = copy_submission(sub.folder, work, exist_ok=zygote is not None)
    if links:
        result.details.append("not copied into the sandbox: " + ", ".join(links[:10])
                              + (f" and {len(links) - 10} more" if len(links) > 10 else ""))
    results = job_dir / "results"
    results.mkdir(exist_ok=True)  # a tmpfs of its own where boundary.WritableSpace mounted one
    if zygote is None:  # (a warm worker's slot has its tmp, with the font list)
        (job_dir / "tmp").mkdir()
        _give_font_list(scratch, job_dir / "tmp")
    with AST_LOCK:
        cells, origin = job_cells(plan, nb)
        preload = _preload(plan, cells, isolation)
    result.cell_map = origin
    inside = Path(boundary.JOB_ROOT) if isolation.isolated else job_dir
    job = {
        "cells": cells, "calls": job_calls(plan), "preload": preload,
        "cell_timeout": limits.cell_seconds, "call_timeout": limits.call_seconds,
        "memory_bytes": int(limits.memory_mib * 2**20), "file_bytes": int(limits.file_mib * 2**20),
        "denied": [str(d) for d in denied], "scratch": [str(Path(scratch).resolve())] if not isolation.isolated else [],
        "allowed": _allowed_roots(), "isolated": isolation.isolated, "tmp": str(inside / "tmp") if not isolation.isolated else "",
        "tasks_max": boundary.TASKS_MAX,
        "watch": {cc.learner_name: tamper.runtime_targets(cc.learner_name)
                  for cell in plan.grade_cells for cc in cell.calls},
    }
    watch.lap("prepare")
    run = run_sandbox(job_dir, job, limits, isolation, hide=[str(d) for d in denied], zygote=zygote)
    watch.last = time.perf_counter()
    _sandbox_stages(result.stages, run, results)
    if not isolation.isolated:
        result.details.append(f"not isolated ({isolation.why})")
    try:
        result.cell_log = _load_json(results / "cells.json", 16 * 2**20)
        if not isinstance(result.cell_log, list):
            result.cell_log = []
    except Exception:  # noqa: BLE001
        result.cell_log = []
    result.cell_log = [e for e in result.cell_log if isinstance(e, dict)][: len(cells)]
    try:
        finished = _load_json(results / "done.json") == {"ok": True}
    except Exception:  # noqa: BLE001
        finished = False
    try:
        seen = _load_json(results / "borrowed.json", 2**20)
    except Exception:  # noqa: BLE001
        seen = {}
    if isinstance(seen, dict):
        for name, why in seen.items():
            if name in job["watch"] and isinstance(why, str):
                borrowed.setdefault(name, why[:300])
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
    if run.filled:
        statuses.append(("out of memory", f"the notebook filled its writable space ({limits.space_mib} MiB "
                                          f"and {limits.space_files} files for its folder and /tmp together): "
                                          "writing beyond it failed"))
    labels = [label for label, _ in cells]
    for i, entry in enumerate(result.cell_log):
        entry["label"] = labels[i]  # the grader's own labels, not what came back
        error = str(entry.get("error") or "")[:2000]
        entry["error"] = error or None
        label = entry["label"]
        notes = entry.get("notes")
        if isinstance(notes, list) and notes:
            result.details.append(f"{label}: note: " + ", ".join(str(n)[:100] for n in notes[:5]))
        if entry.get("status") == "timeout":
            statuses.append(("timed out", f"{label} ran longer than {limits.cell_seconds:g} s"))
        elif entry.get("status") == "memory":
            statuses.append(("out of memory", f"{label} ran out of memory"))
        elif sandbox.TAMPER_MARK in error:
            tampering.append(f"{label}: {error[:300]}")
        elif sandbox.NOTE_MARK in error:
            result.details.append(f"{label}: note: {error[:300]}")
        elif error and not label.startswith("demo cell"):
            result.details.append(f"{label}: {error[:200]}")
    stopped = statuses[0][1] if statuses else ""
    watch.lap("judge")
    measured = _measure_outside(plan, results, job, limits, scratch, isolation, denied, sub, zygote)
    watch.lap("memory probes")
    result.cells = judge(plan, results, stopped, borrowed, measured)
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
    watch.lap("judge")


def _measure_outside(plan: AssignmentPlan, results: Path, job: dict, limits: Limits, scratch: Path,
                     isolation: boundary.Isolation, denied: list[Path], sub: Submission,
                     zygote=None) -> dict[int, Outcome]:
    """Answers to the checks that measure memory (notebook 08), measured by the grader itself:
    for each such call that the main run answered, a memory probe (a sandbox of its own, the
    same cells, then only that call) whose peak resident size the grader reads from the kernel,
    outside the learner's process (see :func:`run_sandbox`). What the learner's code does to
    ``tracemalloc`` or to its own counters changes nothing; memory its cells keep (a buffer
    allocated in advance) counts, since the baseline is taken before any of its code runs.

    With a warm worker (``zygote``, whose main run ended cleanly) each probe is a fresh child of
    it in the emptied slot instead of a fresh sandbox; the main run's answers are kept aside
    meanwhile and put back for the judge."""
    out: dict[int, Outcome] = {}
    child = getattr(zygote, "child", None)
    if child is None or not child.healthy() or not isolation.isolated:
        zygote = None
    kept = None
    try:
        for call_plain, verdict, cc, i, case, cid in list(_measured_cases(plan, results)):  # read first:
            # a warm probe empties the slot's results
            if zygote is not None and kept is None:
                kept = warm.keep_results(zygote, scratch)
            out[cid] = _probe_memory(cc, i, case, call_plain, verdict, job, limits, scratch, isolation,
                                     denied, sub, zygote if zygote is not None and zygote.alive else None)
    finally:
        if kept is not None:
            warm.put_back_results(zygote, kept)
    return out


def _measured_cases(plan: AssignmentPlan, results: Path):
    for cell in plan.grade_cells:
        for cc in cell.calls:
            pair = getattr(cc.spec.invoke, "measured_outside", None)
            if pair is None:
                continue
            call_plain, verdict = pair
            measures = getattr(cc.spec.invoke, "measures_case", None)  # None: every case
            for i, case in enumerate(cc.spec.cases):
                if measures is not None and not measures(*case.args, **case.kwargs):
                    continue
                cid = cc.first_id + i
                first = _load_outcome(results, cid, bound=lambda spec=cc.spec, i=i: AnswerBound.of(spec, i))
                if first is None or first.error is not None:
                    continue  # not defined, not implemented, or failed: judged on the main run
                yield call_plain, verdict, cc, i, case, cid


def _probe_memory(cc, i, case, call_plain, verdict, job, limits, scratch, isolation, denied, sub,
                  zygote=None) -> Outcome:
    cid = cc.first_id + i
    if zygote is not None:  # a fresh child of the warm worker, in its emptied slot
        job_dir, space = zygote.folder, None
        zygote.reset()
    else:
        job_dir = Path(tempfile.mkdtemp(prefix="probe-", dir=scratch))
        space = boundary.WritableSpace(job_dir, limits.space_mib * 2**20, limits.space_files)
    try:
        copy_submission(sub.folder, job_dir / "work", exist_ok=zygote is not None)
        (job_dir / "results").mkdir(exist_ok=True)
        if zygote is None:
            (job_dir / "tmp").mkdir()
            _give_font_list(scratch, job_dir / "tmp")
        inside = Path(boundary.JOB_ROOT) if isolation.isolated else job_dir
        probe_job = dict(job, watch={}, tmp=str(inside / "tmp") if not isolation.isolated else "",
                         calls=[{"id": cid, "name": cc.learner_name, "invoke": call_plain,
                                 "args": case.args, "kwargs": case.kwargs}],
                         probe={"warmup": [(cc.spec.reference, case.args, case.kwargs)]})
        run = run_sandbox(job_dir, probe_job, limits, isolation, hide=[str(d) for d in denied], zygote=zygote)
        if zygote is not None and not zygote.child.healthy():
            zygote.alive = False  # the next probes, and the next submission, get fresh ones
        if run.killed == "timeout":
            return Outcome(error="TimeoutError", message="the memory measurement did not finish in time")
        if run.killed == "memory":
            return Outcome(error="MemoryError", message="out of memory")
        got = _load_outcome(job_dir / "results", cid, bound=lambda: AnswerBound.of(cc.spec, i))
        if got is None:
            return Outcome(error="MemoryNotMeasured",
                           message=f"its process ended (exit code {run.returncode}) before it answered, "
                                   "so the grader could not measure its memory")
        if got.error is not None:
            return got
        if run.peak is None:
            return Outcome(error="MemoryNotMeasured", message="the grader could not read its peak memory")
        message = verdict(run.peak, run.how, *case.args, **case.kwargs)
        return Outcome(error="TooMuchMemory", message=message) if message else got
    finally:
        if space is not None:
            space.close()
            shutil.rmtree(job_dir, ignore_errors=True)


def mark_late(result: Result, timestamp: dt.datetime | None, duedate: dt.datetime | None,
              plugin=None) -> None:
    """A graded submission handed in after the due date becomes ``late``; any submission handed
    in late loses the penalty ``plugin`` gives (the course's late-submission plugin,
    :func:`attnlab.course.late.load`; None or nbgrader's default: nothing), never more than its
    score. The penalty goes into ``result.late_penalty`` and out of ``result.score``; the cells
    keep their scores, as nbgrader's gradebook does."""
    if timestamp is None or duedate is None or timestamp <= duedate:
        return
    from . import late

    result.late_penalty = late.penalty(plugin, result.student, result.score, (timestamp - duedate).total_seconds())
    note = f"submitted {_human(timestamp - duedate)} after the due date"
    if result.late_penalty > 0:
        result.score = max(0.0, result.score - result.late_penalty)
        note += f": late penalty {result.late_penalty:g} point(s) ({late.describe(plugin)})"
    if result.status == "graded":
        result.status = "late"
        result.details.insert(0, note)
    elif result.late_penalty > 0:
        result.details.insert(0, note)


PRELOADABLE = ("torch", "scipy", "sklearn", "pandas")


def _imports_to_preload(cells: list[tuple[str, str]], already: list[str]) -> list[str]:
    """Heavy libraries the learner's cells import (``import torch`` in notebook 01): loaded
    before the cell timer starts, as a warm Jupyter kernel would have them."""
    out = []
    for _, source in cells:
        tree = tamper.parse(source)
        for node in ast.walk(tree) if tree is not None else ():
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else [])
            for name in names:
                root = name.split(".")[0]
                if root in PRELOADABLE and root not in already and root not in out:
                    out.append(root)
    return out


# Libraries the plan preloads because the course's notebook mentions them somewhere (torch: 1 to
# 3 s of every sandbox's start), but that a submission's own cells may never import.
LAZY = {"torch": ("torch", "attnlab.torch"), "sklearn": ("sklearn.svm",), "scipy": ("scipy",)}


def _preload(plan: AssignmentPlan, cells: list[tuple[str, str]], isolation: boundary.Isolation) -> list[str]:
    """What the sandbox imports before the learner's first cell. Under bubblewrap, a heavy library
    (``LAZY``) only when the job's cells import it (the checks' calls never need it: their inputs
    are numpy arrays); a cell that imports it another way (``__import__``) loads it itself, the
    tripwires arm on it all the same (``sandbox._ArmAfterImport``). Without the boundary the guard
    refuses native libraries once learner code runs, so everything the plan names loads first."""
    wanted = _imports_to_preload(cells, [])
    if not isolation.isolated:
        return plan.preload + [m for m in wanted if m not in plan.preload]
    skipped = {m for root, mods in LAZY.items() if root not in wanted for m in mods}
    out = [m for m in plan.preload if m not in skipped]
    return out + [m for m in wanted if m not in out and not any(o.split(".")[0] == m for o in out)]


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
