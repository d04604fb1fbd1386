"""Trusted grading of one submission, top to bottom: collect -> read -> run -> measure -> judge.

The trusted process never runs learner code. Each stage is a module of
:mod:`attnlab.course.stages` with one job and the boundary rules that go with it, and hands
the next a small typed record (:mod:`attnlab.course.stages.handoff`):

1. :mod:`~attnlab.course.stages.collect`: the submission's notebook (no link followed);
2. :mod:`~attnlab.course.stages.read`: the notebook as data, static findings, the job's cells;
3. :mod:`~attnlab.course.stages.run`: the sandbox (bubblewrap, limits, bounded output);
4. :mod:`~attnlab.course.stages.measure`: memory measured from outside the learner's process;
5. :mod:`~attnlab.course.stages.judge`: answers against the references, the status.

Recording (:mod:`attnlab.course.records`) and rendering (:mod:`attnlab.course.stages.render`)
follow in the batch (:mod:`attnlab.course.grade`). Every submission ends as a
:class:`Result` with one status of ``STATUSES``. The names other modules and tests import from
here are re-exported from the stages.
"""
from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from . import boundary, warm
from .plan import AssignmentPlan
from .stages import collect as collect_stage, judge as judge_stage, measure as measure_stage
from .stages import read as read_stage, run as run_stage
# Re-exported: the names tests, benchmarks and other modules import from ``grading``.
from .stages.collect import (MAX_COPY_BYTES, MAX_COPY_FILES, NotRegular, _find_notebook,
                             copy_submission, read_regular)
from .stages.fonts import _give_font_list, build_font_list, font_list_folder, start_font_list
from .stages.handoff import (STAGES, STATUSES, CellVerdict, GraderFault, Limits, Result, Submission,
                             _sandbox_stages, _Stopwatch, grader_memory_bound)
from .stages.judge import (RESULT_SLACK, SMALL_RESULT_BYTES, AnswerBound, _hidden_message,
                           _judged, _load_arrays, _load_outcome, judge, mark_late)
from .stages.measure import _measure_outside, _probe_memory
from .stages.read import (AST_LOCK, MAX_DEPTH, MAX_NOTEBOOK_BYTES, MAX_RESULT_BYTES,
                          MAX_SOURCE_CHARS, _clean_nbgrader, _load_json, _preload, clean_text, job_cells,
                          needed_demo_cells, parse_utc, read_notebook, read_timestamp, static_findings)
from .stages.run import SandboxRun, _allowed_roots, _clean_env, _grade_warm, run_sandbox

__all__ = [  # what other modules and tests import from here
    "MAX_COPY_BYTES", "MAX_COPY_FILES", "NotRegular", "_find_notebook", "copy_submission", "read_regular",
    "_give_font_list", "build_font_list", "font_list_folder", "start_font_list", "STAGES", "STATUSES",
    "CellVerdict", "GraderFault", "Limits", "Result", "Submission", "_sandbox_stages", "_Stopwatch",
    "grader_memory_bound", "RESULT_SLACK", "SMALL_RESULT_BYTES", "AnswerBound", "_hidden_message", "_judged",
    "_load_arrays", "_load_outcome", "judge", "mark_late", "_measure_outside", "_probe_memory",
    "AST_LOCK", "MAX_DEPTH", "MAX_NOTEBOOK_BYTES", "MAX_RESULT_BYTES", "MAX_SOURCE_CHARS", "_clean_nbgrader",
    "_load_json", "_preload", "clean_text", "job_cells", "needed_demo_cells", "parse_utc",
    "read_notebook", "read_timestamp", "static_findings", "SandboxRun", "_allowed_roots", "_clean_env",
    "_grade_warm", "run_sandbox",
    "grade_submission",
]


