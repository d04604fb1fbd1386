"""Stage 1, collect: find a submission's notebook and bring its files to the sandbox.

Boundary rules owned here: collection follows no link. A submission folder that is a symbolic
link is graded as empty (``Submission.refused``, set by ``grade.discover``); a file that is a
link (symbolic, or hard: a link count above one), a FIFO or a device is never read
(:func:`read_regular`), nor copied
(:func:`copy_submission`); what is copied is bounded in files, bytes and depth.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from ..plan import AssignmentPlan
from .handoff import Collected, Submission


class NotRegular(OSError):
    """A path that is a link, a FIFO, a device or a folder where a regular file was expected."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file, never following a symbolic link nor blocking on a FIFO;
    ``ValueError`` if it holds more than ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == 40 or os.path.islink(path):  # ELOOP: the last component is a link
            raise NotRegular(f"{path.name} is a symbolic link") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"{path.name} is not a regular file")
        if info.st_nlink > 1:  # one file under several names: maybe solutions/ or another learner's
            raise NotRegular(f"{path.name} is a hard link (one file with {info.st_nlink} names), "
                             "which is never read")
        if info.st_size > limit:
            raise ValueError(f"{path.name} is {info.st_size / 2**20:.0f} MiB, more than {limit / 2**20:.0f} MiB")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise ValueError(f"{path.name} is larger than {limit / 2**20:.0f} MiB")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _find_notebook(sub: Submission, plan: AssignmentPlan) -> tuple[Path | None, str]:
    path = sub.folder / plan.notebook
    if os.path.lexists(path):
        return path, ""
    try:
        others = sorted(p.name for p in sub.folder.glob("*.ipynb"))[:5]
    except OSError:
        others = []
    found = f"; found {', '.join(others)}: rename it to {plan.notebook}" if others else ""
    return None, f"no {plan.notebook} in the submission{found}"


MAX_COPY_BYTES = 512 * 2**20   # all the files of one submission copied into its sandbox
MAX_COPY_FILES = 2000


def copy_submission(src: Path, dst: Path, exist_ok: bool = False) -> list[str]:
    """Copy a submission's regular files and folders into ``dst`` without following symbolic
    links (as ``unzip`` keeps them) and without opening FIFOs or devices; return what was left
    out and why."""
    skipped: list[str] = []
    count, size = 0, 0
    dst.mkdir(exist_ok=exist_ok)
    stack = [(src, dst, 0)]
    while stack:
        folder, target, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            skipped.append(f"{folder.relative_to(src) if folder != src else '.'}: unreadable ({exc.strerror})")
            continue
        for entry in entries:
            rel = os.path.relpath(entry.path, src)
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue
            try:
                if entry.is_symlink():
                    skipped.append(f"{rel} (a symbolic link)")
                elif entry.is_dir(follow_symlinks=False):
                    if depth >= 8:
                        skipped.append(f"{rel} (folders nested too deep)")
                        continue
                    (target / entry.name).mkdir()
                    stack.append((Path(entry.path), target / entry.name, depth + 1))
                elif entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    if info.st_nlink > 1:
                        skipped.append(f"{rel} (a hard link: one file with {info.st_nlink} names)")
                        continue
                    if count >= MAX_COPY_FILES or size + info.st_size > MAX_COPY_BYTES:
                        skipped.append(f"{rel} (the submission's files are too many or too large)")
                        continue
                    data = read_regular(Path(entry.path), MAX_COPY_BYTES - size)
                    (target / entry.name).write_bytes(data)
                    count, size = count + 1, size + len(data)
                else:
                    skipped.append(f"{rel} (not a regular file)")
            except (OSError, ValueError) as exc:
                skipped.append(f"{rel} ({exc})")
    return skipped


def collect(sub: Submission, plan: AssignmentPlan) -> Collected:
    """The submission's notebook, or why it has none (a refused link, a missing or misnamed file)."""
    if sub.refused:
        return Collected(sub, None, f"{sub.refused}: not followed, graded as empty; submit the files themselves")
    path, why = _find_notebook(sub, plan)
    return Collected(sub, path, why)


def refused_link(folder: Path, what: str) -> str:
    """Why a submission folder that is a symbolic link (kept by ``unzip`` or ``cp -a``: to another
    student's work, to solutions/) is graded as empty: ``Submission.refused``."""
    try:
        target = os.readlink(folder)[:200]
    except OSError:
        target = "?"
    return f"the {what} folder {folder.name} is a symbolic link (to {target})"
