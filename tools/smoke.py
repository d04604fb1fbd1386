"""A new user's first hour, on one Python: clone, install, import, run, grade a small class.

    python3 tools/smoke.py PYTHON [--route make|pip] [--where DIR] [--keep] [--working-tree [PATH ...]]

From a fresh clone of this repository (its committed HEAD; ``--working-tree`` copies this
checkout's uncommitted changes over it, all or those under the PATHs) in ``DIR`` (default: the
system's temporary folder; ``--where /tmp`` tries a course and venv kept under /tmp):

1. install: ``make bootstrap PYTHON=...`` (``--route make``), or the README's route without make
   (``--route pip``): the command lines of the first ``bash`` block of the README's section
   "Without make", as written (comments and the line that starts JupyterLab left out), with only
   a leading ``python3``/``python`` replaced by PYTHON; so a README edit that breaks the route
   fails here;
2. import every module that any student notebook imports, in that venv;
3. run notebook 01's solution headless (``jupyter nbconvert --execute``);
4. grade a small class of notebook 01 with ``attnlab-course grade --jobs 2`` under the sandbox:
   exact copies of the solution (before and after the rest, so that a warm worker grades correct
   work as its second and later submissions), a blank copy of the student notebook, a wrong
   ``softmax`` (no max subtraction) and a file that is not a notebook; every row is checked (one
   per learner; the right ones full marks, status ``graded``, a feedback page that shows the
   exercises; the blank one 0; the wrong one below full marks; the broken one
   ``malformed notebook`` and 0), with warm workers (the default), then, after deleting what
   grading wrote (as ``make clean-grading``), again cold (``--cold``).

Prints one line per step with its time and exits non-zero, naming the step, on the first failure.
``.ci/run`` runs it for every supported Python this machine has (docs/install.md, "Supported Pythons").
Standard library only: it runs before anything is installed.
"""
from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "01_weighted_averages"
README_SECTION = "### Without make"
# the class; the grader queues it by student id, so correct work comes first and last (a warm
# worker's first submission, and its second and later ones)
CLASS = (
    ("a-right-1", "right"), ("a-right-2", "right"),
    ("b-blank", "blank"), ("b-broken", "broken"), ("b-wrong", "wrong"),
    ("c-right-3", "right"), ("c-right-4", "right"), ("c-right-5", "right"),
)
# the wrong softmax: the solution without the max subtraction (overflows on large logits)
STABLE = "shifted = x - np.max(x, axis=axis, keepdims=True)"


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


def readme_route(readme: Path) -> list[str]:
    """The command lines of the first ``bash`` block under the README's "Without make" heading:
    comments, blank lines and the line that starts JupyterLab left out."""
    text = readme.read_text(encoding="utf-8")
    start = text.find("\n" + README_SECTION)
    if start < 0:
        raise Failed(f"README.md has no section {README_SECTION!r}: the route without make is not documented")
    block = re.search(r"^```bash\n(.*?)^```", text[start:], flags=re.S | re.M)
    if not block:
        raise Failed(f"README.md's section {README_SECTION!r} has no ```bash block")
    lines = [ln.strip() for ln in block.group(1).splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#") and not re.search(r"\bjupyter\s+lab\b", ln)]
    if not lines:
        raise Failed(f"README.md's section {README_SECTION!r}: its bash block has no command")
    return lines


def route_commands(lines: list[str], python: str) -> list[list[str]]:
    """Each line as an argument list (a trailing comment dropped), a leading ``python3`` or
    ``python`` replaced by ``python``: nothing else of the line changes."""
    commands = []
    for line in lines:
        argv = shlex.split(line, comments=True)
        if argv and argv[0] in ("python3", "python"):
            argv[0] = python
        if argv:
            commands.append(argv)
    return commands


def install(clone: Path, python: str, route: str) -> None:
    if route == "make":
        run(["make", "bootstrap", f"PYTHON={python}"], clone, "make bootstrap")
        return
    # The README's route without make, as written. On this machine the CPU-only index is out of
    # reach and pip finds torch's CPU build in its local wheel folder; the route must find it too.
    for argv in route_commands(readme_route(clone / "README.md"), python):
        print(f"  $ {shlex.join(argv)}", flush=True)
        out = run(argv, clone, f"the README's route without make ({shlex.join(argv)})")
        for line in out.splitlines():
            if line.startswith("note:"):  # the installer's one-line notes: which torch, from where
                print(f"    {line}", flush=True)
    if not (clone / ".venv" / "bin" / "python").exists():
        raise Failed("the README's route without make made no .venv/bin/python")


def overlay_working_tree(clone: Path, paths: list[str] = ()) -> list[str]:
    """Copy this checkout's uncommitted changes (modified and new files git does not ignore;
    deletions too), all of them or those under ``paths``, over the clone."""
    def names(*flags: str) -> list[str]:
        out = subprocess.run(["git", "ls-files", "-z", *flags, "--", *paths], cwd=ROOT, capture_output=True,
                             check=True).stdout
        return [n for n in out.decode().split("\0") if n]
    deleted = set(names("--deleted"))
    changed = [n for n in names("--modified", "--others", "--exclude-standard") if n not in deleted]
    for name in changed:
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, clone / name)
    for name in deleted:
        (clone / name).unlink(missing_ok=True)
    return sorted(changed) + sorted(f"-{n}" for n in deleted)


