"""The repository as a map: CONTRIBUTING.md's "The map of the repository" names every module under
``src/attnlab/`` (the library, its torch twins, the checks, the cards' machinery, ``course/`` and
``course/stages/``), read from the tree as it is, so a new module fails here until the map has its
row. Cards (``cards/<exercise>.py``) share one row; ``tests/test_contract_doc.py`` holds each of
them to a row of docs/contract.md. Every path the map names exists (a module renamed or removed
leaves no stale row), and so does every test file it says a module is tested in.

And the repository refers to nothing outside itself: no tracked text file points at
``../shared/`` or the course definition that lived there, and the README's test command is what
``.ci/run`` runs.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import coursekit as ck
from attnlab.cards import all_cards

ROOT = ck.ROOT
PACKAGE = ROOT / "src" / "attnlab"
CODE = re.compile(r"`([^`\s]+)`")


def the_map() -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    _, found, rest = text.partition("\n## The map of the repository\n")
    assert found, 'CONTRIBUTING.md has no "## The map of the repository" section'
    return re.split(r"\n## ", rest, maxsplit=1)[0]


def modules() -> list[str]:
    """Every module of the package, as a path from the repository root; a card's module is its
    pattern's row."""
    cards = {c.exercise for c in all_cards()}
    out = set()
    for path in PACKAGE.rglob("*.py"):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(ROOT).as_posix()
        if path.parent == PACKAGE / "cards" and path.stem in cards:
            rel = "src/attnlab/cards/<exercise>.py"
        out.add(rel)
    return sorted(out)


def missing_from(map_text: str, paths: list[str]) -> list[str]:
    named = set(CODE.findall(map_text))
    return [p for p in paths if p not in named]


def test_every_module_is_on_the_map():
    missing = missing_from(the_map(), modules())
    assert not missing, ("modules CONTRIBUTING.md's map of the repository does not name (add a row "
                         "under their folder's heading):\n" + "\n".join(missing))


def test_every_file_the_map_names_exists():
    stale = []
    for path in CODE.findall(the_map()):
        if not re.match(r"(src|tests|tools|benchmarks|deploy|docs|autograde|solutions|notebooks)/|[A-Z]+\.md$", path):
            continue
        if "<" in path or "*" in path or path.startswith(("build/",)):
            continue
        if not (ROOT / path).exists():
            stale.append(path)
    assert not stale, "CONTRIBUTING.md's map names files that do not exist:\n" + "\n".join(stale)


def test_the_map_check_fails_on_a_new_module():
    text = the_map()
    assert missing_from(text, modules() + ["src/attnlab/course/new_module.py"]) == ["src/attnlab/course/new_module.py"]
    assert missing_from(text.replace("`src/attnlab/course/stages/judge.py`", "judge"), modules()) == \
        ["src/attnlab/course/stages/judge.py"]


def _tracked_text_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    keep = (".py", ".md", ".txt", ".toml", ".cfg", ".sh", ".yml", ".yaml", ".sbatch", ".j2", ".json", "Makefile", "run")
    return [f for f in out if f and f.endswith(keep) and not f.startswith("tests/heldout/")
            and not f.endswith(".ipynb")]


