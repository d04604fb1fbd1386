"""A class graded as an instructor grades it: N learners x every notebook of ``solutions/``, with a
share of wrong work (blank notebooks, broken files), graded by ``attnlab-course grade``'s own code
with ``--jobs 2``; prints the rate, the projection for 200 learners x every notebook (issue 42's
target: <= 20 min) and where the time goes by stage. Warm workers (the default) or, with
``--cold``, a fresh sandbox per submission and memory probe.

The projection is the batch's one-off overhead (until the first submission has started and the
first warm workers, started in the background meanwhile, are up: preflight, plans, their start) plus the steady cost per submission (the rest of the
wall time: grading from the first submission's start to the last one's end, then feedback, records
and CSV, all of which grow with the class) x 200 x the number of notebooks.

    .venv/bin/python benchmarks/bench_class.py [--learners 6] [--wrong 0.25] [--jobs 2] [--keep DIR]
        [--course DIR (one built with --keep: no build)] [--cold (ATTNLAB_WARM=0)] [--record]

``--record`` (``make bench-class`` passes it) writes the projection and the steady cost into
``benchmarks/measured.json`` (``tools/measured.py``), where the pages' figures are held to them.

Stages are timed in this process by wrapping the grader's functions (no change to the grader):
``static`` (reading the learner's code, before the sandbox), ``sandbox`` (the sandbox process,
start to end), of which ``learner cells`` (the notebook's cells, as the sandbox times each) and the
rest (``start, imports, exercise calls``: the process, bubblewrap, importing numpy/torch/attnlab/
IPython, the calls of the learner's functions on the checks' inputs); ``checks`` (judging the
results in the grader: the rest of a submission's run after the sandbox), and ``feedback``
(autograded notebook, nbgrader's page, polishing). ``cold imports`` is one interpreter importing
what the sandbox preloads, timed apart, for scale. With ``--jobs 2`` two submissions run at once,
so stage times add up to more than the wall time: they are per submission, not shares of it.
Times on a shared machine only ever grow with other load: say so when you quote them.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))
sys.modules.setdefault("rfc3987_syntax", None)  # as attnlab-course does (cli.py)

import coursekit as ck  # noqa: E402

# issue 42's target: 200 learners x every notebook of solutions/ in 20 minutes with --jobs 2 on 2 cores
TARGET_LEARNERS, TARGET_MINUTES = 200, 20.0
TARGET_NOTEBOOKS = len([p for p in (ROOT / "solutions").iterdir() if p.is_dir() and p.name[:2].isdigit()])
KINDS = ("correct", "blank", "broken")


def kind_of(learner: int, assignment_index: int, wrong: float) -> str:
    """Which work learner ``learner`` hands in for the assignment: a fixed, even spread, so that
    about ``wrong`` of all submissions are blank or broken (alternately)."""
    slot = (learner * 10 + assignment_index) * 37 % 100  # 37 and 100 coprime: every slot once per 100
    if slot >= round(wrong * 100):
        return "correct"
    return "blank" if slot % 2 == 0 else "broken"


def build(tmp: Path, learners: int, wrong: float) -> tuple[Path, dict[tuple[str, str], str]]:
    """The course root, released, with its submissions; ``{(student, assignment): kind}``."""
    course = ck.make_course(tmp)
    names = ck.assignments()
    kinds = {}
    for i in range(learners):
        student = f"learner{i:03d}"
        for j, assignment in enumerate(names):
            kind = kind_of(i, j, wrong)
            if kind == "correct":
                nb = ck.completed_student_notebook(assignment)
            elif kind == "blank":
                nb = ck.load(ck.release_path(assignment))
            else:  # a notebook cut off mid-file (a failed upload, an editor crash)
                text = ck.release_path(assignment).read_text(encoding="utf-8")
                nb = text[: len(text) // 3]
            ck.submit(course, student, assignment, nb)
            kinds[(student, assignment)] = kind
    proc = ck.course_command(course, "release")
    if proc.returncode != 0:
        raise SystemExit(proc.stdout + proc.stderr)
    return course, kinds


def _kinds(course: Path, wrong: float) -> dict[tuple[str, str], str]:
    """``{(student, assignment): kind}`` of a course that ``build`` made (learnerNNN, in order)."""
    names = ck.assignments()
    out = {}
    for folder in sorted((course / "autograde" / "submitted").iterdir()):
        i = int(folder.name[len("learner"):])
        for j, assignment in enumerate(names):
            if (folder / assignment).is_dir():
                out[(folder.name, assignment)] = kind_of(i, j, wrong)
    return out


class Stages:
    """Seconds per stage, summed over submissions (thread-safe), by wrapping grader functions."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: Counter = Counter()
        self.lock = threading.Lock()
        self.local = threading.local()

    def add(self, stage: str, seconds: float) -> None:
        with self.lock:
            self.seconds[stage] += seconds
            self.calls[stage] += 1

    def wrap(self, module, name: str, stage: str, after=None) -> None:
        original = getattr(module, name)

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                out = original(*args, **kwargs)
            finally:
                self.add(stage, time.perf_counter() - start)
            if after is not None:
                after(out)
            return out

        setattr(module, name, timed)

    def install(self) -> None:
        from attnlab.course import feedback, grading, records
        from attnlab.course.stages import read, run

        self.wrap(read, "static_findings", "static")
        self.wrap(run, "run_sandbox", "sandbox")
        self.wrap(grading, "_run_measure_judge", "sandbox + checks")
        self.wrap(grading, "grade_submission", "submission (all)")
        self.wrap(records, "write_autograded", "feedback: autograded notebook")
        self.wrap(feedback.FeedbackWriter, "write", "feedback: nbgrader page")
        self.wrap(feedback, "polish_feedback", "feedback: polish")


