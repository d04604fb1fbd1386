"""The learner's side of trusted grading: run one submission's code, call its functions on the
check inputs, write back plain arrays. Started by :mod:`attnlab.course.grading` as

    python -m attnlab.course.sandbox JOB_DIR

in a throwaway folder, never inside the course. ``JOB_DIR/job.pkl`` (written by the trusted
grader) lists the cells to run and the calls to make; results go to ``JOB_DIR/results/`` as
``NNNN.npz`` (arrays only) plus ``NNNN.json`` (plain data). Nothing learner code does here can
change a verdict except the arrays it returns: the grader compares them with the reference in
its own process.

Before any learner code runs, an audit hook (PEP 578; it cannot be removed from Python code)
refuses: reading the course (gradebook, solutions, hidden tests, other submissions), writing
outside the work folder, starting processes or forking, loading native libraries, sockets,
sqlite, and changing resource limits. Resource limits bound memory (address space) and file size;
the grader bounds wall-clock time and output. This raises the bar a long way, but it is not a
security boundary against code that exploits the interpreter itself: for hostile settings run the
grader in a container (README, "What the isolation does").
"""
from __future__ import annotations

import io
import json
import os
import pickle
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

import numpy as np

MAX_STDOUT = 20_000  # characters of learner output kept per cell


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that a bare ``except Exception`` can't swallow it."""


def _on_alarm(signum, frame):  # noqa: ARG001
    raise _Timeout()


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


def _inside(path: str, roots: list[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def install_guard(work: str, results: str, denied: list[str], allowed: list[str]) -> None:
    """Refuse what a submission never needs to do. ``denied``: folders it may not read (the
    course, other jobs) unless also under ``allowed`` (the library, the virtualenv)."""
    work, results = os.path.realpath(work), os.path.realpath(results)
    denied = [os.path.realpath(d) for d in denied]
    allowed = [os.path.realpath(a) for a in allowed] + [work, results]
    writable = [work, results]
    blocked_events = {
        "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.exec", "os.system",
        "subprocess.Popen", "os.kill", "os.killpg", "signal.pthread_kill", "pty.spawn",
        "ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "sqlite3.connect",
        "sqlite3.connect/handle", "socket.connect", "socket.bind", "socket.sendto",
        "resource.setrlimit", "resource.prlimit", "sys.remote_exec", "os.setsid",
        "webbrowser.open",
    }
    path_events = {"os.listdir", "os.scandir", "os.chdir", "glob.glob", "os.stat"}
    write_events = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink", "os.link",
                    "os.chmod", "os.chown", "os.truncate", "os.utime", "shutil.rmtree",
                    "shutil.copyfile", "shutil.copymode", "shutil.copystat", "shutil.move"}

    def readable(path) -> bool:
        real = os.path.realpath(os.fsdecode(path))
        return _inside(real, allowed) or not _inside(real, denied)

    def may_write(path) -> bool:
        return _inside(os.path.realpath(os.fsdecode(path)), writable)

    def hook(event: str, args: tuple) -> None:
        if event in blocked_events:
            raise PermissionError(f"{event} is not allowed while grading")
        if event == "open":
            path, mode, flags = (list(args) + [None, None])[:3]
            if path is None or isinstance(path, int):
                return
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS)
            if writing and not may_write(path):
                raise PermissionError(f"writing {os.fsdecode(path)} is not allowed while grading")
            if not readable(path):
                raise PermissionError(f"reading {os.fsdecode(path)} is not allowed while grading")
        elif event in path_events:
            if args and isinstance(args[0], (str, bytes, os.PathLike)) and not readable(args[0]):
                raise PermissionError(f"{event} on {os.fsdecode(args[0])} is not allowed while grading")
        elif event in write_events:
            for arg in args[:2]:
                if isinstance(arg, (str, bytes, os.PathLike)) and not may_write(arg):
                    raise PermissionError(f"{event} on {os.fsdecode(arg)} is not allowed while grading")

    sys.addaudithook(hook)


# ---------------------------------------------------------------------------------------------
# Encoding results as plain data

def encode(value, arrays: dict, prefix: str = "v"):
    """A JSON description of ``value``; its arrays go into ``arrays`` (saved with np.savez)."""
    if isinstance(value, (tuple, list)):
        return {"kind": "tuple", "items": [encode(v, arrays, f"{prefix}_{i}") for i, v in enumerate(value)]}
    if value is None:
        return {"kind": "none"}
    if type(value).__module__.startswith("torch"):
        try:
            value = value.detach().cpu().numpy()
        except Exception:
            return {"kind": "object", "type": type(value).__name__}
    try:
        arr = np.asarray(value)
    except Exception:
        return {"kind": "object", "type": type(value).__name__}
    if arr.dtype.kind not in "biufc":
        return {"kind": "object", "type": type(value).__name__}
    arrays[prefix] = np.array(arr, dtype=np.float64 if arr.dtype.kind != "b" else bool)
    return {"kind": "array", "key": prefix}


