"""Held-out wrong versions of issue 39 (written by blind learners who never saw solutions/ or the
checks, kept here as a test whose figures must not fall: tests/test_heldout_learners.py): run each through its notebook's grade cells and print
only the figures (per notebook, per learner): named, misleading, unnamed, raw, accepted.

A case is a file <learner>/<anything>.py defining NOTEBOOK (e.g. "01_weighted_averages"),
CELL (the grade_id of the solution cell it replaces), MISTAKE (what is wrong, in words),
NAMED_IF (a regex, case-insensitive: a message that names this mistake matches it) and CODE
(the cell's new source). Optional FAILS: the grade cells to run (default: every grade cell
whose id starts with "test_" + CELL).

    .venv/bin/python tests/heldout/learners39/figures.py [--root REPO] [-j 2]

Prints no message and no case content.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import re
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KNOWN = ("looks like a known mistake", "two known mistakes at once", "points to a known mistake",
         "exact relation", "relation to the right answer", "looks like", "the right computation with")


def load_cases(folder: Path = HERE):
    cases = []
    for path in sorted(p for p in folder.glob("*/*.py") if p.name != "figures.py"):
        d = runpy.run_path(str(path))
        cases.append((path.parent.name, path.name, d["NOTEBOOK"], d["CELL"], d["NAMED_IF"], d["CODE"],
                      tuple(d.get("FAILS", ())), d.get("FAIR", "")))
    return cases


def classify(results, named_if):
    failed = [e for e in results.values() if e is not None]
    if not failed:
        return "accepted"
    pat = re.compile(named_if, re.I | re.S)
    if any(pat.search(f"{type(e).__name__}: {e}") for e in failed):
        return "named"
    if any(isinstance(e, AssertionError) and any(k in str(e) for k in KNOWN) for e in failed):
        return "misleading"
    if any(not isinstance(e, AssertionError) for e in failed):
        return "raw"
    return "unnamed"


def run_notebook(job):
    root, notebook, cases = job
    sys.path.insert(0, str(Path(root) / "tests"))
    sys.path.insert(0, str(Path(root) / "src"))
    for m in [m for m in sys.modules if m == "attnlab" or m.startswith("attnlab.")]:
        del sys.modules[m]
    os.environ["ATTNLAB_FEEDBACK"] = "mistake-only"
    os.environ.setdefault("MPLBACKEND", "Agg")
    import coursekit as ck
    nb = ck.load(ck.solution_path(notebook))
    grade_ids = list(ck.grade_cells(nb))
    setup = ck.setup_namespace(nb)
    out = []
    for learner, name, _, cell, named_if, code, fails, fair in cases:
        if not fails:
            import ast
            try:
                names = {n.name for n in ast.parse(code).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
            except SyntaxError:
                names = set()
            names.add(cell)
            src = {g: ck.grade_cells(nb)[g]["source"] for g in grade_ids if not g.startswith("test_predict")}
            fails = tuple(g for g, text in src.items()
                          if any(re.search(r"check_\w+\(\s*" + re.escape(n) + r"\b", text) for n in names))
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                ns = ck.run_solutions(nb, dict(setup), replace={cell: code})
                results = {g: ck.run_grade_cell(nb, ns, g) for g in fails}
        except BaseException as exc:  # noqa: BLE001
            results = {"(definition)": exc}
        if not fails:
            results = {"(no grade cell)": RuntimeError("no grade cell for " + cell)}
        kind = classify(results, named_if)
        if fair and kind == "accepted":
            kind = "fair"  # a reviewer found the contract calls this route fair (FAIR says why)
        out.append((learner, notebook, kind, f"{learner}/{name}"))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", default=str(HERE.parents[2]), help="the course repository (default: this one)")
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--cases", default=str(HERE), help="the folder of cases (default: this round's, learners39)")
    p.add_argument("--list-accepted", action="store_true", help="also print the files of accepted cases (for reviewers only)")
    a = p.parse_args()
    cases = load_cases(Path(a.cases))
    by_nb = {}
    for c in cases:
        by_nb.setdefault(c[2], []).append(c)
    jobs = [(a.root, nb, cs) for nb, cs in sorted(by_nb.items())]
    with multiprocessing.get_context("fork").Pool(a.j) as pool:
        rows = [r for part in pool.map(run_notebook, jobs, chunksize=1) for r in part]
    kinds = ("named", "misleading", "unnamed", "raw", "accepted", "fair")
    def line(label, rs):
        n = len(rs)
        counts = {k: sum(1 for r in rs if r[2] == k) for k in kinds}
        judged = n - counts["fair"]
        pct = f"{counts['named'] / judged:.0%}" if judged else "-"
        print(f"{label:28s} {n:4d}  " + "  ".join(f"{k} {counts[k]:3d}" for k in kinds) + f"   named {pct}")
    for nb in sorted({r[1] for r in rows}):
        line(nb, [r for r in rows if r[1] == nb])
    for learner in sorted({r[0] for r in rows}):
        line("learner " + learner, [r for r in rows if r[0] == learner])
    line("ALL", rows)
    if a.list_accepted:
        for r in rows:
            if r[2] == "accepted":
                print("accepted:", r[3])


if __name__ == "__main__":
    main()