def cold_imports() -> float:
    code = "import numpy, torch, matplotlib, IPython, attnlab, attnlab.checks"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-I", "-c", code], check=True, env=dict(os.environ, MPLBACKEND="Agg"))
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=6)
    parser.add_argument("--wrong", type=float, default=0.25, help="share of blank or broken submissions")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="build the course here and keep it (default: a temporary folder)")
    parser.add_argument("--course", help="grade this course, built before with --keep (skips the build)")
    parser.add_argument("--cold", action="store_true",
                        help="a fresh sandbox per submission and memory probe (ATTNLAB_WARM=0), to compare")
    parser.add_argument("--warm", action="store_true", help="warm workers (the default; kept for old command lines)")
    parser.add_argument("--record", action="store_true",
                        help="write the projection and the steady cost into benchmarks/measured.json "
                             "(class_projection_min, class_steady_s: tools/measured.py), with the commit, date, cores and load")
    args = parser.parse_args()
    if args.cold and args.warm:
        parser.error("--cold and --warm: choose one")
    os.environ["ATTNLAB_WARM"] = "0" if args.cold else "1"
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a cancelled run still removes its course
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="attnlab-bench-class-"))
    try:
        t0 = time.perf_counter()
        if args.course:  # a course built before (--keep): its submissions are graded again
            course = Path(args.course)
            kinds = {k: v for k, v in _kinds(course, args.wrong).items()}
        else:
            course, kinds = build(tmp, args.learners, args.wrong)
        print(f"built {len(kinds)} submission(s) ({', '.join(f'{n} {k}' for k, n in Counter(kinds.values()).items())}) "
              f"of {len(ck.assignments())} notebook(s) in {time.perf_counter() - t0:.0f} s", flush=True)
        stages = Stages()
        stages.install()
        cells_seconds = _cell_seconds_hook(stages)
        starts = _warm_start_hook()
        from attnlab.course import grade as grading_cli
        from attnlab.course.stages.handoff import Limits

        start = time.perf_counter()
        results = grading_cli.grade(course, jobs=args.jobs, limits=Limits())
        end = time.perf_counter()
        wall = end - start
        imports = cold_imports()
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"sandboxes: {'fresh, one per submission and memory probe (--cold)' if args.cold else 'warm workers, one per job slot'}")

    n = len(results)
    full = [r for r in results if kinds[(r.student, r.assignment)] == "correct"]
    at_full = sum(abs(r.score - r.max_score) < 1e-9 for r in full)
    per = wall / n
    first = min(cells_seconds["spans"])[0]
    before = first - start  # preflight, plans, the thread pool: once per batch
    first_starts = sorted(starts)[: args.jobs]  # the first warm worker of each job slot (in parallel)
    warm_once = max((s[1] for s in first_starts), default=0.0)
    # once per batch: until the first submission has started and the first warm workers are up
    # (they start in the background while the batch prepares: the two overlap)
    overhead = max([before] + [b + d - start for b, d in first_starts])
    steady = (wall - overhead) / n
    projected = (overhead + steady * TARGET_LEARNERS * TARGET_NOTEBOOKS) / 60
    print()
    print(f"graded {n} submission(s) with --jobs {args.jobs} in {wall:.1f} s: {n / wall:.2f} submissions/s, "
          f"{per:.2f} s each (wall)")
    print(f"statuses: {', '.join(f'{k} {v}' for k, v in sorted(Counter(r.status for r in results).items()))}; "
          f"correct at full marks: {at_full}/{len(full)}")
    print(f"one-off overhead: {overhead:.1f} s (before the first submission {before:.1f} s, first warm workers' "
          f"start {warm_once:.1f} s); steady cost: {steady:.2f} s per submission (wall; grading, then feedback, "
          f"records and CSV after the last one: {end - max(e for _, e in cells_seconds['spans']):.1f} s)")
    print(f"projection for {TARGET_LEARNERS} learners x {TARGET_NOTEBOOKS} notebooks: {overhead:.0f} s + "
          f"{steady:.2f} s x {TARGET_LEARNERS * TARGET_NOTEBOOKS} = {projected:.1f} min "
          f"(target <= {TARGET_MINUTES:g} min: {'met' if projected <= TARGET_MINUTES else 'NOT met'})")
    print(f"\nwhere the time goes: seconds per submission, by stage, as the grader records them "
          f"(Result.stages; with --jobs {args.jobs} two submissions overlap, so stages add up to about "
          f"{args.jobs} x the wall time per submission):")
    from attnlab.course.stages.handoff import STAGES

    groups = [("all", results)] + [(k, [r for r in results if kinds[(r.student, r.assignment)] == k])
                                   for k in KINDS]
    groups = [(k, rs) for k, rs in groups if rs]
    print(f"  {'stage':<52}" + "".join(f"{k + f' ({len(rs)})':>14}" for k, rs in groups))
    for key, label in STAGES:
        cols = [sum(r.stages.get(key, 0.0) for r in rs) / len(rs) for _, rs in groups]
        if any(c >= 0.0005 for c in cols):
            print(f"  {label:<52}" + "".join(f"{c:14.3f}" for c in cols))
    cols = [sum(sum(r.stages.values()) for r in rs) / len(rs) for _, rs in groups]
    print(f"  {'total (sum of stages)':<52}" + "".join(f"{c:14.3f}" for c in cols))
    by_nb = defaultdict(list)
    for r in results:
        by_nb[r.assignment].append(sum(r.stages.values()))
    print("  per notebook (sum of stages, mean): " + ", ".join(
        f"{a[:2]} {sum(v) / len(v):.2f}" for a, v in sorted(by_nb.items())))
    s = stages.seconds
    rest = wall - s.get("submission (all)", 0.0) / max(args.jobs, 1)
    print(f"  batch overhead outside submissions (wall, s):  {max(0.0, rest):.1f}  (preflight, gradebook, CSV)")
    print(f"  cold imports of numpy/torch/matplotlib/IPython/attnlab in one interpreter: {imports:.2f} s")
    if args.record:
        _record(projected, steady, args)
    return 0


