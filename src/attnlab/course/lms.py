"""``attnlab-course export``: the gradebook as the CSV an LMS's gradebook imports (Canvas, Moodle).

One row per learner, one column per assignment in ``solutions/`` (the assignment's score: the
sum of its notebooks' scores, manual grades and late penalties included, as in ``grades.csv``;
empty where the learner submitted nothing). An optional roster maps nbgrader's student ids to
the LMS's identities; without one, the student id fills the identifier columns.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

from .records import csv_cell, gradebook_rows

FORMATS = ("canvas", "moodle")

# roster column (lower case) -> what it holds; `student_id` is the nbgrader id and is required
ROSTER_COLUMNS = ("student_id", "name", "canvas_id", "sis_id", "section", "email", "username", "id_number")

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "Section"]
MOODLE_IDENTITY = ["ID number", "Username", "Email address", "Full name"]


class ExportError(ValueError):
    """Bad input to an export: the message names what was wrong."""


def read_roster(path: Path) -> dict[str, dict[str, str]]:
    """``{student_id: {column: value}}`` from a roster CSV (header names are matched without
    case or surrounding spaces; a spreadsheet's byte-order mark is ignored)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ExportError(f"roster {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExportError(f"roster {path}: cannot be read ({exc})") from None
    reader = csv.DictReader(text.splitlines())
    header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    if "student_id" not in header:
        raise ExportError(f"roster {path}: no student_id column (its columns: {', '.join(header) or 'none'}); "
                          f"expected student_id plus any of {', '.join(ROSTER_COLUMNS[1:])}")
    roster: dict[str, dict[str, str]] = {}
    for line, raw in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items() if isinstance(v, str)}
        sid = row.get("student_id", "")
        if not sid:
            continue
        if sid in roster:
            raise ExportError(f"roster {path}: student_id {sid!r} appears twice (again on line {line})")
        roster[sid] = row
    return roster


def max_points(root: Path, assignment: str) -> float:
    """The points of an assignment's grade cells, from its source notebooks in ``solutions/``."""
    total = 0.0
    for path in sorted((root / "solutions" / assignment).glob("*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        for cell in cells:
            meta = cell.get("metadata", {}).get("nbgrader", {}) or {}
            if meta.get("grade"):
                total += float(meta.get("points") or 0.0)
    return total


def class_scores(root: Path, db_path: Path) -> tuple[list[str], dict[str, dict[str, float]], dict[str, float], list[str]]:
    """``(assignments, {student: {assignment: score}}, {assignment: max}, students)`` from the
    gradebook: every assignment in ``solutions/``, every student the gradebook knows."""
    from nbgrader.api import Gradebook

    from .release import assignments as course_assignments

    if not db_path.is_file():
        raise ExportError(f"no gradebook at {db_path}: grade the submissions first (make grade)")
    names = course_assignments(root)
    with Gradebook("sqlite:///" + str(db_path)) as gb:
        rows, _ = gradebook_rows(gb, root)
        students = sorted(s.id for s in gb.students)
        maxima = {a.name: float(a.max_score) for a in gb.assignments if a.notebooks}
    scores: dict[str, dict[str, float]] = {}
    for row in rows:
        if row["assignment"] not in names:
            continue
        per = scores.setdefault(row["student_id"], {})
        per[row["assignment"]] = per.get(row["assignment"], 0.0) + float(row["score"] or 0.0)
    for name in names:
        if not maxima.get(name):
            maxima[name] = max_points(root, name)
    students = sorted(set(students) | set(scores))
    return names, scores, maxima, students


def _number(x: float | None) -> str:
    if x is None:
        return ""
    return f"{round(float(x), 4):g}"


def export(root: Path, fmt: str, output: Path, roster_path: Path | None = None,
           db_path: Path | None = None) -> tuple[Path, int]:
    """Write ``output`` in the LMS's import format; return it and the number of learners."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    roster = read_roster(roster_path) if roster_path else {}
    names, scores, maxima, students = class_scores(root, db_path or root / "autograde" / "gradebook.db")
    # a learner on the roster who has not submitted yet gets a row too (empty scores)
    learners = students + sorted(set(roster) - set(students))
    if fmt == "canvas":
        header = CANVAS_IDENTITY + names
        # Canvas's own export has this row, and its import reads it for new assignments' points
        rows = [["    Points Possible", "", "", ""] + [_number(maxima.get(n)) for n in names]]
    else:
        header = MOODLE_IDENTITY + names
        rows = []
    for sid in learners:
        who = roster.get(sid, {})
        if fmt == "canvas":
            ident = [who.get("name") or sid, who.get("canvas_id", ""), who.get("sis_id") or sid, who.get("section", "")]
        else:
            ident = [who.get("id_number") or who.get("sis_id") or sid, who.get("username") or sid,
                     who.get("email", ""), who.get("name") or sid]
        mine = scores.get(sid, {})
        rows.append(ident + [_number(mine[n]) if n in mine else "" for n in names])
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8", errors="backslashreplace") as fh:
        writer = csv.writer(fh)
        writer.writerow([csv_cell(h) for h in header])
        for row in rows:
            writer.writerow([csv_cell(v) for v in row])
    tmp.replace(output)
    return output, len(learners)
