"""Trusted grading of one submission, top to bottom: collect -> read -> run -> measure -> judge.

The trusted process never runs learner code, and never imports the module that does
(:mod:`attnlab.course.sandbox`; what both sides share is :mod:`attnlab.course.wire`). Each stage
is a module of :mod:`attnlab.course.stages` with one job and the boundary rules that go with it,
and hands the next a small typed record (:mod:`attnlab.course.stages.handoff`). One
:class:`~attnlab.course.stages.handoff.Trip` carries the submission through them:

1. :mod:`~attnlab.course.stages.collect`: the submission's notebook (no link followed);
2. :mod:`~attnlab.course.stages.read`: the notebook as data, static findings, the job's cells;
3. :mod:`~attnlab.course.stages.run`: the sandbox (bubblewrap, limits, bounded output), in a
   worker the driver takes (a warm worker's slot, or a fresh folder) and passes in;
4. :mod:`~attnlab.course.stages.measure`: memory measured from outside the learner's process;
5. :mod:`~attnlab.course.stages.judge`: answers against the references, the status.

Recording (:mod:`attnlab.course.records`) and rendering (:mod:`attnlab.course.stages.render`)
follow in the batch (:mod:`attnlab.course.grade`). Every submission ends as a ``Result`` with
one status of ``stages.handoff.STATUSES``.
"""
from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path

from .. import concepts
from . import boundary, warm
from .plan import AssignmentPlan
from .stages import collect as collect_stage, judge as judge_stage, measure as measure_stage
from .stages import read as read_stage, run as run_stage
from .stages.handoff import GraderFault, Limits, Result, Submission, Trip, _Stopwatch


def grade_submission(sub: Submission, plan: AssignmentPlan, limits: Limits, scratch: Path,
                     denied: list[Path]) -> Result:
    """Grade one submission end to end; never raises (an internal error is a status too)."""
    start = time.perf_counter()
    result = Result(sub.student, sub.assignment, plan.notebook, "graded", 0.0, plan.max_score,
                    timestamp=sub.timestamp.isoformat() if sub.timestamp else "")
    if sub.note:
        result.details.append(sub.note)
    try:
        _grade_into(Trip(sub, plan, limits, scratch, denied, result))
    except GraderFault as fault:  # a fresh sandbox could not run it either: whose fault is it?
        result.score, result.cells = 0.0, []
        result.faults.append(fault.log_text())
        reference = reference_fault(plan, limits, scratch, denied, _libraries_of(result.learner_nb, plan))
        if reference is None:  # the course's own notebook starts there: the failure is this notebook's
            result.status = "kernel died"
            result.details.insert(0, f"the notebook's process ended before its first cell ran{_last_line(fault)}; "
                                     "the course's own notebook starts in the same sandbox, so the cause is in "
                                     "this notebook (what it imports or the files beside it)")
        else:  # the reference fails too: the grader's fault, and the batch stops (grade.py)
            result.status = "grader error"
            result.details.insert(0, f"internal error: {fault}; the sandbox's own error is in grading.log")
            result.fault = f"{fault} (the course's own notebook fails there too: {reference})"
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


def _last_line(fault: GraderFault) -> str:
    """The last line of the process's own output (its error), for the row: `` (ModuleNotFoundError:
    ...)``, or nothing."""
    lines = [ln.strip() for ln in fault.output.strip().splitlines() if ln.strip()]
    return f" ({lines[-1][:200]})" if lines else ""


# Whether the course's own notebook starts in a fresh sandbox, per batch folder and assignment:
# None (it does) or why not. Asked only when a submission's sandbox never reached its first cell.
_REFERENCE: dict[tuple, str | None] = {}
_REFERENCE_LOCK = threading.Lock()


def _libraries_of(nb: dict | None, plan: AssignmentPlan) -> tuple[str, ...]:
    """The course's libraries the submission's job loaded before its first cell."""
    if nb is None:
        return ()
    with read_stage.AST_LOCK:
        return tuple(read_stage._preload(plan, read_stage.job_cells(plan, nb)[0], boundary.probe()))