def decode(desc: dict, arrays) -> object:
    """Inverse of :func:`encode`, run by the trusted grader (``arrays`` loaded without pickle)."""
    kind = desc.get("kind")
    if kind == "tuple":
        return tuple(decode(d, arrays) for d in desc["items"])
    if kind == "none":
        return None
    if kind == "array":
        return np.asarray(arrays[desc["key"]])
    return Opaque(str(desc.get("type", "object")))


class Opaque:
    """Stands for a returned object that is not numbers (a string, a module, ...)."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<a {self.type_name}>"

    def __array__(self, *args, **kwargs):
        raise TypeError(f"a {self.type_name} is not an array")


# ---------------------------------------------------------------------------------------------

def main(job_dir: str) -> int:
    job_path = Path(job_dir) / "job.pkl"
    with open(job_path, "rb") as fh:
        job = pickle.load(fh)
    results = Path(job_dir) / "results"
    work = Path(job["work"])
    os.chdir(work)
    for mod in job.get("preload", []):  # heavy libraries load before the guard forbids dlopen
        __import__(mod)
    import matplotlib

    matplotlib.use("Agg")
    from IPython.core.interactiveshell import InteractiveShell

    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    shell = InteractiveShell.instance(config=config, colors="NoColor")
    shell.showtraceback = shell.showsyntaxerror = _make_showtraceback(shell)
    signal.signal(signal.SIGALRM, _on_alarm)
    limit = job["memory_bytes"]
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_FSIZE, (job["file_bytes"], job["file_bytes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    from attnlab.checks._core import call as call_once  # bound before any learner code runs

    os.remove(job_path)  # the learner's code has no business reading its own job
    install_guard(str(work), str(results), job["denied"], job["allowed"])

    cell_log = []
    real_stdout = sys.stdout
    for index, (label, source) in enumerate(job["cells"]):
        out = _BoundedText(MAX_STDOUT)
        sys.stdout = sys.stderr = out
        shell._last_error = None
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, job["cell_timeout"])
        status = "ok"
        try:
            result = shell.run_cell(source, store_history=False, silent=False)
            if not result.success:
                status = "error"
        except _Timeout:
            status = "timeout"
        except MemoryError:
            status = "memory"
        except BaseException as exc:  # noqa: BLE001 - SystemExit and friends end the cell only
            status = "error"
            shell._last_error = f"{type(exc).__name__}: {exc}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdout, sys.stderr = real_stdout, sys.__stderr__
        error = getattr(shell, "_last_error", None)
        if error and error.startswith("_Timeout"):  # IPython caught the alarm itself
            status, error = "timeout", f"the cell ran longer than {job['cell_timeout']:g} s"
        elif error and "MemoryError" in error:
            status = "memory"
        cell_log.append({"index": index, "label": label, "status": status, "error": error,
                         "seconds": round(time.perf_counter() - start, 3), "stdout": out.text()})
        _write_json(results / "cells.json", cell_log)

    namespace = shell.user_ns
    timed_out: set[str] = set()
    for call in job["calls"]:
        call_id, name, invoke, args, kwargs = call["id"], call["name"], call["invoke"], call["args"], call["kwargs"]
        record = {"id": call_id}
        arrays: dict = {}
        if name in timed_out:
            record.update(error="TimeoutError", message=f"{name} did not finish in time on an earlier input")
        elif name not in namespace:
            record.update(error="NameError", message=f"name '{name}' is not defined")
        else:
            sys.stdout = sys.stderr = _BoundedText(0)
            signal.setitimer(signal.ITIMER_REAL, job["call_timeout"])
            try:
                outcome = call_once(namespace[name], _Case(args, kwargs), invoke)
                record.update(error=outcome.error, message=outcome.message[:2000], mutated=outcome.mutated)
                if outcome.error is None:
                    record["value"] = encode(outcome.value, arrays)
            except _Timeout:
                timed_out.add(name)
                record.update(error="TimeoutError", message=f"{name} did not finish in {job['call_timeout']} s")
            except MemoryError:
                record.update(error="MemoryError", message="out of memory")
            except BaseException as exc:  # noqa: BLE001
                record.update(error=type(exc).__name__, message=str(exc)[:2000])
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                sys.stdout, sys.stderr = real_stdout, sys.__stderr__
        if record.get("error") == "MemoryError":
            record["message"] = "out of memory"
        try:
            np.savez(results / f"{call_id:04d}.npz", **arrays)
        except Exception as exc:  # noqa: BLE001 - e.g. a result larger than the file limit
            record = {"id": call_id, "error": "ResultTooLarge", "message": str(exc)[:200]}
        _write_json(results / f"{call_id:04d}.json", record)
    _write_json(results / "done.json", {"ok": True})
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown (atexit handlers the learner may have registered)


class _Case:
    """The bit of ``attnlab.checks.Case`` that ``call`` uses."""

    def __init__(self, args, kwargs) -> None:
        self.args, self.kwargs = args, kwargs


def _make_showtraceback(shell):
    def showtraceback(*args, **kwargs):  # noqa: ARG001
        etype, value, tb = sys.exc_info()
        text = "".join(traceback.format_exception_only(etype, value)).strip() if etype else "error"
        shell._last_error = text  # reported once, as the cell's error, by the grader
    return showtraceback


def _write_json(path: Path, data) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
