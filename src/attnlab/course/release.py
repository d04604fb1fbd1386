"""``make release``: regenerate the student notebooks in ``notebooks/`` from ``solutions/``.

nbgrader's ``generate_assignment`` replaces the solutions with stubs, removes the hidden tests and
records the grade cells in the gradebook; this module then writes each student notebook in the
canonical form (no outputs, no volatile metadata) with a header saying where it comes from, so
that regenerating gives byte-identical files.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .nbtext import canonical, dumps
from .secret import ensure
from .stages.fonts import build_font_list, font_list_folder
from .stages.read import parse_utc

HEADER_ID = "generated-header"


def course_root() -> Path:
    """The repository root (the folder holding ``solutions/`` and ``autograde/``)."""
    env = os.environ.get("ATTNLAB_COURSE_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "autograde" / "nbgrader_config.py").is_file() and (folder / "solutions").is_dir():
            return folder
    raise SystemExit("error: run this inside the course repository (no autograde/nbgrader_config.py "
                     f"and solutions/ found above {here})")


def assignments(root: Path) -> list[str]:
    """The assignment ids: one folder per notebook under ``solutions/``."""
    return sorted(p.name for p in (root / "solutions").iterdir()
                  if p.is_dir() and not p.name.startswith((".", "_")))


def nbgrader(root: Path, *args: str, check: bool = True, quiet: bool = False) -> subprocess.CompletedProcess:
    """Run ``nbgrader ARGS`` with the course configuration."""
    # nbgrader runs `alembic` from PATH when it creates a gradebook: put this Python's bin first.
    bindir = os.path.dirname(sys.executable)
    env = dict(os.environ, ATTNLAB_COURSE_ROOT=str(root),
               PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root / "autograde",
                          env=env, text=True, capture_output=True)
    if check and proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit(f"error: nbgrader {' '.join(args)} failed (exit {proc.returncode})")
    if not quiet:
        for line in (proc.stdout + proc.stderr).splitlines():
            if "[ERROR]" in line or "[WARNING]" in line:
                print(line, file=sys.stderr)
    return proc


def header_cell(assignment: str, notebook: str) -> dict:  # noqa: ARG001 - the same for every notebook
    text = (
        "> **Your notebook to fill in.** Write your code where a cell says `# YOUR CODE HERE` "
        "(delete the `raise NotImplementedError()` line), run it, then run the check cell below "
        "it: a check prints ✓ when your function is right, and otherwise says what differs and "
        "which common mistake your answer looks like. Where a cell asks for a prediction "
        "(`prediction_... = None`), write down what you expect *before* running the cell that "
        "shows the answer. Leave the check cells as they are: they are graded.\n"
        ">\n"
        "> **Stuck?** Open the hints under each exercise one at a time (the first gives the idea, "
        "the last the code-level detail), read what the failing check says, and then ask: your "
        "instructor or teaching assistant in a class, the course's discussion forum in a "
        "workshop. Learning on your own from the attnlab repository? Its `solutions/` folder "
        "has every notebook worked out.\n"
        ">\n"
        "> *This notebook is generated from the course's source notebook by `make release`; "
        "do not edit this header.*"
    )
    return {"cell_type": "markdown", "id": HEADER_ID, "metadata": {}, "source": text}


# Every notebook's first code cell (solutions/ and so notebooks/; tests/test_install_cell.py): where
# the course library is missing, it prints the one command that installs it, not a bare traceback.
INSTALL_CELL = """\
# Is the course library installed in this notebook's Python? If not, this says how to install it.
try:
    import attnlab  # noqa: F401
except ImportError:
    import sys
    from pathlib import Path
    root = next((p for p in (Path.cwd(), *Path.cwd().parents)
                 if (p / "pyproject.toml").is_file() and (p / "src" / "attnlab").is_dir()), None)
    cpu = " --extra-index-url https://download.pytorch.org/whl/cpu" if sys.platform.startswith("linux") else ""
    if root is not None:
        print(f'attnlab is not installed for {sys.executable}. Run this in a cell, then restart the kernel:\\n'
              f'    %pip install{cpu} -e "{root}"')
    else:
        print("attnlab is not installed, and this notebook is not inside the course folder. Get the course "
              "folder (or its wheel, attnlab-*.whl, from your instructor), then run in a cell:\\n"
              f"    %pip install{cpu} <the course folder or the .whl file>\\n"
              "and restart the kernel (README, 'Without make: pip, Windows, Colab').")
    raise ModuleNotFoundError("attnlab is not installed: run the command printed above") from None"""


PREDICTION_PREFIX = "predict_"
STUB = "# YOUR CODE HERE\nraise NotImplementedError()"


def finish_prediction_cell(cell: dict) -> None:
    """A prediction's stub is its variable set to None (written in the source notebook before
    ``### BEGIN SOLUTION``): drop nbgrader's ``raise NotImplementedError()`` so that running
    the notebook top to bottom does not stop at a question, and refresh the cell's checksum."""
    from nbformat import from_dict
    from nbgrader.utils import compute_checksum

    gid = cell["metadata"]["nbgrader"]["grade_id"]
    source = cell["source"]
    if STUB not in source:
        raise SystemExit(f"error: prediction cell {gid} has no solution region to clear")
    source = source.replace("\n" + STUB, "").replace(STUB, "").rstrip()
    if "= None" not in source:
        raise SystemExit(f"error: prediction cell {gid} must set its variable to None before "
                         "### BEGIN SOLUTION (the learner's starting point)")
    cell["source"] = source
    if "checksum" in cell["metadata"]["nbgrader"]:
        cell["metadata"]["nbgrader"]["checksum"] = compute_checksum(from_dict(cell))


