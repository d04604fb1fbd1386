"""Figures that cannot go stale (issue 56): every duration, size and test count of the user's pages
(README.md, START.md, deploy/learner/START.md, CONTRIBUTING.md, docs/) is a span naming its
measurement in ``benchmarks/measured.json`` and agrees with it, no such figure is left outside a
span, every measurement is shown or tracked only, and every setting is what the code sets
(``tools/measured.py``; ``make figures`` prints each figure beside its measurement). Each check is
shown to fail on a page or a file that is wrong.
"""
from __future__ import annotations

import copy
import importlib.util
import json
import sys

from coursekit import ROOT

spec = importlib.util.spec_from_file_location("attnlab_measured", ROOT / "tools" / "measured.py")
measured = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = measured  # dataclasses look their module up
spec.loader.exec_module(measured)

DATA = measured.load(ROOT / "benchmarks" / "measured.json")


def _problems(texts, data=None):
    return measured.problems(ROOT, DATA if data is None else data, texts)


def _data(**figures):
    return {"figures": figures}


ENTRY = {"unit": "s", "command": "make release", "commit": "29a498f", "date": None, "cores": 2, "load": None}


def test_the_pages_agree_with_their_measurements():
    found = measured.problems(ROOT, DATA)
    assert not found, "figures of the user's pages (python tools/measured.py --check):\n" + "\n".join(found)


def test_every_page_is_read_and_marked():
    names = {p.relative_to(ROOT).as_posix() for p in measured.pages(ROOT)}
    assert {"README.md", "START.md", "CONTRIBUTING.md", "docs/grading.md", "docs/benchmarks.md",
            "docs/deploy.md", "deploy/learner/START.md"} <= names
    marked = {p.relative_to(ROOT).as_posix() for p in measured.pages(ROOT)
              if measured.markers(p.read_text(encoding="utf-8"))}
    assert {"README.md", "START.md", "docs/grading.md", "docs/benchmarks.md", "docs/deploy.md"} <= marked


def test_a_wrong_figure_fails():
    data = _data(release_all_s={**ENTRY, "value": 285})
    assert _problems({"p.md": 'in <span data-measured="release_all_s">4 min 45 s</span>'}, data) == []
    assert _problems({"p.md": 'in <span data-measured="release_all_s">4.75 min</span>'}, data) == []
    assert _problems({"p.md": 'in about <span data-measured="release_all_s">5 minutes</span>'}, data) == []
    for wrong in ("4 min 50 s", "2 minutes", "4.6 min", "285 ms"):
        found = _problems({"p.md": f'in <span data-measured="release_all_s">{wrong}</span>'}, data)
        assert len(found) == 1 and "p.md:1" in found[0] and "release_all_s" in found[0], (wrong, found)


def test_units_and_lists_are_compared_number_by_number():
    data = _data(range_s={**ENTRY, "value": [1.2, 5.4]}, peak={**ENTRY, "unit": "MiB", "value": [4.1, 5.5]})
    assert _problems({"p.md": '<span data-measured="range_s">1.2 to 5.4 s</span>, '
                              '<span data-measured="peak.0">4 MiB</span> and <span data-measured="peak.1">6 MiB</span>'},
                     data) == []
    assert _problems({"p.md": '<span data-measured="range_s">1.2 to 5.5 s</span>'}, data)
    assert _problems({"p.md": '<span data-measured="range_s">1.2 s</span>'}, data)          # a number missing
    assert _problems({"p.md": '<span data-measured="peak.1">6 s</span>'}, data)              # not a size
    assert _problems({"p.md": '<span data-measured="peak.2">6 MiB</span>'}, data)            # no such part
    assert _problems({"p.md": '<span data-measured="nothing">6 MiB</span>'}, data)           # no such key


def test_an_unmarked_figure_fails():
    data = _data(release_all_s={**ENTRY, "value": 285})
    shown = '<span data-measured="release_all_s">4 min 45 s</span>'
    for text in ("grading takes 0.9 s a submission", "the suite: 3,946 tests", "about 2 GiB", "in 25 min 40 s"):
        found = _problems({"p.md": f"{shown}\n\n{text}"}, data)
        assert len(found) == 1 and "p.md:3" in found[0] and "not marked" in found[0], (text, found)
    # code is an example, not a claim; a setting is marked as one
    assert _problems({"p.md": f"{shown}\n\n```\n0.9 s\n```\n`--timeout 60 s`"}, data) == []


def test_a_setting_is_marked_as_one_and_read_from_the_code():
    src = "src/attnlab/course/stages/handoff.py:Limits.cell_seconds"
    data = _data(cell_seconds={"kind": "setting", "value": 60, "unit": "s", "source": src})
    assert _problems({"p.md": 'a cell (<span data-setting="cell_seconds">60 s</span>)'}, data) == []
    assert _problems({"p.md": 'a cell (<span data-measured="cell_seconds">60 s</span>)'}, data)  # not a measurement
    stale = copy.deepcopy(data)
    stale["figures"]["cell_seconds"]["value"] = 90
    found = _problems({"p.md": 'a cell (<span data-setting="cell_seconds">90 s</span>)'}, stale)
    assert len(found) == 1 and "handoff.py" in found[0], found
    assert measured.setting_in_code(src, ROOT) == 60


def test_every_measurement_is_shown_or_tracked_only():
    data = _data(release_all_s={**ENTRY, "value": 285}, unused_s={**ENTRY, "value": 1})
    text = {"p.md": '<span data-measured="release_all_s">4 min 45 s</span>'}
    found = _problems(text, data)
    assert len(found) == 1 and "'unused_s' is shown by no page" in found[0], found
    data["figures"]["unused_s"]["tracked_only"] = True
    assert _problems(text, data) == []


def test_a_measurement_says_where_it_comes_from():
    entry = {k: v for k, v in ENTRY.items() if k != "commit"}
    found = _problems({"p.md": '<span data-measured="x">285 s</span>'}, _data(x={**entry, "value": 285}))
    assert len(found) == 1 and "lacks commit" in found[0], found


def test_set_records_the_provenance(tmp_path):
    path = tmp_path / "measured.json"
    path.write_text(json.dumps(_data(class_projection_min={**ENTRY, "unit": "min", "value": 39.7, "tracked_only": True})))
    assert measured.main(["--set", "class_projection_min", "18.2", "--command", "make bench-class LEARNERS=6",
                          "--load", "1.5", "--file", str(path)]) == 0
    e = json.loads(path.read_text())["figures"]["class_projection_min"]
    assert e["value"] == 18.2 and e["unit"] == "min" and e["load"] == 1.5 and e["tracked_only"] is True
    assert e["command"] == "make bench-class LEARNERS=6" and e["cores"] and e["date"] and e["commit"]
    # a page that still says 39.7 now disagrees with the measurement
    found = measured.problems(ROOT, json.loads(path.read_text()),
                              {"p.md": '<span data-measured="class_projection_min">39.7 min</span>'})
    assert len(found) == 1 and "18.2" in found[0], found
