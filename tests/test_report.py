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


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    course = cb.build(tmp_path_factory.mktemp("report"))
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
    assert "softmax: not implemented yet" in mistakes  # bob's blank notebook
    slowest = text.split("<table class='slowest'>")[1].split("</table>")[0]
    ids = re.findall(r"<tr><td>([^<]*)</td>", slowest)
    assert ids == ["dave&lt;script&gt;", "carol", "alice", "=bob"]  # slowest first
    statuses = text.split("<table class='statuses'>")[1].split("</table>")[0]
    assert "timed out" in statuses and "alice" not in statuses and "carol" not in statuses
    # the share failing each check: carol and the two learners without points lose the stable softmax
    table = text.split(f"<h3>{cb.ASSIGNMENT}</h3>")[1].split("</table>")[0]
    assert "<tr><td>test_softmax_stable</td><td>75%</td></tr>" in table
    assert "<tr><td>test_mix_tokens</td><td>50%</td></tr>" in table


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
    from attnlab.course.grading import Result

    log = tmp_path / "autograde" / "grading.log"
    for batch in range(2):
        stream = io.StringIO()  # not a terminal: plain lines
        progress = Progress(2, stream=stream, log=log)
        for who in ("ann", "ben"):
            progress.step(Result(who, "01_weighted_averages", "01_weighted_averages.ipynb", "graded", 12, 12,
                                 seconds=1.5))
        lines = stream.getvalue().splitlines()
        assert re.match(r"1/2 \(50%, [\d.]+/min, \d+ s left\)  ann/01_weighted_averages: graded 12/12 \(1.5 s\)$",
                        lines[0]), lines
        assert lines[1].startswith("2/2 (100%, ") and "0 s left" in lines[1]
    logged = log.read_text(encoding="utf-8").splitlines()
    headers = [line for line in logged if line.startswith("== grading batch of 2 submission(s), started ")]
    assert len(headers) == 2  # appended, one header per batch, with its date
    assert re.search(r"started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$", headers[0])
    assert sum("ann/01_weighted_averages: graded" in line for line in logged) == 2


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
