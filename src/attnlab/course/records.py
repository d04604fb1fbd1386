"""Writing grading results where instructors and learners read them: the nbgrader gradebook,
the autograded notebooks, the feedback HTML and ``grades.csv``."""
from __future__ import annotations

import copy
import csv
import html
import json
from pathlib import Path

from .grading import Result
from .nbtext import canonical

CSV_FIELDS = ["student_id", "assignment", "notebook", "status", "score", "max_score", "timestamp", "detail"]


def _nbg(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def autograded_notebook(result: Result, source: dict) -> dict:
    """The learner's notebook with the source's grade cells (restored if deleted or edited),
    their verdicts as outputs, and the errors of the learner's own cells."""
    nb = canonical(copy.deepcopy(result.learner_nb))
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
    for cell in nb["cells"]:
        gid = _nbg(cell).get("grade_id")
        if gid in source_cells and not _nbg(cell).get("solution"):
            cell["source"] = source_cells[gid]["source"]
            cell["metadata"]["nbgrader"] = copy.deepcopy(source_cells[gid]["metadata"]["nbgrader"])
        if cell["cell_type"] == "code":
            cell["outputs"] = []
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
        if text:
            cell["outputs"].append({"output_type": "stream", "name": "stdout", "text": text[:20_000]})
        if entry.get("error"):
            error = str(entry["error"])
            cell["outputs"].append({"output_type": "error", "ename": error.split(":")[0][:60],
                                    "evalue": error[:2000], "traceback": [error[:2000]]})
    return nb


def write_autograded(root: Path, result: Result, source: dict, submitted_folder: Path) -> Path:
    folder = root / "autograde" / "autograded" / result.student / result.assignment
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / result.notebook
    path.write_text(json.dumps(autograded_notebook(result, source), indent=1), encoding="utf-8")
    stamp = submitted_folder / "timestamp.txt"
    if stamp.is_file():
        (folder / "timestamp.txt").write_bytes(stamp.read_bytes()[:200])
    return path


def record_in_gradebook(db_url: str, result: Result, notebook_id: str) -> None:
    """Merge one result into the real gradebook (nbgrader's tables: scores per grade cell)."""
    import warnings

    from nbgrader.api import Gradebook
    from sqlalchemy.exc import SAWarning

    from .grading import parse_utc

    with Gradebook(db_url) as gb, warnings.catch_warnings():
        # nbgrader's own submission bookkeeping triggers an autoflush warning in SQLAlchemy 2
        warnings.simplefilter("ignore", SAWarning)
        gb.update_or_create_student(result.student)
        kwargs = {"timestamp": parse_utc(result.timestamp)} if result.timestamp else {}
        gb.update_or_create_submission(result.assignment, result.student, **kwargs)
        scores = {v.grade_id: v.score for v in result.cells}
        submission = gb.find_submission_notebook(notebook_id, result.assignment, result.student)
        for grade in submission.grades:
            grade.auto_score = scores.get(grade.name, 0.0)
            grade.needs_manual_grade = grade.manual_score is not None
        gb.db.commit()


def status_page(result: Result) -> str:
    """A small feedback page for a submission that could not be run (missing, malformed)."""
    items = "".join(f"<li>{html.escape(d)}</li>" for d in result.details)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(result.assignment)}</title></head>"
            f"<body><h1>{html.escape(result.assignment)}: {html.escape(result.status)}</h1>"
            f"<p>Score: {result.score:g} / {result.max_score:g}</p><ul>{items}</ul></body></html>")


def write_status_feedback(root: Path, result: Result) -> None:
    folder = root / "autograde" / "feedback" / result.student / result.assignment
    folder.mkdir(parents=True, exist_ok=True)
    (folder / result.notebook.replace(".ipynb", ".html")).write_text(status_page(result), encoding="utf-8")


def store(root: Path, results: list[Result]) -> dict[tuple[str, str], dict]:
    """Keep the latest row per (student, assignment) across runs, in autograde/.grading/."""
    path = root / "autograde" / ".grading" / "results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = {}
    if path.is_file():
        try:
            rows = {(r["student_id"], r["assignment"]): r for r in json.loads(path.read_text(encoding="utf-8"))}
        except (ValueError, KeyError, TypeError):
            rows = {}
    for r in results:
        rows[(r.student, r.assignment)] = r.row()
    path.write_text(json.dumps(sorted(rows.values(), key=lambda r: (r["assignment"], r["student_id"])), indent=1),
                    encoding="utf-8")
    return rows


def write_csv(path: Path, rows: dict[tuple[str, str], dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for key in sorted(rows, key=lambda k: (k[1], k[0])):
            writer.writerow(rows[key])
