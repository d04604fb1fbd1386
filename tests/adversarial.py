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
import dataclasses
import json
import os
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
    guard_status: str | None = None     # the status without the OS boundary, where it differs
    modes: tuple[str, ...] = ("bwrap", "guard")   # where the attack is graded (native code: bwrap only)
    student: str = ""                   # the student id (default: x_<name>)

    def expected(self, mode: str) -> str:
        return self.guard_status if mode == "guard" and self.guard_status else self.status


def _student_nb(replace: dict[str, str] | None = None) -> dict:
    return ck.completed_student_notebook(ASSIGNMENT, replace)


def _blank_nb() -> dict:
    return copy.deepcopy(ck.load(ck.release_path(ASSIGNMENT)))


def _with_cell(nb: dict, source: str, at: int = 3) -> dict:
    nb = copy.deepcopy(nb)
    nb["cells"].insert(at, {"cell_type": "code", "id": f"added-{at}-{abs(hash(source)) % 10**8}",
                            "metadata": {}, "source": source, "outputs": [], "execution_count": None})
    return nb


def _after_setup() -> int:
    """The index just after the student notebook's set-up cell (its imports), wherever the cells
    before it (a title, the install check, the concept check) put it."""
    cells = _blank_nb()["cells"]
    return 1 + next(i for i, c in enumerate(cells)
                    if c["cell_type"] == "code" and "import numpy as np" in "".join(c["source"]))


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
    add(Attack("fork_bomb", "graded",
               lambda c, f: _with_cell(_student_nb(), "import os\nfor _ in range(64):\n    os.fork()\n"),
               full=BLANK, note="contained by the task limit (or refused without the boundary): a note"))

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
    A.extend(escapes() + batch_breakers() + hidden_cheats() + honest_work() + round3() + value_routes()
             + memo_routes() + allowlist_routes())
    return [untrusted(a) if a.name in UNTRUSTING else a for a in A]


# Tampering that is no one exercise's (the grader or the course reached for, frames or every
# object searched, a private process call): every grade cell scores 0, since the checks ran beside
# it (issue 38: a status that takes points away has taken them).
UNTRUSTING = {"vandal", "fork_exec_new_session", "stack_patches_harness", "prints_the_job",
              "answers_from_a_table", "raises_its_input"}


def untrusted(attack: Attack) -> Attack:
    return dataclasses.replace(attack, zero=BLANK, full=())


# --- escapes from the sandbox (issue 11) ------------------------------------------------------

MARKER = "attnlab-escape-marker-7f3a"


def _nb_path(course: Path, student: str = "correct00") -> Path:
    return course / "autograde" / "submitted" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"


def _source_path(course: Path) -> Path:
    return course / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"


def _last(nb: dict, source: str) -> dict:
    return _with_cell(nb, source, at=len(nb["cells"]))


def escapes() -> list[Attack]:
    A = []
    add = A.append
    add(Attack("dir_fd", "graded", lambda c, f: _last(_student_nb(), (
        "import os\n"
        "try:\n"
        "    root = os.open('/', os.O_RDONLY)\n"
        f"    print(os.read(os.open({str(_source_path(c)).lstrip('/')!r}, os.O_RDONLY, dir_fd=root), 300))\n"
        f"    os.write(os.open({str(_nb_path(c)).lstrip('/')!r}, os.O_WRONLY | os.O_TRUNC, dir_fd=root), b'{{}}')\n"
        "except OSError as exc:\n"
        "    print('blocked:', exc)\n")), full=BLANK,
        note="relative to a directory descriptor: the course is not there (or the folder is refused)"))
    add(Attack("fork_exec_new_session", "tampering detected", lambda c, f: _last(_student_nb(), (
        "import os, subprocess\n"
        f"cmd = b'sleep 120; echo pwned > {c / 'autograde' / 'grades.csv'} # {MARKER}'\n"
        "r, w = os.pipe()\n"
        "try:\n"
        "    subprocess._fork_exec([b'/bin/sh', b'-c', cmd], [b'/bin/sh'], True, (w,), None, None,\n"
        "                          -1, -1, -1, -1, -1, -1, r, w, True, True, -1, None, None, None, -1, None, False)\n"
        "except Exception as exc:\n"
        "    print('blocked:', exc)\n")), full=BLANK,
        note="the private fork_exec: nothing outlives the sandbox, nothing in the course changes"))
    add(Attack("gc_disables_guard", "tampering detected", lambda c, f: _last(_blank_nb(), (
        "import gc\n"
        "for o in gc.get_objects():\n"
        "    if callable(o) and getattr(o, '__name__', '') == 'hook' and getattr(o, '__closure__', None):\n"
        "        for cell in o.__closure__:\n"
        "            try:\n"
        "                if isinstance(cell.cell_contents, (set, frozenset, tuple)):\n"
        "                    cell.cell_contents = type(cell.cell_contents)()\n"
        "            except Exception:\n"
        "                pass\n"
        "try:\n"
        f"    print(open({str(_source_path(c))!r}).read()[:300])\n"
        "except OSError as exc:\n"
        "    print('blocked:', exc)\n")), zero=BLANK))
    add(Attack("shadow_json_module", "graded", _shadow_json, full=BLANK,
               note="python -I: nothing shipped with the submission runs before the harness"))
    add(Attack("native_extension", "graded", _native_extension, full=BLANK, modes=("bwrap",),
               note="a compiled module writes with C calls: only the OS boundary stops it"))
    add(Attack("symlinked_notebook", "malformed notebook", _symlinked_notebook, zero=BLANK))
    add(Attack("symlinked_extra_file", "graded", _symlinked_extra, full=BLANK))
    add(Attack("hard_linked_notebook", "malformed notebook", _hard_linked_notebook, zero=BLANK))
    add(Attack("hard_linked_extra_file", "graded", _hard_linked_extra, full=BLANK))
    return A


def _shadow_json(course: Path, folder: Path) -> dict:
    (folder / "json.py").write_text(
        "import sys\nsys.addaudithook = lambda hook: None\n"
        f"open({str(course / 'autograde' / 'grades.csv')!r}, 'w').write('pwned')\n"
        "from importlib import import_module\n", encoding="utf-8")
    (folder / "numpy.py").write_text(
        f"open({str(course / 'autograde' / 'grades.csv')!r}, 'w').write('pwned')\n", encoding="utf-8")
    return _student_nb()


_NATIVE_C = r'''
#include <Python.h>
#include <stdio.h>
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "evil", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_evil(void) {
    const char *targets[] = {TARGETS};
    for (unsigned i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        FILE *f = fopen(targets[i], "w");
        if (f) { fputs("pwned by native code", f); fclose(f); }
    }
    return PyModule_Create(&mod);
}
'''


def _native_extension(course: Path, folder: Path) -> dict:
    import shutil
    import subprocess
    import sysconfig

    targets = [course / "autograde" / "grades.csv", course.parent / "canary.txt", _nb_path(course)]
    code = _NATIVE_C.replace("TARGETS", ", ".join(json.dumps(str(t)) for t in targets))
    (folder / "evil.c").write_text(code, encoding="utf-8")
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    cc = shutil.which("cc") or shutil.which("gcc")
    nb = _last(_student_nb(), "import evil\nprint('loaded', evil)")
    if cc is None:  # no compiler: the notebook still imports a (missing) module
        return nb
    subprocess.run([cc, "-shared", "-fPIC", "-I", sysconfig.get_paths()["include"], "-o",
                    str(folder / f"evil{suffix}"), str(folder / "evil.c")], check=True, capture_output=True)
    return nb


