"""The workshop site (`make site`) and its PDFs (`make handouts`), checked as a reader meets them:
in a real headless Chromium, opened from file://, with no network.

The site is built once per test session (shared by the xdist workers through a file lock), with
`NBGRADER_EXECUTION=1` so that the training notebooks run their small configurations
(`ATTNLAB_SITE_BUILT=build/site` checks a site built by `make site` instead). The
browser tests skip where no Chromium is installed (a laptop); `.ci/run` installs Debian's.
"""
from __future__ import annotations

import html
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest

from attnlab.course import site as sitelib
from coursekit import ROOT, load, release_path, solution_cells, solution_path

# one worker runs them all (`make test` uses --dist loadgroup), so the other keeps running the
# rest of the suite while this one builds the site
pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("site")]

NOTEBOOKS = [nb.name for nb in sitelib.discover(ROOT)]  # listed from solutions/: new ones join
if os.environ.get("ATTNLAB_SITE_NOTEBOOKS"):  # a developer's shortcut: a few notebooks only
    NOTEBOOKS = [n for n in NOTEBOOKS if n in os.environ["ATTNLAB_SITE_NOTEBOOKS"].split(",")]

try:
    import playwright.sync_api  # noqa: F401
    _PLAYWRIGHT = True
except ImportError:  # pragma: no cover
    _PLAYWRIGHT = False

needs_browser = pytest.mark.skipif(
    not _PLAYWRIGHT or sitelib.find_chromium() is None,
    reason="no headless Chromium here (Debian: apt-get install chromium; .ci/run installs it in CI)",
)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    from filelock import FileLock

    if os.environ.get("ATTNLAB_SITE_BUILT"):  # check a site already built (`make site`)
        return Path(os.environ["ATTNLAB_SITE_BUILT"]).resolve()
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # shared by the workers of this session
    out = base / "attnlab-site"
    with FileLock(str(out) + ".lock"):
        if not (out / "index.html").is_file():
            old = os.environ.get("NBGRADER_EXECUTION")
            os.environ["NBGRADER_EXECUTION"] = "1"  # the small training configurations
            try:
                sitelib.build_site(ROOT, out, jobs=1, only=NOTEBOOKS, log=lambda *_: None)
            finally:
                if old is None:
                    os.environ.pop("NBGRADER_EXECUTION", None)
                else:
                    os.environ["NBGRADER_EXECUTION"] = old
    return out


def _pages(site: Path) -> list[Path]:
    return [site / "index.html"] + [site / e / f"{n}.html" for e in sitelib.EDITIONS for n in NOTEBOOKS]


def _soup(page: Path):
    from bs4 import BeautifulSoup

    return BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")


def _text(page: Path) -> str:
    return _soup(page).get_text()


# ---------------------------------------------------------------------------------------------
# Unit tests of the two transformations (no execution)


def test_worked_source_drops_hidden_tests_and_markers(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("def f(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"),
        nbformat.v4.new_code_cell('check(f)\n### BEGIN HIDDEN TESTS\ncheck(f, hidden=True)\n### END HIDDEN TESTS'),
    ]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    out = sitelib.worked_source(path)
    assert out.cells[0].source == "def f(x):\n    return 2 * x"
    assert out.cells[1].source == "check(f)"


def test_learner_dependent_outputs_are_dropped():
    nb = nbformat.v4.new_notebook()
    error = nbformat.v4.new_output("error", ename="NotImplementedError", evalue="", traceback=["..."])
    figure = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="})
    nb.cells = [
        nbformat.v4.new_code_cell("plot_reference()", outputs=[figure]),
        nbformat.v4.new_code_cell("print(softmax(x))", outputs=[error]),
        nbformat.v4.new_code_cell("check_softmax(softmax)", outputs=[nbformat.v4.new_output("stream", text="x")]),
        nbformat.v4.new_code_cell("def softmax(x): ...", outputs=[nbformat.v4.new_output("stream", text="y")]),
    ]
    nb.cells[2].metadata["nbgrader"] = {"grade": True, "grade_id": "t", "points": 1}
    nb.cells[3].metadata["nbgrader"] = {"solution": True, "grade_id": "s"}
    assert sitelib.strip_learner_outputs(nb) == 3
    assert [len(c.outputs) for c in nb.cells] == [1, 0, 0, 0]


