"""The grader as a pipeline of stages (issue 26) and its feedback pages rendered in worker
processes (issue 28): one submission goes collect -> read -> run -> measure -> judge, each stage
a module of ``attnlab.course.stages`` handing the next a typed record; ``grading`` only drives.
"""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import coursekit as ck

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("stages")]

A = "01_weighted_averages"
STAGES_DIR = Path(ck.ROOT) / "src" / "attnlab" / "course" / "stages"
GRADING = Path(ck.ROOT) / "src" / "attnlab" / "course" / "grading.py"


def _submission(tmp_path: Path, name: str, text: str | None):
    from attnlab.course.stages.handoff import Submission

    folder = tmp_path / name / A
    folder.mkdir(parents=True)
    if text is not None:
        (folder / f"{A}.ipynb").write_text(text, encoding="utf-8")
    return Submission(name, A, folder)


@pytest.fixture(scope="module")
def plan():
    from attnlab.course.plan import plan_assignment

    return plan_assignment(ck.ROOT, A)


def test_each_job_lives_in_its_stage_module():
    from attnlab.course.stages import collect, fonts, judge, measure, read, run

    where = {collect: ["copy_submission", "read_regular", "_find_notebook"],
             read: ["read_notebook", "static_findings", "job_cells", "_preload", "clean_text"],
             run: ["run_sandbox", "warm_worker", "fresh_worker", "sandbox_stages"],
             fonts: ["build_font_list", "start_font_list", "_give_font_list"],
             measure: ["_measure_outside", "_probe_memory"],
             judge: ["judge", "_load_outcome", "_hidden_message", "AnswerBound", "mark_late"]}
    for module, names in where.items():
        for name in names:  # defined in the stage, not re-exported from anywhere else
            assert getattr(module, name).__module__ == module.__name__, name
    tree = ast.parse(GRADING.read_text(encoding="utf-8"))
    defined = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    assert defined == ["grade_submission", "_last_line", "_libraries_of", "reference_fault", "_grade_into",
                       "_run_measure_judge"]
    assert not [n for n in tree.body if isinstance(n, ast.Assign)
                and any(getattr(t, "id", "") == "__all__" for t in n.targets)], "grading.py re-exports nothing"


def test_stage_modules_stay_short():
    lengths = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in STAGES_DIR.glob("*.py")}
    assert {"collect.py", "read.py", "run.py", "measure.py", "judge.py", "render.py"} <= set(lengths)
    assert all(n <= 500 for n in lengths.values()), lengths
    assert len(GRADING.read_text(encoding="utf-8").splitlines()) <= 200


def test_a_correct_submission_through_the_stages_one_at_a_time(tmp_path, plan):
    from attnlab.course import boundary, grading
    from attnlab.course.stages import collect, judge, measure, read, run
    from attnlab.course.stages.handoff import Limits

    sub = _submission(tmp_path, "good", json.dumps(ck.completed_student_notebook(A)))
    limits, denied = Limits(), [Path(ck.ROOT)]
    collected = collect.collect(sub, plan)
    assert collected.sub is sub and collected.notebook == sub.folder / f"{A}.ipynb" and not collected.missing
    got = read.read(collected, plan)
    assert isinstance(got.nb, dict) and got.borrowed == {} and got.tampering == []
    isolation = boundary.probe()
    job_dir = tmp_path / "job"
    job_dir.mkdir()
    job = run.prepare(plan, got.nb, sub, job_dir, limits, tmp_path, denied, isolation)
    assert job.cells and len(job.origin) == len(job.cells) and job.spec["cells"] == job.cells
    assert (job_dir / "work" / f"{A}.ipynb").is_file() and job.skipped == []
    ran = run.run(job, limits, isolation, denied)
    assert ran.sandbox.killed is None and ran.finished, ran.sandbox.output
    assert [e["label"] for e in ran.cell_log] == [label for label, _ in job.cells][: len(ran.cell_log)]
    measured = measure.measure(plan, job, ran, limits, tmp_path, isolation, denied, sub)
    assert measured.outcomes == {}  # notebook 01 measures nothing from outside
    judged = judge.judge_run(plan, got, ran, measured, limits)
    assert judged.statuses == [] and judged.score == plan.max_score
    assert [v.grade_id for v in judged.cells] == [c.grade_id for c in plan.grade_cells]
    whole = grading.grade_submission(_submission(tmp_path / "again", "good", json.dumps(
        ck.completed_student_notebook(A))), plan, limits, tmp_path, denied)
    assert (whole.status, whole.score) == ("graded", judged.score)