def finish_student_cells(nb: dict, assignment: str, notebook: str) -> dict:
    """The canonical student notebook: predictions' stubs finished, the header on top. Shared by
    ``make release`` and the exporter a plain ``nbgrader generate_assignment`` uses."""
    nb = canonical(nb)
    nb["cells"] = [c for c in nb["cells"] if c.get("id") != HEADER_ID]
    for cell in nb["cells"]:
        nbg = cell["metadata"].get("nbgrader") or {}
        if nbg.get("solution") and str(nbg.get("grade_id", "")).startswith(PREDICTION_PREFIX) \
                and STUB in cell["source"]:
            finish_prediction_cell(cell)
    nb["cells"].insert(0, header_cell(assignment, notebook))
    return nb


def finish_student_notebook(path: Path, assignment: str) -> None:
    """Add the header, finish the prediction cells and write ``path`` in canonical form."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(dumps(finish_student_cells(nb, assignment, path.name)), encoding="utf-8")


DUE_DATES = Path("autograde") / "due_dates.csv"


def read_due_dates(root: Path) -> dict[str, "object | None"]:
    """``autograde/due_dates.csv``: the due dates the instructor keeps (nbgrader 0.9 no longer
    reads them from its config). Columns ``name,duedate``, the format of
    ``nbgrader db assignment import``; an empty duedate means none. Naive times are UTC."""
    import csv

    path = root / DUE_DATES
    if not path.is_file():
        return {}
    known = set(assignments(root))
    out = {}
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        if not reader.fieldnames or "name" not in reader.fieldnames or "duedate" not in reader.fieldnames:
            raise SystemExit(f"error: {DUE_DATES}: expected the columns name,duedate, got {reader.fieldnames}")
        for line, row in enumerate(reader, start=2):
            name = (row.get("name") or "").strip()
            if not name:
                continue
            if name not in known:
                raise SystemExit(f"error: {DUE_DATES} line {line}: expected an assignment of solutions/ "
                                 f"({', '.join(sorted(known))}), got {name!r}")
            text = (row.get("duedate") or "").strip()
            try:
                out[name] = parse_utc(text) if text else None
            except (ValueError, OverflowError):
                raise SystemExit(f"error: {DUE_DATES} line {line}: expected a date such as "
                                 f"'2026-12-01 23:59:00 UTC' for {name}, got {text!r}") from None
    return out


def apply_due_dates(root: Path, db_url: str | None = None) -> dict:
    """Write the due dates of ``autograde/due_dates.csv`` into the gradebook (the file wins for the
    assignments it lists; others keep what the gradebook has)."""
    dates = read_due_dates(root)
    if not dates:
        return dates
    from nbgrader.api import Gradebook

    db_url = db_url or "sqlite:///" + str(root / "autograde" / "gradebook.db")
    with Gradebook(db_url) as gb:
        for name, when in dates.items():
            gb.update_or_create_assignment(name, duedate=when)
    return dates


def release(root: Path, only: list[str] | None = None, progress=None) -> list[Path]:
    """Regenerate ``notebooks/<assignment>/`` for every (or each named) assignment, and apply the
    due dates of ``autograde/due_dates.csv``. ``progress``: called with one line per assignment
    as it is done (``[3/12] wrote notebooks/... (41.2 s)``) and a last line with the total;
    nbgrader's ``generate_assignment`` runs once per assignment, in its own process."""
    import time

    started = time.perf_counter()
    written = []
    ensure(root)  # the course secret the hidden tests' inputs derive from (gitignored)
    names = only or assignments(root)
    for assignment in names:
        if not (root / "solutions" / assignment).is_dir():
            raise SystemExit(f"error: no assignment {assignment!r} in solutions/ "
                             f"(have: {', '.join(assignments(root))})")
    for i, assignment in enumerate(names, start=1):
        began = time.perf_counter()
        nbgrader(root, "generate_assignment", assignment, "--force", "--log-level=WARN")
        mine = []
        for path in sorted((root / "notebooks" / assignment).glob("*.ipynb")):
            finish_student_notebook(path, assignment)
            mine.append(path)
        written += mine
        if progress is not None:
            what = ", ".join(_shown(p, root) for p in mine) or f"no notebook for {assignment}"
            progress(f"[{i}/{len(names)}] wrote {what} ({time.perf_counter() - began:.1f} s)")
    began = time.perf_counter()
    apply_due_dates(root)
    build_font_list(font_list_folder(root))  # matplotlib's font list for the sandboxes (make grade)
    if progress is not None:
        progress(f"due dates and the sandboxes' font list ({time.perf_counter() - began:.1f} s); released "
                 f"{len(names)} assignment(s) in {time.perf_counter() - started:.1f} s")
    return written


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)
