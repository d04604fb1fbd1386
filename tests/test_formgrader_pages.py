"""Issue 26: formgrader's own pages (manage assignments, an assignment's submissions, the
gradebook by assignment and by notebook, manage students, a student's assignments and notebooks,
the submission view) print hostile student ids, names and an assignment name as text. A real
Jupyter server with nbgrader's formgrader and the course's attnlab.course.formgrader_pages
extension, as deploy/jupyterhub_config.py starts an instructor's, serves a gradebook of such
students; headless Chromium opens every page, waits for its rows, and no script runs."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.parse

import pytest

from coursekit import ROOT
from test_hostile_ids import HOSTILE
from test_lab import TOKEN, _free_port, stop, wait_for

from attnlab.course import formgrader_pages

EXTENSIONS = {"nbgrader.server_extensions.formgrader": True, "attnlab.course.formgrader_pages": True}
ASSIGNMENT = "hw <img src=x onerror=window.__attnlab_pwned=2>"
NOTEBOOK = "nb"
LAST = '"><script>window.__attnlab_pwned=3</script>'


def test_hub_enables_the_extension_next_to_formgrader():
    text = (ROOT / "deploy" / "jupyterhub_config.py").read_text(encoding="utf-8")
    assert "'attnlab.course.formgrader_pages': True" in text


def test_script_strings_become_json():
    out = formgrader_pages.script_strings_as_json(
        '<li>{{ a }}</li>\n<script>\nvar a = "{{ a }}";\nvar b = "{{b}}";\n</script>\n<pre>"{{ a }}"</pre>')
    assert out == '<li>{{ a }}</li>\n<script>\nvar a = {{ a|tojson }};\nvar b = {{ b|tojson }};\n</script>\n<pre>"{{ a }}"</pre>'
    assert "{{ student_id|path_segment|tojson }}" in formgrader_pages.script_strings_as_json(
        '<script>var student_id = "{{ student_id }}";</script>')
    from nbgrader.server_extensions.formgrader import handlers

    env = formgrader_pages.escaping_environment([handlers.template_path])
    page = env.get_template("manage_students_assignments.tpl").render(student_id=HOSTILE[1], base_url="")
    assert HOSTILE[1] not in page
    assert f"var student_id = {json.dumps(urllib.parse.quote(HOSTILE[1], safe=''))};" in page
    assert "&#34;&gt;&lt;script&gt;" in page  # the breadcrumb


def _course(tmp_path):
    """A course folder whose gradebook has one hostile assignment and a submission of it by each
    hostile student id (named hostilely too), its source, submitted and autograded notebooks on disk."""
    from nbgrader.api import Gradebook

    course = tmp_path / "course"
    (course / "autograde").mkdir(parents=True)
    nb = {"cells": [{"cell_type": "code", "execution_count": 1, "id": "c", "outputs": [], "source": "x = 1",
                     "metadata": {"nbgrader": {"grade": True, "grade_id": "g", "points": 1, "solution": False,
                                               "locked": True, "schema_version": 3}}}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    with Gradebook("sqlite:///" + str(course / "autograde" / "gradebook.db")) as gb:
        gb.update_or_create_assignment(ASSIGNMENT)
        gb.update_or_create_notebook(NOTEBOOK, ASSIGNMENT)
        gb.update_or_create_grade_cell("g", NOTEBOOK, ASSIGNMENT, max_score=1.0, cell_type="code")
        for ident in HOSTILE:
            gb.add_student(ident, first_name=ident, last_name=LAST)
            gb.add_submission(ASSIGNMENT, ident)
            folder = course / "autograde" / "autograded" / ident / ASSIGNMENT
            folder.mkdir(parents=True)
            (folder / f"{NOTEBOOK}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
            sub = course / "autograde" / "submitted" / ident / ASSIGNMENT
            sub.mkdir(parents=True)
            (sub / f"{NOTEBOOK}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
        source = course / "solutions" / ASSIGNMENT  # formgrader lists the assignments found here
        source.mkdir(parents=True)
        (source / f"{NOTEBOOK}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
        ids = {s.student.id: s.id for s in gb.notebook_submissions(NOTEBOOK, ASSIGNMENT)}
    return course, ids


@pytest.fixture(scope="module")
def formgrader(tmp_path_factory):
    if os.environ.get("ATTNLAB_FORMGRADER_UNPATCHED"):  # to see the test fail without the fix
        EXTENSIONS.pop("attnlab.course.formgrader_pages")
    bin_path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # alembic
    saved = os.environ.get("PATH")
    os.environ["PATH"] = bin_path
    try:
        course, submissions = _course(tmp_path_factory.mktemp("fg"))
    finally:
        os.environ["PATH"] = saved
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path_factory.mktemp("jupyter-config"))  # no user config
    env["JUPYTER_CONFIG_PATH"] = str(ROOT / "autograde")  # the course's nbgrader_config.py, as on the hub
    env["ATTNLAB_COURSE_ROOT"] = str(course)
    env["PATH"] = bin_path
    env["ATTNLAB_EXCHANGE"] = str(tmp_path_factory.mktemp("exchange"))
    cmd = [sys.executable, "-m", "jupyter_server", f"--port={port}", f"--ServerApp.token={TOKEN}",
           f"--ServerApp.root_dir={course}", "--ServerApp.open_browser=False", "--allow-root",
           f"--ServerApp.jpserver_extensions={EXTENSIONS!r}"]
    proc = subprocess.Popen(cmd, cwd=course, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/api/status", proc)
        yield base, submissions
    finally:
        stop(proc)


def _q(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def _pages(submissions):
    """(path, texts the page must show) for every formgrader page an instructor opens."""
    a = _q(ASSIGNMENT)
    yield "manage_assignments", [ASSIGNMENT]
    yield f"manage_submissions/{a}", [ASSIGNMENT, *HOSTILE]
    yield "gradebook", [ASSIGNMENT]
    yield f"gradebook/{a}", [ASSIGNMENT, NOTEBOOK]
    yield f"gradebook/{a}/{NOTEBOOK}", [NOTEBOOK]
    yield "manage_students", HOSTILE
    for ident in HOSTILE:
        yield f"manage_students/{_q(ident)}", [ident, ASSIGNMENT]
        yield f"manage_students/{_q(ident)}/{a}", [ident, ASSIGNMENT, NOTEBOOK]
        yield f"submissions/{submissions[ident]}/", []


ROWS_DONE = """() => {
    const t = document.querySelector('#main-table');
    return !t || !t.innerText.includes('Loading, please wait');
}"""


def test_no_script_runs_in_formgrader_pages(formgrader):
    pytest.importorskip("playwright.sync_api")
    from attnlab.course import site as sitelib

    if sitelib.find_chromium() is None:
        pytest.skip("no headless Chromium here (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    base, submissions = formgrader
    failures = []
    with sync_playwright() as p:
        browser = sitelib.launch_browser(p)
        try:
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{base}/formgrader/?token={TOKEN}", wait_until="load", timeout=60_000)  # logs in
            page.close()
            for path, texts in _pages(submissions):
                page = context.new_page()
                dialogs = []
                page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                response = page.goto(f"{base}/formgrader/{path}", wait_until="load", timeout=60_000)
                assert response.status == 200, (path, response.status)
                try:
                    page.wait_for_function(ROWS_DONE, timeout=15_000)
                    loaded = True
                except Exception:  # noqa: BLE001 - the page's script broke: reported below
                    loaded = False
                page.wait_for_timeout(200)
                state = page.evaluate("""() => ({
                    pwned: window.__attnlab_pwned,
                    injected: [...document.querySelectorAll('img[src=x], [onerror], [onmouseover]')].length,
                    scripts: [...document.scripts].filter(s => s.textContent.trim().startsWith('window.__attnlab')).length,
                    text: document.body.innerText,
                })""")
                ran = state["pwned"] is not None or state["injected"] or state["scripts"] or dialogs
                missing = [t for t in texts if t.strip() not in state["text"]]
                if ran or missing or not loaded:
                    failures.append(f"{path}: rows loaded {loaded}, payload {state['pwned']}, {state['injected']} injected elements, "
                                    f"{state['scripts']} injected scripts, dialogs {dialogs}, not shown as text {missing}")
                page.close()
        finally:
            browser.close()
    assert not failures, "a script ran or an id is not text in formgrader:\n" + "\n".join(failures)
