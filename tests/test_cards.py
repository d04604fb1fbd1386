"""Every exercise is a card (``attnlab.cards``), and a card is complete: its contract, its cases,
and its mistakes as data (learner-style code, name, principle, fix, the grade cells it fails).

The catalogue test (``tests/test_catalogue.py``) runs every mistake's code through the grade
cells; these tests say that nothing else lists a mistake (no per-notebook wrong functions, no
principles looked up by name, no separate catalogue tree) and that ``explain`` reads the cards.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import coursekit as ck
from attnlab.cards import all_cards, card
from attnlab.checks import Mistake

ROOT = Path(__file__).resolve().parents[1]
CARDS = all_cards()


def _ids(cards):
    return [c.exercise for c in cards]


def test_every_exercise_has_a_card():
    missing = []
    for assignment in ck.assignments():
        nb = ck.load(ck.solution_path(assignment))
        cells = [gid for gid, c in ck.solution_cells(nb).items() if c["cell_type"] == "code"]
        covered = {c.solution for c in CARDS if c.notebook == assignment}
        missing += [f"{assignment}:{gid}" for gid in cells if gid not in covered]
    assert not missing, f"solution cells without a card: {missing}"


def test_a_card_is_named_after_its_exercise():
    for c in CARDS:
        path = ROOT / "src" / "attnlab" / "cards" / f"{c.exercise}.py"
        assert path.is_file(), f"the card of {c.exercise} is not in {path.name}"
        assert card(c.exercise) is c


@pytest.mark.parametrize("c", CARDS, ids=_ids(CARDS))
def test_a_card_is_complete(c):
    nb = ck.load(ck.solution_path(c.notebook))
    grade_cells = set(ck.grade_cells(nb))
    assert c.solution in ck.solution_cells(nb), f"{c.exercise}: no solution cell {c.solution!r}"
    if c.prediction is None:
        assert c.contract is not None and c.contract.args is not None, f"{c.exercise}: no contract"
        assert c.contract.returns, f"{c.exercise}: the contract does not say what comes back"
    for m in c.mistakes:
        where = f"{c.exercise}: {m.name!r}"
        assert m.code, f"{where} has no learner-style code"
        assert m.principle, f"{where} has no principle"
        assert not any(t in m.principle for t in ("np.", "torch.")), f"{where}: its principle has code in it"
        assert m.fix, f"{where} has no fix"
        assert m.fails and set(m.fails) <= grade_cells, f"{where}: fails {m.fails} are not grade cells"
    for e in c.examples:
        assert e.fails and set(e.fails) <= grade_cells, f"{c.exercise}: example fails {e.fails}"


def test_nothing_else_lists_a_mistake():
    """The hand-kept copies are gone: no principles looked up by name, no catalogue tree, no
    ``Mistake(...)`` in the per-notebook check modules (they re-export the cards' checks)."""
    checks = ROOT / "src" / "attnlab" / "checks"
    assert not (checks / "_principles.py").exists()
    assert not (ROOT / "tests" / "catalogue").exists()
    listing = [p.name for p in checks.glob("[a-z]*.py") if "Mistake(" in p.read_text(encoding="utf-8")]
    assert not listing, f"check modules that list mistakes outside the cards: {listing}"


def test_mistake_names_are_unique_within_a_card():
    for c in CARDS:
        names = [m.name for m in c.mistakes]
        assert len(names) == len(set(names)), c.exercise
        assert all(isinstance(m, Mistake) for m in c.mistakes)


def test_explain_reads_the_card_in_a_fresh_kernel():
    """A feedback page's advice works in a new session: ``explain`` knows every exercise."""
    code = ("from attnlab.checks import explain\n"
            "explain('weighted_average')\nexplain('prediction_huge_scores')\nexplain('no_such_exercise')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "dividing by N (a mean of the weighted rows)" in out
    assert "Weights on the simplex already sum to one" in out
    assert "values (N, D)" in out
    assert "once you answer" in out and "largest score takes all" not in out  # no spoilers
    assert "no exercise of that name" in out


def test_the_docs_page_is_the_cards():
    """docs/mistakes.md is written from the cards: it says what the checks say."""
    out = subprocess.run([sys.executable, "-m", "attnlab.cards", "--out", str(ROOT / "docs" / "mistakes.md"),
                          "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    text = (ROOT / "docs" / "mistakes.md").read_text(encoding="utf-8")
    for c in CARDS:
        assert f"### `{c.exercise}`" in text
        for m in c.mistakes:
            assert m.name in text and m.principle in text
