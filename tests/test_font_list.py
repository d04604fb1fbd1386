"""matplotlib's font list, built once per course by the grader and copied into each sandbox
(``attnlab.course.grading.build_font_list``): without it every sandbox scans the fonts again.

* ``make release`` builds it in ``autograde/.grading/matplotlib-<version>/``, a batch reuses it;
* each job gets its own copy: a learner who overwrites theirs changes neither the course's list
  nor the next submission's grade;
* a list that cannot be built is no error: the sandboxes build their own, as before.
"""
from __future__ import annotations

import csv
import hashlib
import json
import tempfile
from pathlib import Path

import pytest

import coursekit as ck
from attnlab.course import grading
from attnlab.course.stages import fonts as fonts_stage

pytest.importorskip("matplotlib")


def test_built_once_then_reused(tmp_path):
    folder = tmp_path / "autograde" / ".grading" / "matplotlib-x"
    files = fonts_stage.build_font_list(folder)
    assert [f.name for f in files] and all(f.name.startswith("fontlist-") for f in files)
    fonts = json.loads(files[0].read_text())
    assert fonts["ttflist"], "an empty font list"
    stamp = files[0].stat().st_mtime_ns
    assert fonts_stage.build_font_list(folder) == files and files[0].stat().st_mtime_ns == stamp
    assert not list(folder.parent.glob(".building-*")), "the build's scratch folder was left behind"


def test_each_job_gets_its_own_copy(tmp_path):
    folder = tmp_path / "fonts"
    (original,) = fonts_stage.build_font_list(folder)
    scratch = Path(tempfile.mkdtemp(dir=tmp_path))
    fonts_stage.start_font_list(folder, scratch)  # already built: ready at once, nothing started
    job_tmp = tmp_path / "job" / "tmp"
    job_tmp.mkdir(parents=True)
    fonts_stage._give_font_list(scratch, job_tmp)
    copy = job_tmp / ".matplotlib" / original.name
    assert copy.read_bytes() == original.read_bytes()
    copy.write_text("garbage")
    assert json.loads(original.read_text())["ttflist"]
    other = tmp_path / "other-batch"
    other.mkdir()
    fonts_stage._give_font_list(other, job_tmp / "x")  # a batch that never started one: nothing, no error
    assert not (job_tmp / "x").exists()


def test_a_list_that_cannot_be_built_is_no_error(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    assert fonts_stage.build_font_list(tmp_path / "file" / "fonts") == []


def test_release_builds_it_and_a_learner_cannot_spoil_it(tmp_path):
    assignment = "01_weighted_averages"
    course = ck.make_course(tmp_path)
    assert ck.course_command(course, "release", assignment).returncode == 0
    (listing,) = fonts_stage.font_list_folder(course).glob("fontlist-*.json")
    before = hashlib.sha256(listing.read_bytes()).hexdigest()
    # The first learner overwrites the font list matplotlib found in its sandbox, then plots.
    spoil = ("import glob, matplotlib\n"
             "for f in glob.glob(matplotlib.get_cachedir() + '/fontlist-*.json'):\n"
             "    open(f, 'w').write('{}')\n")
    nb = ck.completed_student_notebook(assignment)
    nb["cells"].append({"cell_type": "code", "execution_count": None, "id": "spoil", "metadata": {},
                        "outputs": [], "source": spoil})
    ck.submit(course, "a_spoiler", assignment, nb)
    ck.submit(course, "b_next", assignment, ck.completed_student_notebook(assignment))
    proc = ck.course_command(course, "grade", assignment, "--jobs", "1", "--no-feedback")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(course / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh)}
    assert rows["a_spoiler"]["status"] == "graded", rows["a_spoiler"]["detail"]
    assert rows["b_next"]["status"] == "graded" and rows["b_next"]["score"] == rows["b_next"]["max_score"]
    assert hashlib.sha256(listing.read_bytes()).hexdigest() == before
