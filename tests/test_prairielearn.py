"""`attnlab-course export-prairielearn`: the question folder, its grader run as PrairieLearn runs it.

PrairieLearn copies the question's tests/ to /grade/tests, the upload to /grade/student, runs the
entrypoint info.json names and reads /grade/results/results.json (PrairieLearn's docs, "External
grading"). Here /grade is a scratch folder (ATTNLAB_PRAIRIELEARN_ROOT) and the grader runs with the
course's venv Python (ATTNLAB_PYTHON) instead of the grader image's.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import coursekit
import hostedkit as kit
from hostedkit import ASSIGNMENT, NOTEBOOK

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("prairielearn")]  # one export, graded once, on one worker

MAX_BYTES = 2**20  # PrairieLearn's limit on results.json
TOP_KEYS = {"gradable": bool, "score": "fraction", "message": str, "output": str, "format_errors": "errors",
            "images": list, "tests": list}
TEST_KEYS = {"name": str, "description": str, "points": "number", "max_points": "number", "message": str,
             "output": str, "images": list}


def _check(value, kind, where: str) -> list[str]:
    if kind == "number":
        ok = kit.is_number(value)
    elif kind == "fraction":
        ok = kit.is_number(value) and 0.0 <= value <= 1.0
    elif kind == "errors":
        ok = isinstance(value, str) or (isinstance(value, list) and all(isinstance(e, str) for e in value))
    else:
        ok = isinstance(value, kind)
    return [] if ok else [f"{where}: {value!r} is not a valid {kind if isinstance(kind, str) else kind.__name__}"]


def validate(data, size: int) -> list[str]:
    """Where ``data`` breaks PrairieLearn's external grader results format (empty: it follows it)."""
    if not isinstance(data, dict):
        return ["results.json: expected an object"]
    errors = [] if size <= MAX_BYTES else [f"results.json is {size} bytes, over 1 MB"]
    errors += [f"unknown top-level key {k!r}" for k in data if k not in TOP_KEYS]
    errors += [e for k, v in data.items() if k in TOP_KEYS for e in _check(v, TOP_KEYS[k], k)]
    if data.get("gradable", True):
        if "score" not in data:
            errors.append("score: required when the submission is gradable")
    elif not data.get("format_errors"):
        errors.append("format_errors: expected when the submission is not gradable")
    for i, test in enumerate(data.get("tests", []) if isinstance(data.get("tests"), list) else []):
        if not isinstance(test, dict):
            errors.append(f"tests[{i}]: expected an object")
            continue
        if "name" not in test:
            errors.append(f"tests[{i}]: no name")
        errors += [f"tests[{i}]: unknown key {k!r}" for k in test if k not in TEST_KEYS]
        errors += [e for k, v in test.items() if k in TEST_KEYS for e in _check(v, TEST_KEYS[k], f"tests[{i}].{k}")]
        if kit.is_number(test.get("points")) and kit.is_number(test.get("max_points")) \
                and not 0 <= test["points"] <= test["max_points"]:
            errors.append(f"tests[{i}]: points outside [0, max_points]")
    return errors


