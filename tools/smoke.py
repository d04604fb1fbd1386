"""A new user's first hour, on one Python: clone, install, import, run, grade.

    python3 tools/smoke.py PYTHON [--route make|pip] [--where DIR] [--keep]

From a fresh clone of this repository (its committed HEAD) in ``DIR`` (default: a new folder under
/work or the system's temporary folder; pass ``--where /tmp`` to try a course kept under /tmp):

1. install: ``make bootstrap PYTHON=...`` (``--route make``), or the README's route without make
   (``--route pip``): ``PYTHON -m venv .venv`` then ``pip install -c requirements.txt -e ".[course]"``;
2. import every module that any student notebook imports, in that venv;
3. run notebook 01's solution headless (``jupyter nbconvert --execute``);
4. grade one correct submission of notebook 01 with ``attnlab-course grade`` under the sandbox
   and check full marks, status ``graded``, and a feedback page that shows the exercises.

Prints one line per step with its time and exits non-zero, naming the step, on the first failure.
``.ci/run`` runs it for every supported Python this machine has (README, "Supported Pythons").
Standard library only: it runs before anything is installed.
"""
from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "01_weighted_averages"
STUDENT = "smoke-learner"


class Failed(Exception):
    pass


def run(cmd: list[str], cwd: Path, what: str, env: dict | None = None, timeout: float = 1800) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, text=True, capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
        raise Failed(f"{what} failed (exit {proc.returncode}): {' '.join(cmd)}\n{tail}")
    return proc.stdout + proc.stderr


def notebook_imports(root: Path) -> list[str]:
    names = set()
    for path in sorted((root / "notebooks").glob("*/*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            src = re.sub(r"^\s*[%!].*$", "", src, flags=re.M)
            for node in ast.walk(ast.parse(src)):
                if isinstance(node, ast.Import):
                    names.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module)
    return sorted(names)


def install(clone: Path, python: str, route: str) -> None:
    if route == "make":
        run(["make", "bootstrap", f"PYTHON={python}"], clone, "make bootstrap")
        return
    run([python, "-m", "venv", ".venv"], clone, "python -m venv")
    # The README's route without make. On this machine the CPU-only index is out of reach and pip
    # finds torch's CPU build in its local wheel folder; elsewhere the README adds the index.
    run([str(clone / ".venv" / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         "-c", "requirements.txt", "-e", ".[course]"], clone, "pip install -e .[course]")


def grade_one(clone: Path) -> str:
    bindir = clone / ".venv" / "bin"
    env = dict(os.environ, ATTNLAB_ISOLATION=os.environ.get("ATTNLAB_ISOLATION", "bwrap"))
    run([str(bindir / "attnlab-course"), "release", NOTEBOOK], clone, "attnlab-course release", env=env)
    folder = clone / "autograde" / "submitted" / STUDENT / NOTEBOOK
    folder.mkdir(parents=True)
    shutil.copy(clone / "solutions" / NOTEBOOK / f"{NOTEBOOK}.ipynb", folder / f"{NOTEBOOK}.ipynb")
    out = run([str(bindir / "attnlab-course"), "grade", "--jobs", "2"], clone, "attnlab-course grade", env=env)
    with open(clone / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r.get("student_id") == STUDENT]
    if len(rows) != 1:
        raise Failed(f"grades.csv has {len(rows)} rows for {STUDENT}, expected 1\n{out[-2000:]}")
    row = rows[0]
    score, max_score = float(row["score"]), float(row["max_score"])
    if row["status"] != "graded" or score != max_score or max_score <= 0:
        raise Failed(f"the correct submission got {score}/{max_score}, status {row['status']!r}: {row.get('detail', '')}")
    pages = list((clone / "autograde" / "feedback" / STUDENT / NOTEBOOK).glob("*.html"))
    if len(pages) != 1:
        raise Failed(f"expected one feedback page for {STUDENT}, found {[p.name for p in pages]}")
    html = pages[0].read_text(encoding="utf-8")
    for needle in ("weighted_average", "softmax", "mix_tokens", "check_softmax"):
        if needle not in html:
            raise Failed(f"the feedback page {pages[0]} does not show the exercises (no {needle!r}; {len(html)} bytes)")
    return f"{score:g}/{max_score:g}, feedback {len(html) // 1024} KiB"


def smoke(python: str, route: str, where: Path, keep: bool) -> None:
    version = run([python, "-c", "import sys; print(sys.version.split()[0])"], where, "python --version").strip()
    clone = Path(tempfile.mkdtemp(prefix=f"attnlab-smoke-{version}-", dir=where))
    label = f"smoke {python} (Python {version}, route {route}, in {clone})"
    print(f"{label}", flush=True)
    steps = []
    try:
        t = time.monotonic()
        run(["git", "clone", "-q", str(ROOT), str(clone / "c")], where, "git clone")
        clone = clone / "c"
        install(clone, python, route)
        steps.append(f"install {time.monotonic() - t:.0f} s")
        print(f"  installed in {time.monotonic() - t:.0f} s", flush=True)

        t = time.monotonic()
        modules = notebook_imports(clone)
        code = "import importlib\nfor m in %r:\n    importlib.import_module(m)\n" % (modules,)
        run([str(clone / ".venv" / "bin" / "python"), "-c", code], clone, "importing the notebooks' modules")
        print(f"  imported {len(modules)} modules the notebooks use ({', '.join(modules)}) in "
              f"{time.monotonic() - t:.0f} s", flush=True)

        t = time.monotonic()
        run([str(clone / ".venv" / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute",
             "--output-dir", str(clone / "build"), f"solutions/{NOTEBOOK}/{NOTEBOOK}.ipynb"],
            clone, f"running notebook {NOTEBOOK}")
        print(f"  ran {NOTEBOOK} headless in {time.monotonic() - t:.0f} s", flush=True)

        t = time.monotonic()
        got = grade_one(clone)
        print(f"  graded one correct submission: {got}, in {time.monotonic() - t:.0f} s", flush=True)
        print(f"{label}: ok", flush=True)
    finally:
        if not keep:
            shutil.rmtree(clone.parent if clone.name == "c" else clone, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("python", help="the Python to try (a path or a name on PATH)")
    parser.add_argument("--route", choices=("make", "pip"), default="make")
    parser.add_argument("--where", default=None, help="folder to clone into (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the clone and its venv")
    args = parser.parse_args(argv)
    python = shutil.which(args.python) or args.python
    where = Path(args.where or tempfile.gettempdir())
    where.mkdir(parents=True, exist_ok=True)
    try:
        smoke(python, args.route, where, args.keep)
    except Failed as exc:
        print(f"smoke {python}: FAILED: {exc}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
