"""Issue 26: ids are data in every page an instructor or learner opens. Each id nbgrader accepts
(markup, quotes, glob characters, a spreadsheet formula, the feedback's own folder names,
unicode) is printed as text by nbgrader's feedback page and formgrader's submission view (with
the course's escaping preprocessors, configured in autograde/nbgrader_config.py), by the status
page and the PrairieLearn question; and loaded in headless Chromium, none of them runs a script."""
from __future__ import annotations

import html
import json

import pytest

from attnlab.course import feedback, records

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]

HOSTILE = [
    "<img src=x onerror=window.__attnlab_pwned=1>",
    '"><script>window.__attnlab_pwned=1</script>',
    "</title><script>window.__attnlab_pwned=1</script>",
    "x' onmouseover='window.__attnlab_pwned=1",
    "lee [1]", "@b*c?[x]", "=cmd|' /C calc'!A0", "mathjax", ".mathjax", "ünï 学生 \u202e",
    "a&amp;b", "back\\slash",
]
MARKUP = [i for i in HOSTILE if "<" in i or '"' in i]   # a bare ' in text is harmless (Chromium test)


def _config():
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(ROOT / "autograde")).load_config()


def _notebook(path):
    nb = {"cells": [{"cell_type": "markdown", "id": "m", "metadata": {}, "source": "Hello"}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def feedback_page(tmp_path, ident: str) -> str:
    """nbgrader's feedback template, as GenerateFeedback renders it (its configured
    preprocessors, the gradebook's GetGrades replaced by the scores it would set)."""
    from nbconvert.exporters import HTMLExporter
    from nbconvert.preprocessors import Preprocessor

    config = _config()
    names = [p if isinstance(p, str) else f"{p.__module__}.{p.__name__}" for p in config.GenerateFeedback.preprocessors]
    assert names[-1] == "attnlab.course.feedback.EscapeFeedbackIds", names

    class FakeGrades(Preprocessor):  # what GetGrades adds, without a gradebook
        def preprocess(self, nb, resources):
            resources["nbgrader"].update(score=1.0, max_score=2.0, late_penalty=0.0)
            return nb, resources

    from nbgrader.converters import GenerateFeedback
    from nbgrader.coursedir import CourseDirectory

    import os
    import sys

    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # alembic
    config.CourseDirectory.root = str(tmp_path)
    converter = GenerateFeedback(coursedir=CourseDirectory(config=config), config=config)
    exporter = converter.exporter_class(parent=converter, config=converter.config)
    for pp in converter.preprocessors:  # as feedback.FeedbackWriter does, GetGrades faked
        name = pp if isinstance(pp, str) else getattr(pp, "__name__", type(pp).__name__)
        exporter.register_preprocessor(FakeGrades(enabled=True) if name.endswith("GetGrades") else pp)
    resources = {"nbgrader": {"student": ident, "assignment": ident, "notebook": ident, "db_url": "sqlite://"}}
    page, _ = exporter.from_filename(str(_notebook(tmp_path / "nb.ipynb")), resources=resources)
    return page


def formgrade_page(tmp_path, ident: str) -> str:
    """formgrader's submission view: its HTMLExporter with the course's configuration."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers

    config = _config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    resources = {"assignment_id": ident, "notebook_id": ident, "submission_id": "abc", "index": 0,
                 "total": 1, "base_url": "", "student": ident, "last_name": ident, "first_name": ident,
                 "notebook_path": f"autograded/{ident}/nb.ipynb"}
    page, _ = HTMLExporter(config=config).from_filename(str(_notebook(tmp_path / "nb.ipynb")), resources=resources)
    return page


def status_page(ident: str) -> str:
    return records.status_page(records.Result(student=ident, assignment=ident, notebook=f"{ident}.ipynb",
                                              status="missing", score=0.0, max_score=1.0, details=[ident]))


@pytest.mark.parametrize("render", [feedback_page, formgrade_page], ids=["feedback", "formgrader"])
@pytest.mark.parametrize("ident", HOSTILE)
def test_pages_print_ids_as_text(tmp_path, ident, render):
    page = render(tmp_path, ident)
    assert html.escape(ident) in page or html.escape(ident, quote=False) in page
    if ident in MARKUP:
        assert ident not in page


@pytest.mark.parametrize("ident", HOSTILE)
def test_status_page_prints_ids_as_text(ident):
    page = status_page(ident)
    if ident in MARKUP:
        assert ident not in page and html.escape(ident) in page


def test_prairielearn_question_prints_the_assignment_as_text():
    from attnlab.course import prairielearn

    ident = HOSTILE[0]
    text = prairielearn.QUESTION_HTML.format(notebook=html.escape(ident), assignment=html.escape(ident),
                                              optional=html.escape(prairielearn.OPTIONAL_FILES))
    assert ident not in text  # the call in export() escapes both; see test_no_script_runs for the pages
    import inspect

    assert "html.escape(assignment)" in inspect.getsource(prairielearn)


def test_escaping_runs_once():
    resources = {"nbgrader": {"student": "a&b", "assignment": "x", "notebook": "<n>"}}
    for _ in range(2):
        _, resources = feedback.EscapeFeedbackIds().preprocess(None, resources)
    assert resources["nbgrader"]["student"] == "a&amp;b" and resources["nbgrader"]["notebook"] == "&lt;n&gt;"
    top = {"student": "<s>", "unique_key": "<k>"}
    for _ in range(2):
        _, top = feedback.EscapeFormgraderIds().preprocess(None, top)
    assert top == {"student": "&lt;s&gt;", "unique_key": "<k>", "_attnlab_ids_escaped": True}


def test_no_script_runs_in_chromium(tmp_path):
    """Every page above, for every hostile id, loaded in headless Chromium: no payload ran, no
    element the id would have made exists, and the id shows as text."""
    pytest.importorskip("playwright.sync_api")
    from attnlab.course import site as sitelib

    if sitelib.find_chromium() is None:
        pytest.skip("no headless Chromium here (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    pages = []
    for n, ident in enumerate(HOSTILE):
        for kind, make in (("feedback", lambda d: feedback_page(d, ident)),
                           ("formgrader", lambda d: formgrade_page(d, ident)),
                           ("status", lambda d: status_page(ident))):
            folder = tmp_path / f"{kind}-{n}"
            folder.mkdir()
            text = make(folder)
            (folder / "page.html").write_text(text, encoding="utf-8")
            pages.append((ident, kind, folder / "page.html"))
    with sync_playwright() as p:
        browser = sitelib.launch_browser(p)
        try:
            for ident, kind, path in pages:
                page = browser.new_page()
                page.goto(path.as_uri(), wait_until="load", timeout=60_000)
                page.wait_for_timeout(100)
                for element in page.query_selector_all("body *")[:100]:
                    try:
                        element.hover(timeout=200)
                    except Exception:  # noqa: BLE001 - hidden or covered elements
                        pass
                state = page.evaluate("""() => ({
                    pwned: window.__attnlab_pwned !== undefined,
                    injected: [...document.querySelectorAll('img[src=x], [onerror], [onmouseover]')].length,
                    scripts: [...document.scripts].filter(s => s.textContent.includes('__attnlab_pwned')
                                                          && !s.textContent.includes('&')).length,
                    text: document.body.innerText + document.title,
                })""")
                where = f"{ident!r} in {kind}"
                assert not state["pwned"], f"a script ran: {where}"
                assert state["injected"] == 0, (where, state["injected"])
                if kind != "formgrader":  # formgrader's JS strings keep the id escaped; its page shows it
                    assert ident.strip() in state["text"] or ident in state["text"], where
                page.close()
        finally:
            browser.close()
