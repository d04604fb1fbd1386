#!/usr/bin/env python3
"""Figures only (no per-case detail) for a graded held-out class.

Usage: python3 figures.py CLONE_DIR [--rc FILE] [--expected FILE] [--export] [--label TEXT]

Reads CLONE_DIR/autograde/grades.csv, the expectations make_class.py wrote (expected.json next to
this script unless --expected) and the grade command's exit status (a file holding the number;
default CLONE_DIR/../grade_rc). With --export it also runs
`CLONE_DIR/.venv/bin/attnlab-course export --format canvas|moodle` into a temporary folder and
prints figures about the LMS CSVs (Canvas: first without a roster, which the README says
must be refused when an id names a Canvas row, then with a roster mapping those ids). Prints
counts only.

`wrong grades` is the number of (student, assignment) cases that miss any expectation of theirs:
the sum of the six per-category lines (disjoint; a case with no row in grades.csv fails its
category, so `submissions with no row` is already inside them).
"""
import argparse
import csv
import json
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
PENALISING = {"tampering detected", "timed out", "out of memory", "kernel died",
              "malformed notebook", "missing notebook", "grader error"}
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # README: such a cell starts with ' in grades.csv


def norm(s):
    s = s or ""
    if s.startswith("'") and s[1:2] and s[1] in FORMULA:
        s = s[1:]
    return unicodedata.normalize("NFC", s)


def num(s):
    try:
        return float(norm(s))
    except (TypeError, ValueError):
        return None


def pick(fields, names):
    for n in names:
        if n in fields:
            return n
    return None


def read_grades(path):
    if not path.is_file():
        return None, []
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    return (rows[0].keys() if rows else []), rows


def meets(case, row, maxes):
    e = case["expect"]
    if row is None:
        return False
    status = (row.get("status") or "").strip()
    score = num(row.get("score"))
    top = maxes[case["assignment"]]
    if "status" in e and status not in e["status"]:
        return False
    if "status_not" in e and status in e["status_not"]:
        return False
    if "score" in e:
        want = top if e["score"] == "max" else float(e["score"])
        if score is None or abs(score - want) > 1e-6:
            return False
    if e.get("score_below_max") and (score is None or score >= top - 1e-6):
        return False
    return True


CANVAS_RESERVED = {"Points Possible", "Muted", "Manual Posting"}  # README: Canvas refuses these ids


def export(clone, fmt, out, roster=None):
    cmd = [str(clone / ".venv/bin/attnlab-course"), "export", "--format", fmt, "--output", str(out)]
    if roster:
        cmd += ["--roster", str(roster)]
    try:
        return subprocess.run(cmd, cwd=clone, capture_output=True, timeout=300).returncode
    except subprocess.TimeoutExpired:
        return "timeout"


