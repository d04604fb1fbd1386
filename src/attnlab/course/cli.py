"""``attnlab-course``: the instructor's commands (``make release`` and ``make grade`` wrap it)."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

# jsonschema (imported by nbformat and nbgrader) compiles ~40 grammars at import time when the
# optional rfc3987_syntax package is installed, to validate IRI string formats that notebooks and
# the gradebook never use: a second of CPU per run, on the critical path of every batch. Without
# it, jsonschema simply skips those formats. (Before the imports below: they may load nbformat.)
sys.modules.setdefault("rfc3987_syntax", None)

from . import grade as _grade
from . import gradescope as _gradescope
from . import lms, report, shards, warm
from . import prairielearn as _prairielearn
from . import release as _release
from .escape import shown
from .stages.handoff import Limits

DEFAULT_JOBS = 2  # the Makefile's JOBS; tests/test_course_tools.py keeps the two equal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="attnlab-course",
        description="Release student notebooks and grade submissions of the attnlab course.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("release", help="regenerate notebooks/ from solutions/ with nbgrader (timed, per notebook)")
    p.add_argument("assignments", nargs="*", help="assignment ids (default: all)")
    defaults = Limits()
    g = sub.add_parser(
        "grade", help="grade autograde/submitted/ in isolation; write grades.csv and feedback",
        description=(
            "Grade every submission in autograde/submitted/<student>/<assignment>/ in its own "
            "sandbox (no access to the gradebook, solutions or other submissions; bounded time, "
            "memory and output), judge its answers against the references in this process, merge "
            "the scores into autograde/gradebook.db, write feedback HTML to autograde/feedback/ and "
            "one row per submission with its status to grades.csv. Statuses: graded, late, timed "
            "out, out of memory, kernel died, malformed notebook, missing notebook, tampering "
            "detected, grader error (docs/grading.md says what each means)."))
    g.add_argument("assignments", nargs="*", help="assignment ids (default: all that were submitted)")
    g.add_argument("--jobs", "-j", type=int, default=DEFAULT_JOBS, help="submissions graded at once (default: %(default)s)")
    g.add_argument("--student", action="append", help="grade only this student (repeatable)")
    g.add_argument("--timeout", type=float, default=defaults.notebook_seconds,
                   help="wall-clock budget per notebook, seconds (default: %(default)s)")
    g.add_argument("--cell-timeout", type=float, default=defaults.cell_seconds,
                   help="budget per cell of the learner's code, seconds (default: %(default)s)")
    g.add_argument("--memory", type=int, default=defaults.memory_mib,
                   help="memory limit per notebook, MiB (default: %(default)s)")
    g.add_argument("--grader-memory", type=int, default=defaults.grader_mib,
                   help="the grader's own memory bound (heap), MiB (default: %(default)s)")
    g.add_argument("--csv", default="autograde/grades.csv", help="where to write the grades (default: %(default)s)")
    g.add_argument("--no-feedback", action="store_true", help="skip the feedback HTML")
    g.add_argument("--cold", action="store_true",
                   help="a fresh sandbox for every submission and memory probe, not a warm worker per job "
                        "slot (as ATTNLAB_WARM=0)")
    g.add_argument("--shard", metavar="I/N", type=_shard,
                   help=("grade only shard I of N (a fixed share of the submissions, by student and "
                         "assignment) into autograde/shards/<release>/shard-I-of-N/, for N tasks at once on "
                         "a shared course folder (Slurm, Kubernetes); then `attnlab-course merge`"))
    m = sub.add_parser(
        "merge", help="join the shards of `grade --shard I/N` into the gradebook, feedback and grades.csv",
        description=("Check that autograde/shards/ holds every shard 1..N of one batch of this release, "
                     "each complete, no submission in two, then record them in autograde/gradebook.db, "
                     "copy their autograded notebooks and feedback and write grades.csv, as one "
                     "unsharded `attnlab-course grade` does. Refuses (exit status 1) otherwise, and says why."))
    m.add_argument("--csv", default="autograde/grades.csv", help="where to write the grades (default: %(default)s)")
    x = sub.add_parser(
        "export", help="write the gradebook as an LMS's grade import CSV (Canvas, Moodle)",
        description=("One row per learner, one column per graded assignment (its score from the "
                     "gradebook, manual grades included; empty where nothing was submitted), then the "
                     "column 'attnlab status': each assignment of the row whose status is not graded "
                     "(tampering detected, timed out, late, ...), for you to decide on before importing. "
                     "Canvas: Student, ID, SIS User ID, Section, then the assignments, with Canvas's "
                     "Points Possible row. Moodle: ID number, Username, Email address, Full name, then the "
                     "assignments. Without --roster, the nbgrader student id fills the identifiers; an id "
                     "that could pass for another row (a line break, 'Points Possible') is refused."))
    x.add_argument("--format", required=True, choices=("canvas", "moodle"), help="the LMS's import format")
    x.add_argument("--output", "-o", required=True, help="the CSV to write")
    x.add_argument("--roster", help="CSV with student_id and any of name, canvas_id, sis_id, section, email, "
                                    "username, id_number: maps nbgrader ids to the LMS's identities")
    x.add_argument("--all-assignments", action="store_true",
                   help="a column for every assignment in solutions/, graded or not (default: graded ones only)")
    x.add_argument("--no-status-column", action="store_true",
                   help="leave out the 'attnlab status' column (its rows are then printed here instead)")
    x.add_argument("--no-concept-columns", action="store_true",
                   help="leave out the concept checks' columns (each learner's %% right before and after a notebook)")
    r = sub.add_parser("report", help="the class at a glance: an HTML page with charts",
                       description=("Score distributions, the share failing each check, the mistakes "
                                    "the checks named most often, the slowest submissions and every "
                                    "submission not simply graded, from the gradebook and the last "
                                    "grading runs."))
    r.add_argument("--output", "-o", help="folder for index.html and its PNGs (default: autograde/report/)")
    _gradescope.add_export_parser(sub)  # export-gradescope
    _prairielearn.add_export_parser(sub)  # export-prairielearn
    args = parser.parse_args(argv)
    # nbgrader's gradebook runs `alembic` from PATH when it creates a database.
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    root = _release.course_root()
    if getattr(args, "engine_export", None) is not None:  # export-gradescope, export-prairielearn
        return args.engine_export(root, args)
    if args.command == "release":
        def progress(line: str) -> None:  # one line per assignment as it is done, with its time
            print(line, flush=True)

        print(f"releasing {len(args.assignments) or len(_release.assignments(root))} assignment(s) "
              "(nbgrader generate_assignment, one process each)", flush=True)
        _release.release(root, args.assignments or None, progress=progress)
        return 0
    if args.command == "export":
        try:
            path, n, flagged, refused = lms.export(root, args.format, Path(args.output),
                                          Path(args.roster) if args.roster else None,
                                          all_assignments=args.all_assignments,
                                          status_column=not args.no_status_column,
                                          concept_columns=not args.no_concept_columns)
        except lms.ExportError as exc:
            raise SystemExit(f"error: {exc}") from None
        print(f"wrote {path} ({args.format}, {n} learner(s))")
        for why in refused:  # left out alone: the rest of the class is in the file
            print(f"warning: left out {shown(why)}", file=sys.stderr)
        if flagged:  # never imported silently: a 0 for tampering reads like a 0 for a blank notebook
            where = "its last column, 'attnlab status'" if not args.no_status_column else "(no status column written)"
            print(f"note: {len(flagged)} submission(s) with a status other than graded, {where}; decide on "
                  "them before importing", file=sys.stderr)
            if args.no_status_column:
                for student, assignment, status in flagged:
                    print(f"  {shown(student)!r} {shown(assignment)}: {shown(status)}", file=sys.stderr)
        return 0
    if args.command == "report":
        print(f"wrote {report.write_report(root, Path(args.output) if args.output else None)}")
        return 0
    if args.command == "merge":
        try:
            out = _grade.merge_shards(root, csv=args.csv)
        except shards.ShardError as exc:
            raise SystemExit(f"error: cannot merge: {exc}") from None
        print(f"wrote {_grade._rel(out, root)}, feedback in autograde/feedback/")
        return 0
    if args.jobs < 1:
        parser.error(f"--jobs: expected a positive number, got {args.jobs}")
    if args.memory < 64:
        parser.error(f"--memory: expected at least 64 (MiB), got {args.memory}")
    if args.grader_memory < 512:
        parser.error(f"--grader-memory: expected at least 512 (MiB), got {args.grader_memory}")
    if args.cold:
        os.environ[warm.ENV] = "0"
    limits = Limits(notebook_seconds=args.timeout, cell_seconds=min(args.cell_timeout, args.timeout),
                    memory_mib=args.memory, grader_mib=args.grader_memory)
    _grade.grade(root, args.assignments or None, csv=args.csv, jobs=args.jobs, limits=limits,
                 students=args.student, feedback=not args.no_feedback, shard=args.shard)
    return 0


def _shard(text: str):
    try:
        return shards.parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run() -> int:
    """The console script: ``main``, then a quick exit. Python's last garbage collections at
    exit walk every object nbgrader and its dependencies created (most of a second on a 2-core
    machine, after the batch is done); frozen objects are skipped by them, and are still
    finalised as usual (files closed, buffers flushed)."""
    try:
        return main()
    finally:
        import gc

        gc.freeze()


if __name__ == "__main__":
    sys.exit(run())