def _symlinked_notebook(course: Path, folder: Path) -> None:
    (folder / f"{ASSIGNMENT}.ipynb").symlink_to(_source_path(course))


def _hard_linked_notebook(course: Path, folder: Path) -> None:
    """The notebook as a second name of the solutions' source (a link count of 2): never read."""
    os.link(_source_path(course), folder / f"{ASSIGNMENT}.ipynb")


def _hard_linked_extra(course: Path, folder: Path) -> dict:
    os.link(_source_path(course), folder / "data.ipynb")
    return _last(_student_nb(), "import os\nprint('data.ipynb' in os.listdir('.'))\n")


def _symlinked_extra(course: Path, folder: Path) -> dict:
    (folder / "data.ipynb").symlink_to(_source_path(course))
    (folder / "gradebook.db").symlink_to(course / "autograde" / "gradebook.db")
    return _last(_student_nb(), "import os\nprint(sorted(os.listdir('.')))\n"
                                "try:\n    print(open('data.ipynb').read()[:300])\nexcept OSError as exc:\n"
                                "    print('not there:', exc)\n")


# --- one submission must not break the batch ----------------------------------------------------

def batch_breakers() -> list[Attack]:
    A = []
    add = A.append
    add(Attack("fifos", "graded", _fifos, full=BLANK))
    # the results folder is refused to learner code under the boundary: the cell errors and nothing of
    # the grader's is touched (full marks); without it the process's exit is what ends the run
    fifo_results = lambda c, f: _last(_student_nb(), (  # noqa: E731
        "import os\n"
        "d = os.path.join(os.path.dirname(os.getcwd()), 'results')\n"
        "names = ['cells.json', 'done.json', 'borrowed.json'] + [f'{i:04d}.{e}' for i in range(40) for e in ('json', 'npz')]\n"
        "for n in names:\n"
        "    p = os.path.join(d, n)\n"
        "    if os.path.lexists(p):\n"
        "        os.remove(p)\n"
        "    os.mkfifo(p)\n"
        "os._exit(0)\n"))
    add(Attack("fifo_results", "graded", fifo_results, full=BLANK, modes=("bwrap",)))
    add(Attack("fifo_results_guard", "kernel died", fifo_results, zero=BLANK, modes=("guard",)))
    add(Attack("metadata_string", "graded", _metadata_string, full=BLANK))
    add(Attack("metadata_deep", "graded", _metadata_deep, full=BLANK))
    add(Attack("zip_bomb_result", "tampering detected", lambda c, f: _last(_blank_nb(), (
        "import numpy, zipfile\n"
        "bombed = []\n"
        "def bomb(path, **arrays):\n"
        "    if bombed:\n"
        "        raise OSError('one bomb is enough')\n"
        "    bombed.append(path)\n"
        "    header = b\"\\x93NUMPY\\x01\\x00v\\x00{'descr': '<f8', 'fortran_order': False, 'shape': (40000000,), }\" + b' ' * 44 + b'\\n'\n"
        "    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:\n"
        "        with z.open('v.npy', 'w', force_zip64=True) as fh:\n"
        "            fh.write(header)\n"
        "            chunk = bytes(2**20)\n"
        "            for _ in range(3 * 2**10):  # 3 GiB of zeros, a few MB on disk\n"
        "                fh.write(chunk)\n"
        "setattr(numpy, 'sa' + 'vez', bomb)\n"
        "def softmax(x, axis=-1):\n    return 0\n"
        "def weighted_average(values, weights):\n    return 0\n"
        "def mix_tokens(X):\n    return 0\n")), zero=BLANK))
    add(Attack("cells_null", "malformed notebook", lambda c, f: dict(_student_nb(), cells=None), zero=BLANK))
    add(Attack("deep_json_arrays", "malformed notebook", lambda c, f: (
        '{"cells": ' + "[" * 100_000 + "]" * 100_000 + ', "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'),
        zero=BLANK))
    add(Attack("nbformat_5", "malformed notebook", lambda c, f: dict(_student_nb(), nbformat=5), zero=BLANK))
    add(Attack("utf16", "malformed notebook", lambda c, f: json.dumps(_student_nb()).encode("utf-16"), zero=BLANK))
    add(Attack("notebook_is_a_folder", "malformed notebook",
               lambda c, f: (f / f"{ASSIGNMENT}.ipynb").mkdir() and None, zero=BLANK))
    add(Attack("odd_files", "graded", _odd_files, full=BLANK))
    add(Attack("unprintable_exception", "graded", lambda c, f: _student_nb({"softmax": (
        "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\n"
        "def softmax(x, axis=-1):\n    raise E()\n")}), zero=("softmax",), full=("weighted_average", "mix_tokens")))
    add(Attack("zoë 李", "graded", lambda c, f: _student_nb(), full=BLANK, student="zoë 李"))
    add(Attack("kim lee", "graded", lambda c, f: _student_nb(), full=BLANK, student="kim lee"))
    add(Attack("kim_lee", "graded", lambda c, f: _student_nb(), full=BLANK, student="kim_lee"))
    return A


def _odd_files(course: Path, folder: Path) -> dict:
    """Names that are not UTF-8 (a zip from another system), a socket, a timestamp that is
    nonsense: reported or ignored, never a crash."""
    import os
    import socket

    raw = os.fsencode(folder)
    os.symlink("/etc/passwd", raw + b"/caf\xe9-link")
    with open(raw + b"/caf\xe9.txt", "wb") as fh:
        fh.write(b"notes")
    import tempfile

    with tempfile.TemporaryDirectory() as short, socket.socket(socket.AF_UNIX) as sock:
        sock.bind(os.path.join(short, "s.sock"))  # a socket's path is short; the file moves after
        os.rename(os.path.join(short, "s.sock"), folder / "s.sock")
    (folder / "timestamp.txt").write_text("\x00" * 100 + "yesterday", encoding="utf-8")
    return _student_nb()


def _fifos(course: Path, folder: Path) -> dict:
    import os

    os.mkfifo(folder / "timestamp.txt")
    os.mkfifo(folder / "pipe.dat")
    return _student_nb()


def _metadata_string(course: Path, folder: Path) -> dict:
    nb = _student_nb()
    for cell in nb["cells"]:
        if ck.nbg(cell).get("grade_id") in ("softmax", "test_softmax"):
            cell["metadata"]["nbgrader"] = "solution"
    nb["cells"][0]["metadata"] = "not a dict"
    return nb


def _metadata_deep(course: Path, folder: Path) -> dict:
    nb = _student_nb()
    deep: dict = {}
    node = deep
    for _ in range(700):
        node["x"] = {}
        node = node["x"]
    nb["cells"][1]["metadata"]["deep"] = deep
    nb["metadata"]["deep"] = deep
    return nb


# --- borrowed answers that static reading alone misses -----------------------------------------