def test_widgets_are_dropped():
    nb = nbformat.v4.new_notebook()
    bar = nbformat.v4.new_output("display_data", data={sitelib.WIDGET_VIEW: {"model_id": "m"}, "text/plain": "HBox()"})
    line = nbformat.v4.new_output("stream", text="loss 0.1")
    nb.cells = [nbformat.v4.new_code_cell("train()", outputs=[bar, line])]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    sitelib.drop_widgets(nb)
    assert nb.cells[0].outputs == [line] and "widgets" not in nb.metadata


def test_discover_names_unknown_notebooks():
    with pytest.raises(sitelib.SiteError, match="expected notebooks among"):
        sitelib.discover(ROOT, only=["99_nothing"])


# ---------------------------------------------------------------------------------------------
# The built site, read as files


def test_every_notebook_has_both_editions_and_an_index_entry(site):
    index = (site / "index.html").read_text(encoding="utf-8")
    for name in NOTEBOOKS:
        for edition in sitelib.EDITIONS:
            assert (site / edition / f"{name}.html").is_file(), f"{edition}/{name}.html was not built"
            assert f'href="{edition}/{name}.html"' in index, f"the index does not link {edition}/{name}"
    assert "Who it is for" in index and "make lab" in index, "the index lacks the README's audience and set-up"


def _solution_lines(name: str) -> set[str]:
    """Lines of the solution code that appear nowhere in the student notebook: the answers.
    (A line the prompt itself shows, such as the attribute names a module must have, is no leak.)"""
    student = load(release_path(name))
    student_text = "\n".join("".join(c["source"]) for c in student["cells"])
    answers = set()
    for cell in solution_cells(load(solution_path(name))).values():
        source = "".join(cell["source"])
        for block in re.findall(r"BEGIN SOLUTION[^\n]*\n(.*?)\n[ \t]*#+ *END SOLUTION", source, re.S):
            for line in block.splitlines():
                line = line.strip()
                if len(line) >= 12 and not line.startswith("#") and line not in student_text:
                    answers.add(line)
    return answers


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_handout_has_no_answers_and_no_hidden_tests(site, name):
    worked = html.unescape(_text(site / "worked" / f"{name}.html"))
    handout = html.unescape(_text(site / "handout" / f"{name}.html"))
    answers = _solution_lines(name)
    assert answers, f"{name}: no solution lines found to look for"
    shown = {line for line in answers if line in worked}
    # the same search finds the answers in the worked edition, so it can find them in the handout
    assert len(shown) >= 0.9 * len(answers), f"{name}: worked edition misses solution code: {sorted(answers - shown)[:5]}"
    leaked = sorted(line for line in answers if line in handout)
    assert not leaked, f"{name}: the handout shows solution code: {leaked[:5]}"
    for text, edition in ((worked, "worked"), (handout, "handout")):
        for marker in ("BEGIN SOLUTION", "END SOLUTION", "HIDDEN TESTS", "hidden=True"):
            assert marker not in text, f"{edition}/{name} shows {marker!r}"
    assert "Traceback (most recent call last)" not in handout, f"handout/{name} shows a traceback"
    assert "not right yet" not in handout, f"handout/{name} shows a check's verdict on the blank stub"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_worked_edition_is_executed_with_figures(site, name):
    soup = _soup(site / "worked" / f"{name}.html")
    assert "Traceback (most recent call last)" not in soup.get_text(), f"worked/{name} shows a traceback"
    figures = soup.select(".jp-OutputArea-output img")
    handout_figures = _soup(site / "handout" / f"{name}.html").select(".jp-OutputArea-output img")
    assert figures, f"worked/{name} has no figure"
    assert len(handout_figures) <= len(figures)


def test_handout_keeps_the_figures_that_need_no_learner_code(site):
    counts = {n: len(_soup(site / "handout" / f"{n}.html").select(".jp-OutputArea-output img")) for n in NOTEBOOKS}
    assert counts[NOTEBOOKS[0]] > 0, f"handout figures per notebook: {counts}"


def _links(page: Path) -> list[str]:
    return [a["href"] for a in _soup(page).select("a[href]")]