def _record(projected: float, steady: float, args) -> None:
    """The run's figures into benchmarks/measured.json, which the pages' figures are held to
    (tests/test_measured_figures.py): a page that still gives the old figure now fails there."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("attnlab_measured", ROOT / "tools" / "measured.py")
    measured = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = measured
    spec.loader.exec_module(measured)
    command = f"make bench-class LEARNERS={args.learners} JOBS={args.jobs}" + (" (--cold)" if args.cold else "")
    load = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
    for key, value, unit in (("class_projection_min", round(projected, 1), "min"), ("class_steady_s", round(steady, 2), "s")):
        measured.record(key, value, unit, command, load=load)
    print(f"recorded class_projection_min = {projected:.1f} min and class_steady_s = {steady:.2f} s in "
          f"benchmarks/measured.json (load {load}); `make figures` shows the pages that now disagree")


def _cell_seconds_hook(stages: Stages) -> dict[str, float]:
    """Sum the sandbox's own per-cell times (``cells.json``, read by the grader into
    ``Result.cell_log``) as each submission finishes."""
    from attnlab.course import grading

    totals = {"total": 0.0, "spans": []}  # spans: (start, end) of each submission, perf_counter
    original = grading.grade_submission

    def wrapped(*args, **kwargs):
        began = time.perf_counter()
        result = original(*args, **kwargs)
        seconds = sum(float(e.get("seconds") or 0.0) for e in result.cell_log if isinstance(e, dict))
        with stages.lock:
            totals["total"] += seconds
            totals["spans"].append((began, time.perf_counter()))
        return result

    grading.grade_submission = wrapped
    from attnlab.course import grade as grade_module

    grade_module.grade_submission = wrapped  # grade.py imported it by name
    return totals


def _warm_start_hook() -> list[tuple[float, float]]:
    """(start, seconds) of every warm worker's start (attnlab.course.warm.Zygote)."""
    from attnlab.course import warm

    starts: list[tuple[float, float]] = []
    original = warm.Zygote.__init__

    def timed(self, *args, **kwargs):
        began = time.perf_counter()
        try:
            original(self, *args, **kwargs)
        finally:
            starts.append((began, time.perf_counter() - began))

    warm.Zygote.__init__ = timed
    return starts


if __name__ == "__main__":
    sys.exit(main())