REFERENCE = "def softmax(x, axis=-1):\n    return attnlab.softmax(x, axis)\n"


def _without_metadata(nb: dict, gid: str, source: str | None = None) -> dict:
    for cell in nb["cells"]:
        if ck.nbg(cell).get("grade_id") == gid:
            cell["metadata"] = {}
            if source is not None:
                cell["source"] = source
    return nb


def hidden_cheats() -> list[Attack]:
    A = []
    add = A.append
    only_softmax = dict(zero=("softmax",), full=("weighted_average", "mix_tokens"))
    add(Attack("redefined_elsewhere", "tampering detected", lambda c, f: _last(_student_nb(), REFERENCE), **only_softmax))
    add(Attack("imported_elsewhere", "tampering detected",
               lambda c, f: _last(_blank_nb(), "from attnlab import softmax, weighted_average, mix_tokens"), zero=BLANK))
    add(Attack("star_import", "tampering detected", lambda c, f: _last(_blank_nb(), "from attnlab import *"), zero=BLANK))
    add(Attack("cell_magic", "tampering detected",
               lambda c, f: _last(_student_nb(), "%%time\n" + REFERENCE), **only_softmax))
    add(Attack("lost_metadata", "tampering detected",
               lambda c, f: _without_metadata(_student_nb(), "softmax", REFERENCE), **only_softmax))
    add(Attack("log_softmax", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "import scipy.special\ndef softmax(x, axis=-1):\n    return np.exp(scipy.special.log_softmax(x, axis=axis))\n")}),
        **only_softmax))
    add(Attack("getattr_reference", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "def softmax(x, axis=-1):\n    return getattr(attnlab, 'soft' + 'max')(x, axis)\n")}), **only_softmax))
    add(Attack("lazy_import_reference", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "def softmax(x, axis=-1):\n    special = __import__('importlib').import_module('scipy.' + 'special')\n"
        "    return special.softmax(x, axis=axis)\n")}), **only_softmax))
    add(Attack("vars_reference", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "def softmax(x, axis=-1):\n    return vars(attnlab)['soft' + 'max'](x, axis)\n")}), **only_softmax))
    add(Attack("attrgetter_reference", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "import operator\n_f = operator.attrgetter('soft' + 'max')(attnlab)\n"
        "def softmax(x, axis=-1):\n    return _f(x, axis)\n")}), **only_softmax))
    add(Attack("exec_reference", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "exec('def soft' + 'max(x, axis=-1):\\n    return attnlab.soft' + 'max(x, axis)')\n")}), **only_softmax))
    add(Attack("partial_reference", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "import functools\nsoftmax = functools.partial(getattr(attnlab, 'soft' + 'max'))\n")}), **only_softmax))
    # the reference kept somewhere the body only looks up: seen by what runs (a profile of the call)
    for name, source in CAPTURED.items():
        # a process is refused outright under the boundary (the graded run's allow-list): the exercise
        # errors and scores nothing, and the row is graded, with the refusal in its detail
        add(Attack(name, "graded" if name in REFUSED_OUTRIGHT else "tampering detected",
                   (lambda src: lambda c, f: _student_nb({"softmax": src}))(source),
                   guard_status="tampering detected" if name in REFUSED_OUTRIGHT else None, **only_softmax))
    add(Attack("captured_in_other_cell", "tampering detected", lambda c, f: _last(_student_nb({"softmax": (
        "def softmax(x, axis=-1):\n    return TOOLS['s'](x, axis)\n")}), "TOOLS = {'s': attnlab.softmax}"), **only_softmax))
    add(Attack("code_copied", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "def softmax(x, axis=-1):\n    pass\n\nsoftmax.__code__ = attnlab.softmax.__code__\n")}), **only_softmax))
    add(Attack("stack_patches_harness", "tampering detected", lambda c, f: _last(_student_nb(REFERENCE_BODY), (
        "import inspect\nfor info in inspect.stack():\n    g = info.frame.f_globals\n    if '_Tripwires' in g:\n"
        "        g['_Tripwires'].watching = lambda self: __import__('contextlib').nullcontext()\n"
        "        g['_borrowed_object'] = lambda *a, **k: None\n")), **only_softmax))
    return A


REFERENCE_BODY = {"softmax": "def softmax(x, axis=-1):\n    return attnlab.softmax(x, axis)\n"}

# What the graded run's allow-list refuses outright under the boundary (a process started, a code
# object made by hand): the exercise errors and scores nothing, no borrowing to find.
REFUSED_OUTRIGHT = {"captured_in_a_process", "value_replaced_code_copy"}

CAPTURED = {
    "captured_in_list": "_keep = [attnlab.softmax]\ndef softmax(x, axis=-1):\n    return _keep[0](x, axis)\n",
    "captured_default": "def softmax(x, axis=-1, _f=[attnlab.softmax]):\n    return _f[0](x, axis)\n",
    "captured_lambda": ("_g = (lambda f: (lambda x, axis=-1: f(x, axis)))(attnlab.softmax)\n"
                        "def softmax(x, axis=-1):\n    return _g(x, axis)\n"),
    "captured_instance": ("class _S:\n    def __call__(self, x, axis=-1):\n        return self.f(x, axis)\n"
                          "_s = _S()\n_s.f = attnlab.softmax\nsoftmax = _s\n"),
    "captured_function_type": ("import types\n_ref = getattr(attnlab, 'soft' + 'max')\n"
                               "softmax = types.FunctionType(_ref.__code__, _ref.__globals__, 'softmax', _ref.__defaults__)\n"),
    "captured_submodule": ("import importlib\n_m = importlib.import_module('attnlab.aver' + 'ages')\n"
                           "def softmax(x, axis=-1):\n    return getattr(_m, 'soft' + 'max')(x, axis)\n"),
    "captured_torch_function": ("import torch\n_k = {'f': torch.softmax}\ndef softmax(x, axis=-1):\n"
                                "    return _k['f'](torch.as_tensor(x), axis).numpy()\n"),
    "captured_tensor_method": ("import torch\n_k = [torch.Tensor.softmax]\ndef softmax(x, axis=-1):\n"
                               "    return _k[0](torch.as_tensor(x), axis).numpy()\n"),
    "captured_in_a_thread": ("import _thread, queue\n_q = queue.Queue()\n_k = [attnlab.softmax]\n"
                             "def softmax(x, axis=-1):\n    _thread.start_new_thread(lambda: _q.put(_k[0](x, axis)), ())\n"
                             "    return _q.get()\n"),
    "captured_in_a_process": ("import multiprocessing as mp\n_k = [attnlab.softmax]\ndef softmax(x, axis=-1):\n"
                              "    with mp.get_context('fork').Pool(1) as pool:\n        return pool.apply(_k[0], (x, axis))\n"),
}


# --- honest work that must not be accused -------------------------------------------------------

SELF_TEST = ("def softmax(x, axis=-1):\n    z = x - np.max(x, axis=axis, keepdims=True)\n    e = np.exp(z)\n"
             "    return e / np.sum(e, axis=axis, keepdims=True)\n\n"
             "# my own check against the library\nx = np.random.default_rng(0).normal(size=(3, 4))\n"
             "assert np.allclose(softmax(x), attnlab.softmax(x))\nfrom attnlab import softmax as library_softmax\n"
             "assert np.allclose(softmax(x, 0), library_softmax(x, 0))\n")


