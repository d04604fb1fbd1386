"""Grading an instructor can trust: the adversarial corpus (``tests/adversarial.py``) graded in one
batch beside correct submissions.

Asserts: the batch finishes; the correct submissions get full marks; no cheat scores on the
exercise it cheated; each submission gets the right status (one row per notebook in
``grades.csv``); nothing outside each submission's throwaway copy changed; regrading gives the
same scores.
"""
from __future__ import annotations

import csv
import hashlib

import pytest

import adversarial as adv
import coursekit as ck

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("adversarial")]  # each mode graded once, on one worker

GRADING_OUTPUTS = ("autograde/gradebook.db", "autograde/autograded", "autograde/feedback",
                   "autograde/grades.csv", "autograde/.grading", "autograde/grading.log")


def snapshot(course):
    """A hash of every file of the course that grading must not change."""
    digest = {}
    for path in sorted(course.rglob("*")):
        rel = path.relative_to(course).as_posix()
        if rel.startswith(GRADING_OUTPUTS):
            continue
        if path.is_symlink():  # a link a submission holds: where it points, not what (grading updates the gradebook)
            digest[rel] = "link to " + str(path.readlink())
        elif path.is_file():
            digest[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest


def _unformula(text):
    """A CSV cell as the grader wrote it, less the quote that keeps a spreadsheet from running it."""
    return text[1:] if text[:1] == "'" and text[1:2] in ("=", "+", "-", "@", "\t", "\r") else text


def _rows(course):
    with open(course / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        return {_unformula(r["student_id"]): r for r in csv.DictReader(fh)}


def _modes():
    """Both isolation modes: the full corpus under bubblewrap (where the host has it) and a
    sample under the in-process guard (hosts without user namespaces); without bubblewrap the
    full corpus runs under the guard."""
    from attnlab.course import boundary

    if boundary._probe().isolated:
        return ["bwrap", "guard"]
    return ["guard"]


GUARD_SAMPLE = {"read_solutions", "dir_fd", "fork_exec_new_session", "shadow_json_module", "symlinked_notebook",
                "fifos", "kim lee", "kim_lee", "honest_configuration", "honest_shell_and_tmp", "calls_reference",
                "getattr_reference", "vandal", "sqlite_gradebook", "late", "syntax_error",
                "stub_allclose", "corrupted_json"}


@pytest.fixture(scope="module", params=_modes())
def graded(request, tmp_path_factory):
    mode = request.param
    course = ck.make_course(tmp_path_factory.mktemp(f"adversarial-{mode}"))
    proc = ck.course_command(course, "release", adv.ASSIGNMENT)
    assert proc.returncode == 0, proc.stderr
    adv.set_duedate(course, adv.ASSIGNMENT, "2026-01-01 00:00:00 UTC")
    full = mode == "bwrap" or _modes() == ["guard"]
    corpus = adv.build_corpus(course, correct=2, mode=mode, names=None if full else GUARD_SAMPLE)
    before = snapshot(course)
    env = {"ATTNLAB_ISOLATION": mode}
    proc = ck.course_command(course, "grade", "--jobs", "2", "--cell-timeout", "10", "--timeout", "90", env=env,
                             timeout=1800)  # over 100 submissions on a shared 2-core machine
    return course, corpus, before, proc, mode


def test_batch_finishes(graded):
    course, corpus, _, proc, mode = graded
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert len(adv.attacks()) >= 50
    if mode == "guard":
        assert "NOT ISOLATED" in proc.stderr
        assert all("not isolated" in r["detail"] for r in _rows(course).values()
                   if r["status"] not in ("missing notebook", "malformed notebook"))
    else:
        assert "ran under bubblewrap" in proc.stderr


def test_nothing_outlives_grading(graded):
    """No process started by a submission (the private fork_exec, a new session) is left."""
    import os

    left = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if adv.MARKER.encode() in fh.read():
                    left.append(pid)
        except OSError:
            pass
    assert not left, f"processes of a submission outlived grading: {left}"


def test_one_row_per_submission_with_the_right_status(graded):
    course, corpus, _, _, mode = graded
    rows = _rows(course)
    assert set(rows) == {student for student, _ in corpus}
    wrong = {}
    for student, attack in corpus:
        expected = attack.expected(mode) if attack else "graded"
        if rows[student]["status"] != expected:
            wrong[student] = (rows[student]["status"], expected, rows[student]["detail"][:200])
    assert not wrong, "status (got, expected, detail): " + repr(wrong)
    for student, attack in corpus:
        if attack and attack.status != "graded":
            assert rows[student]["detail"], f"{student}: a {attack.status} with no word of why"


def test_scores(graded):
    course, corpus, _, _, mode = graded
    source = ck.load(ck.solution_path(adv.ASSIGNMENT))
    full = ck.max_points(source)
    cells_of = adv.exercise_cells(source)
    scores = ck.cell_scores(course, adv.ASSIGNMENT)
    rows = _rows(course)
    for student, attack in corpus:
        got = scores.get(student, {})
        if attack is None:
            assert got == full, f"{student} (correct) lost points: {got}"
            continue
        for exercise in attack.zero:
            for gid in cells_of[exercise]:
                assert got.get(gid, 0) == 0, f"{attack.name} scored {got.get(gid)} on {gid}"
        for exercise in attack.full:
            for gid in cells_of[exercise]:
                assert got.get(gid) == full[gid], f"{attack.name} lost the points of {gid}: {got.get(gid)}"
        assert float(rows[student]["score"]) == sum(got.values())


def test_nothing_outside_the_copies_changed(graded):
    course, _, before, _, mode = graded
    assert snapshot(course) == before
    assert (course.parent / "canary.txt").read_text() == "must survive grading"


def test_feedback_explains_without_revealing_hidden_tests(graded):
    course, corpus, _, _, mode = graded
    text = ck.feedback_text(course, "x_calls_reference", adv.ASSIGNMENT)
    assert "attnlab.softmax" in text and "BEGIN HIDDEN TESTS" not in text and "hidden=True" not in text
    assert "malformed notebook" in ck.feedback_text(course, "x_corrupted_json", adv.ASSIGNMENT)


def test_regrading_gives_the_same_scores(graded):
    course, _, _, _, mode = graded
    if mode != "bwrap" and "bwrap" in _modes():
        pytest.skip("regrading is checked once, under bubblewrap")
    first = ck.cell_scores(course, adv.ASSIGNMENT)
    students = ["correct00", "x_syntax_error", "x_calls_reference", "x_stub_allclose"]
    args = [a for s in students for a in ("--student", s)]
    proc = ck.course_command(course, "grade", *args, "--no-feedback", env={"ATTNLAB_ISOLATION": mode})
    assert proc.returncode == 0, proc.stderr[-2000:]
    again = ck.cell_scores(course, adv.ASSIGNMENT)
    assert {s: again[s] for s in students} == {s: first[s] for s in students}
    assert set(_rows(course)) == set(first), "a regrade of some students dropped the others' rows"


# --- round 3: links, the instructor's browser, the host's disk, CSV, ids --------------------------

def test_linked_folders_are_graded_as_empty(graded):
    course, corpus, _, _, mode = graded
    rows = _rows(course)
    for student in ("x_linked_assignment_folder", "x_linked_student_folder"):
        if student in rows:
            assert rows[student]["status"] == "missing notebook" and rows[student]["score"] == "0"
            assert "symbolic link" in rows[student]["detail"] and "graded as empty" in rows[student]["detail"]
            assert "symbolic link" in ck.feedback_text(course, student, adv.ASSIGNMENT)


def test_no_csv_cell_is_a_formula(graded):
    """A cell a spreadsheet would run (a leading =, +, -, @, tab, CR) is quoted; numbers stay numbers."""
    course, corpus, _, _, mode = graded
    with open(course / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        table = list(csv.reader(fh))
    header, body = table[0], table[1:]
    for row in body:
        for name, cell in zip(header, row):
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                float(cell)  # only a number may start so
        for name in ("score", "max_score"):
            float(row[header.index(name)])
    ids = {row[0] for row in body}
    if any(s == "=1+2" for s, _ in corpus):
        assert "'=1+2" in ids and "'@b*c?[x]" in ids and "'-2+3" in ids


def test_every_graded_submission_has_its_feedback(graded):
    """Ids with glob characters, an id named like the feedback's own folders, and malformed
    outputs: each submission that ran gets nbgrader's feedback page, with its summary."""
    course, corpus, _, _, mode = graded
    rows = _rows(course)
    feedback = course / "autograde" / "feedback"
    assert (feedback / ".mathjax" / "MathJax.js").is_file()
    for student, attack in corpus:
        page = feedback / student / adv.ASSIGNMENT / f"{adv.ASSIGNMENT}.html"
        assert page.is_file(), f"{student}: no feedback page"
        if rows[student]["status"] in ("graded", "late", "tampering detected", "timed out", "out of memory"):
            assert "softmax" in ck.feedback_text(course, student, adv.ASSIGNMENT), f"{student}: not nbgrader's page"
            assert "feedback:" not in rows[student]["detail"], rows[student]["detail"]
    for student in ("lee [1]", "@b*c?[x]", "mathjax", "x_markdown_not_a_string"):
        if student in rows:
            assert "(Score: 12.0 / 12.0)" in ck.feedback_text(course, student, adv.ASSIGNMENT)


def test_writable_space_is_capped(graded):
    """A sandbox that writes 2.2 GiB or 200,000 files stops at its tmpfs's caps (root only)."""
    import os

    course, corpus, _, _, mode = graded
    rows = _rows(course)
    if mode != "bwrap" or os.geteuid() != 0:
        pytest.skip("the writable space is a tmpfs where the grader can mount one (root)")
    for student in ("x_fills_disk", "x_many_files"):
        assert rows[student]["status"] == "out of memory", rows[student]
        assert "filled its writable space" in rows[student]["detail"]
    assert rows["x_honest_writes_files"]["status"] == "graded"


def _formgrader_page(path, student):
    """The page formgrader serves for an autograded notebook (its exporter and template)."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config

    config = Config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    resources = {"assignment_id": adv.ASSIGNMENT, "notebook_id": adv.ASSIGNMENT, "submission_id": "x", "index": 0,
                 "total": 1, "base_url": "", "student": student, "last_name": None, "first_name": None,
                 "notebook_path": str(path)}
    page, _ = HTMLExporter(config=config).from_filename(str(path), resources=resources)
    return page


LEARNER = ".text_cell_render, .output_area"   # what a learner wrote or saved, in nbconvert's classic pages


def test_nothing_a_learner_saved_runs_in_the_instructors_browser(graded, tmp_path):
    """Feedback and formgrader's view of each submission, loaded in headless Chromium: no
    payload ran (it would set a global and the title), no handler or script of the learner's is
    left in the page; the honest learner's maths is typeset and their table and figures show."""
    course, corpus, _, _, mode = graded
    if mode != "bwrap" and "bwrap" in _modes():
        pytest.skip("checked once, under bubblewrap")
    pytest.importorskip("playwright.sync_api")
    from attnlab.course import site as sitelib

    if sitelib.find_chromium() is None:
        pytest.skip("no headless Chromium here (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    students = ["x_active_outputs", "x_active_markdown", "x_honest_rich_outputs", "x_markdown_not_a_string"]
    pages = []
    for student in students:
        pages.append((student, "feedback", course / "autograde" / "feedback" / student / adv.ASSIGNMENT
                      / f"{adv.ASSIGNMENT}.html"))
        notebook = course / "autograde" / "autograded" / student / adv.ASSIGNMENT / f"{adv.ASSIGNMENT}.ipynb"
        out = tmp_path / f"formgrade-{student}.html"
        out.write_text(_formgrader_page(notebook, student), encoding="utf-8")
        pages.append((student, "formgrader", out))
    inert = r"""() => ({
        pwned: window.__attnlab_pwned !== undefined, title: document.title,
        handlers: [...document.querySelectorAll('LEARNER_ALL')].flatMap(e => [...e.attributes].map(a => a.name))
                     .filter(n => n.startsWith('on')).length,
        scripts: [...document.scripts].filter(s => !/^math\//.test(s.type))  // MathJax keeps maths in math/tex scripts
                     .filter(s => s.textContent.includes('__attnlab_pwned')).length,
        js_links: document.querySelectorAll('a[href^="javascript:" i]').length,
        frames: document.querySelectorAll('iframe').length,
        typeset: document.querySelectorAll('.attnlab-learner-markdown .MathJax, .attnlab-learner-markdown .MathJax_Display, .output_html .MathJax').length,
        tables: document.querySelectorAll('.attnlab-learner-markdown table, .output_html table').length,
        svg_images: document.querySelectorAll('img[src^="data:image/svg+xml"]').length,
    })""".replace("LEARNER_ALL", ", ".join(f"{sel}, {sel} *" for sel in LEARNER.split(", ")))
    with sync_playwright() as p:
        browser = sitelib.launch_browser(p)
        try:
            for student, kind, path in pages:
                page = browser.new_page()
                page.goto(path.as_uri(), wait_until="load", timeout=120_000)
                if kind == "feedback":
                    page.wait_for_function("() => window.MathJax && MathJax.isReady", timeout=120_000)
                    page.evaluate(sitelib.MATHJAX_DONE)
                else:
                    page.wait_for_timeout(500)
                for element in page.query_selector_all(f"{LEARNER} *")[:200]:
                    try:  # hovering over what the learner made runs nothing either
                        element.hover(timeout=500)
                    except Exception:  # noqa: BLE001 - hidden or covered elements
                        pass
                state = page.evaluate(inert)
                where = f"{student} in {kind}"
                assert not state["pwned"] and state["title"] != "pwned", f"a payload ran: {where}"
                assert state["scripts"] == 0 and state["js_links"] == 0 and state["frames"] == 0, (where, state)
                assert state["handlers"] == 0, (where, state)
                if student == "x_honest_rich_outputs":
                    assert state["tables"] >= 2 and state["svg_images"] >= 1, (where, state)
                    if kind == "feedback":
                        assert state["typeset"] >= 3, (where, state)
                page.close()
        finally:
            browser.close()


def test_nothing_hidden_reaches_feedback_or_csv(graded):
    """Issue 26: a cell that searched the process for the job printed nothing of it; a function
    that raised (and printed) its input on hidden cases got none of it back."""
    course, corpus, _, _, mode = graded
    rows = _rows(course)
    for student, attack in corpus:
        if attack is None or attack.name not in ("prints_the_job", "raises_its_input"):
            continue
        text = ck.feedback_text(course, student, adv.ASSIGNMENT)
        assert adv.LEAK not in text and adv.LEAK not in rows[student]["detail"], (mode, attack.name)
        if attack.name == "raises_its_input":
            assert "hidden test (check_softmax)" in text, (mode, text[:2000])