def class_notebooks(clone: Path) -> dict[str, tuple[str, str]]:
    """``{student: (notebook text, kind)}`` for the class in :data:`CLASS`."""
    solution = (clone / "solutions" / NOTEBOOK / f"{NOTEBOOK}.ipynb").read_text(encoding="utf-8")
    blank = (clone / "notebooks" / NOTEBOOK / f"{NOTEBOOK}.ipynb").read_text(encoding="utf-8")
    nb = json.loads(solution)
    edited = 0
    for cell in nb["cells"]:
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if cell["cell_type"] == "code" and "def softmax(" in src and STABLE in src:
            cell["source"] = src.replace(STABLE, "shifted = x  # no max subtraction")
            edited += 1
    if edited != 1:
        raise Failed(f"could not write the wrong softmax: {STABLE!r} is in {edited} softmax cells of the "
                     f"solution, expected 1 (update tools/smoke.py)")
    texts = {"right": solution, "blank": blank, "wrong": json.dumps(nb, indent=1),
             "broken": "{ this is not a notebook"}
    return {student: (texts[kind], kind) for student, kind in CLASS}


def clean_grading(clone: Path) -> None:
    """What ``make clean-grading`` removes (the gradebook deleted here, not kept aside)."""
    for name in ("grades.csv", "autograded", "feedback", "gradebook.db", ".grading", "grading.log", "report", "shards"):
        path = clone / "autograde" / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def check_class(clone: Path, submissions: dict[str, tuple[str, str]], out: str) -> str:
    """Every row of grades.csv against what its learner handed in; a summary, or :class:`Failed`."""
    with open(clone / "autograde" / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r.get("assignment", NOTEBOOK) == NOTEBOOK]
    problems = []
    seen = [r["student_id"] for r in rows]
    for student in sorted(set(seen) | set(submissions)):
        if seen.count(student) != 1:
            problems.append(f"{student}: {seen.count(student)} rows in grades.csv, expected 1")
    for row in rows:
        if row["student_id"] not in submissions or seen.count(row["student_id"]) != 1:
            continue
        kind = submissions[row["student_id"]][1]
        try:
            score, max_score = float(row["score"]), float(row["max_score"])
        except ValueError:
            problems.append(f"{row['student_id']} ({kind}): score {row['score']!r} / {row['max_score']!r}")
            continue
        ok = {
            "right": row["status"] == "graded" and score == max_score > 0,
            "blank": row["status"] == "graded" and score == 0 and max_score > 0,
            "wrong": row["status"] == "graded" and 0 <= score < max_score,
            "broken": row["status"] == "malformed notebook" and score == 0,
        }[kind]
        if not ok:
            problems.append(f"{row['student_id']} ({kind}): {score:g}/{max_score:g}, status {row['status']!r}: "
                            f"{row.get('detail', '')[:300]}")
    if problems:
        raise Failed("grades.csv is not what the class handed in:\n  " + "\n  ".join(problems)
                     + "\n--- attnlab-course grade said (tail):\n" + out[-2500:])
    right = [s for s, (_, kind) in submissions.items() if kind == "right"]
    for student in right:
        pages = list((clone / "autograde" / "feedback" / student / NOTEBOOK).glob("*.html"))
        if len(pages) != 1:
            raise Failed(f"expected one feedback page for {student}, found {[p.name for p in pages]}")
    html = pages[0].read_text(encoding="utf-8")
    for needle in ("weighted_average", "softmax", "mix_tokens", "check_softmax"):
        if needle not in html:
            raise Failed(f"the feedback page {pages[0]} does not show the exercises (no {needle!r}; {len(html)} bytes)")
    full = next(r for r in rows if r["student_id"] == right[0])["max_score"]
    wrong = next(r for r in rows if submissions[r["student_id"]][1] == "wrong")["score"]
    return (f"{len(rows)} rows: {len(right)} right {float(full):g}/{float(full):g}, wrong {float(wrong):g}, "
            f"blank 0, broken 'malformed notebook'; feedback {len(html) // 1024} KiB")


