"""Writing grading results where instructors and learners read them: the nbgrader gradebook,
the autograded notebooks, the feedback HTML and ``grades.csv``."""
from __future__ import annotations

import copy
import csv
import html
import json
import re
from pathlib import Path

from .escape import shown
from .stages.handoff import Result
from .stages.read import parse_utc
from .nbtext import canonical
from .safehtml import safe_markdown_cell, safe_outputs

# Then one column per grade cell, named by its grade id, with its score (manual if given).
CSV_FIELDS = ["student_id", "assignment", "notebook", "status", "score", "max_score", "needs_manual_grade",
              "timestamp", "detail"]


def _nbg(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def autograded_notebook(result: Result, source: dict) -> dict:
    """The learner's notebook with the source's grade cells (restored if deleted or edited),
    their verdicts as outputs, and the errors of the learner's own cells."""
    submitted_outputs = _learner_outputs(result.learner_nb)
    nb = canonical(copy.deepcopy(result.learner_nb))
    for cell, submitted in zip(nb["cells"], result.learner_nb["cells"]):  # (canonical drops them)
        if cell["cell_type"] == "markdown" and isinstance(submitted, dict) and submitted.get("attachments"):
            cell["attachments"] = submitted["attachments"]
    source_cells = {_nbg(c)["grade_id"]: c for c in source["cells"] if _nbg(c).get("grade_id")}
    verdicts = {v.grade_id: v for v in result.cells}
    # restore grade and setup cells that were deleted, after the cell that precedes them in the source
    present = {_nbg(c).get("grade_id") for c in nb["cells"]}
    previous = None
    for cell in source["cells"]:
        gid = _nbg(cell).get("grade_id")
        if gid and gid not in present and (_nbg(cell).get("grade") or _nbg(cell).get("locked")) \
                and not _nbg(cell).get("solution"):
            at = next((i + 1 for i, c in enumerate(nb["cells"]) if previous and _nbg(c).get("grade_id") == previous),
                      len(nb["cells"]))
            nb["cells"].insert(at, copy.deepcopy(cell))
            present.add(gid)
        if gid:
            previous = gid
    # markdown the course wrote is shown as it is; what the learner wrote, made inert (safehtml)
    from .release import header_cell

    course_markdown = {c["source"] if isinstance(c["source"], str) else "".join(c["source"])
                       for c in source["cells"] if c.get("cell_type") == "markdown"}
    course_markdown.add(header_cell(result.assignment, result.notebook)["source"])  # the release's header
    for cell in nb["cells"]:
        gid = _nbg(cell).get("grade_id")
        if gid in source_cells and not _nbg(cell).get("solution"):
            cell["source"] = source_cells[gid]["source"]
            cell["metadata"]["nbgrader"] = copy.deepcopy(source_cells[gid]["metadata"]["nbgrader"])
        elif "nbgrader" in cell["metadata"] and gid not in source_cells:
            del cell["metadata"]["nbgrader"]  # a grade cell the course does not have: the learner's own
        if cell["cell_type"] == "markdown" and cell["source"] not in course_markdown:
            cell["source"] = safe_markdown_cell(cell["source"], cell.get("attachments"))  # images inlined
        cell.pop("attachments", None)
        if cell["cell_type"] == "code":
            # the learner's own cells keep the outputs and figures they submitted
            learners = gid not in source_cells or _nbg(source_cells[gid]).get("solution")
            cell["outputs"] = submitted_outputs.get(cell.get("id"), []) if learners else []
        verdict = verdicts.get(gid)
        if verdict is not None and not _nbg(cell).get("solution"):
            if verdict.passed:
                cell["outputs"] = [{"output_type": "stream", "name": "stdout",
                                    "text": "\n".join(verdict.lines) + ("\n" if verdict.lines else "")}]
            else:
                message = "\n".join(verdict.lines)
                cell["outputs"] = [{"output_type": "error", "ename": "CheckFailure", "evalue": message,
                                    "traceback": [f"CheckFailure: {message}"]}]
    for entry, index in zip(result.cell_log, result.cell_map):
        if index < 0 or not isinstance(entry, dict) or index >= len(nb["cells"]):
            continue
        cell = nb["cells"][index]
        if cell["cell_type"] != "code":
            continue
        text = str(entry.get("stdout") or "")
        if text and not cell["outputs"]:
            cell["outputs"].append({"output_type": "stream", "name": "stdout", "text": text[:20_000]})
        if entry.get("error"):
            error = str(entry["error"])
            cell["outputs"].append({"output_type": "error", "ename": error.split(":")[0][:60],
                                    "evalue": error[:2000], "traceback": [error[:2000]]})
    return nb


OUTPUTS_KEPT_BYTES = 5 * 2**20  # of the learner's own outputs, per notebook


def _learner_outputs(nb: dict) -> dict[str, list]:
    """``{cell id: outputs}`` of the submitted code cells, made inert and well formed
    (:func:`attnlab.course.safehtml.safe_outputs`: plain outputs, figures, cleaned HTML; no
    scripts), up to ``OUTPUTS_KEPT_BYTES`` in all; execution counts dropped."""
    kept, budget = {}, OUTPUTS_KEPT_BYTES
    for cell in nb.get("cells", []):
        outputs = cell.get("outputs") if cell.get("cell_type") == "code" else None
        if not outputs or not isinstance(outputs, list) or not cell.get("id"):
            continue
        clean = []
        for out in outputs:
            try:
                safe = safe_outputs([out])
            except Exception:  # noqa: BLE001 - a malformed output is dropped, never the feedback
                safe = []
            if not safe:
                continue
            size = len(json.dumps(safe[0]))
            if size > budget:
                break
            budget -= size
            clean.append(safe[0])
        kept[cell["id"]] = clean
    return kept


def write_autograded(root: Path, result: Result, source: dict, submitted_folder: Path,
                     base: Path | None = None) -> Path:
    """``base``: the folder for ``autograded/`` (default ``autograde/``; a shard's own folder)."""
    folder = (base or root / "autograde") / "autograded" / result.student / result.assignment
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / result.notebook
    path.write_text(json.dumps(autograded_notebook(result, source), indent=1), encoding="utf-8")
    copy_submission_files(submitted_folder, folder)
    return path


# What nbgrader's exchange puts beside a submission, and needs again to release feedback:
# `nbgrader release_feedback` reads both from feedback/<student>/<assignment>/ (nbgrader's
# generate_feedback copies them there from autograded/).
SUBMISSION_FILES = ("timestamp.txt", "submission_secret.txt")


def copy_submission_files(src: Path, dest: Path) -> None:
    """Copy the submission's timestamp and secret (small regular files only; never a link)."""
    for name in SUBMISSION_FILES:
        path = src / name
        if path.is_file() and not path.is_symlink() and path.stat().st_size <= 4096:
            dest.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes(path.read_bytes())


def record_in_gradebook(gradebook, result: Result, notebook_id: str) -> None:
    """Merge one result into the real gradebook (nbgrader's tables: scores per grade cell).

    Only automatic scores are written: a manual score given in formgrader (or with nbgrader's
    API) stays, and wins over the automatic one in ``Grade.score``, ``nbgrader export``, the
    feedback and ``grades.csv``. ``needs_manual_grade`` follows nbgrader's rule (a cell with no
    automatic score, or a manual score to review) with one refinement: a cell whose manual score
    an instructor already reviewed is flagged again only when the regrade changed its automatic
    score, so regrading an unchanged submission does not undo the review.

    ``gradebook`` is an open :class:`nbgrader.api.Gradebook` (``make grade`` keeps one open for the
    whole batch) or a database URL. On any failure the transaction is rolled back, so the next
    submission starts from a clean session.
    """
    import warnings

    from nbgrader.api import Gradebook
    from sqlalchemy.exc import SAWarning

    if isinstance(gradebook, str):
        with Gradebook(gradebook) as gb:
            record_in_gradebook(gb, result, notebook_id)
        return
    gb = gradebook
    try:
        with warnings.catch_warnings():
            # nbgrader's own submission bookkeeping triggers an autoflush warning in SQLAlchemy 2
            warnings.simplefilter("ignore", SAWarning)
            gb.update_or_create_student(result.student)
            kwargs = {"timestamp": parse_utc(result.timestamp)} if result.timestamp else {}
            gb.update_or_create_submission(result.assignment, result.student, **kwargs)
            scores = {v.grade_id: v.score for v in result.cells}
            submission = gb.find_submission_notebook(notebook_id, result.assignment, result.student)
            for grade in submission.grades:
                before = grade.auto_score
                grade.auto_score = scores.get(grade.name, 0.0)
                grade.needs_manual_grade = needs_manual_grade(grade.auto_score, grade.manual_score, before,
                                                              bool(grade.needs_manual_grade))
            # the late penalty (mark_late), where nbgrader keeps it, no more than the notebook's
            # score with any manual grades (nbgrader's AssignLatePenalties clamps it so too)
            penalty = float(getattr(result, "late_penalty", 0.0) or 0.0)
            if penalty > 0:
                score = sum(float(g.manual_score if g.manual_score is not None else g.auto_score or 0.0)
                            for g in submission.grades)
                submission.late_submission_penalty = min(penalty, max(0.0, score))
            else:
                submission.late_submission_penalty = None
            gb.db.commit()
    except BaseException:
        gb.db.rollback()
        raise


def needs_manual_grade(auto: float | None, manual: float | None, previous_auto: float | None,
                       flagged: bool) -> bool:
    """nbgrader's rule (``SaveAutoGrades``: no automatic score, or a manual score exists), except
    that a reviewed manual score is flagged again only when the automatic score changed."""
    if auto is None:
        return manual is None or flagged
    if manual is None:
        return False
    return flagged or previous_auto is None or abs(float(previous_auto) - float(auto)) > 1e-9


def status_page(result: Result) -> str:
    """A small feedback page for a submission that could not be run (missing, malformed)."""
    items = "".join(f"<li>{html.escape(d)}</li>" for d in result.details)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(result.assignment)}</title></head>"
            f"<body><h1>{html.escape(result.assignment)}: {html.escape(result.status)}</h1>"
            f"<p>Score: {result.score:g} / {result.max_score:g}</p><ul>{items}</ul></body></html>")


