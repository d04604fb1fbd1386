"""Every grader check is itself tested, in-process (fast):

* the reference solution passes every grade cell, visible and hidden tests;
* the untouched student stub fails every grade cell, saying it is not implemented (a
  prediction: not answered);
* every wrong implementation of the cards (:mod:`attnlab.cards`) fails the grade cells it must
  fail, with a message that names its mistake and no other mistake of its card (so no card lists
  a mistake the checks cannot tell from the reference or from another of its mistakes);
* every exercise has at least four wrong implementations, every prediction two wrong answers.
"""
from __future__ import annotations

import pytest

import coursekit as ck

ASSIGNMENTS = ck.assignments()
CASES = [(a, w) for a in ASSIGNMENTS for w in ck.catalogue(a)]


@pytest.fixture(scope="module")
def notebooks():
    return {a: ck.load(ck.solution_path(a)) for a in ASSIGNMENTS}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_solution_passes_every_grade_cell(assignment, notebooks, capsys):
    nb = notebooks[assignment]
    ns = ck.run_solutions(nb, ck.setup_namespace(nb))
    for gid in ck.grade_cells(nb):
        exc = ck.run_grade_cell(nb, ns, gid)
        assert exc is None, f"{gid} fails on the reference solution: {exc!r}"
    assert capsys.readouterr().err == "", "a grade cell wrote to stderr (nbgrader would score it 0)"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_blank_stub_fails_every_grade_cell(assignment):
    student = ck.load(ck.release_path(assignment))
    ns = ck.run_solutions(student, ck.setup_namespace(student))
    for gid in ck.grade_cells(student):
        exc = ck.run_grade_cell(student, ns, gid)
        assert isinstance(exc, AssertionError), f"{gid} does not fail on the blank stub: {exc!r}"
        expected = "not answered yet" if ck.is_prediction(gid) else "not implemented yet"
        assert expected in str(exc), f"{gid}: unhelpful message for a blank stub: {exc}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_exercise_has_four_wrong_implementations(assignment, notebooks):
    nb = notebooks[assignment]
    counts = {gid: 0 for gid, c in ck.solution_cells(nb).items() if c["cell_type"] == "code"}
    for wrong in ck.catalogue(assignment):
        assert wrong.solution in counts, f"catalogue names an unknown solution cell {wrong.solution!r}"
        assert set(wrong.fails) <= set(ck.grade_cells(nb)), f"{wrong.name}: unknown grade cells {wrong.fails}"
        counts[wrong.solution] += 1
    thin = {gid: n for gid, n in counts.items() if n < (2 if ck.is_prediction(gid) else 4)}
    assert not thin, f"exercises with fewer than 4 wrong implementations (predictions: 2): {thin}"


@pytest.mark.parametrize("assignment,wrong", CASES, ids=[f"{a}:{w.name}" for a, w in CASES])
def test_wrong_implementation_loses_points_with_named_mistake(assignment, wrong, notebooks, capsys):
    nb = notebooks[assignment]
    ns = ck.run_solutions(nb, ck.setup_namespace(nb), replace={wrong.solution: wrong.code})
    for gid in wrong.fails:
        exc = ck.run_grade_cell(nb, ns, gid)
        assert exc is not None, f"{gid} gives full points to: {wrong.code}"
        assert isinstance(exc, AssertionError), f"{gid} crashed instead of failing a check: {exc!r}"
        assert wrong.message in str(exc), (
            f"{gid}: the message does not name the mistake {wrong.message!r}:\n{exc}")
        others = [m.name for c in ck.card_of(assignment, wrong.solution) for m in c.mistakes
                  if m.name not in wrong.message and wrong.message not in m.name]
        named = [name for name in others if name in str(exc)]
        assert not named, f"{gid}: {wrong.name} is also named as another mistake of its card: {named}"
    assert capsys.readouterr().err == ""