def grade_class(clone: Path) -> list[str]:
    """Grade the class warm, then (after cleaning up) cold; one summary line each."""
    bindir = clone / ".venv" / "bin"
    env = dict(os.environ, ATTNLAB_ISOLATION=os.environ.get("ATTNLAB_ISOLATION", "bwrap"))
    env.pop("ATTNLAB_WARM", None)  # warm workers: the default
    run([str(bindir / "attnlab-course"), "release", NOTEBOOK], clone, "attnlab-course release", env=env)
    submissions = class_notebooks(clone)
    for student, (text, _) in submissions.items():
        folder = clone / "autograde" / "submitted" / student / NOTEBOOK
        folder.mkdir(parents=True)
        (folder / f"{NOTEBOOK}.ipynb").write_text(text, encoding="utf-8")
    said = []
    for mode, extra in (("warm", []), ("cold", ["--cold"])):
        if mode == "cold":
            clean_grading(clone)
        t = time.monotonic()
        out = run([str(bindir / "attnlab-course"), "grade", "--jobs", "2", *extra], clone,
                  f"attnlab-course grade ({mode})", env=env)
        try:
            summary = check_class(clone, submissions, out)
        except Failed as exc:
            raise Failed(f"grading {len(submissions)} learners {mode}: {exc}") from None
        said.append(f"{mode}: {summary}, in {time.monotonic() - t:.0f} s")
    return said


def smoke(python: str, route: str, where: Path, keep: bool, working_tree: list[str] | None = None) -> None:
    version = run([python, "-c", "import sys; print(sys.version.split()[0])"], where, "python --version").strip()
    clone = Path(tempfile.mkdtemp(prefix=f"attnlab-smoke-{version}-", dir=where))
    label = f"smoke {python} (Python {version}, route {route}, in {clone})"
    print(f"{label}", flush=True)
    steps = []
    try:
        t = time.monotonic()
        run(["git", "clone", "-q", str(ROOT), str(clone / "c")], where, "git clone")
        clone = clone / "c"
        if working_tree is not None:
            changed = overlay_working_tree(clone, working_tree)
            print(f"  copied {len(changed)} uncommitted files over the clone: {', '.join(changed)}", flush=True)
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

        for line in grade_class(clone):
            print(f"  graded a class of {len(CLASS)} ({line})", flush=True)
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
    parser.add_argument("--working-tree", nargs="*", metavar="PATH",
                        help="copy this checkout's uncommitted changes (all, or those under PATH...) over the "
                             "clone, to try them before a commit")
    args = parser.parse_args(argv)
    python = shutil.which(args.python) or args.python
    where = Path(args.where or tempfile.gettempdir())
    where.mkdir(parents=True, exist_ok=True)
    try:
        smoke(python, args.route, where, args.keep, args.working_tree)
    except Failed as exc:
        print(f"smoke {python}: FAILED: {exc}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