def lms_table(path, fmt, learners, scores, statuses, header_names, alias):
    """(missing learners, score cells disagreeing, rows lacking a status note, header-name ids)."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        table = list(csv.reader(f))
    if not table:
        return len(learners), 0, len(statuses), 0
    head, body = table[0], table[1:]
    if fmt == "canvas":
        if body and body[0] and body[0][0].strip() == "Points Possible":
            body = body[1:]  # Canvas's own points row
        id_cols = [i for i, h in enumerate(head) if h in ("SIS User ID", "Student")]
        name_cols = [i for i, h in enumerate(head) if h == "Student"]
    else:
        id_cols = [i for i, h in enumerate(head) if h in ("ID number", "Username")]
        name_cols = [i for i, h in enumerate(head) if h in ("ID number", "Username", "Full name")]
    st_col = next((i for i, h in enumerate(head) if h.strip() == "attnlab status"), None)
    acols = {a: i for a in {a for _, a in scores} for i, h in enumerate(head) if a in h}
    found, disagree, header_ids, no_note = set(), 0, 0, 0
    for r in body:
        ids = {alias.get(norm(r[i]), norm(r[i])) for i in id_cols if i < len(r)}
        if any(i < len(r) and r[i].strip() in header_names for i in name_cols):
            header_ids += 1
        who = next((s for s in learners if s in ids), None)
        if who is None:
            continue
        found.add(who)
        for (s, a), sc in scores.items():
            if s != who or sc is None:
                continue
            cell = num(r[acols[a]]) if a in acols and acols[a] < len(r) else None
            if cell is None or abs(cell - sc) > 1e-6:
                disagree += 1
        note = r[st_col] if st_col is not None and st_col < len(r) else ""
        for (s, a), st in statuses.items():
            if s == who and not (a in note and st in note):
                no_note += 1
    for (s, a) in statuses:  # a learner with no row has no note either
        if s not in found:
            no_note += 1
    return len(set(learners) - found), disagree, no_note, header_ids


def main():
    p = argparse.ArgumentParser()
    p.add_argument("clone", type=Path)
    p.add_argument("--rc", type=Path)
    p.add_argument("--expected", type=Path, default=HERE / "expected.json")
    p.add_argument("--export", action="store_true")
    p.add_argument("--label", default="")
    a = p.parse_args()
    clone = a.clone.resolve()
    exp = json.loads(a.expected.read_text(encoding="utf-8"))
    maxes, cases = exp["max_score"], exp["cases"]
    fields, rows = read_grades(clone / "autograde" / "grades.csv")
    rc_file = a.rc or clone.parent / "grade_rc"
    rc = rc_file.read_text().strip() if rc_file.is_file() else "not recorded"

    scol = pick(fields or [], ["student_id", "student", "Student", "id"])
    acol = pick(fields or [], ["assignment", "assignment_id", "notebook"])
    index = {}
    for r in rows:
        key = (norm(r.get(scol)), norm(r.get(acol)))
        index.setdefault(key, r)
    wanted = {(c["student"], c["assignment"]) for c in cases}

    no_row = [c for c in cases if (c["student"], c["assignment"]) not in index]
    fail = {}
    for c in cases:  # a case with no row fails its category too
        row = index.get((c["student"], c["assignment"]))
        if not meets(c, row, maxes):
            fail[c["category"]] = fail.get(c["category"], 0) + 1
    total = {}
    for c in cases:
        total[c["category"]] = total.get(c["category"], 0) + 1

    def at_max(r):
        s, m = num(r.get("score")), maxes.get(norm(r.get(acol)))
        return s is not None and m is not None and s >= m - 1e-6

    pen_full = sum(1 for r in rows if (r.get("status") or "").strip() in PENALISING and at_max(r))
    not_isolated = sum(1 for r in rows if "not isolated" in (r.get("detail") or ""))
    extra = sum(1 for k in index if k not in wanted) + (len(rows) - len(index))

    t = a.label and f" [{a.label}]" or ""
    print(f"== figures{t} ==")
    print(f"submissions made: {len(cases)}")
    print(f"rows in grades.csv: {len(rows)}" + ("" if fields is not None else " (no grades.csv)"))
    print(f"rows matching no submission (or duplicated): {extra}")
    print(f"submissions with no row: {len(no_row)}")
    print(f"correct copies not at full marks or not `graded`: {fail.get('correct', 0)} of {total.get('correct', 0)}")
    print(f"blanks above 0: {fail.get('blank', 0)} of {total.get('blank', 0)}")
    print(f"wrong implementations at full marks: {fail.get('wrong', 0)} of {total.get('wrong', 0)}")
    print(f"penalised cases (tampering, infinite loop, not JSON) not as expected: "
          f"{fail.get('penalised', 0)} of {total.get('penalised', 0)}")
    print(f"penalising statuses at full marks (rows): {pen_full}")
    print(f"attachments notebooks not at full marks or not `graded`: {fail.get('attachments', 0)} of {total.get('attachments', 0)}")
    print(f"unusual student ids not at full marks or not `graded`: {fail.get('ids', 0)} of {total.get('ids', 0)}")
    print(f"rows saying `not isolated`: {not_isolated}")
    print(f"grade command exit status: {rc}")
    print(f"wrong grades: {sum(fail.values())}")

    if a.export:
        learners = sorted({c["student"] for c in cases})
        scores, statuses = {}, {}
        for (s, asg), r in index.items():
            if (s, asg) in wanted:
                scores[(s, asg)] = num(r.get("score"))
                st = (r.get("status") or "").strip()
                if st and st != "graded":
                    statuses[(s, asg)] = st
        header_names = set(exp["lms_header_names"])
        reserved = sorted(set(learners) & CANVAS_RESERVED)
        with tempfile.TemporaryDirectory() as tmp:
            for fmt in ("canvas", "moodle"):
                out = Path(tmp) / f"{fmt}.csv"
                erc = export(clone, fmt, out)
                print(f"{fmt} export exit status: {erc}")
                alias = {}
                if fmt == "canvas" and reserved:
                    # docs/grading.md: such a learner is left out alone, named with how to fix it (a
                    # roster), and the rest of the class is written
                    left_alone = False
                    if erc == 0 and out.is_file():
                        with open(out, newline="", encoding="utf-8") as f:
                            written = list(csv.reader(f))[2:]
                        ids = {c for r in written for c in r[:4]}
                        left_alone = not (set(reserved) & ids) and len(written) == len(learners) - len(reserved)
                    print(f"canvas export left those learners out alone, as documented (ids naming a Canvas row "
                          f"present): {'yes' if left_alone else 'no'}")
                    roster = Path(tmp) / "roster.csv"
                    with open(roster, "w", newline="", encoding="utf-8") as f:
                        w = csv.writer(f)
                        w.writerow(["student_id", "name", "sis_id"])
                        for n, s in enumerate(learners):
                            sis = f"sis{n:03d}" if s in reserved else s
                            alias[sis] = s
                            w.writerow([s, f"Learner {n}" if s in reserved else s, sis])
                    out.unlink(missing_ok=True)
                    erc = export(clone, fmt, out, roster)
                    print(f"canvas export with a roster for those ids, exit status: {erc}")
                if not out.is_file():
                    print(f"{fmt} export wrote no file")
                    continue
                missing, disagree, no_note, header_ids = lms_table(
                    out, fmt, learners, scores, statuses, header_names, alias)
                print(f"{fmt} learners with no row: {missing} of {len(learners)}")
                print(f"{fmt} score cells disagreeing with grades.csv: {disagree}")
                print(f"{fmt} non-`graded` submissions without their note in `attnlab status`: "
                      f"{no_note} of {len(statuses)}")
                print(f"{fmt} rows whose identifier cell equals an LMS header name "
                      f"(informational; not counted): {header_ids}")

if __name__ == "__main__":
    sys.exit(main())
