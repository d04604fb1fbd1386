"""``attnlab-course report``: one HTML page with PNG charts (score distribution, the share failing
each check, the mistakes most often named, the slowest submissions, every status other than
``graded``), learner text escaped; and the grading batch's progress lines and log."""
from __future__ import annotations

import html
import io
import re

import pytest

import classbook as cb
from attnlab.course import cli, report


pytestmark = pytest.mark.xdist_group("report")  # the module's fixture is built once, on one worker


# alice's submission started its job's warm worker: 2.6 of its 3 s were that one-off start
WARM_START = {"alice": 2.6}


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    import json

    course = cb.build(tmp_path_factory.mktemp("report"))
    store = course / "autograde" / ".grading" / "results.json"
    rows = json.loads(store.read_text(encoding="utf-8"))
    for row in rows:
        row["stages"] = {"warm worker": WARM_START.get(row["student_id"], 0.0), "cells": 0.1}
    store.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ATTNLAB_COURSE_ROOT", str(course))
        assert cli.main(["report"]) == 0
    index = course / "autograde" / "report" / "index.html"
    return index, index.read_text(encoding="utf-8")


def test_report_renders_valid_charts(page):
    from matplotlib.image import imread

    index, text = page
    images = re.findall(r"<img src='([^']+)'", text)
    assert {f"scores-{cb.ASSIGNMENT}.png", f"failing-{cb.ASSIGNMENT}.png", "mistakes.png", "timings.png",
            "statuses.png"} <= set(images)
    for name in images:
        path = index.parent / name
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        pixels = imread(path, format="png")  # decodes the whole image
        assert pixels.ndim == 3 and pixels.shape[1] > 200 and pixels.shape[0] > 100
        assert pixels.std() > 0  # something is drawn


def test_learner_text_is_escaped(page):
    _, text = page
    assert "<script>" not in text and "<img src=x" not in text
    assert "dave&lt;script&gt;" in text  # the id, in the slowest and the statuses tables
    assert html.escape(cb.EVIL_DETAIL) in text


def test_mistakes_slowest_and_statuses_are_listed(page):
    _, text = page
    mistakes = text.split("<table class='mistakes'>")[1].split("</table>")[0]
    assert f"softmax: {cb.MISTAKE}" in mistakes  # carol's catalogued mistake, named by the check
    # bob's blank notebook and dave's timed-out one name no mistake: they never crowd the list
    (named,) = re.findall(r"<tr><td>([^<]*)</td><td>(\d+)</td></tr>", mistakes)
    assert named[0].startswith(f"softmax: {cb.MISTAKE}") and named[1] == "1"
    blank = text.split("<table class='unattempted'>")[1].split("</table>")[0]
    assert "<tr><td>01_weighted_averages</td><td>softmax</td><td>1</td></tr>" in blank  # bob, counted once
    assert "prediction_huge_scores" in blank and "not implemented" not in blank
    assert re.search(r"<p class='unjudged'>9 failing check\(s\) could not judge an answer", text)  # dave's
    slowest = text.split("<table class='slowest'>")[1].split("</table>")[0]
    ids = re.findall(r"<tr><td>([^<]*)</td>", slowest)
    # by their own time: alice's 3 s were mostly her job's warm worker starting, shown apart
    assert ids == ["dave&lt;script&gt;", "carol", "=bob", "alice"]
    assert "<td>alice</td><td>01_weighted_averages</td><td>graded</td><td>0.4</td><td>2.6</td>" in slowest
    statuses = text.split("<table class='statuses'>")[1].split("</table>")[0]
    assert "timed out" in statuses and "alice" not in statuses and "carol" not in statuses
    # the share failing each check, named by its exercise (the grade id beside it): carol and the
    # two learners without points lose the stable softmax
    table = text.split(f"<h3>{cb.ASSIGNMENT}</h3>")[1].split("</table>")[0]
    assert ("<tr><td>softmax: stays finite and exact for logits of +-1e4</td><td><code>test_softmax_stable</code>"
            "</td><td>75%</td></tr>") in table
    assert re.search(r"<tr><td>mix_tokens: [^<]+</td><td><code>test_mix_tokens</code></td><td>50%</td></tr>", table)


