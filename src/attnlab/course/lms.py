"""``attnlab-course export``: the gradebook as the CSV an LMS's gradebook imports (Canvas, Moodle).

One row per learner, one column per assignment that has been graded (submissions in the
gradebook or in the grading store; ``all_assignments``: every assignment in ``solutions/``), with
the assignment's score: the sum of its notebooks' scores, manual grades and late penalties
included, as in ``grades.csv``; empty where the learner submitted nothing. A last column,
``attnlab status``, names every assignment of the row whose status is not ``graded``
(``02_query_key_value: tampering detected``), so the instructor decides before importing. An
optional roster maps nbgrader's student ids to the LMS's identities; without one, the student id
fills the identifier columns.

Where learners answered a notebook's concept check (:mod:`attnlab.concepts`), two more columns
per such assignment come before the status column: ``<assignment> concepts before (%)`` and
``<assignment> concepts after (%)``, each learner's share right, empty for a check not taken. The
instructor keeps or drops them at import (``concept_columns=False`` leaves them out); in Canvas's
Points Possible row the "after" column has 100 points when the course grades it
(``c.ConceptChecks.after = "graded"``), and none otherwise.

A learner controls their id (a folder name): no identity cell may make a row the LMS reads as
something else. One holding a control character (a line break, a tab) or a format character (a
bidirectional control), or, for Canvas, naming a row Canvas treats specially (``Points
Possible``, ``Muted``, ``Manual Posting``) is left out alone, named with how to fix it (map them
with a roster); the rest of the class is written. A cell a spreadsheet would run as a formula gets a
leading ``'`` (:func:`attnlab.course.records.csv_cell`); commas and quotes are quoted by the CSV.
"""
from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from pathlib import Path

from . import concept_scores
from .escape import shown
from .records import csv_cell, gradebook_rows, load_store
from .release import assignments as course_assignments

FORMATS = ("canvas", "moodle")

# roster column (lower case) -> what it holds; `student_id` is the nbgrader id and is required
ROSTER_COLUMNS = ("student_id", "name", "canvas_id", "sis_id", "section", "email", "username", "id_number")

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "Section"]
MOODLE_IDENTITY = ["ID number", "Username", "Email address", "Full name"]
# The last column: each assignment of the row whose status is not `graded`. Not a grade item:
# Canvas asks what to do with a column it does not know (choose to ignore it), Moodle maps it to
# nothing (or to an assignment's feedback, which learners see).
STATUS_COLUMN = "attnlab status"
# Rows Canvas's import reads as something other than a learner (its export's second rows)
CANVAS_SPECIAL = re.compile(r"points\s*possible|\bmuted\b|manual\s*posting", re.I)


class ExportError(ValueError):
    """Bad input to an export: the message names what was wrong."""


def read_roster(path: Path) -> dict[str, dict[str, str]]:
    """``{student_id: {column: value}}`` from a roster CSV (header names are matched without
    case or surrounding spaces; a spreadsheet's byte-order mark is ignored)."""
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")  # (line breaks inside cells kept as they are)
    except FileNotFoundError:
        raise ExportError(f"roster {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExportError(f"roster {path}: cannot be read ({exc})") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))  # (a quoted cell may hold a line break)
    header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    if "student_id" not in header:
        raise ExportError(f"roster {path}: no student_id column (its columns: {', '.join(header) or 'none'}); "
                          f"expected student_id plus any of {', '.join(ROSTER_COLUMNS[1:])}")
    roster: dict[str, dict[str, str]] = {}
    for raw in reader:
        line = reader.line_num
        exact = next((v for k, v in raw.items() if (k or "").strip().lower() == "student_id"
                      and isinstance(v, str)), "")
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items() if isinstance(v, str)}
        sid = row.get("student_id", "")
        if not sid:
            continue
        if sid in roster:
            raise ExportError(f"roster {path}: student_id {sid!r} appears twice (again on line {line})")
        roster[sid] = row
        if exact != sid:  # an nbgrader id with spaces around it is matched as it is too
            roster[exact] = row
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


Scores = dict[str, dict[str, float]]      # student -> assignment -> score
Statuses = dict[str, dict[str, str]]      # student -> assignment -> status (other than graded)


def class_scores(root: Path, db_path: Path, all_assignments: bool = False
                 ) -> tuple[list[str], Scores, dict[str, float], list[str], Statuses]:
    """``(assignments, {student: {assignment: score}}, {assignment: max}, students,
    {student: {assignment: status}})`` from the gradebook and the grading store: the assignments
    of ``solutions/`` that have been graded (all of them with ``all_assignments``), every student
    the gradebook knows, and each submission's status."""
    from nbgrader.api import Gradebook

    if not db_path.is_file():
        raise ExportError(f"no gradebook at {db_path}: grade the submissions first (make grade)")
    names = course_assignments(root)
    with Gradebook("sqlite:///" + str(db_path)) as gb:
        rows, _ = gradebook_rows(gb, root)
        students = sorted(s.id for s in gb.students)
        maxima = {a.name: float(a.max_score) for a in gb.assignments if a.notebooks}
        graded = {a.name for a in gb.assignments if a.submissions}
    graded |= {a for _, a in load_store(root)} | {r["assignment"] for r in rows}
    if not all_assignments:
        names = [n for n in names if n in graded]
    scores: dict[str, dict[str, float]] = {}
    statuses: dict[str, dict[str, str]] = {}
    for row in rows:
        if row["assignment"] not in names:
            continue
        per = scores.setdefault(row["student_id"], {})
        try:
            score = float(row["score"] or 0.0)
        except ValueError:
            score = 0.0
        per[row["assignment"]] = per.get(row["assignment"], 0.0) + score
        status = str(row.get("status") or "graded")
        if status != "graded":
            mine = statuses.setdefault(row["student_id"], {})
            if status not in mine.get(row["assignment"], "").split(", "):
                mine[row["assignment"]] = ", ".join(filter(None, [mine.get(row["assignment"], ""), status]))
    # a submission graded but never recorded in the gradebook (its assignment unknown to it):
    # its stored score and status
    covered = {(r["student_id"], r["assignment"]) for r in rows}
    for (student, assignment), saved in sorted(load_store(root).items()):
        if (student, assignment) in covered or assignment not in names:
            continue
        try:
            scores.setdefault(student, {})[assignment] = float(saved.get("score") or 0.0)
        except (TypeError, ValueError):
            scores.setdefault(student, {})[assignment] = 0.0
        status = str(saved.get("status") or "graded")
        if status != "graded":
            statuses.setdefault(student, {})[assignment] = status
    for name in names:
        if not maxima.get(name):
            maxima[name] = max_points(root, name)
    students = sorted(set(students) | set(scores))
    return names, scores, maxima, students, statuses


