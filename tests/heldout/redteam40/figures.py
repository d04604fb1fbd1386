"""Held-out red team for issue 40: grade the corpus in ``cases/`` with the grader at ROOT and print
only figures (per class: attacks blocked / got through / runner error; honest look-alikes kept
full marks / lost / runner error). Nothing of the cases (code, names, ids) is printed.

    .venv/bin/python tests/heldout/redteam40/figures.py [--root R] [-j N]

ROOT defaults to the repository that holds this file. The grader at ROOT is the one imported (a
throwaway interpreter is made whose ``attnlab`` is ROOT/src, see ``shim.py``), in-process
(``grading.grade_submission``, warm workers) or through ``python -m attnlab.course.cli`` on a
scratch course, as the course's own tests do (tests/coursekit.py, tests/hostedkit.py).

Fixers: do not read ``cases/``. Run this and read the figures.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
CLASSES = [
    ("names", "a name or status the learner chose, trusted"),
    ("logs", "ids / learner strings forging log, progress or CSV lines"),
    ("slot", "one learner reaching the next in a warm slot"),
    ("probe", "notebook 08's memory probe told apart from the run"),
    ("borrow", "borrowed answers through library routes"),
    ("links", "hard links to solutions / course files"),
    ("hosted", "hosted graders (Gradescope / PrairieLearn)"),
]


# --------------------------------------------------------------------------------------------
# Loading the corpus

def load_cases() -> list[dict]:
    out = []
    for path in sorted(CASES.glob("*.py")):
        ns: dict = {}
        try:
            exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), ns)  # data only
            case = dict(ns["CASE"])
        except Exception:  # noqa: BLE001
            case = {"cls": path.name.split("_")[1] if "_" in path.name else "names", "kind": "broken"}
        case["id"] = path.stem
        case.setdefault("honest", path.name.startswith("h"))
        case.setdefault("assignment", "01_weighted_averages")
        out.append(case)
    return out


# --------------------------------------------------------------------------------------------
# Shared helpers (run inside a worker, with ROOT's attnlab importable)

def _ck(root: Path):
    sys.path.insert(0, str(root / "tests"))
    import coursekit as ck  # noqa: E402
    return ck


def _with_cell(nb: dict, source: str | None, cid: str) -> dict:
    if not source:
        return nb
    nb = json.loads(json.dumps(nb))
    at = next((i for i, c in enumerate(nb["cells"])
               if (c.get("metadata", {}).get("nbgrader") or {}).get("solution")), 3)
    nb["cells"].insert(at, {"cell_type": "code", "id": "added-" + hashlib.sha1(cid.encode()).hexdigest()[:8],
                            "metadata": {}, "source": source, "outputs": [], "execution_count": None})
    return nb


def build_notebook(ck, case: dict, part: dict | None = None) -> dict:
    part = part or case
    A = case["assignment"]
    nb = ck.completed_student_notebook(A, part.get("replace") or None)
    return _with_cell(nb, part.get("cell"), case["id"])


def _hash_arrays(values, out: set, depth=0):
    import numpy as np
    if depth > 4:
        return
    if isinstance(values, (list, tuple)):
        for v in values:
            _hash_arrays(v, out, depth + 1)
    elif isinstance(values, dict):
        for v in values.values():
            _hash_arrays(v, out, depth + 1)
    elif isinstance(values, np.ndarray) and values.size > 1:
        out.add(hashlib.sha1(np.ascontiguousarray(values).tobytes()).hexdigest()[:16])


def hidden_markers(plan) -> tuple[set, list]:
    """sha1 prefixes of the hidden cases' array inputs (the corpus's leak marker) and text
    fragments of them (repr and array2string) that no visible case shows."""
    import numpy as np
    hid, vis, frags, vis_text = set(), set(), [], ""
    for cell in plan.grade_cells:
        for cc in cell.calls:
            for case in cc.spec.cases:
                target = hid if cc.hidden else vis
                _hash_arrays(list(case.args), target)
                _hash_arrays(dict(case.kwargs), target)
                for a in case.args:
                    if isinstance(a, np.ndarray) and a.size > 3 and a.dtype.kind == "f":
                        if cc.hidden:
                            frags += [repr(a.tolist())[:32], np.array2string(a)[:32]]
                        else:
                            vis_text += repr(a.tolist()) + np.array2string(a)
    return hid - vis, [f for f in set(frags) if f not in vis_text and len(f) > 12]


GRADER_FAIL_STATUSES = ("timed out", "out of memory", "kernel died", "grader error")


# --------------------------------------------------------------------------------------------
# Workers: each grades a group of cases and returns {case_id: outcome}
# outcomes: "blocked" / "through" (attacks), "kept" / "lost" (honest), "error"

def _judge_inproc(case: dict, r, markers, frags) -> str:
    cells = {c.grade_id: c for c in r.cells}
    if case.get("honest"):
        return "kept" if (r.status in ("graded",) and r.score == r.max_score) else "lost"
    shown = json.dumps([r.row(), [c.lines for c in r.cells]], default=str)
    if case.get("leak_log"):
        shown += json.dumps(r.cell_log, default=str)
    through = False
    for gid in case.get("target", []):
        if gid in cells and cells[gid].score > 0:
            through = True
    if case.get("leak"):
        if any(m in shown for m in markers) or any(f in shown for f in frags) or "RT40SECRET" in shown:
            through = True
    if case.get("status_forged") and r.status in GRADER_FAIL_STATUSES:
        through = True
    if case.get("reader_flag") and "RT40-READ-OK" in json.dumps(r.cell_log, default=str):
        through = True
    return "through" if through else "blocked"


def worker_inproc(root: Path, cases: list[dict]) -> dict:
    ck = _ck(root)
    from attnlab.course import grading, warm
    from attnlab.course.plan import plan_assignment
    out = {}
    by_a = defaultdict(list)
    for c in cases:
        by_a[c["assignment"]].append(c)
    for A, group in by_a.items():
        scratch = Path(tempfile.mkdtemp(prefix="rt40-inproc-"))
        try:
            plan = plan_assignment(ck.ROOT, A)
            markers, frags = hidden_markers(plan)
            # honest first, so that nothing an attack leaves behind can cost honest work its marks
            for case in sorted(group, key=lambda c: not c.get("honest")):
                try:
                    student = "s" + hashlib.sha1(case["id"].encode()).hexdigest()[:10]
                    folder = scratch / "submitted" / student / A
                    folder.mkdir(parents=True)
                    (folder / f"{A}.ipynb").write_text(json.dumps(build_notebook(ck, case)), encoding="utf-8")
                    for name, text in (case.get("files") or {}).items():
                        (folder / name).parent.mkdir(parents=True, exist_ok=True)
                        (folder / name).write_text(text, encoding="utf-8")
                    r = grading.grade_submission(grading.Submission(student, A, folder), plan, grading.Limits(),
                                                 scratch, [ck.ROOT])
                    out[case["id"]] = _judge_inproc(case, r, markers, frags)
                    _dump(case, {"row": r.row(), "cells": [(c.grade_id, c.score, c.lines) for c in r.cells],
                                 "log": r.cell_log, "verdict": out[case["id"]]})
                except Exception:  # noqa: BLE001
                    traceback.print_exc()
                    out[case["id"]] = "error"
        finally:
            warm.close_pool(scratch)
            shutil.rmtree(scratch, ignore_errors=True)
    return out


def _dump(case, data) -> None:
    """Debugging only (RT40_DUMP=folder): what the grader said about one case."""
    folder = os.environ.get("RT40_DUMP")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / (case["id"] + ".json")).write_text(json.dumps(data, default=str, indent=1))


def worker_pair(root: Path, cases: list[dict]) -> dict:
    """One learner, then the next, in the same warm slot (one scratch, one job at a time)."""
    ck = _ck(root)
    from attnlab.course import grading, warm
    from attnlab.course.plan import plan_assignment
    out = {}
    scratch = Path(tempfile.mkdtemp(prefix="rt40-pair-"))
    try:
        plans = {}
        for case in cases:
            try:
                A = case["assignment"]
                plan = plans.get(A) or plans.setdefault(A, plan_assignment(ck.ROOT, A))
                tag = hashlib.sha1(case["id"].encode()).hexdigest()[:10]
                results = {}
                for role in ("writer", "reader"):
                    part = case[role]
                    student = f"{role[0]}{tag}"
                    folder = scratch / "submitted" / student / A
                    folder.mkdir(parents=True)
                    (folder / f"{A}.ipynb").write_text(json.dumps(build_notebook(ck, case, part)), encoding="utf-8")
                    results[role] = grading.grade_submission(grading.Submission(student, A, folder), plan,
                                                             grading.Limits(), scratch, [ck.ROOT])
                r = results["reader"]
                _dump(case, {role: {"row": x.row(), "cells": [(c.grade_id, c.score, c.lines) for c in x.cells],
                                    "log": x.cell_log} for role, x in results.items()})
                if case.get("honest"):
                    out[case["id"]] = "kept" if all(x.score == x.max_score and x.status == "graded"
                                                    for x in results.values()) else "lost"
                else:
                    cells = {c.grade_id: c for c in r.cells}
                    through = any(cells[g].score > 0 for g in case.get("target", []) if g in cells)
                    through = through or "RT40-READ-OK" in json.dumps(r.cell_log, default=str)
                    out[case["id"]] = "through" if through else "blocked"
            except Exception:  # noqa: BLE001
                traceback.print_exc()
                out[case["id"]] = "error"
    finally:
        warm.close_pool(scratch)
        shutil.rmtree(scratch, ignore_errors=True)
    return out


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def worker_course(root: Path, cases: list[dict]) -> dict:
    """Submissions with hostile ids, learner strings and hard links, graded by ``attnlab-course
    grade`` on a scratch course; the CSV, grading.log and the progress output are read back."""
    ck = _ck(root)
    out = {}
    tmp = Path(tempfile.mkdtemp(prefix="rt40-course-"))
    try:
        course = ck.make_course(tmp)
        ids = {}
        for case in cases:
            try:
                A = case["assignment"]
                student = case.get("student") or ("s" + hashlib.sha1(case["id"].encode()).hexdigest()[:10])
                ids[case["id"]] = student
                folder = course / "autograde" / "submitted" / student / A
                folder.mkdir(parents=True, exist_ok=True)
                nbpath = folder / f"{A}.ipynb"
                link = case.get("notebook_link")
                if link:  # the submitted notebook is a hard link to a course file
                    os.link(course / link, nbpath)
                else:
                    nbpath.write_text(json.dumps(build_notebook(ck, case)), encoding="utf-8")
                for name, text in (case.get("files") or {}).items():
                    (folder / name).parent.mkdir(parents=True, exist_ok=True)
                    (folder / name).write_text(text, encoding="utf-8")
                for name, target in (case.get("links") or {}).items():
                    (folder / name).parent.mkdir(parents=True, exist_ok=True)
                    if target == "autograde/course_secret" and not (course / target).exists():
                        (course / target).write_text(os.urandom(32).hex() + "\n", encoding="utf-8")
                        os.chmod(course / target, 0o600)
                    os.link(course / target, folder / name)
                for name, target in (case.get("symlinks") or {}).items():
                    os.symlink(target, folder / name)
                many = case.get("many_files")
                if many:
                    for k in range(many["count"]):
                        (folder / f"f{k:05d}.txt").write_text("x")
                    (folder / many["last"]).write_text("x")
                if case.get("classmate"):  # an honest classmate, whose notebook this one is a hard link to
                    mate = course / "autograde" / "submitted" / (student + "mate") / A
                    mate.mkdir(parents=True)
                    (mate / f"{A}.ipynb").write_text(json.dumps(ck.completed_student_notebook(A)), encoding="utf-8")
                    nbpath.unlink()
                    os.link(mate / f"{A}.ipynb", nbpath)
            except Exception:  # noqa: BLE001
                traceback.print_exc()
                out[case["id"]] = "error"
        proc = ck.course_command(course, "grade", "--jobs", "2", "--cell-timeout", "20", "--timeout", "120",
                                 timeout=1500)
        texts = {"progress": proc.stdout + proc.stderr}
        for name in ("grading.log", "grades.csv"):
            p = course / "autograde" / name
            texts[name] = p.read_text(encoding="utf-8", errors="surrogateescape") if p.exists() else ""
        rows = list(csv.DictReader(io.StringIO(texts["grades.csv"])))
        try:
            cell_scores = ck.cell_scores(course, "01_weighted_averages")
        except Exception:  # noqa: BLE001
            cell_scores = {}
        all_text = "\n".join(texts.values())
        lines = all_text.splitlines()
        if proc.returncode != 0 and not rows:
            sys.stderr.write(proc.stderr[-3000:])
        for case in cases:
            if out.get(case["id"]) == "error":
                continue
            try:
                token = case.get("token") or ids[case["id"]]
                if case.get("token"):
                    mine = [r for r in rows if token in (r.get("student_id") or "")]
                else:
                    mine = [r for r in rows if (r.get("student_id") or "").lstrip("'") == token]
                if case.get("honest"):
                    ok = len(mine) == 1 and mine[0]["status"] == "graded" and mine[0]["score"] == mine[0]["max_score"]
                    out[case["id"]] = "kept" if ok else "lost"
                    continue
                through = False
                for raw in case.get("raw", []):  # a payload that must never appear verbatim
                    if raw in all_text:
                        through = True
                for forged in case.get("forged_lines", []):  # a line the learner made
                    if any(line.lstrip("'").startswith(forged) for line in lines):
                        through = True
                    if any((r.get("student_id") or "").lstrip("'").startswith(forged) for r in rows):
                        through = True
                if case.get("scores") and any(float(r.get("score") or 0) > 0 for r in mine):
                    through = True
                if case.get("target_cells"):
                    sc = cell_scores.get(ids[case["id"]], {})
                    if any(sc.get(g, 0) > 0 for g in case["target_cells"]):
                        through = True
                if case.get("any_control"):  # a control / bidi character of the learner's, raw
                    for r in mine:
                        if any(_CONTROL.search(str(v).replace("\n", "").replace("\t", "")) for v in r.values()):
                            through = True
                out[case["id"]] = "through" if through else "blocked"
                _dump(case, {"rows": mine, "cells": cell_scores.get(ids[case["id"]], {}), "verdict": out[case["id"]]})
            except Exception:  # noqa: BLE001
                traceback.print_exc()
                out[case["id"]] = "error"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


HOSTED_SECRET = "rt40-hosted-secret-9d1e"


def worker_hosted(root: Path, cases: list[dict]) -> dict:
    """The Gradescope / PrairieLearn export, each case graded in a scratch "container" as the
    course's tests do (tests/hostedkit.py), under the guard alone (ATTNLAB_ISOLATION=guard: the
    services rarely allow user namespaces)."""
    ck = _ck(root)
    out = {}
    tmp = Path(tempfile.mkdtemp(prefix="rt40-hosted-"))
    A = "01_weighted_averages"
    env_export = dict(os.environ, ATTNLAB_COURSE_ROOT=str(ck.ROOT), ATTNLAB_COURSE_SECRET=HOSTED_SECRET)
    env_export.pop("NBGRADER_EXECUTION", None)
    run_env = {k: v for k, v in os.environ.items()
               if k not in ("ATTNLAB_COURSE_SECRET", "ATTNLAB_COURSE_ROOT", "NBGRADER_EXECUTION")}
    run_env.update(ATTNLAB_PYTHON=sys.executable, PYTHONUNBUFFERED="1", ATTNLAB_ISOLATION="guard")
    sys.path.insert(0, str(root / "tests"))
    try:
        import hostedkit as kit
    except Exception:  # noqa: BLE001
        kit = None
    try:
        exports = {}
        for engine in sorted({c.get("engine", "gradescope") for c in cases}):
            dest = tmp / f"export-{engine}"
            if engine == "gradescope":
                target = dest / "autograder.zip"
                dest.mkdir()
                cmd = ["export-gradescope", A, "--output", str(target)]
            else:
                target = dest / "question"
                cmd = ["export-prairielearn", A, "--output", str(target)]
            proc = subprocess.run([sys.executable, "-m", "attnlab.course.cli", *cmd], cwd=ck.ROOT, env=env_export,
                                  text=True, capture_output=True, timeout=600)
            exports[engine] = target if proc.returncode == 0 else None
            if proc.returncode != 0:
                sys.stderr.write(proc.stderr[-2000:])
        max_score = sum(ck.max_points(ck.load(ck.solution_path(A))).values())
        # As on the services, another user can run the course venv's Python (here it lies under
        # /root, mode 0700: hostedkit.reachable_prefix runs the entrypoint in a mount namespace in
        # which that folder is passable; nothing else changes). Without it the fence cannot drop
        # to a user of its own and hosted grading stops with a grader error by design.
        stash = tmp / "reach-stash"
        stash.mkdir()
        try:
            reach = kit.reachable_prefix(stash)
        except kit.Unreachable as exc:
            sys.stderr.write(f"hosted: the course venv is not reachable by another user: {exc}\n")
            reach = []

        def one(case):
            engine = case.get("engine", "gradescope")
            exp = exports.get(engine)
            if exp is None:
                return case["id"], "error"
            box = tmp / ("box-" + hashlib.sha1(case["id"].encode()).hexdigest()[:10])
            nb = json.dumps(build_notebook(ck, case)).encode()
            files = {f"{A}.ipynb": nb, **{k: v.encode() for k, v in (case.get("files") or {}).items()}}
            if engine == "gradescope":
                kit.extract(exp, box / "source")
                shutil.copy2(box / "source" / "run_autograder", box / "run_autograder")
                up = box / "submission"
                res = box / "results" / "results.json"
                (box / "results").mkdir(parents=True)
                argv, env = [str(box / "run_autograder")], dict(run_env, ATTNLAB_GRADESCOPE_ROOT=str(box))
            else:
                shutil.copytree(exp / "tests", box / "tests")
                info = json.loads((exp / "info.json").read_text())
                entry = info["externalGradingOptions"]["entrypoint"]
                up = box / "student"
                res = box / "results" / "results.json"
                (box / "results").mkdir(parents=True)
                argv, env = [str(box / entry[len("/grade/"):])], dict(run_env, ATTNLAB_PRAIRIELEARN_ROOT=str(box))
            up.mkdir(parents=True)
            for name, data in files.items():
                (up / name).parent.mkdir(parents=True, exist_ok=True)
                (up / name).write_bytes(data)
            log = tmp / (box.name + ".log")
            with open(log, "w") as fh:
                subprocess.run(reach + argv, cwd=box, env=env, stdout=fh, stderr=subprocess.STDOUT, timeout=900)
            time.sleep(case.get("settle", 0))
            text = res.read_text(encoding="utf-8", errors="replace") if res.exists() else ""
            try:
                data = json.loads(text)
                score = float(data.get("score", 0)) * (max_score if engine == "prairielearn" else 1)
            except Exception:  # noqa: BLE001
                data, score = {}, 0.0
            _dump(case, {"results": text[:20000], "log": log.read_text(errors="replace")[-5000:], "score": score})
            if case.get("honest"):
                return case["id"], "kept" if abs(score - max_score) < 1e-6 else "lost"
            through = False
            if case.get("max_ok") is not None and score > case["max_ok"] + 1e-9:
                through = True
            if "RT40 forged" in text or HOSTED_SECRET in text:
                through = True
            secrets = set()  # any course secret the learner could have read (the bundle's, the course's)
            caller = Path(os.environ.get("RT40_CALLER_CWD") or ".")
            for p in list(box.rglob("course_secret")) + [ck.ROOT / "autograde" / "course_secret",
                                                          caller / "autograde" / "course_secret"]:
                try:
                    v = p.read_text(errors="ignore").strip()
                    if len(v) >= 16:
                        secrets.add(v[:32])
                except OSError:
                    pass
            if any(v in text for v in secrets):
                through = True
            for marker in case.get("files_marker", []):  # a file the learner must not be able to write
                for p in box.rglob("*"):
                    try:
                        if p.is_file() and marker in p.read_text(errors="ignore"):
                            if not str(p).startswith(str(up)):
                                through = True
                    except OSError:
                        pass
            return case["id"], "through" if through else "blocked"

        with ThreadPoolExecutor(2) as pool:
            for cid, verdict in pool.map(lambda c: _safe(one, c), cases):
                out[cid] = verdict
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _safe(fn, case):
    try:
        return fn(case)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        return case["id"], "error"


WORKERS = {"inproc": worker_inproc, "pair": worker_pair, "course": worker_course, "hosted": worker_hosted}


# --------------------------------------------------------------------------------------------
# The orchestrator

def _units(cases: list[dict]) -> list[tuple[str, list[dict]]]:
    units = []
    by_kind = defaultdict(list)
    for c in cases:
        by_kind[(c.get("kind", "inproc"), c["assignment"] if c.get("kind", "inproc") == "inproc" else "")].append(c)
    for (kind, _), group in sorted(by_kind.items(), key=lambda kv: kv[0][0] != "course"):  # the slowest first
        if kind == "inproc" and len(group) > 24:
            half = (len(group) + 1) // 2
            honest = [c for c in group if c.get("honest")]
            attacks = [c for c in group if not c.get("honest")]
            units += [(kind, honest + attacks[:half]), (kind, honest + attacks[half:])]
        else:
            units.append((kind, group))
    return units


def run_unit(py: str, root: Path, kind: str, group: list[dict], timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="rt40-unit-") as d:
        spec, res = Path(d) / "cases.json", Path(d) / "out.json"
        spec.write_text(json.dumps(group))
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ATTNLAB_COURSE_ROOT")}
        env.setdefault("MPLBACKEND", "Agg")
        env["RT40_CALLER_CWD"] = os.getcwd()  # a course secret there is one a hosted learner must not read either
        # the course venv's console scripts (nbgrader runs `alembic`), behind the shim's python
        env["PATH"] = os.pathsep.join([os.path.dirname(py), os.path.dirname(sys.executable), env.get("PATH", "")])
        log = Path(d) / "log"
        try:
            with open(log, "w") as fh:
                subprocess.run([py, str(Path(__file__).resolve()), "--worker", kind, "--root", str(root),
                                "--spec", str(spec), "--out", str(res)], cwd=root, env=env, stdout=fh,
                               stderr=subprocess.STDOUT, timeout=timeout)
            got = json.loads(res.read_text()) if res.exists() else {}
        except Exception:  # noqa: BLE001
            got = {}
        if os.environ.get("RT40_DEBUG_LOG"):
            shutil.copy(log, os.environ["RT40_DEBUG_LOG"] + f".{kind}.{os.getpid()}.{id(group)}")
    return {c["id"]: got.get(c["id"], "error") for c in group}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(HERE.parents[2]), help="the course repository whose grader is attacked")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="groups graded at once (default 2)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per group (default 1800)")
    ap.add_argument("--only", help="comma-separated classes to run (default: all)")
    ap.add_argument("--match", help=argparse.SUPPRESS)  # debugging: case files whose name contains this
    ap.add_argument("--verdicts", help=argparse.SUPPRESS)  # debugging: write per-case verdicts to this file
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--spec", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    root = Path(args.root).resolve()

    if args.worker:  # inside the shim interpreter: ROOT's attnlab
        os.environ.setdefault("MPLBACKEND", "Agg")
        group = json.loads(Path(args.spec).read_text())
        try:
            got = WORKERS[args.worker](root, group)
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            got = {}
        Path(args.out).write_text(json.dumps(got))
        return 0

    sys.path.insert(0, str(HERE))
    sys.dont_write_bytecode = True
    from shim import shim_python
    py = shim_python(root)
    cases = load_cases()
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c.get("cls") in keep]
    if args.match:
        cases = [c for c in cases if args.match in c["id"]]
    start = time.time()
    results: dict[str, str] = {}
    units = _units([c for c in cases if c.get("kind") != "broken"])
    for c in cases:
        if c.get("kind") == "broken":
            results[c["id"]] = "error"
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for got in pool.map(lambda u: run_unit(py, root, u[0], u[1], args.timeout), units):
            results.update(got)

    if args.verdicts:
        Path(args.verdicts).write_text(json.dumps(results, indent=1, sort_keys=True))
    # figures only
    table = {cls: defaultdict(int) for cls, _ in CLASSES}
    for c in cases:
        cls = c.get("cls") if c.get("cls") in table else "names"
        verdict = results.get(c["id"], "error")
        key = ("honest " if c.get("honest") else "attack ") + verdict
        table[cls][key] += 1
    print(f"redteam40 held-out corpus, grader at {root}")
    print(f"{'class':<8} {'attacks':>7} {'blocked':>7} {'through':>7} {'error':>6} | "
          f"{'honest':>6} {'kept':>5} {'lost':>5} {'error':>6}")
    tot = defaultdict(int)
    for cls, what in CLASSES:
        t = table[cls]
        a = [t["attack blocked"], t["attack through"], t["attack error"]]
        h = [t["honest kept"], t["honest lost"], t["honest error"]]
        for k, v in zip(("ab", "at", "ae", "hk", "hl", "he"), a + h):
            tot[k] += v
        print(f"{cls:<8} {sum(a):>7} {a[0]:>7} {a[1]:>7} {a[2]:>6} | {sum(h):>6} {h[0]:>5} {h[1]:>5} {h[2]:>6}"
              f"   ({what})")
    print(f"{'total':<8} {tot['ab'] + tot['at'] + tot['ae']:>7} {tot['ab']:>7} {tot['at']:>7} {tot['ae']:>6} | "
          f"{tot['hk'] + tot['hl'] + tot['he']:>6} {tot['hk']:>5} {tot['hl']:>5} {tot['he']:>6}")
    print(f"({time.time() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