def write_status_feedback(root: Path, result: Result, submitted_folder: Path | None = None,
                          base: Path | None = None) -> list[Path]:
    """The status page, under the name of every notebook the learner submitted (so that
    ``nbgrader fetch_feedback``, which looks feedback up by the learner's notebook names, finds
    it), or the expected name; with the submission's timestamp and secret beside it. ``base``:
    the folder for ``feedback/`` (default ``autograde/``; a shard's own folder)."""
    folder = (base or root / "autograde") / "feedback" / result.student / result.assignment
    folder.mkdir(parents=True, exist_ok=True)
    names = {result.notebook[: -len(".ipynb")]}
    if submitted_folder is not None and submitted_folder.is_dir():
        names |= {p.stem for p in submitted_folder.glob("*.ipynb") if p.is_file()}
        copy_submission_files(submitted_folder, folder)
    page = status_page(result)
    written = []
    for name in sorted(names):
        path = folder / f"{name}.html"
        path.write_text(page, encoding="utf-8")
        written.append(path)
    return written


def _store_path(root: Path) -> Path:
    return root / "autograde" / ".grading" / "results.json"


def load_store(root: Path) -> dict[tuple[str, str], dict]:
    path = _store_path(root)
    try:
        return {(r["student_id"], r["assignment"]): r for r in json.loads(path.read_text(encoding="utf-8"))}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def store_row(r: Result) -> dict:
    """What the grading store keeps of one result."""
    row = r.row()
    row["messages"] = {v.grade_id: (v.lines[0] if v.lines else "") for v in r.cells if not v.passed}
    row["seconds"] = round(float(r.seconds or 0.0), 2)  # for `attnlab-course report`
    # where the time went (Result.stages): the report charges a warm worker's start to no one
    row["stages"] = {k: round(float(v), 3) for k, v in (r.stages or {}).items()}
    if r.concepts:  # the concept checks' answers, before and after (attnlab.course.concept_scores)
        row["concepts"] = r.concepts
    return row