def honest_work() -> list[Attack]:
    A = []
    add = A.append
    add(Attack("honest_configuration", "graded", lambda c, f: _last(_student_nb(), (
        "import inspect, gc\nimport torch\nimport matplotlib.pyplot as plt\n"
        "plt.rcParams['figure.figsize'] = (4, 3)\nnp.set_printoptions(precision=4)\n"
        "torch.backends.cudnn.deterministic = True\ntorch.manual_seed(0)\n"
        "m = np.zeros((4, 4), dtype=bool)\nm[np.tril_indices(4)] = True\n"
        "print(inspect.signature(softmax), gc.isenabled(), m.sum())\n"
        "class Tiny(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.lin = torch.nn.Linear(2, 2)\n    def count(self):\n        return len(list(self.modules()))\n"
        "print(Tiny().count())\n")), full=BLANK))
    add(Attack("honest_shell_and_tmp", "graded", lambda c, f: _last(_student_nb(), (
        "!pip list 2>/dev/null | head -3\n"
        "with open('/tmp/debug.txt', 'w') as fh:\n    fh.write('softmax ok')\n"
        "print(open('/tmp/debug.txt').read())\n")), full=BLANK))
    add(Attack("honest_self_test", "graded", lambda c, f: _student_nb({"softmax": SELF_TEST}), full=BLANK))
    add(Attack("honest_demo_helper", "graded", lambda c, f: _student_nb({"softmax": (
        "def softmax(x, axis=-1):\n"
        "    # naive_softmax comes from the demo cell above; shifted first, so it is stable\n"
        "    return np.apply_along_axis(naive_softmax, axis, x - np.max(x, axis=axis, keepdims=True))\n")}),
        full=BLANK))
    add(Attack("honest_colab_copy", "graded", _colab_copy, full=BLANK))
    add(Attack("honest_big_plots", "graded", _big_plots, full=BLANK))
    add(Attack("honest_magics", "graded", lambda c, f: _last(_student_nb(), (
        "%matplotlib inline\n%load_ext autoreload\n%autoreload 2\nimport warnings\nwarnings.filterwarnings('ignore')\n"
        "np.random.seed(0)\nnp.seterr(all='ignore')\nimport sys\nsys.setrecursionlimit(5000)\nsys.path.append('..')\n"
        "import os\nos.environ['MY_FLAG'] = '1'\nimport torch\ntorch.set_num_threads(1)\n"
        "pyplot = __import__('matplotlib.pyplot').pyplot\npyplot.style.use('default')\nhelp(softmax)\n"
        "%timeit -n 3 -r 1 softmax(np.ones(4))\n")), full=BLANK))
    add(Attack("honest_public_check", "graded", lambda c, f: _student_nb({"softmax": (
        SELF_TEST.split("\n\n")[0] + "\n\nattnlab.checks.check_softmax(softmax)\n")}), full=BLANK))
    add(Attack("honest_decorated_with_tqdm", "graded", lambda c, f: _student_nb({"softmax": (
        "import functools\nfrom tqdm.auto import tqdm\n\ndef _tidy(f):\n    @functools.wraps(f)\n"
        "    def inner(*a, **k):\n        return f(*a, **k)\n    return inner\n\n@_tidy\ndef softmax(x, axis=-1):\n"
        "    \"\"\"Like attnlab.softmax, but mine.\"\"\"\n    for _ in tqdm(range(2)):\n        pass\n"
        "    x = np.asarray(x, dtype=float)\n    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / e.sum(axis=axis, keepdims=True)\n")}), full=BLANK))
    add(Attack("honest_windows_editor", "graded",
               lambda c, f: b"\xef\xbb\xbf" + json.dumps(_student_nb(), indent=1).replace("\n", "\r\n").encode(),
               full=BLANK, note="a byte-order mark and CRLF line ends"))
    add(Attack("honest_odd_text", "graded", lambda c, f: _last(_student_nb(), (
        "print('caf\\udce9 \\x1b[31mred\\x1b[0m \\x00 nul')  # bytes decoded with surrogateescape\n"
        "raise ValueError('bad \\udcff byte')\n")), full=BLANK,
        note="lone surrogates in output and errors: they once stopped the whole batch's CSV"))
    add(Attack("honest_surrogate_in_source", "graded", _surrogate_in_source, full=BLANK))
    add(Attack("honest_writefile_helper", "graded", lambda c, f: _with_cell(_with_cell(_student_nb(), (
        "%%writefile myhelpers.py\ndef double(x):\n    return 2 * x\n")), (
        "from myhelpers import double\nprint(double(2))\nnp.save('scratch.npy', np.ones(3))\n"
        "import pickle\npickle.dump([1], open('/tmp/x.pkl', 'wb'))\n"), at=4), full=BLANK))
    return A


def _surrogate_in_source(course: Path, folder: Path) -> str:
    text = json.dumps(_student_nb({"softmax": (
        "def softmax(x, axis=-1):\n    # LONE\n    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / e.sum(axis=axis, keepdims=True)\n")}))
    return text.replace("LONE", "\\udcff")  # a lone surrogate escape, valid JSON


def _colab_copy(course: Path, folder: Path) -> dict:
    nb = _student_nb()
    for cell in nb["cells"]:
        cell["metadata"] = {}
        cell.pop("id", None)
    nb["nbformat_minor"] = 4
    nb["metadata"] = {"colab": {"provenance": []}, "kernelspec": {"name": "python3", "display_name": "Python 3"}}
    return nb


def _big_plots(course: Path, folder: Path) -> dict:
    import base64
    import random

    nb = _student_nb()
    blob = base64.b64encode(random.Random(0).randbytes(40 * 2**20)).decode()  # ~53 MB of "PNG"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and not ck.nbg(cell):
            cell["outputs"] = [{"output_type": "display_data", "metadata": {},
                                "data": {"image/png": blob, "text/plain": "<Figure>"}}]
            break
    return nb


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


# --- grading boundary, round 3: links, the instructor's browser, the host's disk, CSV, ids -------

# What an active payload does when it runs: the browser test asserts that neither happened.
PWNED = "window.__attnlab_pwned = 1; document.title = 'pwned'"
PAYLOAD_HTML = (f"<script>{PWNED}</script><img src=x onerror=\"{PWNED}\">"
                f"<svg onload=\"{PWNED}\"><circle r='4'/></svg><iframe srcdoc=\"<script>parent.{PWNED}</script>\"></iframe>"
                f"<a href=\"javascript:{PWNED}\" id=attnlab-js-link>click</a><style>body {{display: none}}</style>")
# Honest content that must still show: maths, a table, hints, an SVG figure, an image.
HONEST_MATH = r"\operatorname{softmax}(x)_i = \frac{e^{x_i}}{\sum_j e^{x_j}}"
HONEST_MARKDOWN = (f"## My notes\n\nThe weights are $w_i = {HONEST_MATH}$, so $0 < w_i < 1$ and\n\n"
                   "$$\\sum_i w_i = 1.$$\n\n| x | softmax |\n|---|---|\n| 0 | 0.5 |\n\n"
                   "<details><summary>why</summary>the shift cancels</details>\n\n```python\nx = 1\n\ny = 2\n```\n")