def test_the_driver_hands_each_stage_the_previous_ones_record(tmp_path, plan, monkeypatch):
    from attnlab.course import grading
    from attnlab.course.stages import collect, judge, measure, read, run
    from attnlab.course.stages.handoff import Limits

    calls: list[tuple[str, tuple, object]] = []

    def spy(module, name):
        original = getattr(module, name)

        def wrapped(*args, **kwargs):
            out = original(*args, **kwargs)
            calls.append((name, args, out))
            return out
        monkeypatch.setattr(module, name, wrapped)

    for module, name in [(collect, "collect"), (read, "read"), (run, "prepare"), (run, "run"),
                         (measure, "measure"), (judge, "judge_run")]:
        spy(module, name)
    sub = _submission(tmp_path, "good", json.dumps(ck.completed_student_notebook(A)))
    result = grading.grade_submission(sub, plan, Limits(), tmp_path, [Path(ck.ROOT)])
    assert [c[0] for c in calls] == ["collect", "read", "prepare", "run", "measure", "judge_run"]
    out = {name: o for name, _, o in calls}
    args = {name: a for name, a, _ in calls}
    assert args["read"][0] is out["collect"]
    assert args["prepare"][1] is out["read"].nb
    assert args["run"][0] is out["prepare"]
    assert args["measure"][1] is out["prepare"] and args["measure"][2] is out["run"]
    assert args["judge_run"][2] is out["run"] and args["judge_run"][3] is out["measure"]
    assert (result.status, result.score, result.cells) == ("graded", out["judge_run"].score, out["judge_run"].cells)


@pytest.mark.parametrize("text, status", [("{not json", "malformed notebook"), (None, "missing notebook")])
def test_a_broken_submission_stops_at_the_stage_that_finds_it(tmp_path, plan, monkeypatch, text, status):
    from attnlab.course import grading
    from attnlab.course.stages import handoff
    from attnlab.course.stages import collect, read, run

    sub = _submission(tmp_path, "bad", text)
    collected = collect.collect(sub, plan)
    if text is None:
        assert collected.notebook is None and f"no {A}.ipynb" in collected.missing
    else:
        got = read.read(collected, plan)
        assert got.nb is None and got.note
    monkeypatch.setattr(run, "prepare", lambda *a, **k: pytest.fail("a broken submission reached the sandbox"))
    result = grading.grade_submission(sub, plan, handoff.Limits(), tmp_path, [Path(ck.ROOT)])
    assert result.status == status and result.score == 0
    assert result.details == [collected.missing if text is None else got.note]


def test_render_stage_in_worker_processes_keeps_each_failure_to_its_row(tmp_path, capsys):
    """No nbgrader config here: every worker's writer fails to set up; each page comes back in
    order as that submission's failure, with a status page and a note in its row."""
    from attnlab.course.stages import render
    from attnlab.course.stages.handoff import Result

    root = tmp_path / "course"
    (root / "autograde").mkdir(parents=True)
    results = [Result(f"s{i}", A, f"{A}.ipynb", "graded", 1.0, 1.0, learner_nb={"cells": []}) for i in range(3)]
    results.append(Result("blank", A, f"{A}.ipynb", "missing notebook", 0.0, 1.0))
    by_key = {(r.student, r.assignment): _submission(tmp_path / "subs", r.student, None) for r in results}
    pages = render.render_pages(root, [render.Page(r.student, A, r.notebook) for r in results[:3]], jobs=2)
    assert len(pages) == 3 and all(p.path is None and p.unset and p.error for p in pages)
    failed = render.write_feedback(root, results, by_key, [A], jobs=2)
    assert failed == ["s0/" + A, "s1/" + A, "s2/" + A]
    for r in results:
        page = root / "autograde" / "feedback" / r.student / A / f"{A}.html"
        assert page.is_file() and "feedback" in r.stages
        assert any("nbgrader's page could not be made" in d for d in r.details) == (r.student != "blank")
    assert "could not be set up" in capsys.readouterr().err