def test_navigation_links_resolve(site):
    """Every link that stays in the site points to a page that exists (and an anchor in it)."""
    ids: dict[Path, set[str]] = {}
    for page in _pages(site):
        for href in _links(page):
            url = urlparse(href)
            if url.scheme in ("http", "https", "mailto"):
                continue
            assert not url.scheme, f"{page.relative_to(site)}: link {href!r} leaves the site"
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            assert target.is_file(), f"{page.relative_to(site)}: link {href!r} leads nowhere"
            assert site.resolve() in target.parents, f"{page.relative_to(site)}: link {href!r} leaves the site"
            if url.fragment:
                if target not in ids:
                    ids[target] = {el["id"] for el in _soup(target).select("[id]")}
                # nbconvert writes heading ids percent-encoded as in its links; browsers try both
                found = url.fragment in ids[target] or unquote(url.fragment) in ids[target]
                assert found, f"{page.relative_to(site)}: no #{url.fragment} in {target.name}"
    # previous / next chain through every notebook, in both editions
    for edition in sitelib.EDITIONS:
        for i, name in enumerate(NOTEBOOKS):
            soup = _soup(site / edition / f"{name}.html")
            nxt = soup.select_one('nav.attnlab-nav a[rel="next"]')
            if i + 1 < len(NOTEBOOKS):
                assert nxt is not None and nxt["href"] == f"{NOTEBOOKS[i + 1]}.html"
            else:
                assert nxt is None
            assert soup.select_one("nav.attnlab-nav a.home")["href"] == "../index.html"


def test_no_page_loads_anything_from_the_network(site):
    for page in _pages(site):
        soup = _soup(page)
        for tag, attr in (("script", "src"), ("link", "href"), ("img", "src"), ("iframe", "src")):
            for el in soup.find_all(tag):
                url = el.get(attr) or ""
                assert not re.match(r"(https?:)?//", url), f"{page.relative_to(site)} loads {url}"


# ---------------------------------------------------------------------------------------------
# In the browser

# What a reader sees, measured in the page once MathJax has finished.
PAGE_REPORT = """() => {
    const skip = el => el.closest('pre, code, .MathJax, .MathJax_Display, .MJX_Assistive_MathML, script');
    const texts = [];
    document.querySelectorAll('.jp-RenderedMarkdown, .jp-RenderedHTMLCommon').forEach(md => {
        const walker = document.createTreeWalker(md, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (!skip(n.parentElement)) texts.push(n.textContent);
        }
    });
    const text = texts.join(' ');
    const imgs = Array.from(document.images);
    return {
        raw_math: (text.match(/.{0,30}(\\$|\\\\\\(|\\\\\\[).{0,30}/g) || []),
        typeset: document.querySelectorAll('.MathJax, .MathJax_Display').length,
        math_errors: document.querySelectorAll('.MathJax .merror, .MathJax_Error, .noError').length,
        images: imgs.length,
        broken_images: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src.slice(0, 60)),
    };
}"""


@needs_browser
def test_every_page_loads_cleanly_in_chromium(site):
    from playwright.sync_api import sync_playwright

    problems = []
    with sync_playwright() as p:
        browser = sitelib.launch_browser(p)
        try:
            tab = browser.new_page()
            events: list[str] = []
            tab.on("console", lambda m: events.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
            tab.on("pageerror", lambda e: events.append(f"page error: {e}"))
            tab.on("requestfailed", lambda r: events.append(f"failed request: {r.url} ({r.failure})"))
            tab.on("request", lambda r: events.append(f"request off the site: {r.url}")
                   if not r.url.startswith(("file://", "data:")) else None)
            for page in _pages(site):
                events.clear()
                sitelib.open_page(tab, page.as_uri())
                report = tab.evaluate(PAGE_REPORT)
                where = str(page.relative_to(site))
                problems += [f"{where}: {e}" for e in events]
                problems += [f"{where}: raw maths left: {t!r}" for t in report["raw_math"]]
                problems += [f"{where}: a figure did not load: {s}" for s in report["broken_images"]]
                if report["math_errors"]:
                    problems.append(f"{where}: {report['math_errors']} MathJax errors")
                if page.parent != site and not report["typeset"]:
                    problems.append(f"{where}: no equation was typeset")
        finally:
            browser.close()
    assert not problems, "\n".join(problems[:30])


@needs_browser
def test_pdf_prints_figures_and_maths(site, tmp_path):
    name = NOTEBOOKS[0]
    pdfs = sitelib.print_pdfs(site, tmp_path, only=[name], log=lambda *_: None)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in pdfs) == [f"handout/{name}.pdf", f"worked/{name}.pdf"]
    for pdf in pdfs:
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF-")
        pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
        assert pages >= 2, f"{pdf.name}: {pages} page(s)"
        assert b"/Subtype /Image" in data, f"{pdf.relative_to(tmp_path)} has no figure"
        # MathJax's STIX web fonts embedded: the maths was typeset, not printed as $...$
        assert b"STIXMathJax" in data, f"{pdf.relative_to(tmp_path)} has no typeset maths"