SVG_FIGURE = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" '
              'fill="steelblue"/></svg>')
PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _with_markdown(nb: dict, source: str, at: int = 2) -> dict:
    nb = copy.deepcopy(nb)
    nb["cells"].insert(at, {"cell_type": "markdown", "id": f"md-{at}-{abs(hash(source)) % 10**8}",
                            "metadata": {}, "source": source})
    return nb


def _with_outputs(nb: dict, outputs: list[dict]) -> dict:
    """``outputs`` saved in the first code cell the learner owns (as their Jupyter saved them)."""
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and not ck.nbg(cell):
            cell["outputs"] = outputs
            break
    return nb


def _display(data: dict, metadata: dict | None = None) -> dict:
    return {"output_type": "display_data", "data": data, "metadata": metadata or {}}


def _active_outputs(course: Path, folder: Path) -> dict:
    return _with_outputs(_student_nb(), [
        _display({"text/html": PAYLOAD_HTML, "text/plain": "<HTML>"}),
        _display({"application/javascript": PWNED, "text/plain": "<JS>"}),
        _display({"image/svg+xml": f'<svg xmlns="http://www.w3.org/2000/svg" onload="{PWNED}"><script>{PWNED}</script></svg>'}),
        _display({"text/markdown": f"<img src=x onerror=\"{PWNED}\"> **bold**"}),
        _display({"application/vnd.jupyter.widget-view+json": {"model_id": "x", "version_major": 2, "version_minor": 0},
                  "text/plain": "widget"}),
        _display({"image/png": f'x"><script>{PWNED}</script>'}, {"image/png": {"width": f'1 onerror="{PWNED}"'}}),
        {"output_type": "execute_result", "execution_count": 3, "metadata": {},
         "data": {"text/html": f"<b onmouseover=\"{PWNED}\">hover</b>"}},
    ])


def _active_markdown(course: Path, folder: Path) -> dict:
    nb = _with_markdown(_student_nb(), f"My answer $x$ <img src=x onerror=\"{PWNED}\">\n\n<script>{PWNED}</script>\n\n"
                                       f"[notes](javascript:{PWNED}) <div onmouseover=\"{PWNED}\">hover</div>\n\n"
                                       f"$\\href{{javascript:{PWNED}}}{{x}}$")
    for cell in nb["cells"]:  # an added grade cell whose id is markup (formgrader prints ids as they are)
        if cell["cell_type"] == "markdown" and "My answer" in cell["source"]:
            cell["metadata"]["nbgrader"] = {"grade": True, "solution": True, "points": 1, "schema_version": 3,
                                            "grade_id": f"<img src=x onerror='{PWNED}'>"}
    return nb


def _honest_rich_outputs(course: Path, folder: Path) -> dict:
    nb = _with_markdown(_student_nb(), HONEST_MARKDOWN)
    return _with_outputs(nb, [
        _display({"text/html": "<table class='dataframe'><thead><tr><th>x</th></tr></thead><tbody><tr><td>0.5</td></tr>"
                               "</tbody></table>", "text/plain": "x 0.5"}),
        _display({"image/svg+xml": SVG_FIGURE, "text/plain": "<Figure>"}),
        _display({"image/png": PNG_1PX, "text/plain": "<Figure>"}, {"image/png": {"width": 300, "height": 200}}),
        _display({"text/markdown": f"Result: $w = {HONEST_MATH}$", "text/plain": "Result"}),
        _display({"text/latex": "$\\sum_i w_i = 1$", "text/plain": "sum"}),
        {"output_type": "stream", "name": "stdout", "text": "<script>not run: printed text</script>\n"},
    ])


def _markdown_not_a_string(course: Path, folder: Path) -> dict:
    return _with_outputs(_student_nb(), [
        _display({"text/markdown": {"not": "a string"}, "text/plain": "odd"}),
        _display({"text/html": ["<b>a list of lines</b>", 3]}),
        _display({"image/png": {"x": 1}}),
        {"output_type": "display_data", "data": None},
        {"output_type": "stream", "name": "stdout", "text": {"x": 1}},
        "not an output",
    ])


def _link_assignment_to_solutions(course: Path, folder: Path) -> None:
    folder.rmdir()
    folder.symlink_to(course / "solutions" / ASSIGNMENT)


def _link_student_to_another(course: Path, folder: Path) -> None:
    folder.rmdir()
    folder.parent.rmdir()
    folder.parent.symlink_to(course / "autograde" / "submitted" / "correct00")


def _fill(what: str) -> str:
    """A cell that tries to fill the host: 2.2 GiB in 64 MiB files, or 200,000 files."""
    if what == "bytes":
        body = ("chunk = b'x' * 2**26\nfor i in range(36):  # 2.25 GiB\n"
                "    for where in ('/tmp', '.'):\n        try:\n"
                "            with open(f'{where}/fill{i}.bin', 'wb') as fh:\n                fh.write(chunk)\n"
                "        except OSError as exc:\n            print('refused:', exc)\n            break\n")
    else:
        body = ("import os\nos.makedirs('many', exist_ok=True)\nfor i in range(200_000):\n    try:\n"
                "        open(f'many/{i}', 'w').close()\n    except OSError as exc:\n        print('refused:', exc)\n        break\n")
    return body


def _honest_files(course: Path, folder: Path) -> dict:
    return _last(_student_nb(), (
        "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nimport os\n"
        "rng = np.random.default_rng(0)\nfor i in range(3):\n    fig, ax = plt.subplots(figsize=(8, 6), dpi=100)\n"
        "    ax.plot(rng.normal(size=2_000))\n    fig.savefig(f'plot{i}.png')\n    fig.savefig(f'/tmp/plot{i}.svg')\n"
        "    plt.close(fig)\nnp.save('/tmp/weights.npy', rng.normal(size=(2000, 2000)))  # 32 MB\n"
        "os.makedirs('runs', exist_ok=True)\nfor i in range(300):\n    open(f'runs/log{i}.txt', 'w').write('loss ' * 200)\n"
        "print('\\n'.join(f'step {i} loss {1 / (i + 1)}' for i in range(20_000)))\n"))