def test_blank_work_never_crowds_out_a_real_mistake(tmp_path):
    """Twenty blank notebooks (every exercise and prediction as handed out) and one real mistake:
    the mistake heads the list, alone; the blank exercises are counted apart, once per submission."""
    import json

    from attnlab.course.records import load_store

    blank = {f"test_{i}": f"ex{i % 3} is not implemented yet: replace `raise NotImplementedError()` ..."
             for i in range(6)}
    blank["test_predict"] = "prediction_x is not answered yet: replace None with your prediction ..."
    blank["test_gone"] = "ex9 is not defined: run the cell that defines it (and check ...)"
    rows = [{"student_id": f"s{i}", "assignment": "a", "status": "graded", "messages": blank} for i in range(20)]
    rows.append({"student_id": "real", "assignment": "a", "status": "graded", "messages": {
        "test_0": "ex0 is not right yet.\nOn x: wrong values.\nThis looks like a known mistake: off by one."}})
    rows.append({"student_id": "stopped", "assignment": "a", "status": "kernel died", "messages": {
        "test_1": "ex1 could not be checked: the notebook stopped before the grader could call it (died).",
        "test_2": "the kernel died"}})
    store = tmp_path / "autograde" / ".grading" / "results.json"
    store.parent.mkdir(parents=True)
    store.write_text(json.dumps(rows), encoding="utf-8")
    kinds = {}
    for saved in load_store(tmp_path).values():
        for message in saved["messages"].values():
            kind, names = report.classify(message, saved["status"])
            kinds.setdefault(kind, []).extend(names)
    assert kinds["mistake"] == ["ex0: off by one"]
    assert set(kinds["unattempted"]) == {"ex0", "ex1", "ex2", "prediction_x", "ex9"}
    assert len(kinds["unjudged"]) == 2


def test_a_warm_worker_start_is_not_the_submissions_own_time():
    assert report.own_seconds({"seconds": 9.0, "stages": {"warm worker": 7.5, "cells": 1.0}}) == (1.5, 7.5)
    assert report.own_seconds({"seconds": 2.0}) == (2.0, 0.0)  # stored before stages were kept
    assert report.own_seconds({"seconds": 1.0, "stages": {"warm worker": "x"}}) == (1.0, 0.0)


def test_the_store_keeps_where_the_time_went(tmp_path):
    from attnlab.course import records
    from attnlab.course.stages.handoff import Result

    result = Result("ann", "a", "a.ipynb", "graded", 1, 1, seconds=3.0, stages={"warm worker": 2.0, "cells": 0.5})
    (row,) = records.store(tmp_path, [result]).values()
    assert row["stages"] == {"warm worker": 2.0, "cells": 0.5} and row["seconds"] == 3.0


def test_mistake_names_are_read_from_check_messages():
    two = ("scaled_dot_product_attention is not right yet.\nOn Q of shape (2, 3): wrong values.\n"
           "This looks like two known mistakes at once: scaling by d_k; and a forgotten transpose.\nWhat to change: x")
    assert report.mistake_names(two) == ["scaled_dot_product_attention: scaling by d_k",
                                         "scaled_dot_product_attention: a forgotten transpose"]
    unknown = "attend is not right yet.\nOn q: wrong.\nThis does not look like any mistake we know; compare ..."
    assert report.mistake_names(unknown) == ["attend: a mistake not in the catalogue"]
    assert report.mistake_names("the notebook timed out") == ["the notebook timed out"]
    assert report.mistake_names("") == []


