"""One submission graded on a hosted autograder (Gradescope, PrairieLearn) by the course's own grading.

A hosted grader runs one submission per container. The exports (``attnlab-course
export-gradescope`` and ``export-prairielearn``) ship a *one-assignment course*: the nbgrader
configuration, that assignment's source notebook (solutions and hidden tests), its release and the
course secret, laid out as the course itself is. Inside the container, :func:`grade_one` puts the
submitted notebook where ``make grade`` expects it (``autograde/submitted/<student>/<assignment>/``)
and calls :func:`attnlab.course.grade.grade`, the code ``attnlab-course grade`` runs: the same
sandbox, statuses, gradebook and ``grades.csv``. The engine modules then turn its result into the
engine's own results file. Nothing here judges an answer.

The course folder is graded in place: it is the course root the sandbox is kept away from (and,
where bubblewrap cannot run, the one the guard refuses), so the solutions and the secret next to
the grader stay out of the learner's reach as they do in ``make grade``.

Where bubblewrap cannot run (no user namespaces: the rule on both services) the guard alone would
stand between the learner's code and the container's files, and Python code gets around it. So
the harness, which runs as root, first makes the service's private files root's alone
(:func:`close_off`: the course with its solutions, hidden tests and secret, the scripts, the
upload and the results folder, mode 0700; the folder that holds them passable but not listable)
and the sandbox starts as a user of its own (:mod:`attnlab.course.unprivileged`, switched on here
through ``ATTNLAB_SANDBOX_UID``): the kernel refuses it those files whatever it does to the guard,
and only the harness writes the results file. What the sandbox must read (the virtualenv, the
attnlab package the notebook imports, public as the course is) stays readable.

Every text a results file shows goes through :func:`shown_line` or :func:`shown_block`
(:func:`attnlab.course.escape.shown`): a file name, an id, a learner's exception text cannot
forge a line, colour or retitle the page, whatever reaches the verdicts.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from . import boundary, secret, unprivileged
from . import grade as _grade
from .escape import shown
from .plan import plan_assignment
from .release import assignments, release
from .stages.collect import copy_submission
from .stages.handoff import Limits

COURSE = "course"          # the one-assignment course inside an export
PACKAGE = "package"        # the attnlab package and its pinned requirements, to install
SETTINGS = "attnlab-hosted.json"
STUDENT = "submission"     # the one student of the one-submission course
CSV = "autograde/grades.csv"
# What the package needs to install as `make bootstrap` does (tools/install.py: CPU torch on Linux,
# then every pin of requirements.txt, then attnlab itself).
PACKAGE_FILES = ("pyproject.toml", "README.md", "requirements.txt", "tools/install.py")
OUTPUT_CHARS = 8000        # per check message in a results file (both engines cap their files)
# Statuses decided before any check runs: the notebook itself could not be graded.
NOT_RUN = ("missing notebook", "malformed notebook")
MAX_NOTEBOOKS_LISTED = 5
# Set to 1 to grade where neither bubblewrap nor a user of its own fences the learner's code
# (the in-process guard alone, which Python code can get around): off by default, a grader error.
UNFENCED_ENV = "ATTNLAB_HOSTED_UNFENCED"


def _ignore(_folder: str, names: list[str]) -> list[str]:
    return [n for n in names if n in ("__pycache__", ".ipynb_checkpoints", ".pytest_cache")
            or n.endswith((".pyc", ".pyo"))]


def write_package(root: Path, dest: Path) -> Path:
    """The attnlab package with its pins, as the course installs it (``tools/install.py``)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in PACKAGE_FILES:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / name, dest / name)
    shutil.copytree(root / "src" / "attnlab", dest / "src" / "attnlab", ignore=_ignore)
    return dest