def test_nothing_refers_outside_the_repository():
    """A clone has no ``../shared/``: the course definition is docs/contract.md."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    outside = re.compile(r"\.\./shared\b|\bshared/(COURSE|STYLE)\.md|\bCOURSE\.md\b|\bSTYLE\.md\b")
    found = []
    for rel in _tracked_text_files():
        path = ROOT / rel
        if path == ROOT / "tests" / "test_file_map.py" or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if outside.search(line):
                found.append(f"{rel}:{number}: {line.strip()[:120]}")
    assert not found, "references outside the repository (point to docs/contract.md instead):\n" + "\n".join(found)


def test_ci_runs_the_readmes_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    _, found, rest = readme.partition("\n## Two commands\n")
    assert found, 'README.md has no "## Two commands" section'
    block = re.search(r"```bash\n(.*?)```", rest, re.S)
    assert block, "the README's two commands are not in a bash block"
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert commands[:2] == ["make lab", "make test"], commands
    head = readme.split("\n## Course map\n")[0].splitlines()
    assert next(i for i, line in enumerate(head) if line.split("#")[0].strip() == "make test") < 50, \
        "the two commands must be on the README's first screen"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.split("#")[0].strip() for line in ci.splitlines()]
    assert any(re.search(r"(^|[;&|(\s])make test(\s|$)", line) for line in lines), \
        ".ci/run no longer runs the README's test command, `make test`"


def test_the_readme_stays_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: move the detail to docs/"


LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(path) -> set[str]:
    """GitHub's anchors of a markdown file's headings."""
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(r"#{1,6} ", line):
            out.add(re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-"))
    return out


def test_the_docs_links_resolve():
    """Every relative link of the README, CONTRIBUTING.md, START.md and docs/ leads to a file of
    the repository, and an anchor to one of its headings."""
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "START.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for link in LINK.findall(page.read_text(encoding="utf-8")):
            if link.startswith(("http://", "https://", "mailto:")):
                continue
            target, _, anchor = link.partition("#")
            path = (page.parent / target).resolve() if target else page
            if not path.exists() or ROOT.resolve() not in (path, *path.parents):
                broken.append(f"{page.relative_to(ROOT)}: {link} (no such file in the repository)")
            elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
                broken.append(f"{page.relative_to(ROOT)}: {link} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_checks_are_named_after_their_notebooks():
    """One naming scheme (issue 42): each module of ``attnlab.checks`` that a notebook's cards
    share carries that notebook's name without its number, so that looking for "07" by file
    name finds ``checks/rnn_translation_with_attention.py`` as it finds the notebook."""
    notebooks = {p.name[3:] for p in (ROOT / "solutions").iterdir() if p.is_dir() and p.name[:2].isdigit()}
    modules = {p.stem for p in (PACKAGE / "checks").glob("*.py") if not p.stem.startswith("_")}
    assert modules, "attnlab.checks has no public module"
    strays = sorted(modules - notebooks)
    assert not strays, f"checks modules not named after a notebook: {strays} (notebooks: {sorted(notebooks)})"


def test_the_cards_are_named_after_their_exercises():
    """The rule's second row (CONTRIBUTING.md, "Names"): ``cards/<exercise>.py`` holds the card of
    ``<exercise>``, the name the learner writes, so a search for an exercise by file name finds it."""
    wrong = [(card.exercise, module.__name__) for module in cards_modules()
             for card in [module.CARD] if module.__name__.rsplit(".", 1)[1] != card.exercise]
    assert not wrong, f"cards whose file is not named after their exercise: {wrong}"


def cards_modules():
    from attnlab.cards import modules as card_modules
    return card_modules()


def test_the_files_page_is_what_the_code_gives():
    """docs/files.md (every file of each exercise) is generated; a card, a reference or a test
    moved without regenerating it fails here."""
    from attnlab.cards import _files
    page = (ROOT / "docs" / "files.md").read_text(encoding="utf-8")
    assert page == _files.render(ROOT), "docs/files.md is stale: run python -m attnlab.cards --files --out docs/files.md"


def test_the_files_page_finds_every_part_of_an_exercise():
    """The page's rows are true: every path exists, and defines or names the exercise (the checks
    module: is named after its notebook); every
    exercise with a numpy reference has its torch twin or says it has none; and a search of the
    page for ``masked_softmax`` finds all six kinds of file (notebook, reference, twin, card,
    checks, tests)."""
    from attnlab.cards import _files
    rows = {row["exercise"]: row for row in _files.rows(ROOT)}
    assert set(rows) == {c.exercise for c in all_cards()}
    for name, row in rows.items():
        for key in ("numpy", "torch"):
            if row[key]:
                text = (ROOT / row[key]).read_text(encoding="utf-8")
                assert re.search(rf"^(def|class) {re.escape(name)}\b", text, re.M), (name, key, row[key])
        for path in (row["notebook"], row["card"], *row["tests"]):
            assert name in (ROOT / path).read_text(encoding="utf-8"), (name, path)
        if row["checks"]:  # the module the notebook's cards share: named after the notebook
            assert (ROOT / row["checks"]).is_file() and Path(row["checks"]).stem in row["notebook"], (name, row)
    masked = rows["masked_softmax"]
    assert all(masked[k] for k in ("notebook", "numpy", "torch", "card", "checks", "tests"))
    assert (masked["numpy"], masked["checks"]) == ("src/attnlab/masks.py",
                                                    "src/attnlab/checks/masks_and_cross_attention.py")
