""""Run all" on a blank student notebook reaches every exercise.

A learner who opens a notebook from ``notebooks/`` and runs every cell before writing anything
must see every exercise's stub and every check's message, not a crash half-way down that hides
the rest. So each student notebook is executed with errors allowed (nbclient,
``allow_errors=True``; ``NBGRADER_EXECUTION=1`` keeps the training cells small) and its cells
are judged by who wrote them:

* every cell runs (errors allowed, the kernel survives, no cell is left unexecuted);
* the **learner's cells** (exercise stubs and ``prediction_x = None`` cells) run, and raise
  nothing or ``NotImplementedError`` (a stub that runs its body at the top level);
* every **grade cell** fails: it reached the learner's blank stub (a check that passes on a
  blank notebook never looked at the learner's code);
* the **course's own cells** (set-up, story, plots, "try it" cells, checks) raise nothing,
  except
  - ``NotImplementedError`` raised inside a learner's cell: the innermost frame of the traceback
    is a learner's cell, so the cell stopped because it calls an exercise not yet written;
  - ``CheckFailure``, a check's failure message, saying that an exercise is "not implemented
    yet" or a prediction "not answered yet" (the two messages a blank notebook may give; any
    other failure means the check tripped over something that is not the learner's).

Anything else (a ``NameError`` because a cell uses a variable that only a learner's code would
define, a ``TypeError`` on a prediction still ``None``, a ``ValueError`` in a plot) fails the test:
the course's cell must use ``attnlab``'s reference instead, or guard against the blank answer.
"""
from __future__ import annotations

import re
import shutil

import nbformat
import pytest
from nbclient import NotebookClient

import coursekit as ck

# No xdist group: the executions share nothing (no fixture, no scratch course), so pytest-xdist
# may spread the ten notebooks over its workers like any other parametrised test.
pytestmark = pytest.mark.notebooks

ASSIGNMENTS = ck.assignments()
CELL_LIMIT_S = 900  # a limit for runaway cells, not a measurement
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# IPython names a cell's frames "Cell In[N], line M" (N: the cell's execution count)
CELL_FRAME = re.compile(r"Cell In\s*\[(\d+)\]")
BLANK_CHECK_MESSAGES = ("is not implemented yet", "is not answered yet")


def learner_cell_ids(nb) -> set[str]:
    """The grade ids of the cells a learner writes in: exercises and predictions."""
    return set(ck.exercises(nb)) | set(ck.predictions(nb))


def innermost_cell(traceback: list[str]) -> int | None:
    """The execution count of the innermost notebook cell in an IPython traceback."""
    counts = [int(n) for line in traceback for n in CELL_FRAME.findall(ANSI.sub("", line))]
    return counts[-1] if counts else None


def problems(nb) -> list[str]:
    """What is wrong with an executed blank student notebook (see the module's docstring)."""
    learner = learner_cell_ids(nb)
    learner_counts = {c.execution_count for c in nb.cells
                      if c.cell_type == "code" and ck.nbg(c).get("grade_id") in learner}
    out = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        gid = ck.nbg(cell).get("grade_id")
        name = f"cell {index}" + (f" ({gid})" if gid else "")
        if cell.execution_count is None:
            out.append(f"{name} did not run")
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if ck.nbg(cell).get("grade") and not errors:
            out.append(f"{name} passed on a blank notebook: a check must reach the learner's stub")
        for error in errors:
            said = f"{name} raised {error.ename}: {ANSI.sub('', error.evalue)[:300]}"
            if gid in learner:
                if error.ename != "NotImplementedError":
                    out.append(said + " (a blank stub may only raise NotImplementedError)")
            elif error.ename == "NotImplementedError":
                if innermost_cell(error.traceback) not in learner_counts:
                    out.append(said + " (not raised by a learner's stub)")
            elif error.ename == "CheckFailure":
                if not any(m in error.evalue for m in BLANK_CHECK_MESSAGES):
                    out.append(said + " (a check on a blank notebook should only say that an "
                                      "exercise is not implemented or a prediction not answered)")
            else:
                out.append(said)
    return out


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_run_all_on_blank_notebook_reaches_every_exercise(assignment, tmp_path, monkeypatch):
    path = ck.release_path(assignment)
    nb = nbformat.read(path, as_version=4)
    work = tmp_path / assignment
    shutil.copytree(path.parent, work)
    monkeypatch.setenv("NBGRADER_EXECUTION", "1")  # small training runs (read by the kernel)
    monkeypatch.delenv("ATTNLAB_CLAIMS_FILE", raising=False)
    NotebookClient(nb, timeout=CELL_LIMIT_S, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(work)}}).execute()
    found = problems(nb)
    assert not found, f"{assignment}, Run all on the blank notebook:\n" + "\n".join(found)


def _cell(source: str, gid: str | None = None, count: int = 1, error: tuple | None = None,
          grade: bool = False):
    cell = nbformat.v4.new_code_cell(source)
    cell.execution_count = count
    if gid:
        cell.metadata["nbgrader"] = {"grade_id": gid, "solution": True, "grade": False}
    if grade:
        cell.metadata["nbgrader"] = {"grade_id": f"test_{count}", "solution": False, "grade": True,
                                     "points": 1}
    if error:
        ename, evalue, traceback = error
        cell.outputs = [nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=traceback)]
    return cell


def test_problems_tells_the_learners_stub_from_the_courses_bug():
    """The judge itself: a stub's NotImplementedError seen through a demo cell and a check's
    "not implemented yet" pass; a NameError, a NotImplementedError from the course's own code, and
    a check failing for another reason do not."""
    stub = _cell("def f(x):\n    raise NotImplementedError()", gid="f", count=3)
    frames = ["\x1b[0;31mNotImplementedError\x1b[0m", "Cell \x1b[0;32mIn[7], line 1\x1b[0m",
              "Cell In[3], line 2, in f(x)"]
    good = nbformat.v4.new_notebook(cells=[
        stub,
        _cell("f(1)", count=7, error=("NotImplementedError", "", frames)),
        _cell("check_f(f)", count=8, error=("CheckFailure", "f is not implemented yet: replace ...", []),
              grade=True),
    ])
    assert problems(good) == []
    bad = nbformat.v4.new_notebook(cells=[
        stub,
        _cell("print(y)", count=4, error=("NameError", "name 'y' is not defined", [])),
        _cell("g()", count=5, error=("NotImplementedError", "", ["Cell In[5], line 1", "Cell In[2], line 9"])),
        _cell("check_f(f)", count=6, error=("CheckFailure", "f is not defined: run the cell", [])),
        _cell("x = 1", count=None),
        _cell("check_f(f)", count=9, grade=True),
    ])
    found = problems(bad)
    assert len(found) == 5, found
    assert "NameError" in found[0] and "not raised by a learner's stub" in found[1]
    assert "CheckFailure" in found[2] and "did not run" in found[3]
    assert "passed on a blank notebook" in found[4]
