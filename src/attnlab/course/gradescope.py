"""Gradescope: ``attnlab-course export-gradescope ASSIGNMENT --output FILE.zip``.

The zip is a Gradescope autograder (https://gradescope-autograders.readthedocs.io/en/latest/specs/):

* ``setup.sh`` (run once when Gradescope builds the image, on its Ubuntu base): Python, bubblewrap,
  a virtualenv with the course's pinned requirements and the attnlab package from ``package/``
  (``tools/install.py``, as ``make bootstrap``), then ``attnlab-course release`` in ``course/``
  (the gradebook and matplotlib's font list, once);
* ``run_autograder`` (run per submission): ``python -m attnlab.course.gradescope run``, which grades
  the notebook found in ``/autograder/submission`` with the course's own grading
  (:mod:`attnlab.course.hosted`) and writes ``/autograder/results/results.json``;
* ``course/``: the one-assignment course (solutions, hidden tests, the course secret);
* ``package/``: attnlab and ``requirements.txt``.

``results.json``: the score, and one test per grade cell (``name`` is the exercise and what is
checked, ``score``/``max_score`` the cell's points, ``output`` the check's message). A grade cell
that runs hidden tests is shown when the grades are published (``after_published``, or
``after_due_date`` with ``--hidden-visibility``), since its score says how the hidden tests went;
the learner sees at once only which file was graded (and why none could be). Check messages never
show a hidden test's values (the checks print values for visible cases only), and the grader's
own stdout is for the instructor. ``ATTNLAB_GRADESCOPE_ROOT`` replaces ``/autograder`` (tests).
"""
from __future__ import annotations

import sys
import tempfile
import traceback
import zipfile
from pathlib import Path

from . import hosted

ROOT_ENV = "ATTNLAB_GRADESCOPE_ROOT"
DEFAULT_ROOT = "/autograder"
VENV = "attnlab-venv"  # under the root: /autograder/attnlab-venv
HIDDEN_VISIBILITIES = ("after_published", "after_due_date")
WHEN = {"after_published": "when your instructor publishes the grades",
        "after_due_date": "after the due date"}

SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (its Ubuntu base).
# It installs the attnlab course: its pinned requirements and the attnlab package in package/,
# the way `make bootstrap` does (package/tools/install.py, package/requirements.txt).
set -euo pipefail
ROOT="${{ATTNLAB_GRADESCOPE_ROOT:-/autograder}}"
SOURCE="$ROOT/source"
VENV="$ROOT/{venv}"
export DEBIAN_FRONTEND=noninteractive
apt-get update
# python3-venv: the virtualenv; bubblewrap: the learner's code runs in its own namespaces where the
# container allows them (otherwise, results say "not isolated", it runs as a user of its own that
# cannot read the course nor write the results: attnlab.course.hosted)
apt-get install -y --no-install-recommends python3 python3-venv python3-pip bubblewrap ca-certificates
python3 -m venv "$VENV"
"$VENV/bin/python" "$SOURCE/{package}/tools/install.py" "$VENV/bin/python"
# The gradebook, the student notebook and matplotlib's font list, built once into the image.
cd "$SOURCE/{course}"
ATTNLAB_COURSE_ROOT="$SOURCE/{course}" "$VENV/bin/attnlab-course" release {assignment}
"""

RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission: grade /autograder/submission with the attnlab course's
# own grading and write /autograder/results/results.json (attnlab.course.gradescope).
set -uo pipefail
ROOT="${{ATTNLAB_GRADESCOPE_ROOT:-/autograder}}"
PYTHON="${{ATTNLAB_PYTHON:-$ROOT/{venv}/bin/python}}"
cd "$ROOT"
"$PYTHON" -I -m attnlab.course.gradescope run --root "$ROOT"
status=$?
if [ ! -s "$ROOT/results/results.json" ]; then
  mkdir -p "$ROOT/results"
  printf '%s\\n' '{{"score": 0, "output": "The autograder could not start; your instructor has been told why (its log).", "stdout_visibility": "hidden", "tests": []}}' > "$ROOT/results/results.json"
fi
exit $status
"""


