"""The grader's side of a sandbox's pipes (stage 3, run): the job on stdin, then one call at a
time; the sandbox's marks read from its stdout; its other output kept, bounded.

The sandbox writes a mark (:mod:`attnlab.course.wire`) when it is ready for the next call; only
then does the grader write that call, after keeping the previous call's answer as it was at that
moment (:meth:`Channel.finish` puts those copies back, so a later call cannot change an earlier
answer). A memory probe also waits for the grader's ``go`` at its ready and measure marks.
"""
from __future__ import annotations

import json
import pickle
import threading
from pathlib import Path

from .. import wire
from .collect import read_regular
from .handoff import GraderFault
from .read import MAX_RESULT_BYTES

OUTPUT_KEPT = 20_000  # bytes of the sandbox's own output kept for the log


class Sendable:
    """The job and its calls as the bytes the sandbox will read, made before the sandbox starts:
    a call that cannot be sent (a case holding something pickle refuses) is the grader's fault,
    said at once, never a sandbox left waiting for a call that never comes."""

    def __init__(self, job: dict) -> None:
        self.calls = list(job.get("calls", []))
        try:
            self.payload = pickle.dumps({k: v for k, v in job.items() if k != "calls"})
            self.sent_calls = [pickle.dumps(call) for call in self.calls]
        except Exception as exc:  # noqa: BLE001 - pickle raises several kinds (PicklingError, TypeError, ...)
            name = next((c.get("name", "?") for c in self.calls if not _picklable(c)), "the job")
            raise GraderFault(f"a call of {name} cannot be sent to the sandbox "
                              f"({type(exc).__name__}: {exc}): a check's case must be plain data") from None


def _picklable(value) -> bool:
    try:
        pickle.dumps(value)
        return True
    except Exception:  # noqa: BLE001
        return False


class Channel:
    """The pipes of one running sandbox ``proc`` (its stdin and stdout), in two threads."""

    def __init__(self, proc, sent: Sendable, results: Path, probe: bool) -> None:
        self.proc, self.results, self.probe = proc, results, probe
        self.calls, self.payload, self._sent_calls = sent.calls, sent.payload, sent.sent_calls
        self.marks = 0                       # how many NEXT_MARKs the sandbox has written
        self.marked = threading.Condition()
        self.kept: list[bytes] = []
        self.ready = threading.Event()       # a probe: no learner code has run yet
        self.harness = threading.Event()     # HARNESS_MARK: learner code may run from here on
        self.measure = threading.Event()     # a probe's measured call is about to run
        self.closed = threading.Event()      # stdout reached its end: the sandbox exited, or is exiting
        self.woken = threading.Event()       # any of ready, measure, closed was just set (the watch wakes)
        self.answers: dict[str, bytes | None] = {}  # each answer as it was when the next call was asked for
        self._writer = threading.Thread(target=self._feed, daemon=True)
        self._reader = threading.Thread(target=self._drain, daemon=True)

    def start(self) -> None:
        self._writer.start()
        self._reader.start()

    def go(self) -> None:
        """A probe waits for this line at its ready and measure marks."""
        try:
            with self.marked:
                self.proc.stdin.write(b"go\n")
                self.proc.stdin.flush()
        except (OSError, ValueError):
            pass

    def finish(self) -> str:
        """Once the sandbox has ended: the answers put back as they were kept, and its output."""
        self._reader.join(timeout=5)
        self._writer.join(timeout=1)
        self._put_back()
        return b"".join(self.kept).decode("utf-8", "replace")

    def _wait_mark(self, n: int) -> bool:
        with self.marked:
            while self.marks < n and not self.closed.is_set():
                self.marked.wait(0.1)
            return self.marks >= n

    def _keep(self, names) -> None:
        for name in names:
            try:
                self.answers[name] = read_regular(self.results / name, MAX_RESULT_BYTES + (1 << 20))
            except (OSError, ValueError) as exc:
                self.answers[name] = None
                if name.endswith(".npz") and isinstance(exc, ValueError):  # far too large: say so
                    self.answers[name[:-4] + ".json"] = json.dumps({
                        "id": int(name[:4]), "error": "ResultTooLarge",
                        "message": "the result is far larger than the expected answer"}).encode()

    def _answer_files(self, k: int) -> list[str]:
        """What to keep when the sandbox asks for call ``k``: the cells' log, or call k-1's answer."""
        if k == 0:
            return ["cells.json"]
        ident = self.calls[k - 1]["id"]
        return [f"{ident:04d}.json", f"{ident:04d}.npz"]

    def _feed(self) -> None:
        """The job, then one call at a time: call k+1 is written only after the sandbox asked for
        it, and call k's answer is kept as it was then."""
        proc = self.proc
        try:
            proc.stdin.write(self.payload)
            proc.stdin.flush()
            for k, call in enumerate(self.calls):
                if not self._wait_mark(k + 1):
                    return
                self._keep(self._answer_files(k))
                with self.marked:
                    proc.stdin.write(self._sent_calls[k])
                    proc.stdin.flush()
            if self._wait_mark(len(self.calls) + 1):
                self._keep(self._answer_files(len(self.calls)))
            proc.stdin.close()
        except (OSError, ValueError):  # the sandbox died before reading its job
            pass

    def _drain(self) -> None:
        """Read stdout to its end: count the marks, keep the first OUTPUT_KEPT bytes of the rest."""
        size, seen, tail, before = 0, b"", b"", b""
        try:
            for chunk in iter(lambda: self.proc.stdout.read1(65536), b""):
                if self.probe and not self.ready.is_set():
                    seen = (seen + chunk)[-4096:]
                    if wire.READY_MARK in seen:
                        self.ready.set()
                        self.woken.set()
                joined = tail + chunk
                if self.probe and wire.MEASURE_MARK in joined and not self.measure.is_set():
                    self.measure.set()
                    self.woken.set()
                if not self.harness.is_set():
                    before = (before + chunk)[-4096:]
                    if wire.HARNESS_MARK in before:
                        self.harness.set()
                found = joined.count(wire.NEXT_MARK)
                tail = joined[-(len(wire.NEXT_MARK) - 1):]
                if found:
                    with self.marked:
                        self.marks += found
                        self.marked.notify_all()
                if size < OUTPUT_KEPT:
                    for mark in (wire.NEXT_MARK, wire.READY_MARK, wire.HARNESS_MARK):
                        chunk = chunk.replace(mark, b"")
                    self.kept.append(chunk[: OUTPUT_KEPT - size])
                    size += len(chunk)
        finally:
            self.closed.set()
            self.woken.set()
            with self.marked:
                self.marked.notify_all()

    def _put_back(self) -> None:
        """Each answer as it was when the sandbox asked for the next call; an answer that was not
        there when the grader moved on is removed (it does not count)."""
        results = self.results
        for name, data in self.answers.items():
            try:
                (results / name).unlink(missing_ok=True)
                if data is not None:
                    (results / name).write_bytes(data)
            except OSError:
                pass
        for call in self.calls:
            for ext in (".json", ".npz"):
                name = f"{call['id']:04d}{ext}"
                if name not in self.answers:
                    try:
                        (results / name).unlink(missing_ok=True)
                    except OSError:
                        pass
