"""Peak memory of one call, numpy, torch or Python alike: the call runs in a forked child whose
peak resident set (``VmHWM``, reset through ``/proc/self/clear_refs``) is read around a second
call (the first one, on the same or on smaller inputs, warms up lazy imports and caches), less
the library code (file-backed pages) the call faults in.

tracemalloc sees only what Python and numpy allocate; torch's CPU tensors come from its own
allocator and are invisible to it, so an untiled attention written in torch passed a
tracemalloc check. The child reports its result and its peak back through a pipe; an exception
comes back under its own name. Where a child cannot be forked (not Linux, no
``/proc/self/clear_refs``, or inside the course's grading sandbox, whose audit hook refuses
``os.fork`` and which measures memory from outside the learner's process itself),
:func:`peak_of_call` falls back to tracemalloc.
"""
from __future__ import annotations

import ctypes
import io
import os
import pickle
import select
import signal
import sys
import time
import tracemalloc
from typing import Any, Callable

from ._core import _to_numpy

CHILD_TIMEOUT = 120.0  # seconds; the call itself is a few seconds at most


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise OSError(f"no {field} in /proc/self/status")


def can_fork_measure() -> bool:
    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and os.access("/proc/self/clear_refs", os.W_OK))


MMAP_THRESHOLD = 16 * 1024  # bytes: blocks this large get pages of their own while measuring


def _live_blocks_only(threshold: int = MMAP_THRESHOLD) -> None:
    """Make the resident set follow what the call holds, not what the allocator keeps: every
    block of ``threshold`` bytes (:data:`MMAP_THRESHOLD` unless a check says otherwise: a block
    that gets pages of its own costs a page fault for every 4 KiB it touches, and a call that
    allocates and frees many of them runs several times slower) or more gets pages of its own
    (``mmap``), handed back
    when freed, instead of a place in the heap that a small block left behind can pin. Without
    it a recurrence that frees its old 48 KiB state at every step (torch allocates a new tensor
    for ``S + outer``) grew the heap by fragments to 115 MiB over 3,072 steps, as much as
    keeping every prefix state. glibc only (``mallopt``); elsewhere a no-op. The grader's probe
    sets the same through glibc's ``MALLOC_MMAP_THRESHOLD_`` (:data:`MALLOC_ENV`)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, int(threshold))  # M_MMAP_THRESHOLD (also ends its dynamic growth)
        libc.mallopt(-1, 0)  # M_TRIM_THRESHOLD: the top of the heap goes back at once
    except (OSError, AttributeError):
        pass


MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": str(MMAP_THRESHOLD), "MALLOC_TRIM_THRESHOLD_": "0"}


def _child(fn: Callable[[], Any], write_fd: int, warmup: Callable[[], Any] | None = None) -> None:
    """In the forked child: warm up, measure, call, send ``(kind, ...)`` back, and exit."""
    status = 0
    try:
        sys.stdout = sys.stderr = io.StringIO()  # the notebook's streams belong to the parent
        torch = sys.modules.get("torch")
        if torch is not None:
            torch.set_num_threads(1)  # an OpenMP pool does not survive fork
        _live_blocks_only()
        try:
            (warmup or fn)()  # a first call warms up: lazy imports, caches, library code faulted in
        except Exception:  # noqa: BLE001 - the measured call below reports it
            pass
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)  # free heap pages must fault in again to count
        except OSError:
            pass
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")  # reset the peak resident set to the current one
        base, base_file = _status_kib("VmRSS"), _status_kib("RssFile")
        try:
            value = fn()
            # library code faulted in for the first time in this child is file-backed memory,
            # not the call's data: take it out (it only grows during the call)
            grown_file = max(_status_kib("RssFile") - base_file, 0)
            payload = ("ok", _to_numpy(value), max(_status_kib("VmHWM") - base - grown_file, 0) * 1024)
        except Exception as exc:  # the learner's own error, reported by name
            payload = ("error", type(exc).__name__, str(exc))
        try:
            data = pickle.dumps(payload)
        except Exception as exc:  # an unpicklable result
            data = pickle.dumps(("error", type(exc).__name__, f"the result could not be sent back: {exc}"))
        with os.fdopen(write_fd, "wb") as f:
            f.write(data)
    except BaseException:  # noqa: BLE001 - never return into the parent's code
        status = 1
    finally:
        os._exit(status)


def _raise_named(name: str, message: str) -> None:
    raise type(name, (Exception,), {})(message)


def peak_in_child(fn: Callable[[], Any], timeout: float = CHILD_TIMEOUT,
                  warmup: Callable[[], Any] | None = None) -> tuple[Any, int]:
    """``(fn(), peak extra resident bytes during the call)``, run in a forked child after a first
    call of ``warmup`` (default: ``fn`` itself; a smaller call through the same code is cheaper)."""
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()  # the grading sandbox refuses (PermissionError from its audit hook)
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        raise
    if pid == 0:
        os.close(read_fd)
        _child(fn, write_fd, warmup)
    os.close(write_fd)
    chunks, deadline = [], time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                raise TimeoutError(f"the call did not finish in {timeout:g} s")
            ready, _, _ = select.select([read_fd], [], [], left)
            if ready:
                chunk = os.read(read_fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        os.close(read_fd)
        os.waitpid(pid, 0)
    if not chunks:
        raise RuntimeError("the measuring process ended without a result")
    payload = pickle.loads(b"".join(chunks))
    if payload[0] == "error":
        _raise_named(payload[1], payload[2])
    return payload[1], int(payload[2])


def peak_traced(fn: Callable[[], Any]) -> tuple[Any, int]:
    """``(fn(), peak extra bytes that tracemalloc saw)``: Python and numpy only."""
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = fn()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        if not tracing:
            tracemalloc.stop()
    return result, peak


def peak_of_call(fn: Callable[[], Any], warmup: Callable[[], Any] | None = None) -> tuple[Any, int, str]:
    """``(result, peak bytes, how it was measured)``; ``warmup``: see :func:`peak_in_child`."""
    if can_fork_measure():
        try:
            result, peak = peak_in_child(fn, warmup=warmup)
            return result, peak, "peak resident memory"
        except PermissionError as exc:
            if "not allowed" not in str(exc):  # the learner's own PermissionError
                raise
    result, peak = peak_traced(fn)
    return result, peak, "tracemalloc"
