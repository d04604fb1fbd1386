"""PrairieLearn: ``attnlab-course export-prairielearn ASSIGNMENT --output DIR``.

``DIR`` is a PrairieLearn question (https://prairielearn.readthedocs.io, "External grading"):

* ``info.json``: ``"gradingMethod": "External"`` and ``externalGradingOptions`` (the grader
  image, the entrypoint ``/grade/tests/run_grader``, the timeout);
* ``question.html``: a ``pl-file-upload`` of ``<assignment>.ipynb`` (and, optionally, the modules
  and data files it reads: ``OPTIONAL_FILES``) and the grader's results;
* ``tests/``: ``run_grader`` (the entrypoint) and ``course/``, the one-assignment course
  (solutions, hidden tests, the course secret); PrairieLearn copies it to ``/grade/tests`` in the
  grading container and never shows it to students;
* ``grader-image/``: the ``Dockerfile`` of the grader image (the course's pinned requirements and
  attnlab, installed as ``make bootstrap`` does) with its build context; build it, push it where
  PrairieLearn pulls images from, and name it with ``--image`` (grading jobs have no network, so
  the image must hold everything). Move this folder out of the question if you like.

The grader (``python -m attnlab.course.prairielearn run``) grades ``/grade/student/<assignment>.ipynb``
with the course's own grading (:mod:`attnlab.course.hosted`) and writes
``/grade/results/results.json``: ``score`` in [0, 1], ``message``, and one test per grade cell
(``name``, ``description``, ``points``, ``max_points``, ``message``, ``output``). A notebook that
could not be graded at all (missing, malformed) is ``"gradable": false`` with ``format_errors``:
no attempt is used up. PrairieLearn shows results at once; a grade cell that runs hidden tests
says so, and its message never shows a hidden test's values. ``ATTNLAB_PRAIRIELEARN_ROOT``
replaces ``/grade`` (tests). The grader runs as root; before any learner code runs it makes
``tests/``, ``student/``, ``data/`` and ``results/`` root's alone, and, where bubblewrap cannot run,
the learner's code runs as a user of its own (:mod:`attnlab.course.hosted`).
"""
from __future__ import annotations

import html
import json
import sys
import traceback
import uuid
from pathlib import Path

from . import hosted

ROOT_ENV = "ATTNLAB_PRAIRIELEARN_ROOT"
DEFAULT_ROOT = "/grade"
DEFAULT_IMAGE = "attnlab-grader:latest"
IMAGE_VENV = "/opt/attnlab-venv"
MAX_TIMEOUT = 600  # PrairieLearn's limit on a grading job
# What may be uploaded beside the notebook (pl-file-upload's optional-file-patterns): a helper
# module, a data file; graded with it as `attnlab-course grade` grades a submission's folder.
OPTIONAL_FILES = "*.py,*.txt,*.csv,*.json,*.npy,*.npz"

RUN_GRADER = """\
#!/bin/sh
# PrairieLearn's entrypoint (externalGradingOptions.entrypoint): grade /grade/student with the attnlab
# course's own grading and write /grade/results/results.json (attnlab.course.prairielearn).
ROOT="${{ATTNLAB_PRAIRIELEARN_ROOT:-/grade}}"
PYTHON="${{ATTNLAB_PYTHON:-{venv}/bin/python}}"
cd "$ROOT" || exit 1
"$PYTHON" -I -m attnlab.course.prairielearn run --root "$ROOT"
status=$?
if [ ! -s "$ROOT/results/results.json" ]; then
  mkdir -p "$ROOT/results"
  printf '%s\\n' '{{"gradable": false, "format_errors": ["The grader could not start; your instructor can see why in the job log."]}}' > "$ROOT/results/results.json"
fi
exit $status
"""

DOCKERFILE = """\
# The grader image for the attnlab course's PrairieLearn questions:
#   docker build -t {image} grader-image/ && docker push {image}
# Python and bubblewrap (the learner's code runs in its own namespaces where the container allows
# it; otherwise results say "not isolated" and it runs as a user of its own, which cannot read the
# course nor write the results), then the course's pinned requirements and attnlab, as
# `make bootstrap` installs them.
FROM python:3.12-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \\
    && rm -rf /var/lib/apt/lists/*
COPY {package}/ /opt/attnlab/
RUN python -m venv {venv} && {venv}/bin/python /opt/attnlab/tools/install.py {venv}/bin/python
ENV PATH={venv}/bin:$PATH
"""

