"""The course maps name every notebook with its solution.

``START.md`` (the Lab's start page) and the README's "Course map" table each have one row per
notebook of ``solutions/``, with a link to the notebook the learner fills in (``notebooks/``) and
to its solution, and no row for a notebook that does not exist. A new notebook in ``solutions/``
fails here until both maps list it. ``START.md`` also links the tutor policy for coding
assistants, ``AGENTS.md``, which the learner's Lab must not hide.
"""
from __future__ import annotations

import fnmatch
import re
import types

import pytest

import coursekit as ck

ASSIGNMENTS = ck.assignments()
ROW = re.compile(r"^\|\s*(\d+)\s*\|(.*)$", re.M)
LINK = re.compile(r"\]\(([^)\s#]+)\)")


def rows(table: str) -> dict[str, str]:
    """``{number: the rest of its row}`` of the markdown table rows in ``table``."""
    return {m.group(1).zfill(2): m.group(2) for m in ROW.finditer(table)}


def readme_course_map() -> str:
    text = (ck.ROOT / "README.md").read_text(encoding="utf-8")
    _, found, rest = text.partition("\n## Course map\n")
    assert found, 'README.md has no "## Course map" section'
    return re.split(r"\n#{2,3} ", rest, maxsplit=1)[0]


def start_page() -> str:
    return (ck.ROOT / "START.md").read_text(encoding="utf-8")


MAPS = {"START.md": start_page, "README.md's course map": readme_course_map}


def missing(table: str, assignments: list[str]) -> list[str]:
    """What a course map lacks: a row, a notebook link or a solution link per assignment, and
    rows for notebooks that ``solutions/`` does not have."""
    found = rows(table)
    out = []
    for a in assignments:
        number, name = a.split("_", 1)
        row = found.get(number)
        if row is None:
            out.append(f"{a}: no row")
            continue
        for folder in ("notebooks", "solutions"):
            if f"]({folder}/{a}/{a}.ipynb)" not in row:
                out.append(f"{a}: no link to {folder}/{a}/{a}.ipynb")
    numbers = {a.split("_", 1)[0] for a in assignments}
    out += [f"row {n}: no notebook {n}_* in solutions/" for n in sorted(set(found) - numbers)]
    return out


@pytest.mark.parametrize("where", MAPS)
def test_course_map_names_every_notebook_with_its_solution(where):
    table = MAPS[where]()
    assert not (problems := missing(table, ASSIGNMENTS)), f"{where}:\n" + "\n".join(problems)
    for link in LINK.findall(table):
        if not link.startswith(("http://", "https://")):
            assert (ck.ROOT / link).exists(), f"{where} links to {link}, which does not exist"


def test_the_check_fails_on_a_missing_notebook_or_solution():
    table = start_page()
    extra = ASSIGNMENTS + ["99_new_notebook"]
    assert missing(table, extra) == ["99_new_notebook: no row"]
    no_solution = re.sub(r"\(solutions/[^)]*\)", "(solutions/)", table, count=1)
    assert len(missing(no_solution, ASSIGNMENTS)) == 1
    assert missing(table, ASSIGNMENTS[:-1]) == [f"row {ASSIGNMENTS[-1][:2]}: no notebook "
                                                f"{ASSIGNMENTS[-1][:2]}_* in solutions/"]


def _hidden_globs() -> list[str]:
    """``ContentsManager.hide_globs`` of the learner's Lab config, read without starting it."""
    config = types.SimpleNamespace()
    config.ServerApp = types.SimpleNamespace()
    config.LabApp = types.SimpleNamespace()
    config.ContentsManager = types.SimpleNamespace(hide_globs=[])
    path = ck.ROOT / "deploy" / "learner_lab_config.py"
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"),
         {"get_config": lambda: config, "__file__": str(path)})
    return list(config.ContentsManager.hide_globs)


def test_start_page_links_the_tutor_policy_and_the_lab_shows_it():
    policy = ck.ROOT / "AGENTS.md"
    assert policy.is_file()
    assert "](AGENTS.md)" in start_page()
    assert len(policy.read_text(encoding="utf-8").splitlines()) < 40, "AGENTS.md: keep it short"
    hidden = _hidden_globs()
    assert hidden, "the Lab config hides nothing? the test reads it wrongly"
    assert not any(fnmatch.fnmatch("AGENTS.md", g) for g in hidden), "the Lab hides AGENTS.md"
