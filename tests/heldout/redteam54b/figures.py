"""Held-out red team, round 54b: grade the corpus in ``cases/`` with the grader at ROOT and print
only figures (per class: attacks blocked / got through / runner error; honest look-alikes kept
full marks / lost / runner error). Nothing of the cases (code, names, ids) is printed.

    .venv/bin/python tests/heldout/redteam54b/figures.py [--root R] [-j N] [--only CLASS,...]

ROOT defaults to the repository that holds this file. The grader at ROOT is the one imported (a
throwaway interpreter is made whose ``attnlab`` is ROOT/src, see ``shim.py``), in-process
(``grading.grade_submission``, warm workers) or through ``python -m attnlab.course.cli`` on a
scratch course (``grade``, then ``export`` and ``report``), as the course's own tests do
(tests/coursekit.py).

Fixers: do not read ``cases/``. Run this and read the figures.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
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
    ("stop", "one learner stops or spoils the class's batch"),
    ("worker", "one learner changes the warm worker for the next"),
    ("channel", "learner code on the harness's own channel"),
    ("borrow", "answers borrowed around the call watch"),
    ("measure", "memory measured / told apart in the learner's reach"),
    ("export", "ids reaching the LMS export and the report"),
    ("honest", "honest look-alikes of the above"),
]
GRADER_FAIL_STATUSES = ("timed out", "out of memory", "kernel died", "grader error")


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
            case = {"cls": path.name.split("_")[1] if "_" in path.name else "honest", "kind": "broken"}
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


def _with_cell(nb: dict, source: str | None, cid: str, at_end: bool = False) -> dict:
    if not source:
        return nb
    nb = json.loads(json.dumps(nb))
    cell = {"cell_type": "code", "id": "added-" + hashlib.sha1(cid.encode()).hexdigest()[:8],
            "metadata": {}, "source": source, "outputs": [], "execution_count": None}
    if at_end:
        nb["cells"].append(cell)
        return nb
    at = next((i for i, c in enumerate(nb["cells"])
               if (c.get("metadata", {}).get("nbgrader") or {}).get("solution")), 3)
    nb["cells"].insert(at, cell)
    return nb


def build_notebook(ck, case: dict, part: dict | None = None) -> dict:
    part = part if part is not None else case
    nb = ck.completed_student_notebook(case["assignment"], part.get("replace") or None)
    nb = _with_cell(nb, part.get("cell"), case["id"])
    nb = _with_cell(nb, part.get("cell_end"), case["id"] + "-end", at_end=True)
    for k in range(int(part.get("many_cells") or 0)):  # many tiny code cells at the end
        nb["cells"].append({"cell_type": "code", "id": f"many-{k}", "metadata": {}, "source": "pass",
                            "outputs": [], "execution_count": None})
    return nb


def _write_folder(ck, case: dict, folder: Path, part: dict | None = None) -> None:
    part = part if part is not None else case
    A = case["assignment"]
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(build_notebook(ck, case, part))
    if part.get("nest_metadata"):  # a deeply nested value in the first cell's metadata
        n = int(part["nest_metadata"])
        text = text.replace('"metadata": {', '"metadata": {"x": ' + "[" * n + "]" * n + ", ", 1)
    (folder / f"{A}.ipynb").write_text(text, encoding="utf-8")
    for name, text in (part.get("files") or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def _full(r) -> bool:
    return r.status == "graded" and abs(r.score - r.max_score) < 1e-9


def _dump(case, data) -> None:
    """Debugging only (RT54B_DUMP=folder): what the grader said about one case."""
    folder = os.environ.get("RT54B_DUMP")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / (case["id"] + ".json")).write_text(json.dumps(data, default=str, indent=1))


def _judge_attack(case: dict, r) -> str:
    cells = {c.grade_id: c for c in r.cells}
    through = any(g in cells and cells[g].score > 0 for g in case.get("target", []))
    if case.get("min_through") is not None and r.score >= case["min_through"]:
        through = True
    if r.status in case.get("claims", []):  # a grader-only status the learner claimed
        through = True
    return "through" if through else "blocked"


# --------------------------------------------------------------------------------------------
# Workers: each grades a group of cases and returns {case_id: outcome}
# outcomes: "blocked" / "through" (attacks), "kept" / "lost" (honest), "error"

def worker_inproc(root: Path, cases: list[dict]) -> dict:
    ck = _ck(root)
    from attnlab.course import grading, warm
    from attnlab.course.plan import plan_assignment
    out = {}
    by_a = defaultdict(list)
    for c in cases:
        by_a[c["assignment"]].append(c)
    for A, group in by_a.items():
        scratch = Path(tempfile.mkdtemp(prefix="rt54b-inproc-"))
        try:
            plan = plan_assignment(ck.ROOT, A)
            for case in sorted(group, key=lambda c: not c.get("honest")):  # honest first
                try:
                    student = "s" + hashlib.sha1(case["id"].encode()).hexdigest()[:10]
                    folder = scratch / "submitted" / student / A
                    _write_folder(ck, case, folder)
                    r = grading.grade_submission(grading.Submission(student, A, folder), plan, grading.Limits(),
                                                 scratch, [ck.ROOT])
                    if case.get("honest"):
                        out[case["id"]] = "kept" if _full(r) else "lost"
                    else:
                        out[case["id"]] = _judge_attack(case, r)
                    _dump(case, {"row": r.row(), "cells": [(c.grade_id, c.score, c.lines) for c in r.cells],
                                 "log": r.cell_log, "verdict": out[case["id"]]})
                except Exception:  # noqa: BLE001
                    traceback.print_exc()
                    out[case["id"]] = "error"
        finally:
            warm.close_pool(scratch)
            shutil.rmtree(scratch, ignore_errors=True)
    return out


STATE_MARK = "RT54BSTATE:"
# What a learner can read of its own scheduling state and limits without any tripwire.
STATE_CELL = r'''
import os as _o, resource as _r, json as _j
_st = {"nice": _o.getpriority(_o.PRIO_PROCESS, 0), "cpus": sorted(_o.sched_getaffinity(0)),
       "policy": _o.sched_getscheduler(0),
       "limits": {n: list(_r.getrlimit(getattr(_r, n))) for n in
                  ("RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_STACK", "RLIMIT_NPROC", "RLIMIT_DATA",
                   "RLIMIT_RSS", "RLIMIT_MEMLOCK", "RLIMIT_NICE", "RLIMIT_RTPRIO", "RLIMIT_SIGPENDING")
                  if hasattr(_r, n)}}
print("RT54BSTATE:" + _j.dumps(_st, sort_keys=True))
'''


def _state_of(r) -> str | None:
    for entry in r.cell_log or []:
        for line in str(entry.get("stdout", "")).splitlines():
            if line.startswith(STATE_MARK):
                return line[len(STATE_MARK):]
    return None


def worker_slot(root: Path, cases: list[dict]) -> dict:
    """Three learners in the same warm slot (one scratch, one job at a time): an honest baseline
    that reads its own scheduling state, the case's writer, then an honest reader that reads it
    again. Through: the reader loses marks, or its state differs from the baseline's."""
    ck = _ck(root)
    from attnlab.course import grading, warm
    from attnlab.course.plan import plan_assignment
    out = {}
    plans = {}
    for case in cases:
        scratch = Path(tempfile.mkdtemp(prefix="rt54b-slot-"))
        try:
            A = case["assignment"]
            plan = plans.get(A) or plans.setdefault(A, plan_assignment(ck.ROOT, A))
            tag = hashlib.sha1(case["id"].encode()).hexdigest()[:10]
            results = {}
            parts = {"base": {"cell_end": STATE_CELL}, "writer": case["writer"],
                     "reader": dict(case.get("reader") or {}, cell_end=STATE_CELL)}
            for role in ("base", "writer", "reader"):
                student = f"{role[0]}{tag}"
                folder = scratch / "submitted" / student / A
                _write_folder(ck, case, folder, parts[role])
                results[role] = grading.grade_submission(grading.Submission(student, A, folder), plan,
                                                         grading.Limits(), scratch, [ck.ROOT])
            base, reader, writer = results["base"], results["reader"], results["writer"]
            _dump(case, {role: {"row": x.row(), "state": _state_of(x), "log": x.cell_log}
                         for role, x in results.items()})
            if case.get("honest"):
                out[case["id"]] = "kept" if all(_full(x) for x in results.values()) and \
                    _state_of(base) == _state_of(reader) else "lost"
            elif not _full(base) or _state_of(base) is None:
                out[case["id"]] = "error"  # the baseline itself did not run cleanly
            else:
                through = not _full(reader) or _state_of(reader) != _state_of(base)
                if case.get("writer_claims") and writer.status in case["writer_claims"]:
                    through = True
                out[case["id"]] = "through" if through else "blocked"
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            out[case["id"]] = "error"
        finally:
            warm.close_pool(scratch)
            shutil.rmtree(scratch, ignore_errors=True)
    return out