def grade_submission(sub: Submission, plan: AssignmentPlan, limits: Limits, scratch: Path,
                     denied: list[Path]) -> Result:
    """Grade one submission end to end; never raises (an internal error is a status too)."""
    start = time.perf_counter()
    result = Result(sub.student, sub.assignment, plan.notebook, "graded", 0.0, plan.max_score,
                    timestamp=sub.timestamp.isoformat() if sub.timestamp else "")
    try:
        _grade_into(result, sub, plan, limits, scratch, denied)
    except GraderFault as fault:  # a fresh sandbox could not run it either: the batch stops (grade.py)
        result.status, result.score, result.cells = "grader error", 0.0, []
        result.details.insert(0, f"internal error: {fault}; the sandbox's own error is in grading.log")
        result.faults.append(fault.log_text())
        result.fault = str(fault)
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
    collected = collect_stage.collect(sub, plan)                        # 1. collect
    if collected.notebook is None:
        result.status = "missing notebook"
        result.details.append(collected.missing)
        return
    watch = _Stopwatch(result.stages)
    read = read_stage.read(collected, plan, lap=watch.lap)               # 2. read
    if read.nb is None:
        result.status = "malformed notebook"
        result.details.append(read.note)
        return
    if read.note:
        result.details.append(read.note)
    result.learner_nb = read.nb

    isolation = boundary.probe()                                         # 3. run (warm worker, or fresh)
    if isolation.isolated and warm.enabled():
        details = list(result.details)
        try:
            if run_stage._grade_warm(result, sub, plan, limits, scratch, denied, read.nb, isolation, read.borrowed,
                                     read.tampering, _run_and_judge):
                return
        except GraderFault as fault:  # the warm worker's fault, not the learner's: again, in a fresh sandbox
            result.faults.append(fault.log_text())
            result.details = details + ["graded in a fresh sandbox: its warm worker failed before the "
                                        "notebook's first cell (the grader's fault; see grading.log)"]
    job_dir = Path(tempfile.mkdtemp(prefix="job-", dir=scratch))
    space = boundary.WritableSpace(job_dir, limits.space_mib * 2**20, limits.space_files)
    try:
        _run_and_judge(result, plan, limits, scratch, denied, read.nb, job_dir, isolation, read.borrowed,
                       read.tampering, sub)
    finally:
        watch = _Stopwatch(result.stages)
        space.close()
        shutil.rmtree(job_dir, ignore_errors=True)
        watch.lap("cleanup")


def _run_and_judge(result, plan, limits, scratch, denied, nb, job_dir, isolation, borrowed, tampering, sub,
                   zygote=None):
    """Stages 3 to 5 in ``job_dir`` (a fresh folder, or a warm worker's slot): run, measure, judge;
    the verdicts and statuses go into ``result``."""
    watch = _Stopwatch(result.stages)
    job = run_stage.prepare(plan, nb, sub, job_dir, limits, scratch, denied, isolation, zygote)
    if job.skipped:
        result.details.append("not copied into the sandbox: " + ", ".join(job.skipped[:10])
                              + (f" and {len(job.skipped) - 10} more" if len(job.skipped) > 10 else ""))
    result.cell_map = job.origin
    watch.lap("prepare")
    ran = run_stage.run(job, limits, isolation, denied, zygote)
    watch.last = time.perf_counter()
    _sandbox_stages(result.stages, ran.sandbox, ran.results)
    if not isolation.isolated:
        result.details.append(f"not isolated ({isolation.why})")
    result.cell_log = ran.cell_log
    measured = measure_stage.measure(plan, job, ran, limits, scratch, isolation, denied, sub,  # 4. measure
                                     zygote)
    watch.lap("memory probes")
    read = read_stage.ReadResult(nb, "", borrowed, tampering)
    judged = judge_stage.judge_run(plan, read, ran, measured, limits)   # 5. judge
    result.cells, result.score = judged.cells, judged.score
    result.details += judged.notes
    if judged.statuses:
        result.status = judged.statuses[0][0]
        result.details = [d for _, d in judged.statuses] + result.details
    watch.lap("judge")
