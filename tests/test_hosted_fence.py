"""Issue 40, hosted graders: where no user namespace can be made (Gradescope's and PrairieLearn's
containers, as a rule), the learner's code runs as an unprivileged user of its own, not as the
root-side harness: the course (solutions, hidden tests' source, gradebook, secret), the scripts
and the results file are root's, so learner code that gets around the in-process guard still
cannot read them, nor write the results file. Files uploaded beside the notebook are graded as
``attnlab-course grade`` grades them; what a results file shows is escaped.

Each engine's bundle runs here as the service runs it, in a scratch "container" folder (the fake
root), with bubblewrap switched off (``ATTNLAB_ISOLATION=guard``: no user namespaces). The
harness runs as root, as on the services; the learner's process drops to a uid of its own. Where
the course venv's interpreter lies behind a folder other users cannot pass (/root here), the
entrypoint runs in a mount namespace of its own in which that folder is passable (as setup.sh's
and the grader image's venvs are reachable on the services); nothing else changes.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import coursekit
import hostedkit as kit
from hostedkit import ASSIGNMENT, NOTEBOOK

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("hosted-fence")]

ENGINES = ("gradescope", "prairielearn")
# A notebook name that forges a line and retitles / clears a terminal if shown raw.
HOSTILE_NAME = "x\x1b]0;owned\x07\n\u2713 all checks passed\x1b[2K\u202e.ipynb"
FORGED_MARK = "FORGED-BY-THE-LEARNER"

# The attack: a cell at the top of the softmax solution. It switches the in-process guard off
# (its audit hook's closure is plain Python), then reads the solutions, the course secret and the
# autograder's own files, writes into the course, and forges the results file (and blocks the
# harness's own write with a folder where its temporary file would go). What it got goes to LEAK.
# Its softmax is the catalogue's wrong one unless it stole the solution's.
ATTACK = r'''
import gc as _gc, json as _json, os as _os

_report = {"uid": _os.getuid(), "euid": _os.geteuid()}


def _guard_off():
    for f in _gc.get_objects():
        if type(f) is not type(_guard_off) or f.__name__ != "hook" or not f.__closure__:
            continue
        code = f.__code__
        if not code.co_filename.endswith("sandbox.py"):
            continue
        cells = dict(zip(code.co_freevars, f.__closure__))
        for name in ("readable", "may_write"):
            if name in cells:
                cells[name].cell_contents = lambda *a, **k: True
        if "isolated" in cells:
            cells["isolated"].cell_contents = True
        return True
    return False


def _try(name, fn):
    try:
        _report[name] = fn()
    except BaseException as exc:  # noqa: BLE001
        _report[name] = f"refused: {type(exc).__name__} errno={getattr(exc, 'errno', None)}"


def _read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def _write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return "written"


def _forge():
    _write(RESULTS + "/results.json", FORGED)
    for name in ("results.json.tmp", "results.json.new"):
        _os.makedirs(RESULTS + "/" + name, exist_ok=True)
    return "written"


_try("guard_off", _guard_off)
_try("secret", lambda: _read(SECRET))
_try("solution", lambda: _read(SOLUTION))
_try("source", lambda: _read(SOURCE))
_try("config", lambda: _read(CONFIG))
_try("listing", lambda: sorted(_os.listdir(COURSE)))
_try("course_write", lambda: _write(COURSE + "/autograde/pwned.txt", "x"))
_try("results", _forge)
_write(LEAK, _json.dumps(_report))

_stolen = None
if isinstance(_report.get("solution"), str) and _report["solution"].startswith("{"):
    for _cell in _json.loads(_report["solution"])["cells"]:
        _src = "".join(_cell.get("source", ""))
        if "def softmax(" in _src:
            _stolen = _src
'''

AFTER_ATTACK = '''
if _stolen:
    exec(_stolen)
'''


def _attack_notebook(root: Path, engine: str, leak: Path) -> bytes:
    course = root / ("source" if engine == "gradescope" else "tests") / "course"
    forged = ({"score": 999.0, "output": FORGED_MARK, "tests": []} if engine == "gradescope"
              else {"gradable": True, "score": 1.0, "message": FORGED_MARK, "tests": []})
    consts = {
        "SECRET": str(course / "autograde" / "course_secret"),
        "SOLUTION": str(course / "solutions" / ASSIGNMENT / NOTEBOOK),
        "CONFIG": str(course / "autograde" / "nbgrader_config.py"),
        "SOURCE": str(root / ("source/run_autograder" if engine == "gradescope" else "tests/run_grader")),
        "COURSE": str(course), "RESULTS": str(root / "results"), "LEAK": str(leak),
        "FORGED": json.dumps(forged),
    }
    prelude = "".join(f"{k} = {v!r}\n" for k, v in consts.items())
    code = prelude + ATTACK + "\n" + kit.WRONG.code + AFTER_ATTACK
    nb = coursekit.completed_student_notebook(ASSIGNMENT, {kit.WRONG.solution: code})
    return json.dumps(nb).encode("utf-8")


@pytest.fixture(scope="module")
def reachable() -> list[str]:
    """The prefix of an argv that runs it where another user can run the course venv's Python
    (the harness itself stays root, as on the services)."""
    stash = Path(tempfile.mkdtemp(prefix="attnlab-fence-stash-", dir="/tmp"))
    try:
        prefix = kit.reachable_prefix(stash)
    except kit.Unreachable as exc:
        shutil.rmtree(stash, ignore_errors=True)
        pytest.skip(str(exc))
    yield prefix
    shutil.rmtree(stash, ignore_errors=True)


@pytest.fixture(scope="module")
def bundles(tmp_path_factory) -> dict[str, Path]:
    out = {}
    base = tmp_path_factory.mktemp("fence-bundles")
    for engine in ENGINES:
        if engine == "gradescope":
            dest = base / "autograder.zip"
            argv = ["export-gradescope", ASSIGNMENT, "--output", str(dest)]
        else:
            dest = base / ASSIGNMENT
            argv = ["export-prairielearn", ASSIGNMENT, "--output", str(dest)]
        proc = subprocess.run([sys.executable, "-m", "attnlab.course.cli", *argv], cwd=coursekit.ROOT,
                              env=kit.export_env(), text=True, capture_output=True, timeout=600)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        out[engine] = dest
    return out


def _container(engine: str, bundle: Path, root: Path, upload: dict[str, bytes]) -> list[str]:
    """Lay out the service's folder in ``root``; the entrypoint's argv."""
    if engine == "gradescope":
        kit.extract(bundle, root / "source")
        shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
        upload_dir, entry = root / "submission", root / "run_autograder"
    else:
        shutil.copytree(bundle / "tests", root / "tests", symlinks=True)
        (root / "data").mkdir()
        (root / "data" / "data.json").write_text(json.dumps({"params": {}, "submitted_answers": {}}))
        upload_dir, entry = root / "student", root / "tests" / "run_grader"
    upload_dir.mkdir()
    (root / "results").mkdir()
    for name, data in upload.items():
        (upload_dir / name).write_bytes(data)
    return [str(entry)]


@pytest.fixture(scope="module")
def fenced(bundles, reachable, tmp_path_factory) -> dict[tuple[str, str], dict]:
    """Each engine's bundle grading, with no user namespaces: an honest notebook, an honest one
    whose softmax is in a module uploaded beside it (under a hostile file name), and the attack."""
    leaks = Path(tempfile.mkdtemp(prefix="attnlab-fence-leak-", dir="/tmp"))
    os.chmod(leaks, 0o1777)  # where the attack reports what it got (any user may write there)
    runs = {}
    for engine in ENGINES:
        for kind in ("correct", "helper", "attack"):
            root = tmp_path_factory.mktemp(f"fence-{engine}-{kind}")
            leak = leaks / f"{engine}-{kind}.json"
            if kind == "correct":
                upload = {NOTEBOOK: kit.correct_notebook()}
            elif kind == "helper":
                upload = {HOSTILE_NAME: kit.helper_notebook(), "my_helpers.py": kit.HELPER_MODULE.encode()}
            else:
                upload = {NOTEBOOK: _attack_notebook(root, engine, leak)}
            argv = _container(engine, bundles[engine], root, upload)
            env = kit.run_env(ATTNLAB_ISOLATION="guard", **{f"ATTNLAB_{engine.upper()}_ROOT": str(root)})
            if "ATTNLAB_FENCE_TEST_UID" in os.environ:  # ="" runs it all with the fence off: the attack
                env["ATTNLAB_SANDBOX_UID"] = os.environ["ATTNLAB_FENCE_TEST_UID"]  # then reads the secret
            env.pop("ATTNLAB_FENCE_TEST_UID", None)
            log = root.parent / f"{root.name}.log"
            runs[engine, kind] = (root, log, leak, kit.start(reachable + argv, root, env, log))
    out = {}
    for key, (root, log, leak, proc) in runs.items():
        code, text, seconds = kit.finish(proc, log)
        print(f"{key}: {seconds:.1f} s")
        results = root / "results" / "results.json"
        raw = results.read_text(encoding="utf-8") if results.is_file() else ""
        out[key] = {"code": code, "log": text, "root": root, "raw": raw,
                    "data": json.loads(raw) if raw.strip().startswith("{") else None,
                    "leak": json.loads(leak.read_text()) if leak.is_file() else None}
    shutil.rmtree(leaks, ignore_errors=True)
    return out


def _score(engine: str, data: dict) -> float:
    """Points, whatever the engine."""
    if engine == "gradescope":
        return data["score"]
    return data["score"] * sum(kit.grade_cells().values())


@pytest.mark.parametrize("engine", ENGINES)
def test_honest_notebook_keeps_full_marks_behind_the_fence(fenced, engine):
    run = fenced[engine, "correct"]
    assert run["code"] == 0, run["log"]
    assert _score(engine, run["data"]) == sum(kit.grade_cells().values()), run["raw"][:3000]
    # the learner's code ran as a user of its own, not as root (the harness's log says so)
    assert "the learner's code ran as uid" in run["log"], run["log"][-2000:]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_helper_module_beside_the_notebook_is_graded_behind_the_fence(fenced, engine):
    """The module uploaded beside the notebook is part of the submission (9/12 where `grade` gave
    12/12), and the hostile file name it came with is shown as one plain line."""
    run = fenced[engine, "helper"]
    assert run["code"] == 0, run["log"]
    data = run["data"]
    assert _score(engine, data) == sum(kit.grade_cells().values()), run["raw"][:3000]
    shown = data["output"]
    for value in _strings(data):
        assert "\x1b" not in value and "\x07" not in value and "\u202e" not in value, value
    assert "\\x1b]0;owned" in shown  # the name is there, as visible escapes
    assert not any(line.startswith("\u2713 all checks passed") for line in shown.splitlines()), shown


@pytest.mark.parametrize("engine", ENGINES)
def test_learner_code_past_the_guard_reads_and_writes_nothing_of_the_grader(fenced, engine):
    run = fenced[engine, "attack"]
    leak = run["leak"]
    assert leak is not None, run["log"][-3000:]  # the attack ran and reported
    print(engine, {k: str(v)[:80] for k, v in leak.items()})
    # It gets past the in-process guard (as long as the guard's closure can be reached): what
    # refuses it then is the kernel (EACCES), not the guard (a PermissionError of its own).
    for what in ("secret", "solution", "source", "config", "listing", "course_write", "results"):
        assert str(leak[what]).startswith("refused: PermissionError"), (what, str(leak[what])[:200])
        if leak["guard_off"] is True:
            assert str(leak[what]).endswith("errno=13"), (what, leak[what])
    assert leak["uid"] != 0 and leak["euid"] != 0
    assert kit.SECRET not in json.dumps(leak)
    course = run["root"] / ("source" if engine == "gradescope" else "tests") / "course"
    assert not (course / "autograde" / "pwned.txt").exists()
    # the results file is the harness's, with the honest grade of the (wrong) softmax it submitted
    data = run["data"]
    assert data is not None and FORGED_MARK not in run["raw"], run["raw"][:2000]
    points = kit.grade_cells()
    honest = sum(points.values()) - sum(points[g] for g in kit.WRONG.fails)
    assert _score(engine, data) <= honest + 1e-9, run["raw"][:3000]
    assert run["code"] == 0, run["log"][-3000:]


def test_a_results_file_shows_learner_text_as_plain_lines():
    """Whatever reaches a results file from the learner (file names, the text of a check's
    message, a status detail) is shown with its control characters as visible escapes: no ANSI or
    OSC sequence, no carriage return, no line it forges."""
    from attnlab.course import gradescope, hosted, prairielearn

    evil = "boom\x1b[2J\x1b]8;;http://x\x07link\x1b]8;;\x07\r\u2713 forged\x9b31m\u2028\u202e"
    cells = [hosted.CellOutcome("test_softmax_stable", "softmax: stable", 0.0, 2.0, False,
                                [f"your softmax raised ValueError: {evil}", "a second line"], True)]
    outcome = hosted.Outcome(ASSIGNMENT, NOTEBOOK, "graded", 0.0, 2.0, cells, details=[f"cell 3: {evil}"],
                             notes=[f"graded {evil}.ipynb as {NOTEBOOK}"])
    for data in (gradescope.results_json(outcome), prairielearn.results_json(outcome),
                 gradescope.error_json(f"Traceback: {evil}")):
        for value in _strings(data):
            for bad in ("\x1b", "\x07", "\r", "\x9b", "\u2028", "\u202e"):
                assert bad not in value, (bad, value)
            assert not any(line.startswith("\u2713 forged") for line in value.split("\n")), value
            assert "\\x1b[2J" in value or evil not in value
    outcome = hosted.Outcome(ASSIGNMENT, NOTEBOOK, "malformed notebook", 0.0, 2.0, [],
                             details=[f"the notebook is not JSON: {evil}"], notes=[f"graded {evil}"])
    for data in (gradescope.results_json(outcome), prairielearn.results_json(outcome)):
        for value in _strings(data):
            assert "\x1b" not in value and "\r" not in value and "\u2028" not in value, value


def _strings(data):
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for v in data.values():
            yield from _strings(v)
    elif isinstance(data, list):
        for v in data:
            yield from _strings(v)


def test_the_results_file_is_written_whatever_stands_in_its_way(tmp_path):
    """The harness's write goes through a file of its own and a rename: a folder or a link where a
    temporary file or the results file would go does not stop it."""
    from attnlab.course import hosted

    results = tmp_path / "results"
    results.mkdir()
    (results / "results.json.tmp").mkdir()
    (results / "results.json").mkdir()
    (results / "results.json" / "inner").write_text("x")
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep")
    os.symlink(target, results / "results.json.new")
    hosted.write_json(results / "results.json", {"score": 1.0})
    assert json.loads((results / "results.json").read_text()) == {"score": 1.0}
    assert target.read_text() == "keep"


def test_what_a_sandbox_user_leaves_running_is_ended(tmp_path):
    """A process the learner's code started and detached (a new session, its parent gone) is
    still its user's: the grader ends every process of that uid when the sandbox has ended."""
    import psutil

    from attnlab.course import unprivileged

    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("needs root (a user of its own)")
    uid = unprivileged._uid(unprivileged.DEFAULT_BASE, unprivileged.SLOTS - 2)
    user = {"user": uid, "group": uid, "extra_groups": [], "umask": 0o077}
    detach = ("import os, time\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    if os.fork() == 0:\n"
              "        time.sleep(120)\n"
              "    os._exit(0)\n")
    subprocess.run(["/usr/bin/env", "python3", "-c", detach], cwd="/", check=True, timeout=60, **user)
    left = [p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == uid]
    assert left, "the detached process should be running"
    unprivileged.end_all(user)
    gone, alive = psutil.wait_procs(left, timeout=10)
    assert not alive, alive