def store(root: Path, results: list[Result]) -> dict[tuple[str, str], dict]:
    """Keep the latest status, detail and check messages per (student, assignment) across runs,
    in autograde/.grading/ (the scores themselves live in the gradebook)."""
    return store_rows(root, [store_row(r) for r in results])


def store_rows(root: Path, new_rows: list[dict]) -> dict[tuple[str, str], dict]:
    """:func:`store` of rows already made (:func:`store_row`; ``attnlab-course merge``)."""
    path = _store_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = load_store(root)
    for row in new_rows:
        rows[(row["student_id"], row["assignment"])] = row
    path.write_text(json.dumps(sorted(rows.values(), key=lambda r: (r["assignment"], r["student_id"])), indent=1),
                    encoding="utf-8")
    return rows


def _cell_order(root: Path | None, assignment: str, notebook: str, names: set[str]) -> list[str]:
    """Grade cell ids in the source notebook's order (sorted where the source is unavailable)."""
    order: list[str] = []
    if root is not None:
        path = root / "solutions" / assignment / f"{notebook}.ipynb"
        try:
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            order = [_nbg(c)["grade_id"] for c in cells if _nbg(c).get("grade") and _nbg(c).get("grade_id") in names]
        except (OSError, ValueError, KeyError, TypeError):
            order = []
    return order + sorted(names - set(order))