def export(root: Path, assignment: str, output: Path, hidden_visibility: str = "after_published") -> Path:
    """Write the Gradescope autograder zip for ``assignment`` to ``output``."""
    if hidden_visibility not in HIDDEN_VISIBILITIES:
        raise SystemExit(f"error: --hidden-visibility: expected one of {', '.join(HIDDEN_VISIBILITIES)}, "
                         f"got {hidden_visibility!r}")
    output = output.resolve()
    with tempfile.TemporaryDirectory(prefix="attnlab-gradescope-") as tmp:
        stage = Path(tmp)
        hosted.write_course(root, assignment, stage / hosted.COURSE,
                            {"engine": "gradescope", "hidden_visibility": hidden_visibility})
        hosted.write_package(root, stage / hosted.PACKAGE)
        fmt = {"venv": VENV, "package": hosted.PACKAGE, "course": hosted.COURSE, "assignment": assignment}
        (stage / "setup.sh").write_text(SETUP_SH.format(**fmt), encoding="utf-8")
        (stage / "run_autograder").write_text(RUN_AUTOGRADER.format(**fmt), encoding="utf-8")
        output.parent.mkdir(parents=True, exist_ok=True)
        tmp_zip = output.with_name(output.name + ".tmp")
        with zipfile.ZipFile(tmp_zip, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(p for p in stage.rglob("*") if p.is_file()):
                rel = path.relative_to(stage).as_posix()
                info = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
                mode = 0o755 if rel in ("setup.sh", "run_autograder") else (
                    0o600 if rel.endswith("course_secret") else 0o644)
                info.external_attr = (0o100000 | mode) << 16  # a regular file with these permissions
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, path.read_bytes())
        tmp_zip.replace(output)
    return output


# ---------------------------------------------------------------------------------------------
# Inside Gradescope's container