QUESTION_HTML = """\
<pl-question-panel>
  <p>
    Upload your completed notebook <code>{notebook}</code> (the attnlab course's
    <em>{assignment}</em>). It is graded by the course's own checks: each check cell of your
    notebook, plus hidden tests on inputs you never see. A module or a data file your notebook
    reads may be uploaded with it: it is graded with the notebook, as in the course's own grading.
  </p>
  <pl-file-upload file-names="{notebook}" optional-file-patterns="{optional}"></pl-file-upload>
</pl-question-panel>

<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
"""

README = """\
# {assignment}: a PrairieLearn question made by `attnlab-course export-prairielearn`

1. Build and push the grader image: `docker build -t {image} grader-image/ && docker push {image}`
   (or re-export with `--image` naming where you push it). Grading jobs have no network.
2. Copy this folder into your course's `questions/` (without `grader-image/` if you like).
3. `tests/course/autograde/course_secret` holds the course secret, from which the hidden tests'
   inputs derive: keep the question in a private course repository.
"""


def export(root: Path, assignment: str, output: Path, image: str = DEFAULT_IMAGE,
           timeout: int = MAX_TIMEOUT) -> Path:
    """Write the PrairieLearn question for ``assignment`` to the folder ``output``."""
    if not 1 <= timeout <= MAX_TIMEOUT:
        raise SystemExit(f"error: --timeout: expected 1 to {MAX_TIMEOUT} seconds (PrairieLearn's limit), got {timeout}")
    output = output.resolve()
    if output.exists() and any(output.iterdir()):
        raise SystemExit(f"error: {output} is not empty: export into a new folder")
    notebook = f"{assignment}.ipynb"
    tests = output / "tests"
    hosted.write_course(root, assignment, tests / hosted.COURSE, {"engine": "prairielearn"})
    grader = tests / "run_grader"
    grader.write_text(RUN_GRADER.format(venv=IMAGE_VENV), encoding="utf-8")
    grader.chmod(0o755)
    hosted.write_package(root, output / "grader-image" / hosted.PACKAGE)
    (output / "grader-image" / "Dockerfile").write_text(
        DOCKERFILE.format(image=image, package=hosted.PACKAGE, venv=IMAGE_VENV), encoding="utf-8")
    info = {
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"attnlab:{assignment}")),
        "title": f"attnlab {assignment}",
        "topic": "Attention",
        "tags": ["attnlab", assignment],
        "type": "v3",
        "singleVariant": True,
        "gradingMethod": "External",
        "externalGradingOptions": {
            "enabled": True,
            "image": image,
            "entrypoint": "/grade/tests/run_grader",
            "timeout": int(timeout),
        },
    }
    (output / "info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    (output / "question.html").write_text(QUESTION_HTML.format(notebook=html.escape(notebook),
                                                                            assignment=html.escape(assignment),
                                                                            optional=html.escape(OPTIONAL_FILES)),
                                          encoding="utf-8")
    (output / "README.md").write_text(README.format(assignment=assignment, image=image), encoding="utf-8")
    return output


# ---------------------------------------------------------------------------------------------
# Inside the grading container