def _num(x: float | None) -> str:
    return "" if x is None else f"{float(x):g}"


def gradebook_rows(gb, root: Path | None, students: list[str] | None = None,
                   only: list[str] | None = None) -> tuple[list[dict], list[str]]:
    """One row per submitted notebook, from nbgrader's gradebook (what ``nbgrader export`` and
    formgrader see: a manual score wins over the automatic one), with the status and detail
    ``make grade`` recorded; and the per-cell column names."""
    stored = load_store(root) if root is not None else {}
    rows, columns = [], []
    for assignment in sorted(gb.assignments, key=lambda a: a.name):
        if only and assignment.name not in only:
            continue
        for nb in sorted(assignment.notebooks, key=lambda n: n.name):
            order = _cell_order(root, assignment.name, nb.name, {g.name for g in nb.grade_cells})
            columns += [c for c in order if c not in columns]
        for submission in sorted(assignment.submissions, key=lambda s: s.student_id):
            if students and submission.student_id not in students:
                continue
            saved = stored.get((submission.student_id, assignment.name), {})
            late = (submission.total_seconds_late or 0) > 0
            for nb in sorted(submission.notebooks, key=lambda n: n.name):
                status = saved.get("status") or ("late" if late else "graded")
                details = [d for d in str(saved.get("detail") or "").split("; ") if d]
                messages = saved.get("messages") or {}
                penalty = float(nb.late_submission_penalty or 0.0)  # the late penalty, as nbgrader export
                row = {"student_id": submission.student_id, "assignment": assignment.name,
                       "notebook": f"{nb.name}.ipynb", "status": status,
                       "score": _num(max(0.0, nb.score - penalty) if penalty > 0 else nb.score),
                       "max_score": _num(nb.max_score),
                       "needs_manual_grade": "yes" if nb.needs_manual_grade else "no",
                       "timestamp": saved.get("timestamp") or (
                           submission.timestamp.isoformat(sep=" ") + " UTC" if submission.timestamp else "")}
                lost, manual = [], []
                for g in sorted(nb.grades, key=lambda g: g.name):
                    row[g.name] = _num(g.score)
                    if g.manual_score is not None:
                        manual.append(f"{g.name} graded by hand: {_num(g.manual_score)}/{_num(g.max_score)}"
                                      f" (automatic {_num(g.auto_score) or 'none'})")
                    elif g.score is not None and g.max_score and g.score < g.max_score:
                        why = " ".join(str(messages.get(g.name, "")).split("\n"))  # a message's lines, one line
                        lost.append(f"{g.name} {_num(g.score)}/{_num(g.max_score)}" + (f": {why}" if why else ""))
                if status in ("graded", "late") and lost:
                    details.append("lost points: " + " | ".join(lost))
                if penalty > 0 and not any("late penalty" in d for d in details):
                    details.append(f"late penalty {_num(penalty)} point(s)")
                details += manual
                row["detail"] = "; ".join(details)
                rows.append(row)
    # A submission the batch graded but could not record in the gradebook (its recording failed)
    # still gets its row, from the store: its status and detail say what happened.
    listed = {(r["student_id"], r["assignment"]) for r in rows}
    known = {a.name for a in gb.assignments}
    for (student, assignment), saved in sorted(stored.items()):
        if (student, assignment) in listed or (students and student not in students) \
                or (only and assignment not in only) or (known and assignment not in known):
            continue
        rows.append({"student_id": student, "assignment": assignment, "notebook": saved.get("notebook", ""),
                     "status": saved.get("status", ""), "score": saved.get("score", ""),
                     "max_score": saved.get("max_score", ""), "needs_manual_grade": "no",
                     "timestamp": saved.get("timestamp", ""),
                     "detail": "not in the gradebook; " + str(saved.get("detail") or "")})
    return rows, columns


