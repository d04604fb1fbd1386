"""Part of stage 3 (run): matplotlib's font list, built once per course and copied into each
sandbox's ``tmp``, so that no sandbox scans the fonts again. Built in a process of its own that
runs no learner code; a learner who edits their copy changes nothing for anyone else.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from .. import boundary


# matplotlib's font list, built once per course ------------------------------------------------
# Every sandbox gets a fresh MPLCONFIGDIR, so matplotlib would scan the fonts again in each one
# (0.2-0.3 s of each notebook's start). The grader builds the list once, in a process of its own
# that runs no learner code, keeps it in the course (autograde/.grading/, one folder per
# matplotlib version) for later batches, and gives each sandbox a copy of it (a learner who edits
# theirs changes nothing for anyone else). Until the list is ready, sandboxes build their own.

_FONT_LISTS: dict[str, list[Path]] = {}
_FONT_LOCK = threading.Lock()


def font_list_folder(root: Path) -> Path:
    try:
        from importlib.metadata import version

        tag = version("matplotlib")
    except Exception:  # noqa: BLE001 - no matplotlib: nothing to build
        tag = "unknown"
    return Path(root) / "autograde" / ".grading" / f"matplotlib-{tag}"


def build_font_list(folder: Path) -> list[Path]:
    """Build matplotlib's font list into ``folder`` unless it is there; its files (none if
    matplotlib could not build it)."""
    folder = Path(folder)
    files = sorted(folder.glob("fontlist-*.json"))
    if files:
        return files
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".building-", dir=folder.parent))
        try:
            env = dict(boundary.clean_env(str(work), str(work)), MPLCONFIGDIR=str(work))
            proc = subprocess.run([sys.executable, "-I", "-c", "import matplotlib.font_manager"], env=env,
                                  cwd=work, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
            if proc.returncode == 0 and list(work.glob("fontlist-*.json")):
                try:
                    work.rename(folder)  # atomic; another batch's build may have won the race
                except OSError:
                    pass
        finally:
            shutil.rmtree(work, ignore_errors=True)
    except (OSError, subprocess.SubprocessError):
        pass
    return sorted(folder.glob("fontlist-*.json"))


def start_font_list(folder: Path, scratch: Path) -> None:
    """Make matplotlib's font list in ``folder`` available to the sandboxes of the batch whose
    scratch folder is ``scratch``: at once if a batch built it before, otherwise built in the
    background."""
    key = str(scratch)
    with _FONT_LOCK:
        if key in _FONT_LISTS:
            return
        files = sorted(Path(folder).glob("fontlist-*.json"))
        _FONT_LISTS[key] = files
    if files:
        return

    def build() -> None:
        files = build_font_list(folder)
        with _FONT_LOCK:
            _FONT_LISTS[key] = files

    threading.Thread(target=build, daemon=True, name="font-list").start()


def _give_font_list(scratch: Path, tmp: Path) -> None:
    """Copy the course's font list (if ready for this batch) into a job's ``tmp/.matplotlib``."""
    with _FONT_LOCK:
        files = list(_FONT_LISTS.get(str(scratch), []))
    if not files:
        return
    dest = tmp / ".matplotlib"
    try:
        dest.mkdir(exist_ok=True)
        for f in files:
            shutil.copyfile(f, dest / f.name)
    except OSError:
        pass  # matplotlib builds its own