def test_progress_lines_give_count_rate_and_time_left_and_go_to_the_log(tmp_path):
    from attnlab.course.grade import Progress
    from attnlab.course.stages.handoff import Result

    log = tmp_path / "autograde" / "grading.log"
    for batch in range(2):
        stream = io.StringIO()  # not a terminal: plain lines
        progress = Progress(2, stream=stream, log=log)
        for who in ("ann", "ben"):
            progress.step(Result(who, "01_weighted_averages", "01_weighted_averages.ipynb", "graded", 12, 12,
                                 seconds=1.5))
        lines = stream.getvalue().splitlines()
        # one submission done: nothing yet to estimate the rest from (it carried the warm-up)
        assert re.match(r"1/2 \(50%, estimating time left\)  ann/01_weighted_averages: graded 12/12 \(1.5 s\)$",
                        lines[0]), lines
        assert lines[1].startswith("2/2 (100%, ") and "0 s left" in lines[1]
    logged = log.read_text(encoding="utf-8").splitlines()
    headers = [line for line in logged if line.startswith("== grading batch of 2 submission(s), started ")]
    assert len(headers) == 2  # appended, one header per batch, with its date
    assert re.search(r"started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$", headers[0])
    assert sum("ann/01_weighted_averages: graded" in line for line in logged) == 2


def _left(line: str) -> float:
    m = re.search(r"(?:(\d+) min )?(\d+) s left", line)
    return 60 * int(m.group(1) or 0) + int(m.group(2))


@pytest.mark.parametrize("jobs", [2, None])  # told the jobs, or not (the first burst is the warm-up)
def test_time_left_follows_the_steady_pace_not_the_warm_up(jobs):
    """A batch of 100 on 2 jobs: 12 s of one-off costs (plans, warm workers) before the first two
    finish together, then two every 1.4 s. The time left must come from that pace (0.7 s a
    submission), not from the average since the start (which said 3 times too much)."""
    from attnlab.course.grade import Progress
    from attnlab.course.stages.handoff import Result

    stream = io.StringIO()
    progress = Progress(100, stream=stream, jobs=jobs)
    now = [0.0]
    progress.started, progress.clock = 0.0, lambda: now[0]
    finish = [12.0, 12.05] + [12.05 + 1.4 * (k // 2 + 1) + 0.02 * (k % 2) for k in range(98)]
    for t in finish:
        now[0] = t
        progress.step(Result("s", "a", "a.ipynb", "graded", 1, 1, seconds=1.4))
    lines = stream.getvalue().splitlines()
    assert all("estimating time left" in line for line in lines[:3]), lines[:4]
    for done in (6, 10, 30, 60):  # n done: (100 - n) left at 0.7 s each
        truth = (100 - done) * 0.7
        assert abs(_left(lines[done - 1]) - truth) <= 0.2 * truth + 1, (done, lines[done - 1], truth)
    naive = (100 - 6) / (6 / finish[5])  # the old estimate: the average since the start
    assert naive > 2 * (100 - 6) * 0.7  # (what the test guards against)
    assert "0 s left" in lines[-1]


def test_no_gradebook_is_a_clear_error_and_other_files_stay(tmp_path, monkeypatch):
    import coursekit as ck

    course = ck.make_course(tmp_path)
    monkeypatch.setenv("ATTNLAB_COURSE_ROOT", str(course))
    with pytest.raises(SystemExit) as exc:
        cli.main(["report"])
    assert "no gradebook at" in str(exc.value.code) and "make grade" in str(exc.value.code)
    assert not (course / "autograde" / "gradebook.db").exists()


def test_a_second_report_keeps_files_it_did_not_make(page):
    index, _ = page
    mine = index.parent / "photo.png"
    mine.write_bytes(b"not ours")
    course = index.parents[2]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ATTNLAB_COURSE_ROOT", str(course))
        assert cli.main(["report", "--output", str(index.parent)]) == 0
    assert mine.read_bytes() == b"not ours" and (index.parent / "mistakes.png").is_file()


@pytest.mark.parametrize("top", [12, 22, 7.5, 100])
def test_full_marks_have_a_bar_of_their_own(top):
    """11/12 and 12/12 are never drawn as one bar (nor 99/100 and 100/100)."""
    import numpy as np

    from attnlab.course.report import score_edges

    edges = score_edges(top)
    counts, _ = np.histogram([top, top - (1 if top >= 1 else 0.1), 0.0], bins=edges)
    assert counts[-1] == 1 and counts.sum() == 3, (top, counts)