@pytest.fixture(scope="module")
def question(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("prairielearn") / ASSIGNMENT
    proc = subprocess.run([sys.executable, "-m", "attnlab.course.cli", "export-prairielearn", ASSIGNMENT,
                           "--output", str(out), "--image", "example/attnlab-grader:1"],
                          cwd=coursekit.ROOT, env=kit.export_env(), text=True, capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


@pytest.fixture(scope="module")
def graded(question, tmp_path_factory) -> dict[str, tuple[dict, int, str]]:
    """A correct submission, a wrong one and an upload without a notebook, each in its own job (at once)."""
    info = json.loads((question / "info.json").read_text())
    entry = info["externalGradingOptions"]["entrypoint"]
    assert entry.startswith("/grade/")
    runs = {}
    for name, upload in (("correct", {NOTEBOOK: kit.correct_notebook()}),
                         ("wrong", {NOTEBOOK: kit.wrong_notebook()}),
                         ("no notebook", {"notes.txt": b"I forgot the notebook\n"})):
        root = tmp_path_factory.mktemp(f"grade-{name.replace(' ', '-')}")
        shutil.copytree(question / "tests", root / "tests", symlinks=True)  # PrairieLearn's copy of tests/
        (root / "student").mkdir()
        for filename, data in upload.items():
            (root / "student" / filename).write_bytes(data)
        (root / "data").mkdir()
        (root / "data" / "data.json").write_text(json.dumps({"params": {}, "submitted_answers": {}}))
        log = root.parent / f"{root.name}.log"
        runs[name] = (root, log, kit.start([str(root / entry[len("/grade/"):])], root,
                                           kit.run_env(ATTNLAB_PRAIRIELEARN_ROOT=str(root)), log))
    out = {}
    for name, (root, log, proc) in runs.items():
        code, text, seconds = kit.finish(proc, log)
        print(f"{name}: the grader took {seconds:.1f} s")
        assert code == 0, text
        raw = (root / "results" / "results.json").read_bytes()
        out[name] = (json.loads(raw), len(raw), text)
    return out


def test_question_folder_has_info_html_and_tests(question):
    info = json.loads((question / "info.json").read_text())
    assert info["gradingMethod"] == "External" and info["type"] == "v3"
    ext = info["externalGradingOptions"]
    assert ext["enabled"] is True and ext["image"] == "example/attnlab-grader:1"
    assert ext["entrypoint"] == "/grade/tests/run_grader" and 1 <= ext["timeout"] <= 600
    assert len(info["uuid"]) == 36 and info["title"] and info["topic"]
    html = (question / "question.html").read_text()
    assert f'<pl-file-upload file-names="{NOTEBOOK}" optional-file-patterns="' in html and "<pl-external-grader-results>" in html
    grader = question / "tests" / "run_grader"
    assert kit.executable(grader) and grader.read_text().startswith("#!/bin/sh")
    assert subprocess.run(["sh", "-n", str(grader)], capture_output=True).returncode == 0
    assert "ATTNLAB_PRAIRIELEARN_ROOT:-/grade" in grader.read_text()
    course = question / "tests" / "course"
    assert (course / "solutions" / ASSIGNMENT / NOTEBOOK).is_file()
    assert (course / "autograde" / "gradebook.db").is_file()
    assert (course / "autograde" / "course_secret").read_text().strip() == kit.SECRET
    assert [p.name for p in (course / "solutions").iterdir()] == [ASSIGNMENT]
    docker = (question / "grader-image" / "Dockerfile").read_text()
    assert "package/" in docker and "tools/install.py" in docker and "bubblewrap" in docker
    assert (question / "grader-image" / "package" / "requirements.txt").is_file()
    assert (question / "grader-image" / "package" / "src" / "attnlab" / "course" / "prairielearn.py").is_file()


def test_correct_submission_gets_full_score(graded):
    data, size, _ = graded["correct"]
    assert validate(data, size) == [], data
    points = kit.grade_cells()
    assert data["gradable"] is True and data["score"] == 1.0
    assert len(data["tests"]) == len(points)  # one test per grade cell
    assert {t["description"].split(";")[0].split()[-1] for t in data["tests"]} == set(points)
    for test in data["tests"]:
        assert test["points"] == test["max_points"] > 0 and test["message"] == "", test
    assert sum(t["max_points"] for t in data["tests"]) == sum(points.values())


def test_wrong_softmax_loses_its_points_with_the_mistake_named(graded):
    data, size, _ = graded["wrong"]
    assert validate(data, size) == [], data
    points = kit.grade_cells()
    by_id = {t["description"].split(";")[0].split()[-1]: t for t in data["tests"]}
    for gid, test in by_id.items():
        if gid in kit.WRONG.fails:
            assert test["points"] == 0, test
            assert kit.WRONG.message in test["message"], test["message"]
        else:
            assert test["points"] == points[gid], test
    lost = sum(points[g] for g in kit.WRONG.fails)
    total = sum(points.values())
    assert data["gradable"] is True and data["score"] == pytest.approx((total - lost) / total)


def test_upload_without_notebook_is_not_gradable(graded):
    data, size, _ = graded["no notebook"]
    assert validate(data, size) == [], data
    assert data["gradable"] is False and "tests" not in data
    assert any(NOTEBOOK in e for e in data["format_errors"]), data


def test_hidden_tests_are_marked_and_their_inputs_never_shown(graded):
    fragments = kit.hidden_fragments()
    assert fragments
    for name, (data, _, log) in graded.items():
        for test in data.get("tests", []):
            assert "includes hidden tests" in test["description"], test  # every grade cell here has some
        text = json.dumps(data, ensure_ascii=False)
        assert "hidden=True" not in text and "HIDDEN TESTS" not in text
        assert kit.leaks(text, fragments) == [], name
        assert kit.leaks(log, fragments) == [], name


def test_validator_rejects_what_prairielearn_would(graded):
    data, size, _ = graded["correct"]
    bad = json.loads(json.dumps(data))
    bad["score"] = 12.0
    bad["tests"][0]["points"] = "2"
    del bad["tests"][1]["name"]
    assert len(validate(bad, size)) == 3