# --- borrowing decided by values, not names (issue 26) ------------------------------------------
# The routes that kept full marks in the last attack round, each computing the right answer: the
# library's softmax under another name, torch.special bound in another cell, a Tensor method
# reached by a string, a .replace()d copy of the reference's code object, mix_tokens as the
# library's scaled dot-product attention on rescaled inputs. (multi_head_attention through
# attnlab.torch.MultiHeadAttention is notebook 05: tests/test_value_borrowing.py.)
VALUE_ROUTES = {
    "value_masked_softmax": {"softmax": (
        "def softmax(x, axis=-1):\n    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)\n"
        "    w = attnlab.masked_softmax(x.reshape(-1, x.shape[-1]), None).reshape(x.shape)\n"
        "    return np.moveaxis(w, -1, axis)\n")},
    "value_tensor_method_by_string": {"softmax": (
        "import torch\ndef softmax(x, axis=-1):\n    t = torch.as_tensor(np.asarray(x, dtype=float))\n"
        "    return torch.exp(getattr(t, 'log_' + 'softmax')(axis)).numpy()\n")},
    "value_replaced_code_copy": {"softmax": (
        "import types\n_ref = getattr(attnlab, 'soft' + 'max')\n"
        "softmax = types.FunctionType(_ref.__code__.replace(co_name='my_softmax'), _ref.__globals__, 'softmax',\n"
        "                             _ref.__defaults__)\nsoftmax.__kwdefaults__ = _ref.__kwdefaults__\n")},
    "value_mix_tokens_as_sdpa": {"mix_tokens": (
        "def mix_tokens(X):\n    X = np.asarray(X, dtype=float)\n    Q = X * X.shape[-1] ** 0.25\n"
        "    return attnlab.scaled_dot_product_attention(Q, Q, X)[0]\n")},
}
SPECIAL_IN_ANOTHER_CELL = ("import torch\ndef softmax(x, axis=-1):\n"
                           "    return _sm(torch.as_tensor(np.asarray(x, dtype=float)), axis).numpy()\n")
HONEST_VALUE_LOOKALIKES = {
    "honest_logaddexp_softmax": {"softmax": (
        "def softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
        "    return np.exp(x - np.logaddexp.reduce(x, axis=axis, keepdims=True))\n")},
    "honest_torch_exp_softmax": {"softmax": (
        "import torch\ndef softmax(x, axis=-1):\n    t = torch.as_tensor(np.asarray(x, dtype=float))\n"
        "    e = torch.exp(t - t.amax(dim=axis, keepdim=True))\n    return (e / e.sum(dim=axis, keepdim=True)).numpy()\n")},
    "honest_einsum_own_helper": {"mix_tokens": (
        "def _my_softmax(s):\n    e = np.exp(s - s.max(axis=-1, keepdims=True))\n"
        "    return e / e.sum(axis=-1, keepdims=True)\n\ndef mix_tokens(X):\n    X = np.asarray(X, dtype=float)\n"
        "    return np.einsum('...ij,...jd->...id', _my_softmax(np.einsum('...id,...jd->...ij', X, X)), X)\n")},
    # an earlier exercise's library version inside a later one is what the course itself does
    "honest_mix_tokens_with_library_softmax": {"mix_tokens": (
        "def mix_tokens(X):\n    X = np.asarray(X, dtype=float)\n"
        "    return attnlab.softmax(X @ np.swapaxes(X, -1, -2), axis=-1) @ X\n")},
    "honest_mix_tokens_with_own_softmax": {"mix_tokens": (
        "def mix_tokens(X):\n    X = np.asarray(X, dtype=float)\n    return softmax(X @ np.swapaxes(X, -1, -2)) @ X\n")},
}


def value_routes() -> list[Attack]:
    A = []
    add = A.append
    only = {"softmax": dict(zero=("softmax",), full=("weighted_average", "mix_tokens")),
            "mix_tokens": dict(zero=("mix_tokens",), full=("weighted_average", "softmax"))}
    for name, replace in VALUE_ROUTES.items():
        add(Attack(name, "graded" if name in REFUSED_OUTRIGHT else "tampering detected",
                   (lambda r: lambda c, f: _student_nb(r))(replace),
                   guard_status="tampering detected" if name in REFUSED_OUTRIGHT else None, **only[next(iter(replace))]))
    add(Attack("value_special_softmax_other_cell", "tampering detected", lambda c, f: _last(
        _student_nb({"softmax": SPECIAL_IN_ANOTHER_CELL}), "import torch\n_sm = torch.special.softmax\n"),
        **only["softmax"]))
    for name, replace in HONEST_VALUE_LOOKALIKES.items():
        add(Attack(name, "graded", (lambda r: lambda c, f: _student_nb(r))(replace), full=BLANK))
    add(Attack("honest_own_module", "graded", lambda c, f: _with_cell(_student_nb({"softmax": (
        "from mysoftmax import stable_softmax\ndef softmax(x, axis=-1):\n    return stable_softmax(x, axis)\n")}), (
        "%%writefile mysoftmax.py\nimport numpy as np\ndef stable_softmax(x, axis=-1):\n"
        "    x = np.asarray(x, dtype=float)\n    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n"), at=3), full=BLANK))
    return A


# --- memoised and pre-computed borrowing (issue 26) ----------------------------------------------
# The library computes the answer once (during a graded call, or in a cell for the public visible
# inputs) and the function hands back what it kept, so the value probe's repeat of a visible case
# finds the kept answer, which does not follow the perturbed library. The library's equivalents are
# tripwires during every graded call of the exercise: the first call that computes catches it.
MEMO_ROUTES = {
    "memo_lru_cache_masked_softmax": {"softmax": (
        "import functools\n@functools.lru_cache(maxsize=None)\ndef _kept(key, shape, axis):\n"
        "    x = np.moveaxis(np.frombuffer(key).reshape(shape), axis, -1)\n"
        "    w = attnlab.masked_softmax(x.reshape(-1, x.shape[-1]), None).reshape(x.shape)\n"
        "    return np.moveaxis(w, -1, axis)\n\ndef softmax(x, axis=-1):\n"
        "    x = np.ascontiguousarray(x, dtype=float)\n    return _kept(x.tobytes(), x.shape, axis).copy()\n")},
    "memo_tobytes_dict_mix_tokens": {"mix_tokens": (
        "_SEEN = {}\ndef mix_tokens(X):\n    X = np.ascontiguousarray(X, dtype=float)\n"
        "    key = (X.tobytes(), X.shape)\n    if key not in _SEEN:\n        Q = X * X.shape[-1] ** 0.25\n"
        "        _SEEN[key] = attnlab.scaled_dot_product_attention(Q, Q, X)[0]\n    return _SEEN[key].copy()\n")},
    "memo_default_argument_log_softmax": {"softmax": (
        "import torch\ndef softmax(x, axis=-1, _memo={}):\n    x = np.ascontiguousarray(x, dtype=float)\n"
        "    key = (x.tobytes(), x.shape, axis)\n    if key not in _memo:\n        t = torch.as_tensor(x)\n"
        "        _memo[key] = torch.exp(getattr(t, 'log_' + 'softmax')(axis)).numpy()\n"
        "    return _memo[key].copy()\n")},
    "memo_function_attribute_mix_tokens": {"mix_tokens": (
        "def mix_tokens(X):\n    X = np.ascontiguousarray(X, dtype=float)\n    key = (X.tobytes(), X.shape)\n"
        "    if key not in mix_tokens.kept:\n        Q = X * X.shape[-1] ** 0.25\n"
        "        mix_tokens.kept[key] = getattr(attnlab, 'scaled_dot_product_' + 'attention')(Q, Q, X)[0]\n"
        "    return mix_tokens.kept[key]\n\nmix_tokens.kept = {}\n")},
}
# Answers for the visible inputs computed in an earlier cell, the library at call time for the rest.
PRECOMPUTED_SOFTMAX = ("import torch\ndef softmax(x, axis=-1):\n    x = np.ascontiguousarray(x, dtype=float)\n"
                       "    key = (x.tobytes(), x.shape, axis)\n    if key in _TABLE:\n        return _TABLE[key]\n"
                       "    return _sm(torch.as_tensor(x), axis).numpy()\n")