HONEST_PER_BATCH = 3


def _sinks_text(course: Path, paths: list[Path]) -> str:
    text = ""
    for p in paths:
        if p.is_file():
            text += p.read_bytes().decode("utf-8", "surrogateescape") + "\n"
    return text


def worker_batch(root: Path, cases: list[dict]) -> dict:
    """Each case is a batch of its own on a scratch course: its learner (or learners) beside
    honest classmates, graded by ``attnlab-course grade --jobs 1`` (warm, or cold with
    ATTNLAB_WARM=0); for export cases the course is then exported (Canvas, Moodle) and reported."""
    ck = _ck(root)
    out = {}
    for case in cases:
        tmp = Path(tempfile.mkdtemp(prefix="rt54b-batch-"))
        try:
            out[case["id"]] = _one_batch(ck, case, tmp)
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            out[case["id"]] = "error"
        finally:
            subprocess.run(["chmod", "-R", "u+rwX", str(tmp)], capture_output=True)
            shutil.rmtree(tmp, ignore_errors=True)
    return out


def _one_batch(ck, case: dict, tmp: Path) -> str:
    A = case["assignment"]
    course = ck.make_course(tmp)
    tag = hashlib.sha1(case["id"].encode()).hexdigest()[:8]
    honest_ids = [f"zh{k}-{tag}" for k in range(case.get("classmates", HONEST_PER_BATCH))]
    for hid in honest_ids:
        ck.submit(course, hid, A, ck.completed_student_notebook(A))
    learners = case.get("learners") or [{"student": case.get("student"), "token": case.get("token")}]
    tokens = []
    for k, who in enumerate(learners):
        student = who.get("student") or f"a{k}-{tag}"
        token = who.get("token") or student
        tokens.append(token)
        sub = os.fsencode(str(course / "autograde" / "submitted")) + b"/" + (
            student if isinstance(student, bytes) else student.encode("utf-8", "surrogateescape"))
        folder = Path(os.fsdecode(sub)) / A
        _write_folder(ck, case, folder, who.get("part") or case)
    env = {"ATTNLAB_WARM": "0"} if case.get("cold") else {}
    env.update(case.get("env") or {})
    try:
        proc = ck.course_command(course, "grade", "--jobs", "1", "--cell-timeout", str(case.get("cell_timeout", 30)),
                                 "--timeout", str(case.get("nb_timeout", 120)), timeout=case.get("batch_timeout", 900),
                                 env=env)
        rc, text = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        rc, text = "timeout", ""
    csv_path = course / "autograde" / "grades.csv"
    rows = list(csv.DictReader(io.StringIO(csv_path.read_bytes().decode("utf-8", "surrogateescape")))) \
        if csv_path.is_file() else []

    def sid(r):
        return (r.get("student_id") or "").lstrip("'")

    honest_ok = all(any(sid(r) == h and r.get("status") == "graded" and r.get("score") == r.get("max_score")
                        for r in rows) for h in honest_ids)
    mine = [r for r in rows if any(t in sid(r) for t in tokens)]
    info = {"rc": rc, "rows": rows, "tail": text[-3000:]}
    if case["cls"] != "export":
        stopped = rc != 0 or not csv_path.is_file() or not honest_ok
        attacker_rowless = len(mine) < len(tokens) or any(not r.get("status") for r in mine)
        _dump(case, info)
        if case.get("honest"):
            return "kept" if not stopped and len(mine) == len(tokens) and all(
                r.get("status") == "graded" and r.get("score") == r.get("max_score") for r in mine) else "lost"
        return "through" if (stopped or attacker_rowless) else "blocked"
    # export: the batch is only the setting; what is judged is the export and the report
    through = False
    sinks = []
    exports = {}
    for fmt in ("canvas", "moodle"):
        dest = course / "autograde" / "exports" / f"{fmt}.csv"
        dest.parent.mkdir(parents=True, exist_ok=True)
        p = ck.course_command(course, "export", "--format", fmt, "--output", str(dest), timeout=300)
        body = dest.read_bytes().decode("utf-8", "surrogateescape") if dest.is_file() else ""
        exports[fmt] = (p.returncode, body)
        sinks.append(body)
        # the whole class written: every honest classmate's row is in the file
        if p.returncode != 0 or not dest.is_file() or not all(h in body for h in honest_ids):
            through = True
    rep = course / "autograde" / "report"
    p = ck.course_command(course, "report", "--output", str(rep), timeout=300)
    page = _sinks_text(course, [rep / "index.html"])
    sinks.append(page)
    sinks.append(csv_path.read_bytes().decode("utf-8", "surrogateescape") if csv_path.is_file() else "")
    if p.returncode != 0 or not (rep / "index.html").is_file():
        through = True
    raw = case.get("raw_chars", [])
    if any(ch in s for s in sinks for ch in raw):
        through = True
    info.update(exports={k: [v[0], v[1][:2000]] for k, v in exports.items()}, report_rc=p.returncode)
    _dump(case, info)
    if case.get("honest"):
        ok = not through and rc == 0 and honest_ok and all(
            all(t in exports[f][1] for t in case.get("must_show", tokens)) for f in exports)
        return "kept" if ok else "lost"
    return "through" if through else "blocked"


