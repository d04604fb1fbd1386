"""``make grade``: autograde the submissions, export ``grades.csv``, write feedback.

Submissions go in ``autograde/submitted/<student>/<assignment>/<assignment>.ipynb``.
"""
from __future__ import annotations

from pathlib import Path

from .release import assignments, nbgrader, release


def submitted_assignments(root: Path) -> list[str]:
    sub = root / "autograde" / "submitted"
    found = {p.name for p in sub.glob("*/*") if p.is_dir()} if sub.is_dir() else set()
    return sorted(found & set(assignments(root)))


def grade(root: Path, only: list[str] | None = None, csv: str = "autograde/grades.csv") -> Path:
    """Autograde every submission of the given (or every submitted) assignment."""
    todo = only or submitted_assignments(root)
    if not todo:
        raise SystemExit("error: nothing to grade: put submissions in "
                         "autograde/submitted/<student>/<assignment>/<assignment>.ipynb")
    release(root, todo)  # records the assignments' grade cells in the gradebook
    for assignment in todo:
        print(f"grading {assignment} ...", flush=True)
        nbgrader(root, "autograde", assignment, "--force", "--log-level=WARN")
        nbgrader(root, "generate_feedback", assignment, "--force", "--log-level=WARN")
    out = (root / csv).resolve()
    nbgrader(root, "export", f"--to={out}", "--log-level=WARN")
    print(f"wrote {out.relative_to(root)} and feedback in autograde/feedback/")
    return out
