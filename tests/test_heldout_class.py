"""The held-out class of issue 38, kept as a test: a class an instructor who never read the
grader built from the README alone (``tests/heldout/class38/``: 38 submissions of notebooks 01,
02 and 04, right, blank, wrong, cheating, looping, cut-off JSON, pasted images of four kinds,
ids such as ``.alice``, ``Points Possible`` and ``zoë``; the README sentence each expectation
rests on is in ``make_class.py``). Graded as ``make grade`` grades it, warm; its figures script
(which prints counts only) must report no wrong grade and the LMS exports as documented.
Measured before the fix: 13 wrong grades warm, 5 cold (see the issue's closing note)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import coursekit as ck
from attnlab.course import boundary

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("heldout_class")]

HELD_OUT = Path(__file__).resolve().parent / "heldout" / "class38"


def test_the_held_out_class_is_graded_right(tmp_path):
    if not boundary.probe().isolated:
        pytest.skip(f"no OS boundary here: {boundary.probe().why}")
    scripts = tmp_path / "class38"
    shutil.copytree(HELD_OUT, scripts)  # make_class.py writes expected.json beside itself
    course = ck.make_course(tmp_path)
    (course / ".venv").symlink_to(sys.prefix)  # figures.py runs the course's own attnlab-course
    subprocess.run([sys.executable, str(scripts / "make_class.py"), str(course)], check=True,
                   capture_output=True, text=True)
    proc = ck.course_command(course, "grade", "--jobs", "2", timeout=1500,
                             env={"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")})
    (tmp_path / "grade_rc").write_text(str(proc.returncode))
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
               ATTNLAB_COURSE_ROOT=str(course))
    figures = subprocess.run([sys.executable, str(scripts / "figures.py"), str(course), "--rc",
                              str(tmp_path / "grade_rc"), "--export"], capture_output=True, text=True,
                             env=env, cwd=course, timeout=600)
    out = figures.stdout
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "wrong grades: 0" in out, out + figures.stderr[-2000:]
    for line in ("submissions with no row: 0", "penalising statuses at full marks (rows): 0",
                 "canvas export left those learners out alone, as documented (ids naming a Canvas row present): yes",
                 "canvas non-`graded` submissions without their note in `attnlab status`: 0",
                 "moodle non-`graded` submissions without their note in `attnlab status`: 0"):
        assert line in out, out