WORKERS = {"inproc": worker_inproc, "slot": worker_slot, "batch": worker_batch}


# --------------------------------------------------------------------------------------------
# The orchestrator

def _units(cases: list[dict]) -> list[tuple[str, list[dict]]]:
    units = []
    by_kind = defaultdict(list)
    for c in cases:
        kind = c.get("kind", "inproc")
        key = c["assignment"] if kind == "inproc" else (c["cls"] if kind == "batch" else "")
        by_kind[(kind, key)].append(c)
    order = {"batch": 0, "slot": 1, "inproc": 2}
    for (kind, _), group in sorted(by_kind.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])):
        units.append((kind, group))
    return units


def run_unit(py: str, root: Path, kind: str, group: list[dict], timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="rt54b-unit-") as d:
        spec, res = Path(d) / "cases.json", Path(d) / "out.json"
        spec.write_bytes(json.dumps(group, default=_bytes_json).encode())
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ATTNLAB_COURSE_ROOT")}
        env.setdefault("MPLBACKEND", "Agg")
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
        if os.environ.get("RT54B_DEBUG_LOG"):
            shutil.copy(log, os.environ["RT54B_DEBUG_LOG"] + f".{kind}.{os.getpid()}.{id(group)}")
    return {c["id"]: got.get(c["id"], "error") for c in group}