def write_course(root: Path, assignment: str, dest: Path, settings: dict) -> Path:
    """The one-assignment course: ``autograde/nbgrader_config.py``, the course secret (so the hidden
    inputs are the instructor's), ``solutions/<assignment>/`` and ``notebooks/<assignment>/``."""
    known = assignments(root)
    if assignment not in known:
        raise SystemExit(f"error: no assignment {assignment!r} in solutions/ (have: {', '.join(known)})")
    try:
        secret.ensure(root)  # as `make release` does: the hidden inputs come from it
    except OSError:
        pass
    value = secret.read(root)
    if not value:
        raise SystemExit("error: no course secret (ATTNLAB_COURSE_SECRET or autograde/course_secret): "
                         "without one the hidden tests' inputs are public; run `make release` first")
    (dest / "autograde").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(root / "autograde" / "nbgrader_config.py", dest / "autograde" / "nbgrader_config.py")
    path = dest / "autograde" / "course_secret"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(value + "\n")
    shutil.copytree(root / "solutions" / assignment, dest / "solutions" / assignment, ignore=_ignore)
    if (root / "notebooks" / assignment).is_dir():
        shutil.copytree(root / "notebooks" / assignment, dest / "notebooks" / assignment, ignore=_ignore)
    (dest / SETTINGS).write_text(json.dumps(dict(settings, assignment=assignment,
                                                 notebook=f"{assignment}.ipynb"), indent=1) + "\n",
                                 encoding="utf-8")
    _release_into(dest, assignment)
    return dest


def _release_into(course: Path, assignment: str) -> None:
    """``make release`` in the one-assignment course, once, here: its gradebook holds the assignment's
    grade cells, so no grading job spends the seconds nbgrader's generate_assignment takes. What
    belongs to this machine (matplotlib's font list names its font files) is left out: the first
    grading run, or the image's build, makes its own."""
    release(course, [assignment])  # nbgrader runs with ATTNLAB_COURSE_ROOT=course
    for path in (course / "autograde").iterdir():
        if path.name not in ("nbgrader_config.py", "course_secret", "gradebook.db"):
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()


def shown_line(text) -> str:
    """``text`` as one line of a results file (a file name, an id, a detail): every control
    character, the line breaks too, written as a visible escape (:func:`escape.shown`)."""
    return shown(text)


def shown_block(text, limit: int | None = OUTPUT_CHARS) -> str:
    """A block of the grader's own lines (a check's message, a traceback) for a results file: its
    line breaks kept, every other control character (ANSI and OSC sequences, carriage returns,
    bidirectional overrides) a visible escape; at most ``limit`` characters (None: all)."""
    return "\n".join(shown(line) for line in str(text).split("\n"))[:limit]


def read_settings(course: Path) -> dict:
    return json.loads((course / SETTINGS).read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------
# Inside the container

def find_notebook(folder: Path, notebook: str) -> tuple[Path | None, list[str]]:
    """The submitted notebook in ``folder`` (what the service unpacked), and notes on the choice:
    ``notebook`` at the top; else the one ``notebook`` further down (an uploaded folder); else the
    only ``.ipynb`` there is, whatever its name (graded as ``notebook``). Links are never followed
    (one is handed to the course's grading as it is, which refuses it)."""
    if os.path.lexists(folder / notebook):
        return folder / notebook, []
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder):  # os.walk follows no link to a folder
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__MACOSX")
        for name in sorted(filenames):
            if name.endswith(".ipynb") and not name.startswith("."):
                found.append(Path(dirpath) / name)
        if len(found) > 100:
            break
    same = [p for p in found if p.name == notebook]
    if len(same) == 1:
        return same[0], [f"graded {same[0].relative_to(folder)}"]
    if len(found) == 1:
        return found[0], [f"graded {found[0].relative_to(folder)} as {notebook}"]
    if found:
        names = ", ".join(str(p.relative_to(folder)) for p in found[:MAX_NOTEBOOKS_LISTED])
        return None, [f"{len(found)} notebooks submitted ({names}): submit only {notebook}"]
    return None, [f"no notebook submitted: submit {notebook}"]


@dataclass
class CellOutcome:
    grade_id: str
    label: str          # the exercise and what is checked: `softmax: normalises along any axis, ...`
    score: float
    max_score: float
    passed: bool
    lines: list[str]    # the check's message (failed) or its success lines
    hidden: bool        # the grade cell also runs hidden tests


