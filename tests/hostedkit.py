"""Helpers for tests/test_gradescope.py and tests/test_prairielearn.py: the submissions, the hosted
service's folders laid out in a scratch folder, the entrypoints run there, and the hidden inputs
an output must never show."""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np

import coursekit

ASSIGNMENT = "01_weighted_averages"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"
SECRET = "hosted-test-secret-5f2c"   # the course secret the exports carry (never the instructor's)
WRONG = next(w for w in coursekit.catalogue(ASSIGNMENT) if w.message == "no max subtraction")


def export_env() -> dict[str, str]:
    """The environment of ``attnlab-course export-*``: the repository's course, the test's secret
    (so the real ``autograde/course_secret`` is neither read nor made)."""
    env = dict(os.environ, ATTNLAB_COURSE_ROOT=str(coursekit.ROOT), ATTNLAB_COURSE_SECRET=SECRET)
    env.pop("NBGRADER_EXECUTION", None)
    return env


def run_env(**extra: str) -> dict[str, str]:
    """The environment of an entrypoint: no secret and no course from outside (the export's own are
    used), the course's venv Python instead of the one setup.sh or the image installs."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATTNLAB_COURSE_SECRET", "ATTNLAB_COURSE_ROOT", "NBGRADER_EXECUTION")}
    env.update(ATTNLAB_PYTHON=sys.executable, PYTHONUNBUFFERED="1", **extra)
    return env


def correct_notebook() -> bytes:
    return coursekit.solution_path(ASSIGNMENT).read_bytes()


HELPER_MODULE = (
    "import numpy as np\n\n\n"
    "def softmax(x, axis=-1):\n"
    "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
    "    return e / np.sum(e, axis=axis, keepdims=True)\n")


def helper_notebook() -> bytes:
    """The correct notebook whose softmax comes from the learner's own module beside it."""
    nb = coursekit.completed_student_notebook(ASSIGNMENT, {"softmax": "from my_helpers import softmax\n"})
    return json.dumps(nb).encode("utf-8")


def wrong_notebook() -> bytes:
    """The student notebook filled in with the solutions, softmax without the max subtraction."""
    nb = coursekit.completed_student_notebook(ASSIGNMENT, {WRONG.solution: WRONG.code})
    return json.dumps(nb).encode("utf-8")


def extract(zip_path: Path, dest: Path) -> None:
    """Unpack as ``unzip`` does on the service: the permissions the archive records are kept."""
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            target = dest / info.filename
            assert dest.resolve() in target.resolve().parents, info.filename
            zf.extract(info, dest)
            mode = (info.external_attr >> 16) & 0o777
            if mode and not info.is_dir():
                os.chmod(target, mode)


