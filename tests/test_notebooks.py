"""The notebooks themselves: they run, they are generated, they are clean.

* every solution notebook executes headless without error, and its text's claims hold;
* ``make release`` regenerates ``notebooks/`` byte for byte (one source of truth);
* committed notebooks carry no outputs and no volatile metadata;
* student notebooks say they are generated, keep every grade cell, and hide the solutions and
  hidden tests.
"""
from __future__ import annotations

import ast
import json
import shutil

import nbformat
import pytest
from nbclient import NotebookClient

import coursekit as ck
from attnlab import claims
from attnlab.course.nbtext import dumps

ASSIGNMENTS = ck.assignments()
# A limit for runaway cells, not a measurement: far above the slowest cell (notebook 07's live
# training, about a minute on an idle 2-core machine), so that a busy machine never fails a run.
CELL_LIMIT_S = 1800


def _committed():
    return [ck.solution_path(a) for a in ASSIGNMENTS] + [ck.release_path(a) for a in ASSIGNMENTS]


def _ends_with_a_claim(source: str) -> bool:
    """Whether the cell's last statement is a call of ``claim(...)`` (on one line or several)."""
    try:
        body = ast.parse(source).body
    except SyntaxError:  # IPython syntax (magics): not a claim cell of ours
        return False
    last = body[-1] if body else None
    return (isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)
            and getattr(last.value.func, "id", None) == "claim")