def test_feedback_exporter_without_nbconverts_soup_pass_gives_the_same_page():
    """The render stage's exporter skips nbconvert's BeautifulSoup pass (half a page's time) and
    gives images their alt text itself: the same text, the same images, alt text where missing."""
    import base64
    import html
    import re

    import nbformat
    from nbconvert import HTMLExporter

    from attnlab.course.feedback import NO_ALT_TEXT, _without_soup

    png = base64.b64encode(bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360"
        "000002000001e221bc330000000049454e44ae426082")).decode()
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title\n\nSome *text* and an image: <img src='x.png' alt='a plot'>"),
        nbformat.v4.new_code_cell("plot()", outputs=[nbformat.v4.new_output(
            "display_data", data={"image/png": png, "text/plain": "<Figure>"})]),
    ])
    ours, _ = _without_soup(HTMLExporter)(template_name="classic").from_notebook_node(nb)
    theirs, _ = HTMLExporter(template_name="classic").from_notebook_node(nb)

    def text(page):
        body = page[page.index("<body"):]
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).replace("\xa0", " ").split())

    assert text(ours) == text(theirs)
    assert ours.count("<img") == theirs.count("<img") == 2
    assert ours.count(f'alt="{NO_ALT_TEXT}"') == 1 and "a plot" in ours
    assert len(re.findall(r"<img\b[^>]*\balt=", ours)) == 2


def test_feedback_highlighting_is_remembered_and_gives_the_same_page(tmp_path):
    """The feedback exporter highlights a cell's source once per worker (a class's pages share
    most cells): the second page of the same notebook is byte-for-byte the page made without the
    memory, and a changed cell is highlighted afresh."""
    import nbformat
    from nbconvert import HTMLExporter

    from attnlab.course.feedback import _Remembered, _without_soup

    def notebook(answer):
        nb = nbformat.v4.new_notebook(cells=[
            nbformat.v4.new_markdown_cell("# Title"),
            nbformat.v4.new_code_cell("import numpy as np\nx = np.arange(3)  # a handout cell"),
            nbformat.v4.new_code_cell(f"def answer():\n    return {answer!r}"),
        ], metadata={"language_info": {"name": "python", "pygments_lexer": "ipython3"}})
        for i, cell in enumerate(nb.cells):
            cell.id = f"cell-{i}"
        return nb

    ours = _without_soup(HTMLExporter)(template_name="classic")
    plain = _without_soup(HTMLExporter)(template_name="classic")
    first, _ = ours.from_notebook_node(notebook("one"))
    (memo,) = ours._attnlab_highlighters.values()
    assert isinstance(memo, _Remembered) and len(memo.memo) == 2
    again, _ = ours.from_notebook_node(notebook("one"))
    other, _ = ours.from_notebook_node(notebook("two"))
    assert len(memo.memo) == 3  # only the changed cell was highlighted again
    plain.register_filter("highlight_code", memo.highlight)  # the same filter, no memory
    assert again == first == plain.from_notebook_node(notebook("one"))[0]
    assert other == plain.from_notebook_node(notebook("two"))[0] != first
    memo.LIMIT = 1
    ours.from_notebook_node(notebook("three"))
    assert len(memo.memo) <= 1


def test_a_memory_probes_warm_up_runs_on_the_first_rows_of_each_input():
    """The reference's warm-up before a probe's baseline (libraries loaded, caches made) runs on
    the measured inputs cut to their first rows, consistently across inputs (queries, keys and
    per-query vectors alike); other arguments are passed unchanged."""
    import numpy as np

    from attnlab.course.stages.measure import WARMUP_ROWS, _cut

    n, m = WARMUP_ROWS + 100, WARMUP_ROWS * 3
    Q, K, lse = np.ones((2, n, 16)), np.ones((m, 16)), np.ones(n)
    small = np.ones((5, 4))
    fn = object()
    cut = _cut((Q, K, lse, small, 128, fn, np.float64(2.0)))
    assert [a.shape for a in cut[:4]] == [(2, WARMUP_ROWS, 16), (WARMUP_ROWS, 16), (WARMUP_ROWS,), (5, 4)]
    assert all(a.flags["C_CONTIGUOUS"] for a in cut[:4])
    assert cut[4] == 128 and cut[5] is fn and cut[6] == 2.0
    assert np.shares_memory(cut[3], small) or np.array_equal(cut[3], small)


def test_a_call_that_cannot_be_sent_is_the_graders_fault_at_once(tmp_path):
    """A check's case the sandbox cannot be sent (a closure in its arguments) stops the run before
    the sandbox starts, as the grader's fault; it never leaves a sandbox waiting for a call."""
    from attnlab.course import boundary
    from attnlab.course.stages import run
    from attnlab.course.stages.handoff import GraderFault, Limits

    job = {"cells": [], "calls": [{"id": 0, "name": "softmax", "invoke": None,
                                   "args": (lambda x: x,), "kwargs": {}}]}
    started = []
    with pytest.raises(GraderFault, match="softmax cannot be sent to the sandbox"):
        run.run_sandbox(tmp_path, job, Limits(), boundary.probe(), zygote=started)
    assert started == [] and not any(tmp_path.iterdir())  # nothing started, nothing written