def check_identity(sid: str, cells: list[str], fmt: str) -> str | None:
    """Why the identity ``cells`` of learner ``sid`` cannot be written (None: they can)."""
    for cell in cells:
        if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in cell):
            return f"{shown(cell)!r} holds a control character (a line break, a tab): the row could split in two"
        if any(unicodedata.category(c) in ("Cf", "Cs", "Cn") for c in cell):
            return (f"{shown(cell)!r} holds a format character (a bidirectional control such as U+202E) or a code "
                    "point that is not text: the LMS would show the row's cells out of order")
        if fmt == "canvas" and CANVAS_SPECIAL.search(cell):
            return f"{cell!r} would make Canvas read the row as its {CANVAS_SPECIAL.search(cell).group(0)!r} row"
    return None


def _number(x: float | None) -> str:
    if x is None:
        return ""
    return f"{round(float(x), 4):g}"


def export(root: Path, fmt: str, output: Path, roster_path: Path | None = None,
           db_path: Path | None = None, all_assignments: bool = False,
           status_column: bool = True, concept_columns: bool = True) -> tuple[Path, int, list[tuple[str, str, str]], list[str]]:
    """Write ``output`` in the LMS's import format; return it, the number of learners written,
    ``(student, assignment, status)`` of each exported submission whose status is not ``graded``,
    and each learner left out, with why and how to fix it. A learner whose identity cannot be
    written safely is left out alone; the rest of the class is written.
    ``all_assignments``: a column for every assignment in ``solutions/``, graded or not;
    ``status_column``: the last column, ``attnlab status`` (see the module's docstring)."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    roster = read_roster(roster_path) if roster_path else {}
    names, scores, maxima, students, statuses = class_scores(
        root, db_path or root / "autograde" / "gradebook.db", all_assignments)
    if not names:
        raise ExportError("no assignment has been graded yet (nothing in the gradebook or autograde/.grading/): "
                          "grade first (make grade), or pass --all-assignments for empty columns")
    # a learner on the roster who has not submitted yet gets a row too (empty scores)
    learners, used = list(students), {id(roster[s]) for s in students if s in roster}
    for key in sorted(roster):  # (a roster row may be known under two keys: read_roster)
        if id(roster[key]) not in used:
            used.add(id(roster[key]))
            learners.append(key)
    extra = [STATUS_COLUMN] if status_column else []
    concept = concept_scores.learner_scores(load_store(root)) if concept_columns else {}
    checked = [n for n in names if any(a == n for _, a in concept)]
    concept_header = [f"{n} concepts {w} (%)" for n in checked for w in ("before", "after")]
    graded = bool(checked) and concept_scores.after_graded(root)
    if fmt == "canvas":
        header = CANVAS_IDENTITY + names + concept_header + extra
        # Canvas's own export has this row, and its import reads it for new assignments' points
        rows = [["    Points Possible", "", "", ""] + [_number(maxima.get(n)) for n in names]
                + [("100" if graded and w == "after" else "") for _ in checked for w in ("before", "after")]
                + [""] * len(extra)]
    else:
        header = MOODLE_IDENTITY + names + concept_header + extra
        rows = []
    refused, left_out = [], set()
    for sid in learners:
        who = roster.get(sid, {})
        if fmt == "canvas":
            ident = [who.get("name") or sid, who.get("canvas_id", ""), who.get("sis_id") or sid, who.get("section", "")]
        else:
            ident = [who.get("id_number") or who.get("sis_id") or sid, who.get("username") or sid,
                     who.get("email", ""), who.get("name") or sid]
        why = check_identity(sid, ident, fmt)
        if why:
            refused.append(f"{shown(sid)!r}: {why}; map them to their LMS identity with --roster (student_id plus "
                           + ("name and sis_id" if fmt == "canvas" else "id_number, username and name")
                           + "), or rename their folder in autograde/submitted/ and grade again")
            left_out.add(sid)
            continue
        mine = scores.get(sid, {})
        note = "; ".join(f"{n}: {statuses[sid][n]}" for n in names if n in statuses.get(sid, {}))
        theirs = [_number(x) for n in checked for x in concept.get((sid, n), (None, None))]
        rows.append(ident + [_number(mine[n]) if n in mine else "" for n in names] + theirs + ([note] if extra else []))
    learners = [sid for sid in learners if sid not in left_out]
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8", errors="backslashreplace") as fh:
        writer = csv.writer(fh)
        writer.writerow([csv_cell(h) for h in header])
        for row in rows:
            writer.writerow([csv_cell(v) for v in row])
    tmp.replace(output)
    flagged = [(sid, n, statuses[sid][n]) for sid in learners for n in names if n in statuses.get(sid, {})]
    return output, len(learners), flagged, refused