def start(argv: list[str], cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen:
    fh = open(log, "w", encoding="utf-8")  # noqa: SIM115 - closed by finish()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=fh, stderr=subprocess.STDOUT, text=True)
    proc.log_file = fh  # type: ignore[attr-defined]
    proc.started = time.perf_counter()  # type: ignore[attr-defined]
    return proc


def finish(proc: subprocess.Popen, log: Path, timeout: float = 600) -> tuple[int, str, float]:
    try:
        code = proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.log_file.close()  # type: ignore[attr-defined]
    return code, log.read_text(encoding="utf-8", errors="replace"), time.perf_counter() - proc.started  # type: ignore[attr-defined]


def grade_cells() -> dict[str, float]:
    """``{grade_id: points}`` of the assignment, from the source notebook."""
    return coursekit.max_points(coursekit.load(coursekit.solution_path(ASSIGNMENT)))


def _float_pairs(value) -> set[str]:
    """Two neighbouring numbers of a float array as the checks print arrays (precision 4), each with
    three digits or more, as regular expressions: a fragment a printed array of these inputs shows."""
    out: set[str] = set()
    if isinstance(value, (list, tuple)):
        for v in value:
            out |= _float_pairs(v)
        return out
    if isinstance(value, dict):
        for v in value.values():
            out |= _float_pairs(v)
        return out
    arr = value.detach().cpu().numpy() if hasattr(value, "detach") else value  # a torch tensor
    if not isinstance(arr, np.ndarray) or arr.dtype.kind != "f" or arr.size < 2:
        return out
    text = np.array2string(arr, precision=4, suppress_small=True, separator=", ", threshold=10**6)
    for row in text.splitlines():
        numbers = re.findall(r"-?\d+\.\d*(?:e[+-]?\d+)?", row)
        for a, b in zip(numbers, numbers[1:]):
            if sum(c.isdigit() for c in a) >= 3 and sum(c.isdigit() for c in b) >= 3:
                out.add(re.escape(a) + r",\s*" + re.escape(b))
    return out


def hidden_fragments() -> list[str]:
    """Patterns of the hidden cases' inputs (drawn from the exports' secret) that no visible case
    shares: none may appear in any results file."""
    from attnlab.checks import _core
    from attnlab.course.plan import plan_assignment

    saved = list(_core._SECRET)
    _core.set_course_secret(SECRET)
    try:
        plan = plan_assignment(coursekit.ROOT, ASSIGNMENT)
    finally:
        _core._SECRET[:] = saved
    hidden, visible = set(), set()
    for cell in plan.grade_cells:
        for cc in cell.calls:
            for case in cc.spec.cases:
                pairs = _float_pairs(list(case.args)) | _float_pairs(dict(case.kwargs))
                (hidden if cc.hidden else visible).update(pairs)
    return sorted(hidden - visible)


def leaks(text: str, fragments: list[str]) -> list[str]:
    return [f for f in fragments if re.search(f, text)]


def is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def executable(path: Path) -> bool:
    return bool(path.stat().st_mode & stat.S_IXUSR)


class Unreachable(Exception):
    """Another user cannot run the course venv's Python here, even in a mount namespace."""


def _closed_ancestor(path: str) -> tuple[str, str] | None:
    """The first folder above ``path`` that other users cannot pass (``/root``), with its child
    on the way; None if every one is passable. Raises if a second one lies further down."""
    parts = Path(path).resolve().parts
    found = None
    for i in range(1, len(parts)):
        folder = Path(*parts[:i])
        if not os.stat(folder).st_mode & 0o001:
            if found is not None:
                raise LookupError(f"{folder} is closed too")
            found = (str(folder), str(Path(*parts[: i + 1])))
    return found


# Run a command in a mount namespace of its own in which the one closed folder above the
# interpreter (this machine's /root) is a passable tmpfs holding only the interpreter's folder:
# the course venv is reachable by another user, as setup.sh's and the grader image's venvs are.
OPEN_PATH = """\
set -e
mkdir -p "$STASH"
mount --bind "$CHILD" "$STASH"
mount -t tmpfs -o mode=0755 attnlab-test "$CLOSED"
mkdir -p "$CHILD"
mount --bind "$STASH" "$CHILD"
exec "$@"
"""


def reachable_prefix(stash: Path) -> list[str]:
    """The prefix of an argv that runs it where a user other than root can run this venv's Python,
    as on the services (setup.sh's and the grader image's venvs are reachable): empty where it
    already is, else a mount namespace in which the one closed folder above the interpreter (this
    machine's /root) is passable, holding only the interpreter's folder. ``stash``: an empty
    scratch folder the caller removes. Raises ``Unreachable`` saying why when neither works."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        raise Unreachable("the fence drops from root to a user of its own: this needs root (as on the services)")
    try:
        closed = _closed_ancestor(os.path.realpath(sys.executable))
    except LookupError as exc:
        raise Unreachable(f"the interpreter lies behind two closed folders: {exc}") from None
    prefix: list[str] = []
    if closed is not None:
        if shutil.which("unshare") is None:
            raise Unreachable("no unshare(1) to make the interpreter reachable")
        prefix = ["env", f"STASH={stash / 'child'}", f"CLOSED={closed[0]}", f"CHILD={closed[1]}",
                  "unshare", "--mount", "--propagation", "private", "--", "sh", "-c", OPEN_PATH, "sh"]
    probe = subprocess.run([*prefix, "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                            "-I", "-c", "import numpy, attnlab.course.sandbox"],
                           capture_output=True, text=True, timeout=300)
    if probe.returncode != 0:
        raise Unreachable(f"another user cannot run the course venv here: {probe.stderr[-300:]}")
    return prefix