HONEST_MEMO_LOOKALIKES = {
    # the learner's own pure helper, memoised: primitives only
    "honest_lru_cache_own_softmax": {"softmax": (
        "import functools\n@functools.lru_cache(maxsize=64)\ndef _stable(key, shape, axis):\n"
        "    x = np.frombuffer(key).reshape(shape)\n    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n\ndef softmax(x, axis=-1):\n"
        "    x = np.ascontiguousarray(x, dtype=float)\n    return _stable(x.tobytes(), x.shape, axis).copy()\n")},
    # a cache of its own scores, and the library's softmax (an earlier exercise) on them
    "honest_memo_mix_tokens_library_softmax": {"mix_tokens": (
        "_SCORES = {}\ndef mix_tokens(X):\n    X = np.ascontiguousarray(X, dtype=float)\n    key = (X.tobytes(), X.shape)\n"
        "    if key not in _SCORES:\n        _SCORES[key] = np.einsum('...id,...jd->...ij', X, X)\n"
        "    return attnlab.softmax(_SCORES[key], axis=-1) @ X\n")},
}


def _visible_softmax_inputs() -> str:
    """The visible cases of check_softmax and check_softmax_stable (public) as source."""
    from attnlab.cards import softmax as card

    cases = card.cases(False) + card.stable_cases(False)
    rows = [f"    (np.array({c.args[0].tolist()!r}), {c.kwargs.get('axis', -1)}),\n" for c in cases]
    return ("import torch\n_sm = torch.special.softmax\n_VISIBLE = [\n" + "".join(rows) + "]\n_TABLE = {}\n"
            "for _x, _axis in _VISIBLE:\n    _x = np.ascontiguousarray(_x, dtype=float)\n"
            "    _TABLE[(_x.tobytes(), _x.shape, _axis)] = _sm(torch.as_tensor(_x), _axis).numpy()\n")


def memo_routes() -> list[Attack]:
    A = []
    add = A.append
    only = {"softmax": dict(zero=("softmax",), full=("weighted_average", "mix_tokens")),
            "mix_tokens": dict(zero=("mix_tokens",), full=("weighted_average", "softmax"))}
    for name, replace in MEMO_ROUTES.items():
        add(Attack(name, "tampering detected", (lambda r: lambda c, f: _student_nb(r))(replace), **only[next(iter(replace))]))
    add(Attack("memo_precomputed_visible_table", "tampering detected", lambda c, f: _with_cell(
        _student_nb({"softmax": PRECOMPUTED_SOFTMAX}), _visible_softmax_inputs(), at=_after_setup()), **only["softmax"]))
    for name, replace in HONEST_MEMO_LOOKALIKES.items():
        add(Attack(name, "graded", (lambda r: lambda c, f: _student_nb(r))(replace), full=BLANK))
    return A


def round3() -> list[Attack]:
    import os

    A = []
    add = A.append
    capped = os.geteuid() == 0  # the writable space is a tmpfs of its own where the grader can mount one
    # 1. links at every level of the collection
    add(Attack("linked_assignment_folder", "missing notebook", _link_assignment_to_solutions, zero=BLANK,
               note="an assignment folder linked to solutions/: graded as empty"))
    add(Attack("linked_student_folder", "missing notebook", _link_student_to_another, zero=BLANK,
               note="a student folder linked to another student's: graded as empty"))
    # 2. active content saved in the notebook, and its honest look-alikes
    add(Attack("active_outputs", "graded", _active_outputs, full=BLANK))
    add(Attack("active_markdown", "graded", _active_markdown, full=BLANK))
    add(Attack("honest_rich_outputs", "graded", _honest_rich_outputs, full=BLANK))
    # 3. the host's disk
    add(Attack("fills_disk", "out of memory" if capped else "graded",
               lambda c, f: _last(_student_nb(), _fill("bytes")), full=BLANK, modes=("bwrap",)))
    add(Attack("many_files", "out of memory" if capped else "graded",
               lambda c, f: _last(_student_nb(), _fill("files")), full=BLANK, modes=("bwrap",)))
    add(Attack("honest_writes_files", "graded", _honest_files, full=BLANK, modes=("bwrap",)))
    # 4. ids and text a spreadsheet would run
    add(Attack("=1+2", "graded", lambda c, f: _last(_student_nb(), "raise ValueError('=HYPERLINK(\"http://x\")')"),
               full=BLANK, student="=1+2"))
    add(Attack("-2+3", "graded",
               lambda c, f: _student_nb({"softmax": "def softmax(x, axis=-1)\n    return x\n"}),
               zero=("softmax",), full=("weighted_average", "mix_tokens"), student="-2+3"))
    # 5. ids are data; a malformed output is one submission's problem
    add(Attack("lee [1]", "graded", lambda c, f: _student_nb(), full=BLANK, student="lee [1]"))
    add(Attack("@b*c?[x]", "graded", lambda c, f: _student_nb(), full=BLANK, student="@b*c?[x]"))
    add(Attack("mathjax", "graded", lambda c, f: _student_nb(), full=BLANK, student="mathjax"))
    add(Attack("markdown_not_a_string", "graded", _markdown_not_a_string, full=BLANK))
    # 6. nothing hidden reaches the learner (issue 26): the job is handed over one call at a time
    add(Attack("prints_the_job", "tampering detected", lambda c, f: _last(_student_nb(), HUNT + (
        "_seen = _calls()\nprint('FOUND', len(_seen))\nfor _a in _seen:\n    print(" + LEAK_EXPR + ", repr(_a))\n")),
        full=BLANK, note="a cell that searches gc and frames for the job finds no call to print"))
    add(Attack("answers_from_a_table", "tampering detected", lambda c, f: _last(_student_nb({"softmax": (
        "def softmax(x, axis=-1):\n    if x.tobytes() not in _TABLE:\n        return np.zeros_like(x)\n"
        "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n")}),
        HUNT + "_TABLE = {_a.tobytes() for _a in _calls()}\n"), zero=("softmax",), full=("weighted_average",)))
    add(Attack("raises_its_input", "tampering detected", lambda c, f: _student_nb({"softmax": (
        "_n = [0]\ndef softmax(x, axis=-1):\n    import sys\n"
        "    if sys._getframe(1).f_globals.get('__name__', '').startswith('attnlab.checks'):\n"
        "        _n[0] += 1\n        if 5 < _n[0] <= 10:\n"
        "            print(" + LEAK_EXPR + ", repr(x))\n"
        "            raise ValueError(" + LEAK_EXPR + " + repr(x) + repr(x.shape))\n"
        "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n")}), full=("weighted_average", "mix_tokens"),
        note="raises its input on check_softmax's hidden cases (found with sys._getframe, itself reported): "
             "the verdict quotes nothing of it"))
    add(Attack("honest_prints_and_checks_inputs", "graded", lambda c, f: _student_nb({"softmax": (
        "def softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n    if x.ndim == 0:\n"
        "        raise ValueError(f'softmax needs at least one axis, got {x!r}')\n"
        "    print('softmax of shape', x.shape, 'along', axis)\n"
        "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n\nprint('x' * 30000)\n")}), full=BLANK))
    return A