def results_json(outcome: hosted.Outcome, hidden_visibility: str = "after_published") -> dict:
    """Gradescope's results.json for one graded submission."""
    when = WHEN.get(hidden_visibility, "later")
    line, block = hosted.shown_line, hosted.shown_block  # every shown text: no control character acts
    tests = []
    for i, cell in enumerate(outcome.cells, start=1):
        tests.append({
            "name": line(cell.label),
            "number": str(i),
            "score": cell.score,
            "max_score": cell.max_score,
            "status": "passed" if cell.passed else "failed",
            "output": block("\n".join(cell.lines), limit=None),  # (each line capped by grade_one)
            "visibility": hidden_visibility if cell.hidden else "visible",
            "extra_data": {"grade_id": line(cell.grade_id), "hidden_tests": cell.hidden},
        })
    details, notes = [line(d) for d in outcome.details], [line(n) for n in outcome.notes]
    status_lines = [f"status: {line(outcome.status)}"] + [f"- {d}" for d in details]
    tests.append({
        "name": "Grading status", "score": 0.0, "max_score": 0.0,
        "status": "passed" if outcome.status == "graded" else "failed",
        "output": "\n".join(status_lines)[: hosted.OUTPUT_CHARS],
        "visibility": hidden_visibility,
    })
    if outcome.status in hosted.NOT_RUN:  # decided before any check ran: the learner sees it at once
        summary = [f"{line(outcome.notebook)}: {line(outcome.status)}: score 0."] + details + notes
    else:
        summary = notes + [
            f"{line(outcome.notebook)} was graded: {len(outcome.cells)} check cells, {outcome.max_score:g} points.",
            f"Every check's verdict and your score appear here {when}: the check cells also run hidden "
            "tests, on inputs you never see. The visible checks are the check cells of your notebook: "
            "run them there."]
    return {
        "score": outcome.score,
        "execution_time": int(round(outcome.seconds)),
        "output": "\n".join(summary)[: hosted.OUTPUT_CHARS],
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def error_json(why: str) -> dict:
    """The results of a run whose grader failed: the learner is told to wait, the instructor why."""
    return {
        "score": 0.0,
        "output": "The autograder failed on this submission (not because of your code, as far as it "
                  "can tell); your instructor sees why and can run it again.",
        "stdout_visibility": "hidden",
        "tests": [{"name": "Autograder error", "score": 0.0, "max_score": 0.0, "status": "failed",
                   "output": hosted.shown_block(why), "visibility": "hidden"}],
    }


def run(root: Path) -> dict:
    """Grade ``ROOT/submission`` with ``ROOT/source/course``; write ``ROOT/results/results.json``."""
    hosted.prepare_process()
    results = root / "results" / "results.json"
    # before any learner code runs: the course, the scripts, the upload and the results are root's
    closed = hosted.close_off([root / "source" / hosted.COURSE, root / "source" / "setup.sh",
                               root / "source" / "run_autograder", root / "run_autograder",
                               root / "submission", root / "submission_metadata.json", root / "results"],
                              passable=[root / "source"])
    try:
        course = hosted.writable_course(root / "source" / hosted.COURSE)
        settings = hosted.read_settings(course)
        notebook, notes = hosted.find_notebook(root / "submission", settings["notebook"])
        outcome = hosted.grade_one(course, notebook, notes)
        data = error_json(outcome.error) if outcome.error else results_json(
            outcome, settings.get("hidden_visibility", "after_published"))
        print(f"{outcome.assignment}: {hosted.shown_line(outcome.status)} {outcome.score:g}/{outcome.max_score:g} "
              f"({outcome.seconds:.1f} s)" + (f"; error: {hosted.shown_block(outcome.error)}" if outcome.error else ""))
        print(f"fence: {outcome.fence}" + (f"; not closed: {'; '.join(closed)}" if closed else ""))
        for line in outcome.details:
            print(f"  {hosted.shown_line(line)}")
    except BaseException as exc:  # noqa: BLE001 - Gradescope needs a results file whatever happened
        if isinstance(exc, KeyboardInterrupt):
            raise
        data = error_json(traceback.format_exc(limit=8))
        print(traceback.format_exc(), file=sys.stderr)
    hosted.write_json(results, data)
    return data


def main(argv: list[str] | None = None) -> int:
    return hosted.entrypoint(argv, module="gradescope", description="Gradescope's run_autograder: grade one submission.",
                             folder_help="grade ROOT/submission, write ROOT/results/results.json",
                             root_env=ROOT_ENV, default_root=DEFAULT_ROOT, run=run,
                             summary=lambda data: f"score {data.get('score', 0):g}")


def add_export_parser(sub) -> None:
    """``attnlab-course export-gradescope``: the subcommand sets ``args.engine_export(root, args)``."""
    g = sub.add_parser(
        "export-gradescope", help="write a Gradescope autograder zip for one assignment",
        description="Write a Gradescope autograder (setup.sh, run_autograder, the course and the attnlab "
                    "package) that grades one submission with this course's own grading and reports each "
                    "grade cell as a test in results.json. The zip holds the solutions and the course secret: "
                    "upload it to Gradescope only.")
    g.add_argument("assignment", help="assignment id, e.g. 01_weighted_averages")
    g.add_argument("--output", "-o", required=True, help="the zip to write")
    g.add_argument("--hidden-visibility", default="after_published", choices=("after_published", "after_due_date"),
                   help="when learners see the tests of grade cells that run hidden tests (default: %(default)s)")
    g.set_defaults(engine_export=_export_gradescope)


def _export_gradescope(root: Path, args) -> int:
    path = export(root, args.assignment, Path(args.output), args.hidden_visibility)
    print(f"wrote {path} (Gradescope autograder for {args.assignment}; it holds the solutions and the course "
          "secret: upload it to Gradescope only)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
