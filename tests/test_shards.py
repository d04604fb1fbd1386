"""``attnlab-course grade --shard I/N`` and ``attnlab-course merge`` (issue 28):

* a small class graded once, and graded in two shards then merged, gives the same ``grades.csv``
  (byte for byte), the same gradebook scores and the same feedback pages;
* a shard writes nothing of the course's own (gradebook, CSV, feedback) before the merge;
* merge refuses, with a message naming the problem, a missing shard, an incomplete shard, shards
  of different N, a submission graded in two shards and shards of another release;
* the Slurm array job and the Kubernetes Indexed Job in deploy/ run, command for command (one
  shard after another, here), to the same ``grades.csv`` as one run;
* bad ``--shard`` values are command-line errors; which shard grades a submission depends on
  (student, assignment) alone.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import coursekit as ck

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("shards")]  # one class, graded once per mode

ASSIGNMENT = "01_weighted_averages"  # the cheapest notebook to grade
STUDENTS = ("ada", "ben", "cy", "dee")


def _class(tmp: Path) -> Path:
    """A released scratch course with four submissions: right, blank, wrong, broken."""
    course = ck.make_course(tmp)
    proc = ck.course_command(course, "release", ASSIGNMENT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wrong = next(w for w in ck.catalogue(ASSIGNMENT) if w.solution == "softmax")
    ck.submit(course, "ada", ASSIGNMENT, ck.completed_student_notebook(ASSIGNMENT))
    ck.submit(course, "ben", ASSIGNMENT, ck.load(ck.release_path(ASSIGNMENT)))
    ck.submit(course, "cy", ASSIGNMENT, ck.completed_student_notebook(ASSIGNMENT, {"softmax": wrong.code}))
    ck.submit(course, "dee", ASSIGNMENT, "{ this is not a notebook")
    return course


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """``(one, sharded, before_merge)``: the class graded in one run, the same class graded in
    two shards and merged, and a copy of the latter taken between the shards and the merge."""
    base = tmp_path_factory.mktemp("shards")
    template = _class(base / "template")
    one = base / "one" / "course"
    sharded = base / "sharded" / "course"
    shutil.copytree(template, one, symlinks=True)
    shutil.copytree(template, sharded, symlinks=True)

    proc = ck.course_command(one, "grade", ASSIGNMENT, "--jobs", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr

    db = sharded / "autograde" / "gradebook.db"
    db_before = db.read_bytes()
    for i in (1, 2):
        proc = ck.course_command(sharded, "grade", ASSIGNMENT, "--jobs", "2", "--shard", f"{i}/2")
        assert proc.returncode == 0, proc.stdout + proc.stderr
    # the shards wrote only their own folders: the course's gradebook, CSV and feedback untouched
    assert db.read_bytes() == db_before, "a shard wrote the course's gradebook"
    assert not (sharded / "autograde" / "grades.csv").exists()
    assert not (sharded / "autograde" / "feedback").exists()
    before_merge = base / "before_merge" / "course"
    shutil.copytree(sharded, before_merge, symlinks=True)

    proc = ck.course_command(sharded, "merge")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return one, sharded, before_merge, template


def _shard_folders(course: Path) -> list[Path]:
    return sorted((course / "autograde" / "shards").glob("*/shard-*"))


def test_two_shards_merged_equal_one_run(graded):
    one, sharded = graded[:2]
    a = (one / "autograde" / "grades.csv").read_bytes()
    b = (sharded / "autograde" / "grades.csv").read_bytes()
    assert a == b, f"grades.csv differs:\n{a.decode()}\n---\n{b.decode()}"
    rows = list(csv.DictReader(io.StringIO(a.decode())))
    assert sorted(r["student_id"] for r in rows) == sorted(STUDENTS)
    assert ck.cell_scores(one, ASSIGNMENT) == ck.cell_scores(sharded, ASSIGNMENT)
    full = ck.max_points(ck.load(ck.solution_path(ASSIGNMENT)))
    assert ck.cell_scores(sharded, ASSIGNMENT)["ada"] == full
    for student in STUDENTS:
        page_one = one / "autograde" / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"
        page_sharded = sharded / "autograde" / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"
        assert page_sharded.read_bytes() == page_one.read_bytes(), f"{student}'s feedback differs"
        auto = Path("autograde") / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        assert (one / auto).exists() == (sharded / auto).exists()
        if (one / auto).exists():
            assert (one / auto).read_bytes() == (sharded / auto).read_bytes()
    # the class report reads the same store
    store = json.loads((sharded / "autograde" / ".grading" / "results.json").read_text())
    assert sorted(r["student_id"] for r in store) == sorted(STUDENTS)


def test_each_submission_in_exactly_one_shard(graded):
    sharded = graded[1]
    folders = _shard_folders(sharded)
    assert [f.name for f in folders] == ["shard-1-of-2", "shard-2-of-2"]
    owned = [{tuple(s) for s in json.loads((f / "manifest.json").read_text())["submissions"]} for f in folders]
    assert all(owned), "a shard of this class graded nothing: the test does not exercise the split"
    assert owned[0].isdisjoint(owned[1])
    assert owned[0] | owned[1] == {(s, ASSIGNMENT) for s in STUDENTS}


def _merge_fails(course: Path, *expected: str) -> str:
    proc = ck.course_command(course, "merge")
    assert proc.returncode != 0, "merge accepted shards it must refuse:\n" + proc.stdout + proc.stderr
    for text in expected:
        assert text in proc.stderr, f"the refusal does not say {text!r}:\n{proc.stderr}"
    assert not (course / "autograde" / "grades.csv").exists(), "a refused merge wrote grades.csv"
    return proc.stderr


@pytest.fixture
def unmerged(graded, tmp_path):
    course = tmp_path / "course"
    shutil.copytree(graded[2], course, symlinks=True)
    return course


def test_merge_refuses_a_missing_shard(unmerged):
    shutil.rmtree(_shard_folders(unmerged)[1])
    _merge_fails(unmerged, "missing shard(s) 2/2")


def test_merge_refuses_an_incomplete_shard(unmerged):
    (_shard_folders(unmerged)[0] / "manifest.json").unlink()
    _merge_fails(unmerged, "shard-1-of-2 is incomplete")


def test_merge_refuses_shards_of_different_n(unmerged):
    first = _shard_folders(unmerged)[0]
    other = first.parent / "shard-1-of-3"
    shutil.copytree(first, other)
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["count"] = 3
    (other / "manifest.json").write_text(json.dumps(manifest))
    _merge_fails(unmerged, "different N", "N = 2", "N = 3")


def test_merge_refuses_a_submission_in_two_shards(unmerged):
    one, two = _shard_folders(unmerged)
    rows_one = json.loads((one / "rows.json").read_text())
    rows_two = json.loads((two / "rows.json").read_text())
    (two / "rows.json").write_text(json.dumps(rows_two + rows_one[:1]))
    who = rows_one[0]["row"]["student_id"]
    _merge_fails(unmerged, "graded in two shards", f"{who}/{ASSIGNMENT}")


def test_merge_refuses_shards_of_another_release(unmerged):
    released = unmerged / "notebooks" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    nb = json.loads(released.read_text())
    nb["cells"][0]["source"] = "".join(nb["cells"][0]["source"]) + "\n(edited after the shards ran)"
    released.write_text(json.dumps(nb, indent=1))
    stale = _shard_folders(unmerged)[0].parent.name
    _merge_fails(unmerged, "different release", stale)


def test_merge_names_submissions_in_no_shard(unmerged):
    ck.submit(unmerged, "zed", ASSIGNMENT, ck.load(ck.release_path(ASSIGNMENT)))  # after the shards ran
    proc = ck.course_command(unmerged, "merge")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"in no shard: zed/{ASSIGNMENT}" in proc.stderr, proc.stderr
    with open(unmerged / "autograde" / "grades.csv", newline="") as fh:
        assert sorted(r["student_id"] for r in csv.DictReader(fh)) == sorted(STUDENTS)


def test_merge_without_shards_says_so(tmp_path):
    course = ck.make_course(tmp_path)
    proc = ck.course_command(course, "merge")
    assert proc.returncode != 0 and "no shards" in proc.stderr, proc.stderr


@pytest.mark.parametrize("value", ["0/2", "3/2", "a/b", "1/0", "2", "1/2/3"])
def test_bad_shard_values_are_cli_errors(value, tmp_path):
    proc = ck.course_command(tmp_path, "grade", "--shard", value)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "--shard" in proc.stderr and repr(value) in proc.stderr, proc.stderr


def test_shard_assignment_is_stable_and_covers_everyone():
    from attnlab.course.shards import parse_shard, shard_of

    assert parse_shard("2/5").index == 2 and parse_shard(" 2/5 ").count == 5
    pairs = [(f"learner{i}", a) for i in range(300) for a in ("01_x", "02_y")]
    for n in (1, 2, 3, 7):
        owners = {p: shard_of(*p, n) for p in pairs}
        assert set(owners.values()) == set(range(1, n + 1))
        sizes = [list(owners.values()).count(i) for i in range(1, n + 1)]
        assert max(sizes) < 1.5 * len(pairs) / n, f"unbalanced shards for N = {n}: {sizes}"
        shard = parse_shard(f"1/{n}")
        assert sum(shard.owns(*p) for p in pairs) == sizes[0]


# ---------------------------------------------------------------------------------------------
# deploy/: what the Slurm and Kubernetes files run, run here one shard after another

DEPLOY = ck.ROOT / "deploy"


def _tools(folder: Path) -> Path:
    """``attnlab-course`` (this Python's) and a fake ``sbatch`` that records its arguments, on a
    folder to put first on PATH."""
    folder.mkdir(parents=True)
    (folder / "attnlab-course").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m attnlab.course.cli "$@"\n')
    (folder / "sbatch").write_text(
        "#!/bin/sh\n"
        f'exec "{sys.executable}" -c "import json, sys; '
        "open(sys.argv[1], 'a').write(json.dumps(sys.argv[2:]) + chr(10))\" "
        f'"{folder / "sbatch.log"}" "$@"\n')
    for tool in ("attnlab-course", "sbatch"):
        (folder / tool).chmod(0o755)
    return folder


def _env(course: Path, tools: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PATH=f"{tools}{os.pathsep}{os.environ['PATH']}", PYTHONUNBUFFERED="1")
    env.pop("NBGRADER_EXECUTION", None)
    for name in ("ATTNLAB_COURSE_ROOT", "ATTNLAB_SHARDS"):
        env.pop(name, None)
    env.update(extra)
    return env


def _same_as_one_run(graded, course: Path) -> None:
    one = graded[0]
    a = (one / "autograde" / "grades.csv").read_bytes()
    b = (course / "autograde" / "grades.csv").read_bytes()
    assert a == b, f"grades.csv differs from one run:\n{a.decode()}\n---\n{b.decode()}"


def test_slurm_array_job_runs_to_the_same_grades(graded, tmp_path):
    script = DEPLOY / "slurm" / "grade_array.sbatch"
    text = script.read_text()
    n = int(re.search(r"^#SBATCH --array=1-(\d+)\s*$", text, re.M).group(1))
    assert n >= 2
    course = tmp_path / "course"
    shutil.copytree(graded[3], course, symlinks=True)
    tools = _tools(tmp_path / "bin")
    for i in range(1, n + 1):  # each array task runs the script itself, as sbatch would
        env = _env(course, tools, SLURM_SUBMIT_DIR=str(course), SLURM_ARRAY_JOB_ID="4242",
                   SLURM_ARRAY_TASK_ID=str(i), SLURM_ARRAY_TASK_MIN="1", SLURM_ARRAY_TASK_MAX=str(n),
                   SLURM_ARRAY_TASK_COUNT=str(n), SLURM_CPUS_PER_TASK="2")
        proc = subprocess.run(["bash", str(script)], cwd=tmp_path, env=env, text=True, capture_output=True,
                              timeout=900)
        assert proc.returncode == 0, f"task {i}: " + proc.stdout + proc.stderr
    assert sorted(p.name for p in _shard_folders(course)) == [f"shard-{i}-of-{n}" for i in range(1, n + 1)]
    assert not (course / "autograde" / "grades.csv").exists(), "a shard wrote grades.csv"
    # a failed task run again as the script's header says (an array of one task, ATTNLAB_SHARDS=N)
    again = _env(course, tools, SLURM_SUBMIT_DIR=str(course), SLURM_ARRAY_JOB_ID="4343",
                 SLURM_ARRAY_TASK_ID="2", SLURM_ARRAY_TASK_MIN="2", SLURM_ARRAY_TASK_MAX="2",
                 SLURM_ARRAY_TASK_COUNT="1", SLURM_CPUS_PER_TASK="2", ATTNLAB_SHARDS=str(n))
    proc = subprocess.run(["bash", str(script)], cwd=tmp_path, env=again, text=True, capture_output=True, timeout=900)
    assert proc.returncode == 0, "task 2 again: " + proc.stdout + proc.stderr
    assert sorted(p.name for p in _shard_folders(course)) == [f"shard-{i}-of-{n}" for i in range(1, n + 1)]
    # the first task submitted the merge, held until the whole array ends well (and the rerun again)
    calls = [json.loads(line) for line in (tools / "sbatch.log").read_text().splitlines()]
    assert len(calls) == 2, calls
    assert "--dependency=afterok:4343" in calls[1]
    call = calls[0]
    assert "--dependency=afterok:4242" in call
    wrap = [a[len("--wrap="):] for a in call if a.startswith("--wrap=")]
    chdir = [a[len("--chdir="):] for a in call if a.startswith("--chdir=")]
    assert wrap == ["attnlab-course merge"] and chdir == [str(course)], call
    proc = subprocess.run(["bash", "-c", wrap[0]], cwd=chdir[0], env=_env(course, tools), text=True,
                          capture_output=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _same_as_one_run(graded, course)


def test_kubernetes_indexed_job_runs_to_the_same_grades(graded, tmp_path):
    import yaml

    docs = list(yaml.safe_load_all((DEPLOY / "kubernetes" / "grade-indexed-job.yaml").read_text()))
    claim = next(d for d in docs if d["kind"] == "PersistentVolumeClaim")
    assert "ReadWriteMany" in claim["spec"]["accessModes"]  # one course folder shared by every pod
    jobs = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Job"}
    grade, merge = jobs["attnlab-grade"], jobs["attnlab-merge"]
    assert grade["spec"]["completionMode"] == "Indexed"
    n = grade["spec"]["completions"]
    assert n >= 2
    course = tmp_path / "course"
    shutil.copytree(graded[3], course, symlinks=True)
    tools = _tools(tmp_path / "bin")

    def run(job: dict, **extra: str) -> None:
        pod = job["spec"]["template"]["spec"]
        assert [v["persistentVolumeClaim"]["claimName"] for v in pod["volumes"]] == [claim["metadata"]["name"]]
        (container,) = pod["containers"]
        mount = container["volumeMounts"][0]["mountPath"]
        assert container["workingDir"] == mount
        env = {e["name"]: e["value"] for e in container.get("env", [])}
        assert env.get("ATTNLAB_COURSE_ROOT") == mount
        env["ATTNLAB_COURSE_ROOT"] = str(course)  # the volume, here
        proc = subprocess.run([*container["command"], *container["args"]], cwd=course,
                              env=_env(course, tools, **env, **extra), text=True, capture_output=True, timeout=900)
        assert proc.returncode == 0, f"{job['metadata']['name']} {extra}: " + proc.stdout + proc.stderr

    assert {e["name"]: e["value"] for e in grade["spec"]["template"]["spec"]["containers"][0]["env"]}["SHARDS"] == str(n)
    for index in range(n):
        run(grade, JOB_COMPLETION_INDEX=str(index))
    assert sorted(p.name for p in _shard_folders(course)) == [f"shard-{i}-of-{n}" for i in range(1, n + 1)]
    assert not (course / "autograde" / "grades.csv").exists(), "a shard wrote grades.csv"
    run(merge)
    _same_as_one_run(graded, course)
