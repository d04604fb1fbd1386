"""The hand-offs between the grader's stages, and the grader's shared records.

One submission goes collect -> read -> run -> measure -> judge -> record -> render; each stage
takes the previous one's hand-off (a small dataclass here) and returns its own, so that what a
stage may rely on is written down in one place:

- :class:`Collected` (collect): where the notebook is, or why there is none;
- :class:`ReadResult` (read): the notebook as data, or why it is malformed, and the static findings;
- :class:`Job` (run, before the sandbox): the job folder, the job sent to the sandbox, its cells;
- :class:`Ran` (run): what came back from the sandbox (:class:`SandboxRun` and its result files);
- :class:`Measured` (measure): answers measured from outside the learner's process;
- :class:`Judged` (judge): the cells' verdicts, the score and the statuses.

:class:`Submission` goes in, a :class:`Result` comes out (the gradebook's row, the record's and
render's input).
"""
from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass, field
import time
from pathlib import Path

from attnlab.checks import Outcome

from ..boundary import Isolation
from ..escape import shown
from ..plan import AssignmentPlan

STATUSES = ("graded", "late", "timed out", "out of memory", "kernel died", "malformed notebook",
            "missing notebook", "tampering detected", "grader error")


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
    harness: bool = False    # the sandbox said its harness was set up (wire.HARNESS_MARK)


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
    note: str = ""       # for the row's detail: the folder's name is stored escaped (grade.stored_ids)


@dataclass
class CellVerdict:
    grade_id: str
    score: float
    max_score: float
    lines: list[str]     # success lines, or the failure message
    passed: bool
    stopped: str = ""    # "timeout" or "memory": the harness stopped a call (judge's own, never a text)


class GraderOutcome(Outcome):
    """An outcome the grader made itself (its memory measurement, in its own process): the judge
    tells it from the learner's answers, which it reads as data into plain ``Outcome`` objects, by
    this class, never by the error's name, which learner code chooses."""


class GraderFault(Exception):
    """The grader could not run a submission at all (no line of the learner's ran): never a
    learner's status. ``output``: what the sandbox's process printed (its own traceback)."""

    def __init__(self, message: str, output: str = "") -> None:
        super().__init__(message)
        self.output = output

    def log_text(self) -> str:
        """What grading.log keeps: the cause and the tail of the process's own output."""
        tail = "\n".join(self.output.strip().splitlines()[-40:])
        return f"{self}" + (f"; its output ends:\n{tail}" if tail else "; it printed nothing")


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
    faults: list[str] = field(default_factory=list)  # the grader's own failures (GraderFault), for grading.log
    fault: str = ""  # set when even a fresh sandbox could not run it: the batch stops (grade.py)
    concepts: dict = field(default_factory=dict)  # the concept checks' answers, read statically (attnlab.concepts)

    def row(self) -> dict:
        """The stored row; its detail is one line (each detail through ``escape.shown``: a file
        name, a cell's error or a note the learner chose forges no line of it)."""
        return {"student_id": self.student, "assignment": self.assignment, "notebook": self.notebook,
                "status": self.status, "score": f"{self.score:g}", "max_score": f"{self.max_score:g}",
                "timestamp": self.timestamp, "detail": "; ".join(shown(d) for d in self.details)}


# ---------------------------------------------------------------------------------------------
# Hand-offs


@dataclass
class Collected:
    """collect -> read: the submission, and its notebook's path (None: ``missing`` says why)."""
    sub: Submission
    notebook: Path | None
    missing: str = ""


@dataclass
class ReadResult:
    """read -> run: the notebook as data (None: malformed, ``note`` says why), a note about what
    reading dropped, and what was found in the learner's code without running it."""
    nb: dict | None
    note: str = ""
    borrowed: dict[str, str] = field(default_factory=dict)   # exercise -> why (the reference borrowed)
    tampering: list[str] = field(default_factory=list)


@dataclass
class Trip:
    """One submission on its way through the stages: what it is and where it is graded, then the
    records the stages add in order (collect's, read's, the isolation the run will have). The
    driver (:mod:`attnlab.course.grading`) passes it on; no stage calls back into the driver."""
    sub: Submission
    plan: AssignmentPlan
    limits: Limits
    scratch: Path
    denied: list[Path]
    result: Result
    collected: Collected | None = None
    read: ReadResult | None = None
    isolation: Isolation | None = None


@dataclass
class Job:
    """run's own hand-off, from preparing to running: the job folder, the job the sandbox reads,
    the cells it runs (label, source) and where each came from in the notebook (-1: restored)."""
    folder: Path
    spec: dict
    cells: list[tuple[str, str]]
    origin: list[int]
    skipped: list[str] = field(default_factory=list)   # files not copied into the sandbox, and why

    @property
    def results(self) -> Path:
        return self.folder / "results"


@dataclass
class Ran:
    """run -> measure, judge: how the sandbox ended and what it wrote back (already bounded and
    cleaned: cells' log, whether it finished, exercises it saw borrowing a reference)."""
    sandbox: SandboxRun
    results: Path
    cell_log: list[dict]
    finished: bool
    borrowed: dict[str, str] = field(default_factory=dict)


@dataclass
class Measured:
    """measure -> judge: answers to the memory checks, measured by the grader (call id -> outcome)."""
    outcomes: dict[int, Outcome] = field(default_factory=dict)


@dataclass
class Judged:
    """judge -> driver: the cells' verdicts, the score, the statuses in order of precedence
    (status, detail) and notes for the row's detail."""
    cells: list[CellVerdict]
    score: float
    statuses: list[tuple[str, str]]
    notes: list[str] = field(default_factory=list)


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
    ("memory probes", "memory probes (nb 06, 08: a process each, measured outside)"),
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