@dataclass
class Outcome:
    assignment: str
    notebook: str
    status: str
    score: float
    max_score: float
    cells: list[CellOutcome] = field(default_factory=list)
    details: list[str] = field(default_factory=list)   # the course's detail for this submission
    notes: list[str] = field(default_factory=list)     # which file was graded
    error: str = ""     # the grader itself failed: for the instructor only
    seconds: float = 0.0
    fence: str = ""     # what stood between the learner's code and the grader (for the instructor)

    @property
    def gradable(self) -> bool:
        """Whether the notebook could be graded at all (not the learner's code: the file)."""
        return not self.error and self.status not in NOT_RUN + ("grader error",)


def _fresh(course: Path) -> Path:
    """Forget what an earlier run left in ``course`` (one submission per run); the submission's folder."""
    for sub in ("autograde/submitted", "autograde/autograded", "autograde/feedback"):
        shutil.rmtree(course / sub, ignore_errors=True)
    for name in ("autograde/.grading/results.json", CSV):
        try:
            (course / name).unlink()
        except FileNotFoundError:
            pass
    return course / "autograde" / "submitted" / STUDENT


def _place(path: Path, dest: Path) -> None:
    """Copy the submitted file without following a link (a link stays a link: the course refuses it)."""
    if path.is_symlink():
        os.symlink(os.readlink(path), dest)
    else:
        shutil.copyfile(path, dest)


def grade_one(course: Path, notebook: Path | None, notes: list[str] | None = None) -> Outcome:
    """Grade ``notebook`` (None: nothing was submitted) in the one-assignment course ``course``
    with :func:`attnlab.course.grade.grade`, and return every grade cell's verdict."""
    # (imported here: feedback imports nbgrader, slow to import; only grading one needs it)
    from .feedback import cell_labels

    start = time.perf_counter()
    course = course.resolve()
    settings = read_settings(course)
    # without bubblewrap, each sandbox as a user of its own (the harness is root on both services)
    os.environ.setdefault(unprivileged.ENV, str(unprivileged.DEFAULT_BASE))
    assignment, name = settings["assignment"], settings["notebook"]
    os.environ["ATTNLAB_COURSE_ROOT"] = str(course)  # nbgrader's configuration reads it
    # nbgrader's gradebook runs `alembic` from PATH when it creates a database (as the CLI sets it)
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    folder = _fresh(course) / assignment
    folder.mkdir(parents=True)
    if notebook is not None:
        # the files uploaded beside the notebook (a helper module) come too, as `grade` takes a
        # submission's folder: copied without links (symbolic or hard), bounded (stages.collect)
        skipped = copy_submission(notebook.parent, folder, exist_ok=True)
        if os.path.lexists(folder / name):
            (folder / name).unlink()
        _place(notebook, folder / name)
        outcome_notes = [f"left out: {', '.join(skipped[:5])}"] if skipped else []
        notes = list(notes or []) + outcome_notes
    plan = plan_assignment(course, assignment)
    labels = cell_labels(plan.source)
    outcome = Outcome(assignment, name, "grader error", 0.0, plan.max_score, notes=list(notes or []))
    isolation = boundary.probe()
    outcome.fence = isolation.summary() if isolation.isolated else unprivileged.summary()
    if not isolation.isolated and not unprivileged.probe().on and os.environ.get(UNFENCED_ENV) != "1":
        # Neither bubblewrap nor a user of its own: only the in-process guard would stand between
        # the learner's code and the solutions, the secret and the results file. No score then:
        # the instructor sees why, and can allow it knowingly (UNFENCED_ENV=1).
        outcome.error = (f"the grader cannot fence the learner's code here: {outcome.fence}. Give the "
                         f"container user namespaces (bubblewrap) or run the harness as root, or set "
                         f"{UNFENCED_ENV}=1 to grade with the in-process guard alone")
        outcome.seconds = time.perf_counter() - start
        return outcome
    results = []
    try:
        results = _grade.grade(course, [assignment], csv=CSV, jobs=1, limits=Limits(),
                               students=[STUDENT], feedback=False)
    except SystemExit as exc:  # the course's grading stops with a message (it could not grade at all)
        outcome.error = str(exc.code)
    except Exception:  # noqa: BLE001 - reported in the results file, never a missing file
        outcome.error = traceback.format_exc(limit=8)
    result = next((r for r in results if r.student == STUDENT and r.assignment == assignment), None)
    if result is None and not outcome.error:
        outcome.error = "the course's grading returned no result for the submission"
    verdicts = {}
    if result is not None:
        outcome.status, outcome.score, outcome.max_score = result.status, float(result.score), float(result.max_score)
        outcome.details = [str(d) for d in result.details]
        verdicts = {v.grade_id: v for v in result.cells}
    for cell in plan.grade_cells:
        v = verdicts.get(cell.grade_id)
        hidden = any(cc.hidden for cc in cell.calls)
        if v is None:
            why = outcome.status if result is not None else "the grader failed"
            lines = [f"not graded: {why}"]
            outcome.cells.append(CellOutcome(cell.grade_id, labels.get(cell.grade_id, cell.grade_id), 0.0,
                                             cell.points, False, lines, hidden))
            continue
        lines = [str(line)[:OUTPUT_CHARS] for line in v.lines]
        outcome.cells.append(CellOutcome(cell.grade_id, labels.get(cell.grade_id, cell.grade_id), float(v.score),
                                         float(v.max_score), bool(v.passed), lines, hidden))
    outcome.seconds = time.perf_counter() - start
    return outcome