@pytest.mark.notebooks
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_solution_notebook_executes(assignment, tmp_path, monkeypatch):
    """The solution notebook runs headless without error, in the normal configuration (not
    NBGRADER_EXECUTION's small one), and its text is true: this one run also records the claims
    (``attnlab.claims``), and every span's claim must be computed and agree with its text, every
    computed claim shown by a span (``tests/test_claims.py`` tests the mechanism); and no cell that ends
    with a claim shows its value bare (a ``True`` that says nothing to the learner)."""
    path = ck.solution_path(assignment)
    nb = nbformat.read(path, as_version=4)
    work = tmp_path / assignment
    shutil.copytree(path.parent, work)
    claims_file = tmp_path / "claims.jsonl"
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)  # the kernel inherits this environment
    monkeypatch.setenv(claims.ENV, str(claims_file))
    NotebookClient(nb, timeout=CELL_LIMIT_S, kernel_name="python3",
                   resources={"metadata": {"path": str(work)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    bare = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and _ends_with_a_claim(c.source)
            for o in c.outputs if o.output_type == "execute_result"]
    assert not bare, (f"{assignment}: cells {bare} end with a claim and show its value bare (a True or a number "
                      "with no words): end the claim with ';'")
    found = claims.problems((c.source for c in nb.cells if c.cell_type == "markdown"),
                            claims.read_recorded(claims_file))
    assert not found, f"{assignment}: the text and its claims disagree:\n" + "\n".join(found)


@pytest.mark.notebooks
def test_release_regenerates_notebooks_identically(tmp_path):
    course = ck.make_course(tmp_path)
    shutil.rmtree(course / "notebooks")
    proc = ck.course_command(course, "release")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for assignment in ASSIGNMENTS:
        fresh = (course / "notebooks" / assignment / f"{assignment}.ipynb").read_text(encoding="utf-8")
        committed = ck.release_path(assignment).read_text(encoding="utf-8")
        assert fresh == committed, f"notebooks/{assignment} differs from solutions/: run `make release`"
    extra = {p.name for p in ck.RELEASE.iterdir() if p.is_dir()} - set(ASSIGNMENTS)
    assert not extra, f"notebooks/ has folders with no solution: {extra}"


@pytest.mark.parametrize("path", _committed(), ids=lambda p: str(p.relative_to(ck.ROOT)))
def test_committed_notebook_is_canonical(path):
    text = path.read_text(encoding="utf-8")
    nb = json.loads(text)
    assert not any(c.get("outputs") or c.get("execution_count") for c in nb["cells"]), "has outputs"
    assert text == dumps(nb), "not in canonical form: run `python -m attnlab.course.nbtext normalise`"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_student_notebook_is_generated_and_clean(assignment):
    student = ck.load(ck.release_path(assignment))
    source = ck.load(ck.solution_path(assignment))
    assert "generated" in student["cells"][0]["source"] and "make release" in student["cells"][0]["source"]
    assert set(ck.grade_cells(student)) == set(ck.grade_cells(source))
    text = json.dumps(student)
    for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "hidden=True"):
        assert marker not in text, f"the student notebook leaks {marker!r}"
    for gid, cell in ck.exercises(student).items():
        assert "raise NotImplementedError()" in cell["source"], f"{gid} has no stub"
    for gid, cell in ck.predictions(student).items():  # the learner starts from `prediction_x = None`
        assert "raise NotImplementedError()" not in cell["source"] and "= None" in cell["source"], gid


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_notebook_structure(assignment):
    """Each notebook: 3 to 6 exercises (predictions apart), each graded; a closing 'what you
    built' cell, then the concept check after the notebook (attnlab.concepts), as the concept
    check before it comes first, right after the install check."""
    nb = ck.load(ck.solution_path(assignment))
    exercises = list(ck.exercises(nb).values())
    assert 3 <= len(exercises) <= 6, f"{len(exercises)} exercises"
    for cell in ck.grade_cells(nb).values():
        assert cell["source"].lstrip().startswith('"""Check that'), "a grade cell opens with its rubric line"
        assert "BEGIN HIDDEN TESTS" in cell["source"], "every grade cell has hidden tests"
    ids = [c.get("id") for c in nb["cells"]]
    after = ids.index("concepts-after")
    assert ids[after:] == ["concepts-after", "concepts-after-ask", "concepts-after-answers", "concepts-gain"]
    last = nb["cells"][after - 1]
    assert last["cell_type"] == "markdown" and "What you built" in last["source"]
    install = next(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code")  # the install check
    assert ids[install + 1:install + 4] == ["concepts-before", "concepts-before-ask", "concepts-before-answers"]
    assert not any(ck.nbg(c) for c in nb["cells"] if str(c.get("id")).startswith("concepts-")), "never graded by nbgrader"


HINT_TIERS = ("<summary>Hint 1: the idea</summary>", "<summary>Hint 2: the plan</summary>",
              "<summary>Hint 3: code-level detail</summary>")


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_exercises_that_make_learners_think(assignment):
    """Every exercise has its hints in three folded tiers (idea, plan, code-level detail, in
    that order, between its prompt and its solution cell); every notebook has at least two
    graded predict-then-run questions, each before the cell that shows its answer."""
    nb = ck.load(ck.solution_path(assignment))
    cells = nb["cells"]
    for index, cell in enumerate(cells):
        gid = ck.nbg(cell).get("grade_id", "")
        if cell["cell_type"] != "code" or gid not in ck.exercises(nb):
            continue
        prompt = ""
        for before in reversed(cells[:index]):  # the markdown since the last non-exercise code cell
            if before["cell_type"] == "code":
                if ck.nbg(before).get("grade_id") in ck.exercises(nb):
                    continue  # exercises that share one prompt (05's split_heads and merge_heads)
                break
            prompt = before["source"] + "\n" + prompt
        positions = [prompt.find(tier) for tier in HINT_TIERS]
        assert all(p >= 0 for p in positions) and positions == sorted(positions), \
            f"{gid}: the prompt above it needs the three hint tiers, in order"
    predictions = ck.predictions(nb)
    assert len(predictions) >= 2, f"{len(predictions)} predict-then-run questions"
    for gid in predictions:
        grade = ck.grade_cells(nb).get("test_" + gid)
        assert grade is not None, f"{gid} has no grade cell test_{gid}"
        assert ck.max_points(nb)["test_" + gid] <= 1, f"test_{gid}: a prediction is worth small points"
