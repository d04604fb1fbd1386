"""Why the course's text form (attnlab.course.nbtext) and not jupytext's percent format
(CONTRIBUTING.md, "Editing a notebook as text"): on every solution notebook, jupytext's percent
round trip keeps sources, cell types and the nbgrader metadata, but not the cell ids, which the
course relies on (the generated header, diffs of committed notebooks, feedback matching the
learner's cells); nbtext keeps all four. If a jupytext release starts keeping ids, the first
test fails and the choice is worth revisiting."""
from __future__ import annotations

import json

import pytest

import coursekit as ck
from attnlab.course import nbtext

jupytext = pytest.importorskip("jupytext")
nbformat = pytest.importorskip("nbformat")


def _cells(nb) -> list[tuple]:
    return [(c["cell_type"], c["source"] if isinstance(c["source"], str) else "".join(c["source"]),
             json.dumps(c.get("metadata", {}).get("nbgrader"), sort_keys=True), c.get("id")) for c in nb["cells"]]


@pytest.mark.parametrize("assignment", ck.assignments())
def test_jupytext_percent_keeps_nbgrader_metadata_but_not_cell_ids(assignment):
    path = ck.solution_path(assignment)
    nb = nbformat.read(path, as_version=4)
    back = jupytext.reads(jupytext.writes(nb, fmt="py:percent"), fmt="py:percent")
    before, after = _cells(nb), _cells(back)
    assert [c[:3] for c in after] == [c[:3] for c in before], "jupytext lost sources, types or nbgrader metadata"
    assert [c[3] for c in after] != [c[3] for c in before], "jupytext now keeps cell ids: reconsider nbtext"


@pytest.mark.parametrize("assignment", ck.assignments())
def test_nbtext_keeps_everything(assignment):
    nb = json.loads(ck.solution_path(assignment).read_text(encoding="utf-8"))
    back = nbtext.build(nbtext.export(nb))
    assert _cells(back) == _cells(nbtext.canonical(nb))
