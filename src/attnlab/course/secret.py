"""The course secret: where the hidden tests' inputs come from.

The hidden cases of every check draw their inputs from seeds derived from this secret
(:func:`attnlab.checks._core.case_seed`), so a learner who reads ``attnlab.checks`` (installed on
their machine) still cannot know them. It lives in the instructor's own configuration:

* the environment variable ``ATTNLAB_COURSE_SECRET``, if set; otherwise
* the file ``autograde/course_secret`` (gitignored, mode 0600), which ``make release`` creates on
  first use.

Without either, the hidden inputs are the public defaults written in ``attnlab.checks``. The
grader keeps the secret in its own process: it is never in a sandbox's environment or view.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from attnlab.checks._core import SECRET_ENV, set_course_secret

SECRET_FILE = Path("autograde") / "course_secret"


def read(root: Path) -> str:
    """The course secret from the environment or ``autograde/course_secret`` ("" if none)."""
    value = os.environ.get(SECRET_ENV, "").strip()
    if value:
        return value
    try:
        return (root / SECRET_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def ensure(root: Path) -> bool:
    """Create ``autograde/course_secret`` if there is no secret yet; True if it made one."""
    if read(root):
        return False
    path = root / SECRET_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(secrets.token_hex(32) + "\n")
    return True


def load(root: Path) -> str:
    """Make this process's checks use the course secret (not through the environment, which
    processes started from here would inherit); return it ("" if none)."""
    value = read(root)
    set_course_secret(value)
    return value
