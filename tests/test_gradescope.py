"""`attnlab-course export-gradescope`: the autograder zip, run as Gradescope runs it.

Gradescope unpacks the zip into /autograder/source, runs setup.sh once when it builds the image,
then, per submission, /autograder/run_autograder with the upload in /autograder/submission; it
reads /autograder/results/results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).
Here that folder is laid out in a scratch folder (ATTNLAB_GRADESCOPE_ROOT) and run_autograder runs
with the course's venv Python (ATTNLAB_PYTHON) instead of the one setup.sh installs; setup.sh
itself is only checked for syntax and for the files it names.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import coursekit
import hostedkit as kit
from hostedkit import ASSIGNMENT, NOTEBOOK

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("gradescope")]  # one export, graded once, on one worker

VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}
# Gradescope's results.json: every key the spec lists, with its type; no other key.
TOP_KEYS = {"score": "number", "execution_time": "number", "output": str, "output_format": FORMATS,
            "test_output_format": FORMATS, "test_name_format": FORMATS, "visibility": VISIBILITY,
            "stdout_visibility": VISIBILITY, "extra_data": dict, "tests": list, "leaderboard": list}
TEST_KEYS = {"score": "number", "max_score": "number", "status": {"passed", "failed"}, "name": str,
             "name_format": FORMATS, "number": str, "output": str, "output_format": FORMATS, "tags": list,
             "visibility": VISIBILITY, "extra_data": dict}


def _check(value, kind, where: str) -> list[str]:
    if kind == "number":
        return [] if kit.is_number(value) else [f"{where}: expected a finite number, got {value!r}"]
    if isinstance(kind, set):
        return [] if value in kind else [f"{where}: expected one of {sorted(kind)}, got {value!r}"]
    return [] if isinstance(value, kind) else [f"{where}: expected {kind.__name__}, got {type(value).__name__}"]


def validate(data) -> list[str]:
    """Where ``data`` breaks Gradescope's results.json specification (empty: it follows it)."""
    if not isinstance(data, dict):
        return ["results.json: expected an object"]
    errors = [f"unknown top-level key {k!r}" for k in data if k not in TOP_KEYS]
    errors += [e for k, v in data.items() if k in TOP_KEYS for e in _check(v, TOP_KEYS[k], k)]
    tests = data.get("tests", [])
    if "score" not in data and (not tests or any("score" not in t for t in tests if isinstance(t, dict))):
        errors.append("score: required at the top level or on every test")
    for i, test in enumerate(tests if isinstance(tests, list) else []):
        if not isinstance(test, dict):
            errors.append(f"tests[{i}]: expected an object")
            continue
        errors += [f"tests[{i}]: unknown key {k!r}" for k in test if k not in TEST_KEYS]
        errors += [e for k, v in test.items() if k in TEST_KEYS for e in _check(v, TEST_KEYS[k], f"tests[{i}].{k}")]
        if kit.is_number(test.get("score")) and kit.is_number(test.get("max_score")) \
                and not 0 <= test["score"] <= test["max_score"]:
            errors.append(f"tests[{i}]: score {test['score']} outside [0, max_score {test['max_score']}]")
        if "tags" in test and not all(isinstance(t, str) for t in test["tags"]):
            errors.append(f"tests[{i}].tags: expected strings")
    return errors


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gradescope") / "autograder.zip"
    proc = subprocess.run([sys.executable, "-m", "attnlab.course.cli", "export-gradescope", ASSIGNMENT,
                           "--output", str(out)], cwd=coursekit.ROOT, env=kit.export_env(),
                          text=True, capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out.is_file()
    return out


@pytest.fixture(scope="module")
def graded(bundle, tmp_path_factory) -> dict[str, tuple[dict, str, Path]]:
    """The correct and the wrong submission, each graded in a fresh "container" (at once)."""
    runs = {}
    for name, notebook in (("correct", kit.correct_notebook()), ("wrong", kit.wrong_notebook()),
                           ("helper", kit.helper_notebook())):
        root = tmp_path_factory.mktemp(f"autograder-{name}")
        kit.extract(bundle, root / "source")
        shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")  # as Gradescope does
        (root / "submission").mkdir()
        (root / "submission" / NOTEBOOK).write_bytes(notebook)
        if name == "helper":  # a module of the learner's own, uploaded beside the notebook
            (root / "submission" / "my_helpers.py").write_text(kit.HELPER_MODULE, encoding="utf-8")
        (root / "results").mkdir()
        log = root.parent / f"{root.name}.log"
        runs[name] = (root, log, kit.start([str(root / "run_autograder")], root,
                                           kit.run_env(ATTNLAB_GRADESCOPE_ROOT=str(root)), log))
    out = {}
    for name, (root, log, proc) in runs.items():
        code, text, seconds = kit.finish(proc, log)
        print(f"{name}: run_autograder took {seconds:.1f} s")
        assert code == 0, text
        results = root / "results" / "results.json"
        assert results.is_file(), text
        out[name] = (json.loads(results.read_text(encoding="utf-8")), text, root)
    return out


def test_bundle_holds_setup_run_autograder_and_the_course(bundle, tmp_path):
    with zipfile.ZipFile(bundle) as zf:
        infos = {i.filename: i for i in zf.infolist()}
    # both scripts at the root of the archive (not in a folder), executable
    for name in ("setup.sh", "run_autograder"):
        assert name in infos, sorted(infos)[:20]
        assert (infos[name].external_attr >> 16) & 0o777 == 0o755
    for name in ("package/requirements.txt", "package/pyproject.toml", "package/tools/install.py",
                 "package/src/attnlab/course/gradescope.py", "package/src/attnlab/checks/__init__.py",
                 f"course/solutions/{ASSIGNMENT}/{NOTEBOOK}", f"course/notebooks/{ASSIGNMENT}/{NOTEBOOK}",
                 "course/autograde/nbgrader_config.py", "course/autograde/gradebook.db"):
        assert name in infos, name
    assert (infos["course/autograde/course_secret"].external_attr >> 16) & 0o777 == 0o600
    assert not [n for n in infos if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in infos if n.startswith("course/solutions/") and ASSIGNMENT not in n]  # one assignment
    kit.extract(bundle, tmp_path)
    assert (tmp_path / "course" / "autograde" / "course_secret").read_text().strip() == kit.SECRET
    assert kit.executable(tmp_path / "run_autograder")
    for script in ("setup.sh", "run_autograder"):
        proc = subprocess.run(["bash", "-n", str(tmp_path / script)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    setup = (tmp_path / "setup.sh").read_text()
    assert setup.startswith("#!/usr/bin/env bash")
    # installs the course as make bootstrap does, from the files the zip holds
    assert "apt-get install" in setup and "python3-venv" in setup and "bubblewrap" in setup
    assert '"$SOURCE/package/tools/install.py"' in setup
    assert f"attnlab-course\" release {ASSIGNMENT}" in setup and 'cd "$SOURCE/course"' in setup
    run = (tmp_path / "run_autograder").read_text()
    assert "-m attnlab.course.gradescope run" in run and "ATTNLAB_GRADESCOPE_ROOT:-/autograder" in run
    assert "attnlab-venv/bin/python" in run and "attnlab-venv" in setup  # the venv setup.sh makes


def _tests_by_grade_id(data: dict) -> dict[str, dict]:
    return {t["extra_data"]["grade_id"]: t for t in data["tests"] if "grade_id" in t.get("extra_data", {})}


def test_correct_submission_gets_full_score(graded):
    data, log, root = graded["correct"]
    assert validate(data) == [], data
    points = kit.grade_cells()
    cells = _tests_by_grade_id(data)
    assert set(cells) == set(points)  # one test per grade cell
    for gid, test in cells.items():
        assert test["score"] == test["max_score"] == points[gid], test
        assert test["status"] == "passed"
        assert test["name"] and test["output"].startswith("✓"), test
    assert data["score"] == sum(points.values())
    assert data["stdout_visibility"] == "hidden"
    # the course's own grading made the verdict: its grades.csv says the same
    csv = (root / "source" / "course" / "autograde" / "grades.csv").read_text(encoding="utf-8")
    assert "submission,01_weighted_averages" in csv and f",graded,{sum(points.values()):g}," in csv, csv


def test_wrong_softmax_loses_its_points_with_the_mistake_named(graded):
    data, log, _ = graded["wrong"]
    assert validate(data) == [], data
    points = kit.grade_cells()
    cells = _tests_by_grade_id(data)
    for gid, test in cells.items():
        if gid in kit.WRONG.fails:
            assert test["score"] == 0 and test["status"] == "failed", test
            assert kit.WRONG.message in test["output"], test["output"]
        else:
            assert test["score"] == points[gid], test
    lost = sum(points[g] for g in kit.WRONG.fails)
    assert lost > 0 and data["score"] == sum(points.values()) - lost
    assert sum(t.get("score", 0) for t in data["tests"]) == data["score"]


def test_hidden_tests_wait_for_publication_and_never_show_hidden_inputs(graded):
    fragments = kit.hidden_fragments()
    assert fragments  # the hidden cases have inputs to look for
    for name, (data, log, root) in graded.items():
        cells = _tests_by_grade_id(data)
        for test in data["tests"]:
            hidden = test.get("extra_data", {}).get("hidden_tests")
            if hidden or test.get("max_score", 0) == 0:  # every grade cell here runs hidden tests
                assert test["visibility"] in ("after_published", "hidden"), test
        assert all(t["extra_data"]["hidden_tests"] for t in cells.values())
        # what the learner sees at once says nothing of a score
        assert "graded" in data["output"] and "publishes" in data["output"]
        if data["score"] != sum(kit.grade_cells().values()):
            assert f"{data['score']:g}" not in data["output"], data["output"]
        text = (root / "results" / "results.json").read_text(encoding="utf-8")
        assert "hidden=True" not in text and "HIDDEN TESTS" not in text
        assert kit.leaks(text, fragments) == [], name
        assert kit.leaks(log, fragments) == [], name  # nor the grader's stdout (instructor-only anyway)


def test_validator_rejects_what_gradescope_would(graded):
    data, _, _ = graded["correct"]
    bad = json.loads(json.dumps(data))
    bad["tests"][0]["visibility"] = "later"
    bad["tests"][1]["score"] = "2"
    bad["oops"] = 1
    assert len(validate(bad)) == 3


def test_the_notebook_is_found_where_learners_upload_it(tmp_path):
    from attnlab.course.hosted import find_notebook

    up = tmp_path / "renamed"
    up.mkdir()
    (up / "My copy.ipynb").write_text("{}")
    path, notes = find_notebook(up, NOTEBOOK)
    assert path == up / "My copy.ipynb" and notes == [f"graded My copy.ipynb as {NOTEBOOK}"]
    up = tmp_path / "folder"
    (up / "attnlab" / "notebooks").mkdir(parents=True)
    (up / "attnlab" / "notebooks" / NOTEBOOK).write_text("{}")
    (up / "attnlab" / "scratch.ipynb").write_text("{}")
    assert find_notebook(up, NOTEBOOK)[0] == up / "attnlab" / "notebooks" / NOTEBOOK
    up = tmp_path / "two"
    up.mkdir()
    (up / "a.ipynb").write_text("{}")
    (up / "b.ipynb").write_text("{}")
    path, notes = find_notebook(up, NOTEBOOK)
    assert path is None and "a.ipynb, b.ipynb" in notes[0] and NOTEBOOK in notes[0]
    up = tmp_path / "none"
    up.mkdir()
    assert find_notebook(up, NOTEBOOK) == (None, [f"no notebook submitted: submit {NOTEBOOK}"])


def test_a_notebook_that_cannot_be_graded_is_told_at_once():
    from attnlab.course import gradescope, hosted

    cells = [hosted.CellOutcome(gid, gid, 0.0, pts, False, ["not graded: missing notebook"], True)
             for gid, pts in kit.grade_cells().items()]
    outcome = hosted.Outcome(ASSIGNMENT, NOTEBOOK, "missing notebook", 0.0, sum(kit.grade_cells().values()),
                             cells, details=[f"no {NOTEBOOK} in the submission"])
    data = gradescope.results_json(outcome)
    assert validate(data) == []
    assert data["score"] == 0 and "missing notebook" in data["output"] and f"no {NOTEBOOK}" in data["output"]
    assert validate(gradescope.error_json("Traceback ...")) == []


def test_files_uploaded_beside_the_notebook_are_graded_as_grade_grades_them(graded):
    """Issue 40: a helper module uploaded with the notebook is part of the submission here too
    (it was left out: 9/12 where `attnlab-course grade` gives 12/12)."""
    data, log, root = graded["helper"]
    assert validate(data) == [], data
    assert data["score"] == sum(kit.grade_cells().values()), [t.get("output", "")[:200] for t in data["tests"]]



def test_an_unfenced_container_gives_a_grader_error_not_a_score(bundle, tmp_path):
    """Neither bubblewrap (forced off) nor a user of its own (no uid range given): only the
    in-process guard would stand between the learner and the solutions, so the autograder says it
    cannot grade here (the instructor sees why) and writes no score, unless told it may
    (``ATTNLAB_HOSTED_UNFENCED=1``, covered by the fenced tests' runs)."""
    root = tmp_path / "container"
    kit.extract(bundle, root / "source")
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    (root / "submission").mkdir()
    (root / "submission" / NOTEBOOK).write_bytes(kit.correct_notebook())
    (root / "results").mkdir()
    env = kit.run_env(ATTNLAB_GRADESCOPE_ROOT=str(root), ATTNLAB_ISOLATION="guard", ATTNLAB_SANDBOX_UID="")
    env.pop("ATTNLAB_HOSTED_UNFENCED", None)
    log = tmp_path / "run.log"
    code, text, _ = kit.finish(kit.start([str(root / "run_autograder")], root, env, log), log)
    assert code == 0, text
    data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert data["score"] == 0.0 and [t["name"] for t in data["tests"]] == ["Autograder error"], data
    why = data["tests"][0]["output"]
    assert "cannot fence" in why and "ATTNLAB_HOSTED_UNFENCED" in why and data["tests"][0]["visibility"] == "hidden"
    assert "not because of your code" in data["output"]