def export_csv(root: Path, db_url: str, path: Path, students: list[str] | None = None,
               only: list[str] | None = None) -> Path:
    """Write the course's CSV from the gradebook (``make grade`` and ``nbgrader export`` both do)."""
    from nbgrader.api import Gradebook

    with Gradebook(db_url) as gb:
        rows, columns = gradebook_rows(gb, root, students, only)
    write_csv(path, rows, columns)
    return path


# A cell a spreadsheet would read as a formula (Excel, LibreOffice, Google Sheets): a student id,
# a detail or an error message that starts with one of these is written with a leading quote.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")


def csv_cell(value) -> str:
    """``value`` as a CSV cell no spreadsheet runs and no terminal acts on: one line of plain
    text (:func:`attnlab.course.escape.shown`: a newline, an ANSI sequence or any other control
    character is written as a visible escape, so ``cat grades.csv`` shows one row per line and
    no id forges one); a text starting with ``=``, ``+``, ``-``, ``@`` (or their full-width
    forms) gets a leading ``'``; numbers (``-0.5``, a score) are left as they are."""
    text = shown(value)
    if text.startswith(FORMULA_START) and not _NUMBER.match(text):
        return "'" + text
    return text


def write_csv(path: Path, rows: list[dict], cell_columns: list[str]) -> None:
    """``CSV_FIELDS``, then one column per grade cell (empty where a row's notebook has no such
    cell). The file is written aside and renamed, so a reader never sees half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8", errors="backslashreplace") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_FIELDS + [c for c in cell_columns if c not in CSV_FIELDS],
                                restval="", extrasaction="ignore")
        writer.writeheader()
        for row in sorted(rows, key=lambda r: (r["assignment"], r["student_id"], r["notebook"])):
            writer.writerow({key: csv_cell(value) for key, value in row.items()})
    tmp.replace(path)


def _export_plugin_class():
    try:
        from nbgrader.plugins import ExportPlugin
    except ImportError:  # nbgrader not installed: the plugin is only loaded by `nbgrader export`
        ExportPlugin = object

    class CourseExportPlugin(ExportPlugin):
        """``nbgrader export`` writes the course's CSV (configured in autograde/nbgrader_config.py),
        so it cannot overwrite ``grades.csv`` with other columns. ``--to PATH`` writes elsewhere;
        ``--exporter=nbgrader.plugins.CsvExportPlugin`` gives nbgrader's own format."""

        def export(self, gradebook) -> None:
            root = Path(self.parent.coursedir.root) if getattr(self, "parent", None) is not None else Path.cwd()
            dest = Path(self.to) if self.to else root / "autograde" / "grades.csv"
            rows, columns = gradebook_rows(gradebook, root, [str(s) for s in self.student] or None,
                                           [str(a) for a in self.assignment] or None)
            write_csv(dest, rows, columns)
            self.log.info("Exported %d row(s) to %s", len(rows), dest)

    CourseExportPlugin.__module__ = __name__
    return CourseExportPlugin


def __getattr__(name: str):
    # The plugin class is made on first use: importing nbgrader takes a second or two, which
    # `make grade` spends while its first sandboxes already run rather than before them.
    if name == "CourseExportPlugin":
        cls = globals()["CourseExportPlugin"] = _export_plugin_class()
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
