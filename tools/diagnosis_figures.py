"""Run the catalogue (the cards' mistakes, ``src/attnlab/cards/``) and the uncatalogued corpus (``tests/uncatalogued/``)
through the notebooks' grade cells and print the figures of issue 27:

entries, rejected, accepted (wrong code that passed: listed), named by the catalogue, named by a
relation, unnamed (count and %), and the unnamed list.

A rejection is one grade cell of an entry's ``fails`` that raised. Its message is *named by the
catalogue* when it says "looks like a known mistake" (or two at once, or the shape points to one),
*named by a relation* when the general diagnosis layer states one ("an exact relation to the right
answer"), *unnamed* when it says "does not look like any mistake we know", and otherwise *named by
the check's own words* (in place, should raise, a type, ...).

    .venv/bin/python tools/diagnosis_figures.py [--corpus catalogue|uncatalogued|both] [-k TEXT] [-v] [-j N]
    .venv/bin/python tools/diagnosis_figures.py --held-out   # issue 39's blind learners: named,
        misleading, unnamed, raw, accepted per notebook and per learner (figures only)
"""
from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ["ATTNLAB_FEEDBACK"] = "mistake-only"  # repeatable messages, no second-run escalation

import coursekit as ck  # noqa: E402
from uncatalogued import corpus  # noqa: E402

UNKNOWN = "does not look like any mistake we know"
CATALOGUE_WORDS = ("looks like a known mistake", "two known mistakes at once", "points to a known mistake")
RELATION_WORDS = ("exact relation", "relation to the right answer", "the right computation with")


def kind_of(message: str) -> str:
    if UNKNOWN in message:
        return "unnamed"
    if any(w in message for w in CATALOGUE_WORDS):
        return "catalogue"
    if any(w in message for w in RELATION_WORDS):
        return "relation"
    return "check"


def entries(which: str, select: str) -> list[tuple[str, str, object]]:
    out = []
    for a in ck.assignments():
        if which in ("catalogue", "both"):
            out += [("catalogue", a, w) for w in ck.catalogue(a) if not ck.is_prediction(w.solution)]
        if which in ("uncatalogued", "both"):
            out += [("uncatalogued", a, w) for w in corpus(a)]
    return [e for e in out if select.lower() in f"{e[1]}:{e[2].name}".lower()]


@dataclass(frozen=True)
class Failed:
    """What a grade cell raised, in a form that crosses processes."""

    type_name: str
    message: str
    assertion: bool  # a check's failure (AssertionError), not a crash

    def __str__(self) -> str:
        return self.message


def _run_notebook(job: tuple[str, list[tuple[str, str, object]], bool]) -> list[tuple]:
    """Every entry of one notebook: its grade cells' outcomes (None: full points)."""
    assignment, jobs, verbose = job
    nb = ck.load(ck.solution_path(assignment))
    setup = ck.setup_namespace(nb)  # the read-only cells run once; every entry gets a copy
    rows = []
    for source, a, w in jobs:
        try:
            ns = ck.run_solutions(nb, dict(setup), replace={w.solution: w.code})
            with contextlib.redirect_stdout(io.StringIO()):  # the checks' success lines
                results = {gid: ck.run_grade_cell(nb, ns, gid) for gid in w.fails}
        except Exception as exc:  # noqa: BLE001 - the entry's own code did not run
            results = {"(definition)": exc}
        for gid, exc in results.items():
            out = None if exc is None else Failed(type(exc).__name__, str(exc), isinstance(exc, AssertionError))
            rows.append((source, a, w, gid, out))
            if verbose:
                print(f"  {a[:2]} {w.name} / {gid}: "
                      + ("PASSED" if out is None else f"{out.type_name}: {kind_of(out.message)}"))
                if out is not None:
                    print("      " + out.message.replace("\n", "\n      "), flush=True)
    return rows


def run(which: str = "both", select: str = "", verbose: bool = False, jobs: int = 0) -> dict:
    """Run the selected entries, one process per notebook (``jobs`` at a time; 0: one per core)."""
    by_notebook: dict[str, list] = {}
    for e in entries(which, select):
        by_notebook.setdefault(e[1], []).append(e)
    work = [(a, es, verbose) for a, es in by_notebook.items()]
    if not jobs:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if jobs <= 1 or len(work) <= 1:
        results = [_run_notebook(job) for job in work]
    else:
        # the slowest notebooks first, so that no process is left with them at the end
        work.sort(key=lambda job: -len(job[1]) * (4 if job[0].startswith(("07", "09")) else 1))
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_run_notebook, work, chunksize=1)
    return {"rows": [row for rows in results for row in rows]}


def report(rows, label: str) -> None:
    names = {(s, a, w.name) for s, a, w, _, _ in rows}
    rejected = [r for r in rows if r[4] is not None]
    accepted = [r for r in rows if r[4] is None]
    kinds = {"catalogue": [], "relation": [], "check": [], "unnamed": []}
    for r in rejected:
        kinds[kind_of(str(r[4]))].append(r)
    crashed = [r for r in rejected if not r[4].assertion]
    n = max(len(rejected), 1)
    print(f"\n== {label}")
    print(f"entries: {len(names)}   grade-cell runs: {len(rows)}")
    print(f"rejected: {len(rejected)}   (of which crashed instead of failing a check: {len(crashed)})")
    print(f"accepted (wrong code that passed): {len(accepted)}")
    for s, a, w, gid, _ in accepted:
        print(f"    {a}: {w.name} / {gid}")
    print(f"named by the catalogue: {len(kinds['catalogue'])} ({len(kinds['catalogue']) / n:.1%})")
    print(f"named by a relation: {len(kinds['relation'])} ({len(kinds['relation']) / n:.1%})")
    print(f"named by the check's own words: {len(kinds['check'])} ({len(kinds['check']) / n:.1%})")
    print(f"unnamed: {len(kinds['unnamed'])} ({len(kinds['unnamed']) / n:.1%})")
    for s, a, w, gid, _ in kinds["unnamed"]:
        print(f"    {a}: {w.name} / {gid}")
    for s, a, w, gid, exc in crashed:
        print(f"    crashed: {a}: {w.name} / {gid}: {exc!r}"[:200])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=("catalogue", "uncatalogued", "both"), default="both")
    parser.add_argument("-k", default="", help="only entries whose 'notebook:name' contains this")
    parser.add_argument("-v", action="store_true", help="print every message")
    parser.add_argument("-j", type=int, default=0, help="processes (default: one per core)")
    parser.add_argument("--held-out", action="store_true",
                        help="the held-out learners' wrong versions (tests/heldout/learners39): figures only")
    args = parser.parse_args(argv)
    if args.held_out:
        import subprocess
        runner = ROOT / "tests" / "heldout" / "learners39" / "figures.py"
        return subprocess.run([sys.executable, str(runner), "--root", str(ROOT), "-j", str(args.j or 2)]).returncode
    start = time.perf_counter()
    rows = run(args.corpus, args.k, args.v, args.j)["rows"]
    for source in ("catalogue", "uncatalogued"):
        part = [r for r in rows if r[0] == source]
        if part:
            report(part, source)
    if args.corpus == "both":
        report(rows, "both together")
    print(f"\n({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
