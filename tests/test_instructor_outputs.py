"""What the instructor's commands write stays out of git, ``make clean-grading`` removes what
grading and sharding wrote, and ``attnlab-course release`` says how far it is and how long each
notebook took."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import coursekit as ck
from attnlab.course import cli

ROOT = ck.ROOT


def _makefile_grading_outputs() -> list[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    (line,) = [line for line in text.splitlines() if line.startswith("GRADING_OUTPUTS")]
    return line.split(":=", 1)[1].split()


def _slurm_outputs() -> list[str]:
    """Where the Slurm jobs write their logs (%A, %a, %j: numbers)."""
    text = (ROOT / "deploy" / "slurm" / "grade_array.sbatch").read_text(encoding="utf-8")
    found = re.findall(r"--output[= ](\S+)", text)
    assert found, "the sbatch file names no --output: update this test"
    return [re.sub(r"%[A-Za-z]", "7", f) for f in found]


def _documented_outputs() -> list[str]:
    """The files the instructors' docs (``docs/grading.md``, ``docs/deploy.md``) tell their commands
    to write (``--output X`` / ``-o X``) in the course."""
    text = "\n".join((ROOT / "docs" / name).read_text(encoding="utf-8") for name in ("grading.md", "deploy.md"))
    found = re.findall(r"attnlab-course (?:export|export-gradescope)[^`\n]*?(?:--output|-o) ([^\s`]+)", text)
    assert found, "the instructors' docs show no export command: update this test"
    return [f for f in found if not f.isupper()]  # (placeholders such as DIR left out)


def output_paths() -> list[str]:
    """Every path grading, sharding, reports, exports and handouts write inside the course folder
    (a folder as a file in it), from the code and files that decide them."""
    from attnlab.course import records, shards
    from attnlab.course.stages.fonts import font_list_folder

    paths = [p.rstrip("/") + "/x" for p in _makefile_grading_outputs()]
    paths += [str(records._store_path(ROOT).relative_to(ROOT)),
              str(font_list_folder(ROOT).relative_to(ROOT)) + "/fontlist.json",
              str(shards.SHARDS / "release" / "shard-1-of-2" / "rows.json"),
              "autograde/gradebook.db", "autograde/backups/gradebook-20260101T000000Z.db",
              "autograde/course_secret", "autograde/submitted/lee/01_weighted_averages/01_weighted_averages.ipynb",
              "autograde/report/index.html", "autograde/grades.csv", "autograde/roster.csv",
              "autograde/exports/canvas.csv", "roster.csv", "canvas.csv", "autograder.zip",
              "dist/attnlab-0.1-py3-none-any.whl", "build/site/index.html", "build/handouts/01.pdf",
              "slurm-7_1.out"]
    paths += _slurm_outputs() + _documented_outputs()
    return sorted(set(paths))


def _git_ok() -> bool:
    return shutil.which("git") is not None and (ROOT / ".git").exists()


@pytest.mark.skipif(not _git_ok(), reason="not a git checkout")
def test_grading_outputs_and_learner_data_are_ignored_by_git():
    paths = output_paths()
    proc = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=ROOT, input="\n".join(paths),
                          capture_output=True, text=True)
    ignored = set(proc.stdout.splitlines())
    assert not set(paths) - ignored, f"not ignored by .gitignore (learner data could be committed): " \
                                     f"{sorted(set(paths) - ignored)}"


@pytest.mark.skipif(not _git_ok(), reason="not a git checkout")
def test_the_course_files_stay_tracked():
    keep = ["autograde/due_dates.csv", "autograde/nbgrader_config.py", "solutions/01_weighted_averages/x.ipynb",
            "notebooks/01_weighted_averages/01_weighted_averages.ipynb", "deploy/slurm/grade_array.sbatch"]
    proc = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=ROOT, input="\n".join(keep),
                          capture_output=True, text=True)
    assert proc.stdout.split() == []


def test_clean_grading_removes_shards_and_slurm_logs(tmp_path):
    course = tmp_path / "c"
    shard = course / "autograde" / "shards" / "r" / "shard-1-of-2"
    shard.mkdir(parents=True)
    (shard / "rows.json").write_text("[]")
    (course / "autograde" / "slurm-12_1.out").write_text("log")
    (course / "autograde" / "due_dates.csv").write_text("name,duedate\n")
    proc = subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "clean-grading"], cwd=course,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert not (course / "autograde" / "shards").exists()
    assert not (course / "autograde" / "slurm-12_1.out").exists()
    assert (course / "autograde" / "due_dates.csv").exists()  # the instructor's own file stays


def test_release_prints_each_notebook_with_its_time(tmp_path, monkeypatch, capsys):
    """One line per assignment as it is done, then the total (nbgrader itself stood in for: it
    takes seconds per notebook; tests/test_notebooks.py runs the real one)."""
    from attnlab.course import release
    from attnlab.course.stages import fonts

    course = ck.make_course(tmp_path)
    calls = []
    monkeypatch.setattr(release, "nbgrader", lambda root, *args, **kw: calls.append(args))
    for module in (fonts, release):  # where it is defined, and where release may have bound it
        if hasattr(module, "build_font_list"):
            monkeypatch.setattr(module, "build_font_list", lambda folder: None)
    monkeypatch.setenv("ATTNLAB_COURSE_ROOT", str(course))
    names = ck.assignments()[:2]
    assert cli.main(["release", *names]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("releasing 2 assignment(s)")
    for i, name in enumerate(names, start=1):
        assert re.fullmatch(rf"\[{i}/2\] wrote notebooks/{name}/{name}\.ipynb \(\d+\.\d s\)", out[i]), out
    assert re.fullmatch(r"due dates and the sandboxes' font list \(\d+\.\d s\); released 2 assignment\(s\) "
                        r"in \d+\.\d s", out[3]), out
    assert [c[:2] for c in calls] == [("generate_assignment", n) for n in names]
    with pytest.raises(SystemExit, match="no assignment '99_none'"):
        cli.main(["release", names[0], "99_none"])
    assert len(calls) == 2  # a wrong name is refused before any notebook is regenerated