def reference_fault(plan: AssignmentPlan, limits: Limits, scratch: Path, denied: list[Path],
                    libraries: tuple[str, ...] = ()) -> str | None:
    """Run the course's solution notebook of ``plan`` up to its first cell in a fresh sandbox of
    the same kind (the same limits, boundary and libraries loaded first: the reference's own and
    ``libraries``, the course libraries the failed job loaded): None when its harness
    starts, else the fault. A submission whose sandbox fails where this one starts failed by
    what the submission brings (its imports, its files), and that is its own row; the batch
    stops only when this fails too. Asked once per batch and assignment."""
    key = (str(scratch), plan.assignment, libraries)
    with _REFERENCE_LOCK:
        if key in _REFERENCE:
            return _REFERENCE[key]
        with tempfile.TemporaryDirectory(prefix="reference-", dir=scratch) as folder:
            sub = Submission("(the course's notebook)", plan.assignment, Path(folder))
            result = Result(sub.student, sub.assignment, plan.notebook, "graded", 0.0, plan.max_score)
            trip = Trip(sub, plan, limits, scratch, denied, result, isolation=boundary.probe())
            try:
                with run_stage.fresh_worker(trip) as worker:
                    job = run_stage.prepare(plan, plan.source, sub, worker.folder, limits, scratch, denied,
                                            trip.isolation)
                    job.cells[:], job.origin[:] = [], []
                    job.spec.update(cells=[], calls=[],  # up to the first cell: the harness is all it asks
                                    preload=list(dict.fromkeys([*job.spec["preload"], *libraries])))
                    run_stage.run(job, limits, trip.isolation, denied)
                why = None
            except GraderFault as fault:
                why = str(fault)
            except Exception as exc:  # noqa: BLE001 - the grader's own failure is a fault too
                why = f"{type(exc).__name__}: {exc}"
        _REFERENCE[key] = why
        return why


def _grade_into(trip: Trip) -> None:
    result = trip.result
    trip.collected = collect_stage.collect(trip.sub, trip.plan)          # 1. collect
    if trip.collected.notebook is None:
        result.status = "missing notebook"
        result.details.append(trip.collected.missing)
        return
    watch = _Stopwatch(result.stages)
    trip.read = read_stage.read(trip.collected, trip.plan, lap=watch.lap)  # 2. read
    if trip.read.nb is None:
        result.status = "malformed notebook"
        result.details.append(trip.read.note)
        return
    if trip.read.note:
        result.details.append(trip.read.note)
    result.learner_nb = trip.read.nb
    if trip.sub.assignment in concepts.notebooks():  # the concept checks' answers, read without running them
        with read_stage.AST_LOCK:
            result.concepts = concepts.answers_in_notebook(trip.read.nb)

    trip.isolation = boundary.probe()                                    # 3-5, in a worker
    if trip.isolation.isolated and warm.enabled():
        details = list(result.details)
        try:
            with run_stage.warm_worker(trip) as worker:
                if worker is not None:
                    _run_measure_judge(trip, worker)
                    return
        except GraderFault as fault:  # the warm worker's fault, not the learner's: again, in a fresh sandbox
            result.faults.append(fault.log_text())
            result.details = details + ["graded in a fresh sandbox: its warm worker failed before the "
                                        "notebook's first cell (the grader's fault; see grading.log)"]
    with run_stage.fresh_worker(trip) as worker:
        _run_measure_judge(trip, worker)


def _run_measure_judge(trip: Trip, worker: run_stage.Worker) -> None:
    """Stages 3 to 5 in the worker's folder: run, measure, judge; the verdicts and statuses go
    into the trip's result."""
    result, plan, limits = trip.result, trip.plan, trip.limits
    watch = _Stopwatch(result.stages)
    job = run_stage.prepare(plan, trip.read.nb, trip.sub, worker.folder, limits, trip.scratch, trip.denied,
                            trip.isolation, worker.zygote)
    if job.skipped:
        result.details.append("not copied into the sandbox: " + ", ".join(job.skipped[:10])
                              + (f" and {len(job.skipped) - 10} more" if len(job.skipped) > 10 else ""))
    result.cell_map = job.origin
    watch.lap("prepare")
    ran = run_stage.run(job, limits, trip.isolation, trip.denied, worker.zygote)   # 3. run
    watch.last = time.perf_counter()
    run_stage.sandbox_stages(result.stages, ran.sandbox, ran.results)
    if not trip.isolation.isolated:
        result.details.append(f"not isolated ({trip.isolation.why})")
    result.cell_log = ran.cell_log
    measured = measure_stage.measure(plan, job, ran, limits, trip.scratch, trip.isolation,  # 4. measure
                                     trip.denied, trip.sub, worker.zygote)
    watch.lap("memory probes")
    judged = judge_stage.judge_run(plan, trip.read, ran, measured, limits)               # 5. judge
    result.cells, result.score = judged.cells, judged.score
    result.details += judged.notes
    if judged.statuses:
        result.status = judged.statuses[0][0]
        result.details = [d for _, d in judged.statuses] + result.details
    watch.lap("judge")