def writable_course(course: Path) -> Path:
    """``course`` itself where it can be written; else a private copy (a read-only mount). The copy
    is then the course the sandbox is kept from; the original stays out of its reach only where
    bubblewrap runs (it binds no such folder), not under the guard alone."""
    probe = course / "autograde"
    if os.access(probe, os.W_OK) and os.access(course, os.W_OK):
        return course
    copy = Path(tempfile.mkdtemp(prefix="attnlab-course-")) / COURSE
    shutil.copytree(course, copy)
    for dirpath, dirnames, filenames in os.walk(copy):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            if not os.path.islink(p):
                os.chmod(p, os.stat(p).st_mode | stat.S_IWUSR)
    return copy


def write_json(path: Path, data: dict) -> Path:
    """Write ``data`` to a new file of its own beside ``path`` and rename it into place (a reader
    never sees half a file); whatever stands at ``path`` (a folder, a link) is removed first, and
    no name another process could have prepared in advance is opened."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # O_EXCL: a fresh file
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)  # the service reads it (as root, or as another user)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        os.replace(tmp, path)  # replaces a file or a link itself, never what a link names
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def close_off(private: list[Path], passable: list[Path] = ()) -> list[str]:
    """Make the service's private files the harness's alone before any learner code runs: each
    folder or file of ``private`` loses every permission of group and others (0700, 0600: with
    its folder closed, nothing under it can be reached); each folder of ``passable`` loses their
    read and write bits but keeps ``x`` (a user passes through it to what it must read, such as
    the attnlab package, and cannot list it). Returns what could not be closed (a read-only
    mount), for the instructor's log."""
    problems = []
    for paths, keep in ((private, 0), (passable, 0o011)):
        for path in paths:
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            except OSError as exc:
                problems.append(f"{path}: {exc.strerror}")
                continue
            if stat.S_ISLNK(st.st_mode):
                continue
            try:
                os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o077 | (keep if stat.S_ISDIR(st.st_mode) else 0))
            except OSError as exc:
                problems.append(f"{path}: {exc.strerror}")
    return problems


def prepare_process() -> None:
    """What ``attnlab-course`` does before it grades (see cli.py): skip jsonschema's IRI grammars."""
    sys.modules.setdefault("rfc3987_syntax", None)


def entrypoint(argv, *, module: str, description: str, folder_help: str, root_env: str, default_root: str,
               run, summary) -> int:
    """The ``run`` command both services call (``python -m attnlab.course.<module> run``): grade
    the submission under ``--root``, write its results file and print one line ``summary(data)``."""
    parser = argparse.ArgumentParser(prog=f"python -m attnlab.course.{module}", description=description)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help=folder_help)
    r.add_argument("--root", default=os.environ.get(root_env) or default_root,
                   help=f"the service's folder (default: ${root_env} or {default_root})")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    data = run(Path(args.root))
    print(f"wrote {Path(args.root) / 'results' / 'results.json'} ({summary(data)}, "
          f"{time.perf_counter() - start:.1f} s)")
    return 0