def results_json(outcome: hosted.Outcome) -> dict:
    """PrairieLearn's results.json for one submission."""
    line, block = hosted.shown_line, hosted.shown_block  # every shown text: no control character acts
    details, notes = [line(d) for d in outcome.details], [line(n) for n in outcome.notes]
    if not outcome.gradable:
        errors = [f"{line(outcome.notebook)}: {line(outcome.status)}"] + details + notes
        if outcome.error or outcome.status == "grader error":
            errors = ["The grader failed on this submission (not because of your code, as far as it can "
                      "tell); no attempt was used. Your instructor can see why in the job log."]
        return {"gradable": False, "format_errors": [e[: hosted.OUTPUT_CHARS] for e in errors],
                "message": errors[0]}
    tests = []
    for cell in outcome.cells:
        what = f"grade cell {line(cell.grade_id)}"
        if cell.hidden:
            what += "; includes hidden tests (their inputs are not shown)"
        tests.append({
            "name": line(cell.label),
            "description": what,
            "points": cell.score,
            "max_points": cell.max_score,
            "message": "" if cell.passed else (block(cell.lines[0], limit=None) if cell.lines else "failed"),
            "output": block("\n".join(cell.lines), limit=None),  # (each line capped by grade_one)
        })
    fraction = outcome.score / outcome.max_score if outcome.max_score > 0 else 0.0
    return {
        "gradable": True,
        "score": min(1.0, max(0.0, fraction)),
        "message": f"{line(outcome.status)}: {outcome.score:g} of {outcome.max_score:g} points",
        "output": "\n".join(notes + details)[: hosted.OUTPUT_CHARS],
        "tests": tests,
    }


def run(root: Path) -> dict:
    """Grade ``ROOT/student`` with ``ROOT/tests/course``; write ``ROOT/results/results.json``."""
    hosted.prepare_process()
    results = root / "results" / "results.json"
    # before any learner code runs: the course and its grader, the upload and the results are root's
    closed = hosted.close_off([root / "tests", root / "student", root / "data", root / "results"])
    try:
        course = hosted.writable_course(root / "tests" / hosted.COURSE)
        settings = hosted.read_settings(course)
        notebook, notes = hosted.find_notebook(root / "student", settings["notebook"])
        outcome = hosted.grade_one(course, notebook, notes)
        if outcome.error:
            print(f"grader error: {hosted.shown_block(outcome.error)}", file=sys.stderr)
        print(f"{outcome.assignment}: {hosted.shown_line(outcome.status)} {outcome.score:g}/{outcome.max_score:g} "
              f"({outcome.seconds:.1f} s)")
        print(f"fence: {outcome.fence}" + (f"; not closed: {'; '.join(closed)}" if closed else ""))
        data = results_json(outcome)
    except BaseException as exc:  # noqa: BLE001 - PrairieLearn needs a results file whatever happened
        if isinstance(exc, KeyboardInterrupt):
            raise
        print(traceback.format_exc(), file=sys.stderr)
        data = {"gradable": False, "format_errors": [
            "The grader failed on this submission (not because of your code, as far as it can tell); "
            "no attempt was used. Your instructor can see why in the job log."]}
    hosted.write_json(results, data)
    return data


def main(argv: list[str] | None = None) -> int:
    return hosted.entrypoint(argv, module="prairielearn",
                             description="PrairieLearn's grader entrypoint: grade one submission.",
                             folder_help="grade ROOT/student, write ROOT/results/results.json",
                             root_env=ROOT_ENV, default_root=DEFAULT_ROOT, run=run,
                             summary=lambda data: f"gradable {data.get('gradable')}, score {data.get('score', 0):g}")


def add_export_parser(sub) -> None:
    """``attnlab-course export-prairielearn``: the subcommand sets ``args.engine_export(root, args)``."""
    p = sub.add_parser(
        "export-prairielearn", help="write a PrairieLearn question (external grader) for one assignment",
        description="Write a PrairieLearn question folder (info.json with the external grading options, "
                    "question.html, tests/ with the grader entrypoint and the course, grader-image/ with the "
                    "grader image's Dockerfile) that grades one submission with this course's own grading.")
    p.add_argument("assignment", help="assignment id, e.g. 01_weighted_averages")
    p.add_argument("--output", "-o", required=True, help="the question folder to write (new or empty)")
    p.add_argument("--image", default="attnlab-grader:latest",
                   help="the grader image PrairieLearn pulls (default: %(default)s; build it from grader-image/)")
    p.add_argument("--timeout", type=int, default=600, help="the grading job's timeout, seconds (default: %(default)s)")
    p.set_defaults(engine_export=_export_prairielearn)


def _export_prairielearn(root: Path, args) -> int:
    path = export(root, args.assignment, Path(args.output), args.image, args.timeout)
    print(f"wrote {path} (PrairieLearn question for {args.assignment}; build its grader image from "
          f"{path / 'grader-image'}; tests/ holds the solutions and the course secret)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