def _bytes_json(o):  # a student id that is not UTF-8 travels as {"__bytes__": hex}
    if isinstance(o, bytes):
        return {"__bytes__": o.hex()}
    raise TypeError(type(o).__name__)


def _bytes_hook(d):
    if set(d) == {"__bytes__"}:
        return bytes.fromhex(d["__bytes__"])
    return d


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(HERE.parents[2]), help="the course repository whose grader is attacked")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="groups graded at once (default 1)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per group (default 1800)")
    ap.add_argument("--only", help="comma-separated classes to run (default: all)")
    ap.add_argument("--match", help=argparse.SUPPRESS)  # debugging: case files whose name contains this
    ap.add_argument("--verdicts", help=argparse.SUPPRESS)  # debugging: write per-case verdicts to this file
    ap.add_argument("--cases", help=argparse.SUPPRESS)  # another round's cases/ (round 54 runs on this runner)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--spec", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    root = Path(args.root).resolve()

    if args.cases:
        global CASES
        CASES = Path(args.cases).resolve()
    if args.worker:  # inside the shim interpreter: ROOT's attnlab
        os.environ.setdefault("MPLBACKEND", "Agg")
        group = json.loads(Path(args.spec).read_text(), object_hook=_bytes_hook)
        try:
            got = WORKERS[args.worker](root, group)
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            got = {}
        Path(args.out).write_text(json.dumps(got))
        return 0

    sys.path.insert(0, str(HERE.parent / "redteam40"))  # the one shim, round 40's
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
        cls = c.get("cls") if c.get("cls") in table else "honest"
        verdict = results.get(c["id"], "error")
        key = ("honest " if c.get("honest") else "attack ") + verdict
        table[cls][key] += 1
    print(f"{CASES.parent.name} held-out corpus, grader at {root}")
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