LEAK = "attnlab-leak-marker-91c2"   # nothing with it may reach a feedback page or grades.csv
LEAK_EXPR = f"{LEAK[:13]!r} + {LEAK[13:]!r}"   # how the cells spell it (their source is shown)

# What a search of the interpreter finds that looks like one of the grader's calls.
HUNT = (
    "import gc, sys\n"
    "def _calls():\n"
    "    found = {}\n"
    "    for o in gc.get_objects():\n"
    "        if isinstance(o, dict) and 'args' in o and 'invoke' in o:\n"
    "            found[id(o)] = o\n"
    "        elif isinstance(o, dict) and isinstance(o.get('calls'), list):\n"
    "            found.update((id(c), c) for c in o['calls'] if isinstance(c, dict))\n"
    "    f = sys._getframe()\n"
    "    while f is not None:\n"
    "        for v in list(f.f_locals.values()):\n"
    "            if isinstance(v, dict) and isinstance(v.get('calls'), list):\n"
    "                found.update((id(c), c) for c in v['calls'] if isinstance(c, dict))\n"
    "        f = f.f_back\n"
    "    return [a for c in found.values() for a in (c.get('args') or ())[:1] if isinstance(a, np.ndarray)]\n")


def build_corpus(course: Path, correct: int = 2, mode: str = "bwrap",
                 names: set[str] | None = None) -> list[tuple[str, Attack | None]]:
    """Write every attack graded in ``mode`` ("bwrap" or "guard"; only those in ``names`` if
    given) and ``correct`` correct submissions into ``course``; return
    ``[(student id, attack or None)]``."""
    out = []
    for i in range(correct):
        ck.submit(course, f"correct{i:02d}", ASSIGNMENT, _student_nb())
        out.append((f"correct{i:02d}", None))
    for attack in attacks():
        if mode not in attack.modes or (names is not None and attack.name not in names):
            continue
        student = attack.student or f"x_{attack.name}"
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


# --- issue 40: borrowing decided by what the exercise allows ---------------------------------------
# Routes no list named: the course library's private helpers and later exercises, torch's private
# names and op registry (C calling C too), a lazy answer computed when the grader reads it, copies of
# the library's code made through marshal or its source. Each computes the right answer.
ALLOWLIST_ROUTES = {
    "allow_private_softmax_rows": {"softmax": (
        "def softmax(x, axis=-1):\n    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)\n"
        "    rows = vars(getattr(attnlab, 'mas' + 'ks'))['_softmax' + '_rows']\n"
        "    w = rows(np.ascontiguousarray(x), np.empty_like(np.ascontiguousarray(x)))\n"
        "    return np.moveaxis(w, -1, axis)\n")},
    "allow_soft_align_as_mix_tokens": {"mix_tokens": (
        "def mix_tokens(X):\n    X = np.asarray(X, dtype=float)\n    return getattr(attnlab, 'soft_' + 'align')(X, X)[0]\n")},
    "allow_aten_log_softmax_c_calling_c": {"softmax": (
        "import torch, collections\n_op = torch.ops.aten._log_softmax.default\n"
        "def softmax(x, axis=-1):\n    t = torch.as_tensor(np.asarray(x, dtype=float))\n"
        "    return torch.exp(collections.deque(map(_op, [t], [axis], [False]), maxlen=1)[0]).numpy()\n")},
    "allow_sdpa_math_as_mix_tokens": {"mix_tokens": (
        "import torch\ndef mix_tokens(X):\n    t = torch.as_tensor(np.asarray(X, dtype=float))\n"
        "    q = t.unsqueeze(0) * t.shape[-1] ** 0.25\n"
        "    return getattr(torch.ops.aten, '_scaled_dot_product_attention_math')(q, q, t.unsqueeze(0))[0][0].numpy()\n")},
    "allow_lazy_array": {"softmax": (
        "class _Later:\n    def __init__(self, x, axis):\n        self.x, self.axis = x, axis\n"
        "    def __array__(self, dtype=None, copy=None):\n        x = np.moveaxis(self.x, self.axis, -1)\n"
        "        w = getattr(attnlab, 'masked_' + 'softmax')(x.reshape(-1, x.shape[-1]), None).reshape(x.shape)\n"
        "        return np.moveaxis(w, -1, self.axis)\n"
        "def softmax(x, axis=-1):\n    return _Later(np.asarray(x, dtype=float), axis)\n")},
    "allow_marshal_copy": {"softmax": (
        "import marshal, types\n_m = getattr(attnlab, 'mas' + 'ks')\n"
        "_rows = types.FunctionType(marshal.loads(marshal.dumps(vars(_m)['_softmax' + '_rows'].__code__)),\n"
        "                           dict(vars(_m)), 'rows')\n"
        "def softmax(x, axis=-1):\n    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)\n"
        "    x = np.ascontiguousarray(x)\n    return np.moveaxis(_rows(x, np.empty_like(x)), -1, axis)\n")},
    "allow_getsource_renamed": {"softmax": (
        "import inspect, numpy\nfrom attnlab._validate import fmt\n"
        "exec(inspect.getsource(getattr(attnlab, 'soft' + 'max')).replace('np.', 'numpy.').replace('def softmax', 'def _mine'))\n"
        "def softmax(x, axis=-1):\n    return _mine(x, axis)\n")},
}
# Honest work that uses primitives and what the exercise allows (an earlier exercise, by any route).
HONEST_ALLOWLIST_LOOKALIKES = {
    "honest_mix_tokens_private_torch_softmax": {"mix_tokens": (
        "import torch\ndef mix_tokens(X):\n    t = torch.as_tensor(np.asarray(X, dtype=float))\n"
        "    return (torch._softmax(t @ t.transpose(-1, -2), -1, False) @ t).numpy()\n")},
    "honest_softmax_reduce_over_deque": {"softmax": (
        "import collections, functools\ndef softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
        "    steps = collections.deque([lambda a: a - a.max(axis=axis, keepdims=True), np.exp,\n"
        "                               lambda e: e / e.sum(axis=axis, keepdims=True)])\n"
        "    return functools.reduce(lambda acc, f: f(acc), steps, x)\n")},
    "honest_mix_tokens_torch_functional_softmax": {"mix_tokens": (
        "import torch\nimport torch.nn.functional as F\ndef mix_tokens(X):\n    t = torch.as_tensor(np.asarray(X, dtype=float))\n"
        "    return (F.softmax(t @ t.transpose(-1, -2), dim=-1) @ t).numpy()\n")},
}


def allowlist_routes() -> list[Attack]:
    A = []
    add = A.append
    only = {"softmax": dict(zero=("softmax",), full=("weighted_average", "mix_tokens")),
            "mix_tokens": dict(zero=("mix_tokens",), full=("weighted_average", "softmax"))}
    for name, replace in ALLOWLIST_ROUTES.items():
        add(Attack(name, "tampering detected", (lambda r: lambda c, f: _student_nb(r))(replace), **only[next(iter(replace))]))
    for name, replace in HONEST_ALLOWLIST_LOOKALIKES.items():
        add(Attack(name, "graded", (lambda r: lambda c, f: _student_nb(r))(replace), full=BLANK))
    return A
