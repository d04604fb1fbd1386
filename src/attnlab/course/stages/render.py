"""Stage 7, render: every submission's feedback page, after the batch is recorded.

A submission that was read gets nbgrader's feedback of its autograded notebook
(:class:`attnlab.course.feedback.FeedbackWriter`); one that could not be read or run, or whose
page failed, gets a status page and a note in its row; the batch goes on. Then each assignment's
pages are polished (exercise names, wrapped lines, offline MathJax).

nbgrader's pages are CPU-bound Python (nbconvert, ~0.7 s a page), so with ``jobs`` > 1 they are
rendered by that many worker processes, each with one :class:`FeedbackWriter` set up once. A
worker gets only the page's ids and sends back the path, its seconds and what went wrong;
every :class:`Result` stays in the grader's process, which writes status pages and notes.
"""
from __future__ import annotations

import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .. import records
from ..escape import shown
from .handoff import Result
from .judge import _grader_error


@dataclass(frozen=True)
class Page:
    """render's order to a worker: the ids of one autograded notebook."""
    student: str
    assignment: str
    notebook: str


@dataclass(frozen=True)
class Rendered:
    """render's answer from a worker: the page's path, or why it could not be made."""
    path: str | None
    seconds: float
    error: str = ""          # "Type: message" when the page could not be made
    unset: bool = False      # nbgrader's feedback could not even be set up


class _Writer:
    """One :class:`FeedbackWriter`, set up once (per worker process, or in the grader's)."""

    def __init__(self, root: Path, base: Path | None, db_url: str | None) -> None:
        # (imported here: feedback imports nbgrader, slow to import, once per worker process)
        from ..feedback import FeedbackWriter

        self.writer, self.why = None, ""
        try:
            self.writer = FeedbackWriter(root, base=base, db_url=db_url)
        except Exception as exc:  # noqa: BLE001
            self.why = f"{type(exc).__name__}: {str(exc)[:200]}"

    def render(self, page: Page) -> Rendered:
        started = time.perf_counter()
        if self.writer is None:
            return Rendered(None, 0.0, f"RuntimeError: {self.why}", unset=True)
        try:
            path = self.writer.write(page.student, page.assignment, page.notebook)
            return Rendered(str(path), time.perf_counter() - started)
        except Exception as exc:  # noqa: BLE001 - this submission's page only
            return Rendered(None, time.perf_counter() - started, f"{type(exc).__name__}: {str(exc)[:200]}")


_WORKER: _Writer | None = None   # a worker process's own writer


def _start_worker(root: Path, base: Path | None, db_url: str | None) -> None:
    global _WORKER
    _WORKER = _Writer(root, base, db_url)


def _render_in_worker(page: Page) -> Rendered:
    return _WORKER.render(page)


def render_pages(root: Path, pages: list[Page], base: Path | None = None, db_url: str | None = None,
                 jobs: int = 1) -> list[Rendered]:
    """nbgrader's feedback page of each of ``pages``, in order; with ``jobs`` > 1 (and more than
    one page) in that many worker processes, otherwise in this one. Never raises for one page:
    a worker that dies is that page's error."""
    if not pages:
        return []
    if jobs <= 1 or len(pages) == 1:
        writer = _Writer(root, base, db_url)
        return [writer.render(p) for p in pages]
    # fork: the workers start with nbgrader already imported, and no learner code ever runs here
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=min(jobs, len(pages)), mp_context=context,
                             initializer=_start_worker, initargs=(root, base, db_url)) as pool:
        futures = [pool.submit(_render_in_worker, p) for p in pages]
        out = []
        for future in futures:
            try:
                out.append(future.result())
            except Exception as exc:  # noqa: BLE001 - e.g. a worker killed: this page only
                out.append(Rendered(None, 0.0, f"{type(exc).__name__}: {str(exc)[:200]}"))
        return out


def write_feedback(root: Path, results: list[Result], by_key: dict, todo: list[str],
                   base: Path | None = None, db_url: str | None = None, jobs: int = 1) -> list[str]:
    """Every submission's feedback page (nbgrader's, rendered by ``jobs`` processes, or a status
    page), its seconds in ``r.stages["feedback"]``; then, for the course (not a shard: ``base``
    None), each assignment's pages polished. Returns the submissions whose nbgrader page could
    not be rendered."""
    # (imported here: feedback imports nbgrader, slow to import, and only writing feedback needs it)
    from ..feedback import polish_feedback

    wanted = [r for r in results if r.learner_nb is not None]
    rendered = dict(zip(map(id, wanted), render_pages(
        root, [Page(r.student, r.assignment, r.notebook) for r in wanted], base, db_url, jobs)))
    unset = next((p.error for p in rendered.values() if p.unset), "")
    if unset:
        print(shown(f"warning: nbgrader's feedback could not be set up: {unset.split(': ', 1)[-1]}"), file=sys.stderr)
    pages: dict[str, list[Path]] = {a: [] for a in todo}
    failed: list[str] = []
    for r in results:
        sub = by_key[(r.student, r.assignment)]
        page = rendered.get(id(r))
        seconds = page.seconds if page is not None else 0.0
        started = time.perf_counter()
        try:
            if page is not None and page.path is not None:
                pages[r.assignment].append(Path(page.path))
                r.stages["feedback"] = seconds
                continue
            if page is not None:
                failed.append(f"{r.student}/{r.assignment}")
                r.details.append(f"feedback: nbgrader's page could not be made ({page.error}); "
                                 "a status page was written instead")
            pages[r.assignment] += records.write_status_feedback(root, r, None if sub.refused else sub.folder,
                                                                 base=base)
        except Exception as exc:  # noqa: BLE001 - one submission's failure is its own row
            _grader_error(r, "writing feedback", exc)
        r.stages["feedback"] = seconds + time.perf_counter() - started
    for assignment in todo if base is None else ():  # a shard's pages: polished by merge
        started = time.perf_counter()
        try:
            polish_feedback(root, assignment, pages[assignment])  # exercise names, wrapped lines, offline MathJax
            mine = [r for r in results if r.assignment == assignment]
            for r in mine:  # timing only: the assignment's polish shared out over its submissions
                r.stages["polish"] = (time.perf_counter() - started) / len(mine)
        except Exception as exc:  # noqa: BLE001
            print(shown(f"warning: feedback of {assignment} not polished: {type(exc).__name__}: {exc}"), file=sys.stderr)
    return failed
