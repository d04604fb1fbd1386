"""The corpus of uncatalogued wrong implementations (``tests/uncatalogued/``, issue 27) loses
points, and its messages name what is wrong.

* every entry loses the points of the grade cells in ``fails`` with a ``CheckFailure`` (the
  catalogue's route: the entry replaces the solution cell, the grade cells run in-process);
  entries marked ``accepted`` are wrong code a check lets through today (xfail until fixed);
* where an entry states the words a learner would expect, the message contains one of them
  (entries whose naming needs the general diagnosis layer: xfail until it lands);
* at most 1 in 10 of the corpus's rejections says it "does not look like any mistake we know".

Run one notebook with ``-k 09_transformer``; ``tools/diagnosis_figures.py`` prints the figures.
"""
from __future__ import annotations

import os

import pytest

import coursekit as ck
from attnlab.checks import CheckFailure
from uncatalogued import all_entries

UNKNOWN = "does not look like any mistake we know"  # the unnamed wording of checks/_core.py
ENTRIES = all_entries()
IDS = [f"{a}:{w.name}" for a, w in ENTRIES]
_NOTEBOOKS: dict[str, dict] = {}
_SETUPS: dict[str, dict] = {}  # each notebook's read-only cells, run once; every entry gets a copy
_MESSAGES: dict[tuple[str, str], dict[str, BaseException | None]] = {}


@pytest.fixture(autouse=True)
def _plain_feedback(monkeypatch):
    # repeatable messages (no second-run escalation), whatever the environment says
    monkeypatch.setenv("ATTNLAB_FEEDBACK", "mistake-only")


def _notebook(assignment: str) -> dict:
    if assignment not in _NOTEBOOKS:
        _NOTEBOOKS[assignment] = ck.load(ck.solution_path(assignment))
    return _NOTEBOOKS[assignment]


def outcomes(assignment: str, wrong) -> dict[str, BaseException | None]:
    """What each grade cell of ``wrong.fails`` raised (None: full points), computed once."""
    key = (assignment, wrong.name)
    if key not in _MESSAGES:
        nb = _notebook(assignment)
        if assignment not in _SETUPS:
            _SETUPS[assignment] = ck.setup_namespace(nb)
        ns = ck.run_solutions(nb, dict(_SETUPS[assignment]), replace={wrong.solution: wrong.code})
        _MESSAGES[key] = {gid: ck.run_grade_cell(nb, ns, gid) for gid in wrong.fails}
    return _MESSAGES[key]


def test_the_corpus_is_large_and_new():
    assert len(ENTRIES) >= 90, f"only {len(ENTRIES)} uncatalogued wrong implementations"
    labels = [(a, w.name) for a, w in ENTRIES]
    assert len(set(labels)) == len(labels), "two entries share a label"
    for assignment in {a for a, _ in ENTRIES}:
        nb = _notebook(assignment)
        catalogued = {w.code.strip() for w in ck.catalogue(assignment)}
        for a, w in ENTRIES:
            if a != assignment:
                continue
            assert w.solution in ck.exercises(nb), f"{w.name}: unknown exercise {w.solution!r}"
            assert w.fails and set(w.fails) <= set(ck.grade_cells(nb)), f"{w.name}: unknown grade cells"
            assert w.code.strip() not in catalogued, f"{w.name} is already in the catalogue"


def _marks(wrong, words: bool = False):
    if wrong.accepted:
        return [pytest.mark.xfail(reason=f"accepted by {wrong.accepted} (issue 27)", strict=True)]
    if words and wrong.needs_layer:
        return [pytest.mark.xfail(reason="needs the diagnosis layer", strict=True)]  # one that passes
        # fails the run: its entry's needs_layer goes, so nothing passes or fails unnoticed
    return []


LOSES = [pytest.param(a, w, marks=_marks(w), id=i) for (a, w), i in zip(ENTRIES, IDS)]
NAMED = [pytest.param(a, w, marks=_marks(w, words=True), id=i) for (a, w), i in zip(ENTRIES, IDS) if w.words]


@pytest.mark.parametrize("assignment,wrong", LOSES)
def test_uncatalogued_mistake_loses_points(assignment, wrong, capsys):
    for gid, exc in outcomes(assignment, wrong).items():
        assert exc is not None, f"{gid} gives full points to:\n{wrong.code}"
        assert isinstance(exc, CheckFailure), f"{gid} crashed instead of failing a check: {exc!r}"
    assert capsys.readouterr().err == "", "a grade cell wrote to stderr (nbgrader would score it 0)"


@pytest.mark.parametrize("assignment,wrong", NAMED)
def test_uncatalogued_mistake_is_named(assignment, wrong):
    for gid, exc in outcomes(assignment, wrong).items():
        assert exc is not None, f"{gid} gives full points to:\n{wrong.code}"
        assert wrong.names_it(str(exc)), f"{gid}: the message mentions none of {wrong.words}:\n{exc}"


def _unnamed_rate() -> tuple[int, list[str]]:
    rejections, unnamed = 0, []
    for (assignment, wrong), ident in zip(ENTRIES, IDS):
        for gid, exc in outcomes(assignment, wrong).items():
            if isinstance(exc, CheckFailure):
                rejections += 1
                if UNKNOWN in str(exc):
                    unnamed.append(f"{ident} / {gid}")
    return rejections, unnamed


def test_at_most_one_rejection_in_ten_is_unnamed(capsys):
    rejections, unnamed = _unnamed_rate()
    with capsys.disabled():
        print(f"\nuncatalogued corpus: {len(ENTRIES)} entries, {rejections} rejections, "
              f"{len(unnamed)} unnamed ({len(unnamed) / max(rejections, 1):.1%})")
    assert rejections > 0
    assert len(unnamed) <= 0.1 * rejections, "unnamed:\n" + "\n".join(unnamed)
