"""A corpus of broken and malicious submissions, generated from the solutions.

Each :class:`Attack` writes one submission into a scratch course and says what an honest grader
must make of it: the status, and which exercises may not score. ``build_corpus`` lays them all
out beside correct submissions; ``tests/test_adversarial.py`` grades the batch and checks every
verdict, and ``benchmarks/bench_grading.py`` times it.

The cheats know the scratch course's real path (the strongest adversary), so a failure to reach
the gradebook or the solutions is the sandbox's doing, not the cheat's ignorance.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import coursekit as ck

ASSIGNMENT = "01_weighted_averages"   # the fastest notebook: the corpus tests the grader, not the course
EXERCISES = ("weighted_average", "softmax", "mix_tokens")


@dataclass
class Attack:
    name: str
    status: str                         # the status the grader must report
    build: Callable[[Path, Path], object]   # (course, folder) -> notebook dict, str or bytes (None: wrote files itself)
    zero: tuple[str, ...] = ()          # exercises that must score nothing
    full: tuple[str, ...] = ()          # exercises that must keep full marks
    note: str = ""
    duedate: str | None = None


def _student_nb(replace: dict[str, str] | None = None) -> dict:
    return ck.completed_student_notebook(ASSIGNMENT, replace)


def _blank_nb() -> dict:
    return copy.deepcopy(ck.load(ck.release_path(ASSIGNMENT)))


def _with_cell(nb: dict, source: str, at: int = 3) -> dict:
    nb = copy.deepcopy(nb)
    nb["cells"].insert(at, {"cell_type": "code", "id": f"added-{at}-{abs(hash(source)) % 10**8}",
                            "metadata": {}, "source": source, "outputs": [], "execution_count": None})
    return nb


def _drop_grade_cells(nb: dict) -> dict:
    nb = copy.deepcopy(nb)
    nb["cells"] = [c for c in nb["cells"] if not ck.nbg(c).get("grade")]
    return nb


def _edit_grade_cells(nb: dict, source: str = "pass") -> dict:
    nb = copy.deepcopy(nb)
    for c in nb["cells"]:
        if ck.nbg(c).get("grade"):
            c["source"] = source
    return nb


BLANK = ("weighted_average", "softmax", "mix_tokens")


def attacks() -> list[Attack]:
    A = []
    add = A.append

    # --- cheats from the issue -------------------------------------------------------------
    add(Attack("stub_allclose", "tampering detected",
               lambda c, f: _with_cell(_blank_nb(), "import numpy as np\nnp.allclose = lambda *a, **k: True\n"
                                       "np.testing.assert_allclose = lambda *a, **k: None"),
               zero=BLANK))
    add(Attack("input_transformer", "tampering detected",
               lambda c, f: _with_cell(_blank_nb(),
                                       "def blank(lines):\n    return [] if any('check_' in l for l in lines) else lines\n"
                                       "get_ipython().input_transformers_post.append(blank)"),
               zero=BLANK))
    add(Attack("sqlite_gradebook", "tampering detected",
               lambda c, f: _with_cell(_blank_nb(), (
                   "import sqlite3\n"
                   f"con = sqlite3.connect({str(c / 'autograde' / 'gradebook.db')!r})\n"
                   "print(con.execute('select * from source_cell').fetchall())\n"
                   "con.execute('update grade set auto_score = 100')\ncon.commit()\n")),
               zero=BLANK))
    add(Attack("read_solutions", "tampering detected",
               lambda c, f: _with_cell(_blank_nb(), (
                   f"hidden = open({str(c / 'solutions' / ASSIGNMENT / (ASSIGNMENT + '.ipynb'))!r}).read()\n"
                   "print(hidden[:100])\n")),
               zero=BLANK))
    add(Attack("os_exit", "kernel died",
               lambda c, f: _with_cell(_student_nb(), "import os\nos._exit(0)", at=len(_student_nb()["cells"])),
               zero=BLANK))
    add(Attack("memory_2gib", "out of memory",
               lambda c, f: _with_cell(_student_nb(), "import numpy as np\nbig = np.ones(2**28)  # 2 GiB\n"),
               full=BLANK))
    add(Attack("infinite_loop_cell", "timed out",
               lambda c, f: _with_cell(_student_nb(), "while True:\n    pass\n"), full=BLANK))
    add(Attack("infinite_loop_function", "timed out",
               lambda c, f: _student_nb({"softmax": "def softmax(x, axis=-1):\n    while True:\n        pass\n"}),
               zero=("softmax",), full=("weighted_average", "mix_tokens")))
    add(Attack("warnings", "graded",
               lambda c, f: _student_nb({"softmax": (
                   "import warnings\n"
                   "def softmax(x, axis=-1):\n    warnings.warn('careful', UserWarning)\n"
                   "    e = np.exp(x - x.max(axis=axis, keepdims=True))\n"
                   "    return e / e.sum(axis=axis, keepdims=True)\n")}),
               full=BLANK))

    # --- broken submissions ------------------------------------------------------------------
    add(Attack("syntax_error", "graded",
               lambda c, f: _student_nb({"softmax": "def softmax(x, axis=-1)\n    return x\n"}),
               zero=("softmax",), full=("weighted_average", "mix_tokens")))
    add(Attack("sys_exit", "graded",
               lambda c, f: _with_cell(_student_nb(), "import sys\nsys.exit(1)", at=len(_student_nb()["cells"])),
               full=BLANK))
    add(Attack("huge_output", "graded",
               lambda c, f: _with_cell(_student_nb(), "for i in range(2_000):\n    print('spam ' * 10_000)  # 100 MB\n"),
               full=BLANK))
    add(Attack("corrupted_json", "malformed notebook",
               lambda c, f: json.dumps(_student_nb())[: 5000], zero=BLANK))
    add(Attack("non_utf8", "malformed notebook",
               lambda c, f: json.dumps(_student_nb()).encode("utf-8").replace(b"softmax", b"soft\xff\xfemax", 1),
               zero=BLANK))
    add(Attack("old_nbformat", "graded", lambda c, f: _as_v3(_student_nb()), full=BLANK))
    add(Attack("renamed", "missing notebook", _renamed, zero=BLANK))
    add(Attack("missing", "missing notebook", lambda c, f: None, zero=BLANK))
    add(Attack("extra_files", "graded", _extra_files, full=BLANK))
    add(Attack("unrelated_cells", "graded",
               lambda c, f: _with_cell(_with_cell(_student_nb(), "x = [i * i for i in range(10)]\nprint(sum(x))"),
                                       "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()", at=8),
               full=BLANK))
    add(Attack("late", "late", lambda c, f: _late(f), full=BLANK, duedate="2026-01-01 00:00:00 UTC"))
    add(Attack("fork_bomb", "tampering detected",
               lambda c, f: _with_cell(_student_nb(), "import os\nfor _ in range(64):\n    os.fork()\n"),
               full=BLANK))

    # --- more ways to cheat ------------------------------------------------------------------
    add(Attack("patched_checks", "tampering detected",
               lambda c, f: _with_cell(_blank_nb(), "import attnlab.checks\nfor n in dir(attnlab.checks):\n"
                                       "    if n.startswith('check_'):\n"
                                       "        setattr(attnlab.checks, n, lambda *a, **k: None)\n"),
               zero=BLANK))
    add(Attack("custom_exception_handler", "tampering detected",
               lambda c, f: _with_cell(_blank_nb(), "get_ipython().set_custom_exc((BaseException,), lambda *a, **k: None)"),
               zero=BLANK))
    add(Attack("patched_builtins", "tampering detected",
               lambda c, f: _with_cell(_blank_nb(), "import builtins\nbuiltins.isinstance = lambda *a: True\n"
                                       "builtins.AssertionError = type('Never', (Exception,), {})"),
               zero=BLANK))
    add(Attack("deleted_tests", "graded", lambda c, f: _drop_grade_cells(_blank_nb()), zero=BLANK,
               note="deleted test cells are restored"))
    add(Attack("edited_tests", "graded", lambda c, f: _edit_grade_cells(_blank_nb()), zero=BLANK,
               note="edited test cells are replaced by the source's"))
    add(Attack("calls_reference", "tampering detected",
               lambda c, f: _student_nb({"softmax": "def softmax(x, axis=-1):\n    return attnlab.softmax(x, axis=axis)\n"}),
               zero=("softmax",), full=("weighted_average", "mix_tokens")))
    add(Attack("calls_torch_softmax", "tampering detected",
               lambda c, f: _student_nb({"softmax": (
                   "import torch\ndef softmax(x, axis=-1):\n"
                   "    return torch.softmax(torch.as_tensor(x), dim=axis).numpy()\n")}),
               zero=("softmax",), full=("weighted_average", "mix_tokens")))
    add(Attack("rebinds_reference", "tampering detected",
               lambda c, f: _with_cell(_blank_nb(), "mix_tokens = attnlab.mix_tokens", at=len(_blank_nb()["cells"])),
               zero=BLANK))
    add(Attack("vandal", "tampering detected",
               lambda c, f: _with_cell(_student_nb(), (
                   "import shutil, pathlib\n"
                   f"root = pathlib.Path({str(c)!r})\n"
                   "for target in [root / 'autograde' / 'submitted', root / 'solutions', root.parent / 'canary.txt']:\n"
                   "    try:\n        shutil.rmtree(target)\n    except NotADirectoryError:\n        target.unlink()\n"
                   "open(root / 'autograde' / 'grades.csv', 'w').write('pwned')\n")),
               full=BLANK))
    return A


def _as_v3(nb: dict) -> str:
    import nbformat

    node = nbformat.from_dict(nb)
    for cell in node.cells:
        cell.pop("id", None)
    node.nbformat_minor = 4
    return nbformat.writes(nbformat.convert(node, 3), version=3)


def _renamed(course: Path, folder: Path):
    (folder / f"Copy of {ASSIGNMENT}.ipynb").write_text(json.dumps(_student_nb()), encoding="utf-8")


def _extra_files(course: Path, folder: Path) -> dict:
    (folder / "helpers.py").write_text("def double(x):\n    return 2 * x\n", encoding="utf-8")
    (folder / "data.bin").write_bytes(bytes(range(256)) * 4096)
    (folder / "notes").mkdir(exist_ok=True)
    (folder / "notes" / "todo.md").write_text("- finish notebook 02\n", encoding="utf-8")
    return _with_cell(_student_nb(), "from helpers import double\nprint(double(21))")


def _late(folder: Path) -> dict:
    (folder / "timestamp.txt").write_text("2026-03-01 12:00:00.000000 UTC", encoding="utf-8")
    return _student_nb()


def build_corpus(course: Path, correct: int = 2) -> list[tuple[str, Attack | None]]:
    """Write every attack and ``correct`` correct submissions into ``course``; return
    ``[(student id, attack or None)]``."""
    out = []
    for i in range(correct):
        ck.submit(course, f"correct{i:02d}", ASSIGNMENT, _student_nb())
        out.append((f"correct{i:02d}", None))
    for attack in attacks():
        student = f"x_{attack.name}"
        folder = course / "autograde" / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True, exist_ok=True)
        nb = attack.build(course, folder)
        if nb is not None:
            ck.submit(course, student, ASSIGNMENT, nb)
        out.append((student, attack))
    (course.parent / "canary.txt").write_text("must survive grading", encoding="utf-8")
    return out


def exercise_cells(source: dict) -> dict[str, list[str]]:
    """Grade cell ids per exercise (each grade cell checks one exercise)."""
    out: dict[str, list[str]] = {}
    for gid, cell in ck.grade_cells(source).items():
        for exercise in EXERCISES:
            if f"({exercise})" in cell["source"]:
                out.setdefault(exercise, []).append(gid)
    return out


def set_duedate(course: Path, assignment: str, duedate: str) -> None:
    from nbgrader.api import Gradebook
    from nbgrader.utils import parse_utc

    with Gradebook("sqlite:///" + str(course / "autograde" / "gradebook.db")) as gb:
        gb.update_or_create_assignment(assignment, duedate=parse_utc(duedate))
