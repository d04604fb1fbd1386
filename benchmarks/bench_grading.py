"""Grading speed, measured in one run (ratios, since shared machines are noisy).

    .venv/bin/python benchmarks/bench_grading.py [--assignment 01_weighted_averages] [--n 10] [--repeat 3]

Prints:
1. the adversarial corpus plus N correct submissions graded with --jobs 2 (target <= 10 min);
2. per-notebook time of `attnlab-course grade --jobs 1` against plain `nbgrader autograde` on
   the same N correct submissions (target: ratio <= 1.5);
3. `--jobs 2` against `--jobs 1` on the same N submissions (target: speed-up >= 1.6);
4. the cost of the bubblewrap boundary per submission: `--jobs 1` under bubblewrap against the
   same run with `ATTNLAB_ISOLATION=guard` (where bubblewrap is available);
5. the cost of the writable-space cap per submission: `--jobs 1` with each job folder on its own
   sized tmpfs (boundary.WritableSpace, where the grader is root and may mount) against the same
   run with `ATTNLAB_BENCH_NO_SPACE_CAP=1` (job folders on disk; a benchmark-only switch read from
   the grader's own environment);
6. the cost of the grader's static borrowing/tampering checks per submission
   (read_stage.static_findings, timed in this process on each submission's notebook). The per-call
   checks inside the sandbox (the tripwires that catch a library's answer at call time) have no
   switch and are part of every configuration's time.

Each of our configurations grades a fresh copy of the same course REPEAT times, alternating, and
the fastest of its runs counts (other load on a shared machine only ever adds time); every run's
time is printed.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import adversarial as adv  # noqa: E402
import coursekit as ck  # noqa: E402


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _course(tmp: Path, name: str, assignment: str, n: int) -> Path:
    course = ck.make_course(tmp / name)
    for i in range(n):
        ck.submit(course, f"s{i:02d}", assignment, ck.completed_student_notebook(assignment))
    proc = ck.course_command(course, "release", assignment)
    assert proc.returncode == 0, proc.stderr
    return course


def _grade(course: Path, *args: str, env: dict | None = None) -> None:
    proc = ck.course_command(course, "grade", "--no-feedback", *args, env=env)
    if proc.returncode != 0:
        raise SystemExit(proc.stdout + proc.stderr)


def _plain_nbgrader(course: Path, assignment: str) -> None:
    env = dict(os.environ, ATTNLAB_COURSE_ROOT=str(course),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", assignment, "--force",
                           "--log-level=ERROR"], cwd=course / "autograde", env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(proc.stdout + proc.stderr)


def _static_checks(course: Path, assignment: str, repeat: int = 5) -> tuple[float, int]:
    """Seconds the grader's static checks take on every submission of ``course`` (fastest of
    ``repeat`` passes), and how many notebooks that was."""
    import json

    from attnlab.course import grading
    from attnlab.course.stages import read as read_stage
    from attnlab.course.plan import plan_assignment

    plan = plan_assignment(course, assignment)
    paths = [s / assignment / f"{assignment}.ipynb" for s in sorted((course / "autograde" / "submitted").iterdir())]
    notebooks = [json.loads(p.read_text(encoding="utf-8")) for p in paths if p.is_file()]
    best = min(_timed(lambda: [read_stage.static_findings(plan, nb) for nb in notebooks]) for _ in range(repeat))
    return best, len(notebooks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignment", default=adv.ASSIGNMENT)
    parser.add_argument("--n", type=int, default=10, help="correct submissions (default: 10)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each of our configurations; the fastest counts (default: 3)")
    parser.add_argument("--skip-corpus", action="store_true",
                        help="leave out part 1 (the adversarial corpus), for a quick look at the ratios")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # 1. the corpus
        if args.skip_corpus:
            print("corpus: skipped (--skip-corpus)")
        else:
            course = ck.make_course(tmp / "corpus")
            ck.course_command(course, "release", adv.ASSIGNMENT)
            adv.set_duedate(course, adv.ASSIGNMENT, "2026-01-01 00:00:00 UTC")
            corpus = adv.build_corpus(course, correct=args.n)
            seconds = _timed(lambda: _grade(course, "--jobs", "2", "--cell-timeout", "10"))
            flag = "ok" if seconds <= 600 else "SLOW"
            ok &= seconds <= 600
            print(f"corpus: {len(corpus) - args.n} attacks + {args.n} correct, --jobs 2: {seconds:.1f} s "
                  f"(target <= 600 s) {flag}")

        # 2. overhead against plain nbgrader, 3. --jobs scaling, 4. the boundary
        template = _course(tmp, "template", args.assignment, args.n)
        copies = iter(range(10_000))

        def fresh() -> Path:
            course = tmp / f"copy{next(copies)}" / "course"
            shutil.copytree(template, course, symlinks=True)
            return course

        from attnlab.course import boundary

        isolated = boundary.probe().isolated
        (tmp / "space-probe").mkdir()
        space = boundary.WritableSpace(tmp / "space-probe", 2**20, 64)
        capped, why_uncapped = space.mounted, space.why
        space.close()
        configs = {"--jobs 1": (["--jobs", "1"], None), "--jobs 2": (["--jobs", "2"], None)}
        if isolated:
            configs["--jobs 1, guard"] = (["--jobs", "1"], {"ATTNLAB_ISOLATION": "guard"})
        if capped:
            configs["--jobs 1, no space cap"] = (["--jobs", "1"], {boundary.NO_SPACE_CAP_ENV: "1"})
        runs: dict[str, list[float]] = {name: [] for name in configs}
        plain = fresh()
        t_plain = _timed(lambda: _plain_nbgrader(plain, args.assignment))
        for _ in range(max(1, args.repeat)):
            for name, (flags, env) in configs.items():
                course = fresh()
                runs[name].append(_timed(lambda: _grade(course, *flags, env=env)))
        best = {name: min(times) for name, times in runs.items()}
        t_one, t_two = best["--jobs 1"], best["--jobs 2"]
        ratio, speedup = t_one / t_plain, t_one / t_two
        ok &= ratio <= 1.5 and speedup >= 1.6

        def each(name: str) -> str:
            return ", ".join(f"{t:.1f}" for t in runs[name])

        print(f"{args.assignment}, {args.n} correct submissions (fastest of {args.repeat} runs each):")
        print(f"  plain nbgrader autograde : {t_plain:7.1f} s  ({t_plain / args.n:.2f} s per notebook)")
        print(f"  attnlab-course --jobs 1  : {t_one:7.1f} s  ({t_one / args.n:.2f} s per notebook; runs: {each('--jobs 1')} s)")
        print(f"  attnlab-course --jobs 2  : {t_two:7.1f} s  (runs: {each('--jobs 2')} s)")
        print(f"  overhead ratio (ours / nbgrader): {ratio:.2f}  (target <= 1.5) {'ok' if ratio <= 1.5 else 'MISSED'}")
        print(f"  speed-up --jobs 2 / --jobs 1:    {speedup:.2f}  (target >= 1.6) {'ok' if speedup >= 1.6 else 'MISSED'}")
        if isolated:
            t_guard = best["--jobs 1, guard"]
            print(f"  attnlab-course --jobs 1, no bubblewrap (ATTNLAB_ISOLATION=guard): {t_guard:7.1f} s "
                  f"(runs: {each('--jobs 1, guard')} s)")
            print(f"  cost of the bubblewrap boundary: {(t_one - t_guard) / args.n * 1000:+.0f} ms per submission "
                  f"({t_one / t_guard:.2f}x)")
        else:
            print(f"  bubblewrap not available here ({boundary.probe().why}): no boundary cost measured")
        if capped:
            t_nocap = best["--jobs 1, no space cap"]
            print(f"  attnlab-course --jobs 1, job folders on disk ({boundary.NO_SPACE_CAP_ENV}=1): {t_nocap:7.1f} s "
                  f"(runs: {each('--jobs 1, no space cap')} s)")
            print(f"  cost of the writable-space cap (tmpfs per job): {(t_one - t_nocap) / args.n * 1000:+.0f} ms "
                  f"per submission ({t_one / t_nocap:.2f}x)")
        else:
            print(f"  writable-space cap not mounted here ({why_uncapped}): no cap cost measured")
        t_static, n_static = _static_checks(template, args.assignment)
        print(f"  static borrowing/tampering checks: {t_static / max(n_static, 1) * 1000:.1f} ms per submission "
              f"({n_static} notebooks; {t_static / max(n_static, 1) / (t_one / args.n) * 100:.2f}% of --jobs 1's "
              "time per notebook)")
        print("  per-call borrowing checks in the sandbox: no switch, included in every figure above")
        print(f"  (cores: {os.cpu_count()})")
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
