"""Stage 4, measure: what the grader measures itself, from outside the learner's process.

Boundary rules owned here: a check that measures memory (notebook 08) is never answered by the
learner's process about itself. Each such call gets a memory probe of its own (a fresh process
that runs the same cells, then only that call: a child of the slot's warm worker, or a fresh
sandbox), whose peak resident size the grader resets and reads from the kernel
(:func:`attnlab.course.stages.run.run_sandbox`); tracemalloc and the learner's own counters
change nothing.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from attnlab.checks import Outcome

from .. import boundary, warm
from ..plan import AssignmentPlan
from .collect import copy_submission
from .fonts import _give_font_list
from .handoff import GraderOutcome, Job, Limits, Measured, Ran, Submission
from .judge import AnswerBound, _load_outcome
from .run import run_sandbox


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


WARMUP_ROWS = 256  # the probe's warm-up: the reference on the first rows of each input


def _cut(args: tuple) -> tuple:
    """The measured call's inputs cut to their first :data:`WARMUP_ROWS` rows (the second-to-last
    axis; a vector's only axis), for the probe's warm-up: the same code paths (libraries loaded,
    their buffers and caches made) at a small part of the cost of the full call."""
    import numpy as np

    def cut(a):
        if not isinstance(a, np.ndarray) or a.ndim == 0:
            return a
        return np.ascontiguousarray(a[..., :WARMUP_ROWS, :] if a.ndim >= 2 else a[:WARMUP_ROWS])
    return tuple(cut(a) for a in args)


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
        # the run's own calls, in its order, up to the measured one: the function is called as
        # often, on the same inputs, as in the run when it reaches the measured case
        calls = [c for c in job["calls"] if c["id"] < cid] + [
            {"id": cid, "name": cc.learner_name, "invoke": call_plain, "args": case.args, "kwargs": case.kwargs}]
        probe_job = dict(job, watch={}, tmp=str(inside / "tmp") if not isolation.isolated else "", calls=calls,
                         probe={"warmup": [(cc.spec.reference, _cut(case.args), case.kwargs)], "measure": cid,
                                "mmap_threshold": getattr(cc.spec.invoke, "mmap_threshold", None)})
        run = run_sandbox(job_dir, probe_job, limits, isolation, hide=[str(d) for d in denied], zygote=zygote)
        if zygote is not None and not zygote.child.healthy():
            zygote.alive = False  # the next probes, and the next submission, get fresh ones
        if run.killed == "timeout":
            return GraderOutcome(error="TimeoutError", message="the memory measurement did not finish in time")
        if run.killed == "memory":
            return GraderOutcome(error="MemoryError", message="out of memory")
        got = _load_outcome(job_dir / "results", cid, bound=lambda: AnswerBound.of(cc.spec, i))
        if got is None:
            return GraderOutcome(error="MemoryNotMeasured",
                           message=f"its process ended (exit code {run.returncode}) before it answered, "
                                   "so the grader could not measure its memory")
        if got.error is not None:
            return got
        if run.peak is None:
            return GraderOutcome(error="MemoryNotMeasured", message="the grader could not read its peak memory")
        message = verdict(run.peak, run.how, *case.args, **case.kwargs)
        return GraderOutcome(error="TooMuchMemory", message=message) if message else got
    finally:
        if space is not None:
            space.close()
            shutil.rmtree(job_dir, ignore_errors=True)


def measure(plan: AssignmentPlan, job: Job, ran: Ran, limits: Limits, scratch: Path,
            isolation: boundary.Isolation, denied: list[Path], sub: Submission, zygote=None) -> Measured:
    """The memory checks' answers, measured outside (none for most notebooks)."""
    return Measured(_measure_outside(plan, ran.results, job.spec, limits, scratch, isolation, denied, sub,
                                     zygote))
