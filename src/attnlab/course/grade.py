"""``make grade``: grade every submission in isolation, in parallel, and report each honestly.

Submissions go in ``autograde/submitted/<student>/<assignment>/<assignment>.ipynb`` (an optional
``timestamp.txt`` beside it, as nbgrader writes it, marks late work against the assignment's
due date in the gradebook). Each one is graded in a throwaway folder outside the course by
:mod:`attnlab.course.grading`; the results are then merged into ``autograde/gradebook.db``,
``autograde/autograded/``, ``autograde/feedback/`` and ``autograde/grades.csv``.
"""
from __future__ import annotations

import contextlib
import csv as csv_module
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from types import SimpleNamespace
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from . import boundary, escape, preflight, records, secret, shards, warm
from .escape import shown
from .stages.fonts import font_list_folder, start_font_list
from .stages.handoff import Limits, Result, Submission, grader_memory_bound
from .stages.judge import mark_late
from .stages.read import read_timestamp
from .grading import grade_submission
from .stages.collect import refused_link
from .stages.judge import _grader_error
from .stages.render import write_feedback
from .stages.run import prestart_workers
from .plan import plan_assignment
from .release import apply_due_dates, assignments, nbgrader, release


JUPYTER_FOLDERS = (".ipynb_checkpoints",)  # what Jupyter leaves beside notebooks: never a submission


def stored_ids(names: list[str]) -> dict[str, tuple[str, str]]:
    """Each student folder's name -> (the id its row is stored under, a note for the row). A name
    that is printable text is its own id. Any other (bytes that are not UTF-8, a control, format
    or bidirectional character) is stored under its escape (:func:`attnlab.course.escape.shown`:
    ``b'\\xff'`` is ``\\udcff``), with a note that says so, never refused: the learner is graded
    and gets a row like everyone else. An escape that another folder's name already is gets a
    suffix of its own."""
    taken = {n for n in names if escape.shown(n) == n}
    out = {}
    for name in names:
        sid = escape.shown(name)
        if sid == name:
            out[name] = (name, "")
            continue
        base, k = sid, 2
        while sid in taken:
            sid, k = f"{base}~{k}", k + 1
        taken.add(sid)
        out[name] = (sid, f"the folder's name is not plain text (bytes that are not UTF-8, or a control or "
                          f"bidirectional character): graded and recorded as {sid!r}")
    return out


def discover(root: Path, only: list[str] | None, students: list[str] | None) -> tuple[list[Submission], list[str]]:
    """The submissions to grade, and warnings about folders that are not submissions."""
    sub_root = root / "autograde" / "submitted"
    known = set(assignments(root))
    subs, warnings = [], []
    if not sub_root.is_dir():
        return subs, warnings
    # Collection follows no link (stages.collect): a student or assignment folder that is a
    # symbolic link is graded as empty, and says so. A student id may start with a dot; Jupyter's
    # own .ipynb_checkpoints folders are passed over, and any other folder that holds no
    # assignment is named in a warning, never skipped without a word.
    folders = sorted(p for p in sub_root.iterdir() if p.is_dir() and p.name not in JUPYTER_FOLDERS)
    ids = stored_ids([p.name for p in folders])
    for student_dir in folders:
        sid, note = ids[student_dir.name]
        if students and student_dir.name not in students and sid not in students:
            continue
        if student_dir.is_symlink():
            try:  # the names in it say which rows to write; nothing in it is read
                names = sorted(n for n in os.listdir(student_dir) if n in known and not (only and n not in only))
            except OSError:
                names = []
            if not names:
                warnings.append(f"skipped {student_dir.relative_to(root)}: a symbolic link, not a folder")
            why = refused_link(student_dir, "student")
            for name in names:
                subs.append(Submission(sid, name, student_dir / name, None, refused=why, note=note))
            continue
        for folder in sorted(p for p in student_dir.iterdir() if p.is_dir() and p.name not in JUPYTER_FOLDERS):
            if folder.name not in known:
                warnings.append(f"skipped {folder.relative_to(root)}: no assignment {folder.name!r} in solutions/")
                continue
            if only and folder.name not in only:
                continue
            if folder.is_symlink():
                why = refused_link(folder, "assignment")
                subs.append(Submission(sid, folder.name, folder, None, refused=why, note=note))
                continue
            subs.append(Submission(sid, folder.name, folder, read_timestamp(folder), note=note))
    return subs, warnings


def _duedate(db_url: str, assignment: str):
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url) as gb:
        try:
            return gb.find_assignment(assignment).duedate
        except MissingEntry:
            return None


def _in_gradebook(db_url: str, assignment: str) -> bool:
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url) as gb:
        try:
            return bool(gb.find_assignment(assignment).notebooks)
        except MissingEntry:
            return False


class Progress:
    """One line per graded submission under a tqdm bar (on a terminal), or plain lines (in logs)
    with the count, the rate and the time left; the same lines are appended to ``log``
    (``autograde/grading.log``) under a header line giving the batch's date.

    The rate and the time left come from the recent pace, not the average since the start: the
    batch's one-off costs (plans, the font list, each job's warm worker) fall on the first
    submission of every job, and parallel jobs finish in bursts. So the first ``jobs``
    completions (or, not knowing ``jobs``, the first burst) are the warm-up and never part of the
    basis; the rate is that of the last ``window`` completions after them, measured from a
    completion's own time; until a round of the jobs (at least two) is in after the warm-up, the
    line says ``estimating time left``."""

    def __init__(self, total: int, stream=sys.stderr, log: Path | None = None, jobs: int | None = None,
                 window: int = 20) -> None:
        import time
        from datetime import datetime, timezone

        from tqdm import tqdm

        self.stream, self.done, self.total = stream, 0, total
        self.started, self.clock = time.monotonic(), time.monotonic
        self.jobs = jobs if jobs and jobs > 0 else None
        self.window = max(1, window)
        self.times: list[float] = []  # when each submission finished (self.clock)
        self.log = log
        # (the bar shows this estimate, not tqdm's own average since the start)
        self.bar = tqdm(total=total, file=stream, unit="submission", dynamic_ncols=True,
                        disable=not stream.isatty(), bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} "
                                                                "[{elapsed}{postfix}]")
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        self._log(f"== grading batch of {total} submission(s), started {stamp}")

    def _log(self, text: str) -> None:
        if self.log is None:
            return
        try:  # the log is a convenience: a full disk or a read-only folder never stops the batch
            self.log.parent.mkdir(parents=True, exist_ok=True)
            with open(self.log, "a", encoding="utf-8", errors="backslashreplace") as fh:
                fh.write(text + "\n")
        except OSError:
            self.log = None

    def _warm_up(self) -> int:
        """How many of the first completions carry the batch's one-off costs: one per job, or,
        not knowing the jobs, those finishing close to the first (its burst)."""
        if self.jobs is not None:
            return self.jobs
        if not self.times:
            return 1
        first = self.times[0]
        close = max(1.0, 0.1 * (first - self.started))
        return sum(1 for t in self.times if t <= first + close)

    def rate(self, now: float) -> float | None:
        """Submissions per second at the recent pace, or None until there is a basis."""
        skip = self._warm_up()
        after = len(self.times) - skip  # completions after the warm-up's last one
        if after < max(2, self.jobs or 2):  # at least a round of the jobs past the warm-up
            return None
        n = min(after, self.window)
        anchor = self.times[-n - 1]  # a completion's own time: counting from it, n finished since
        span = now - anchor
        return n / span if span > 0 else None

    def step(self, result: Result) -> None:
        line = _printable(f"{result.student}/{result.assignment}: {result.status} "  # an id forges no line
                          f"{result.score:g}/{result.max_score:g} ({result.seconds:.1f} s)")
        self.done += 1
        now = self.clock()
        self.times.append(now)
        elapsed = max(now - self.started, 1e-9)
        head = f"{self.done}/{self.total} ({100 * self.done / max(self.total, 1):.0f}%, "
        rate = self.rate(now)
        if self.done >= self.total:
            left = "0 s left"
            plain = head + f"{self.done / elapsed * 60:.1f}/min, {left})  {line}"
        elif rate is None:
            left = "estimating time left"
            plain = head + f"{left})  {line}"
        else:
            left = f"{_duration((self.total - self.done) / rate)} left"
            plain = head + f"{rate * 60:.1f}/min, {left})  {line}"
        if self.bar.disable:
            self.stream.write(plain + "\n")
            self.stream.flush()
        else:
            self.bar.write(line, file=self.stream)
            self.bar.set_postfix_str(left, refresh=False)
            self.bar.update(1)
        self._log(plain)
        if self.done >= self.total:
            self.bar.close()
            self._log(f"== done: {self.done} submission(s) in {_duration(elapsed)}")


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def grade(root: Path, only: list[str] | None = None, csv: str = "autograde/grades.csv", jobs: int = 1,
          limits: Limits | None = None, students: list[str] | None = None, feedback: bool = True,
          shard=None) -> list[Result]:
    """Grade every submission of the given (or every submitted) assignment; with ``shard`` (a
    :class:`attnlab.course.shards.Shard`), only its share, into its own folder (no gradebook,
    CSV or feedback of the course written: ``attnlab-course merge`` does that)."""
    limits = limits or Limits()
    with grader_memory_bound(limits):
        return _grade(root, only, csv, jobs, limits, students, feedback, shard)


def _grade(root: Path, only: list[str] | None, csv: str, jobs: int, limits: Limits,
           students: list[str] | None, feedback: bool, shard=None) -> list[Result]:
    subs, warnings = discover(root, only, students)
    for w in warnings:
        print(_printable(f"warning: {w}"), file=sys.stderr)
    if shard is not None:
        return _grade_shard(root, subs, jobs, limits, feedback, shard)
    if not subs:
        raise SystemExit("error: nothing to grade: put submissions in "
                         "autograde/submitted/<student>/<assignment>/<assignment>.ipynb")
    results: list[Result] = []
    by_key = {(s.student, s.assignment): s for s in subs}
    with tempfile.TemporaryDirectory(prefix="attnlab-grading-") as scratch:
        start_font_list(font_list_folder(root), Path(scratch))  # matplotlib's font list, built once
        with _warm_workers(Path(scratch), limits, [root], min(jobs, len(subs))):  # started while the batch prepares
            # Can the sandbox run Python at all? If not, stop before any grade is written (not 0 for all).
            preflight.check(hide=[str(root)], memory_bytes=int(limits.memory_mib * 2**20))
            db_url = "sqlite:///" + str(root / "autograde" / "gradebook.db")
            try:
                secret.ensure(root)  # made by the first `make release`; a course graded before that gets one now
            except OSError:
                pass
            if not secret.load(root):  # the hidden cases' inputs (before any plan is made)
                print("warning: no course secret (autograde/course_secret or ATTNLAB_COURSE_SECRET): hidden "
                      "tests use the public inputs written in attnlab.checks", file=sys.stderr)
            todo = sorted({s.assignment for s in subs})
            plans = {a: plan_assignment(root, a) for a in todo}
            print(f"grading {len(subs)} submission(s) of {', '.join(todo)} with {jobs} job(s)", file=sys.stderr)
            progress = Progress(len(subs), log=root / "autograde" / "grading.log", jobs=jobs)
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                futures = [pool.submit(grade_submission, s, plans[s.assignment], limits, Path(scratch), [root])
                           for s in subs]
                # While the sandboxes run: the gradebook (importing nbgrader alone takes a second or two).
                missing = [a for a in todo if not _in_gradebook(db_url, a)]
                if missing:
                    release(root, missing)  # records the assignments' grade cells in the gradebook
                apply_due_dates(root, db_url)  # autograde/due_dates.csv, the instructor's file
                duedates = {a: _duedate(db_url, a) for a in todo}
                from . import late  # (imports nbgrader: done while the sandboxes run)

                late_plugin = late.load(root)  # the late penalty autograde/nbgrader_config.py sets
                with _open_gradebook(db_url) as gb:  # one session for the batch, not one per submission
                    for future in as_completed(futures):
                        result = future.result()
                        sub = by_key[(result.student, result.assignment)]
                        recording = time.perf_counter()
                        try:
                            mark_late(result, sub.timestamp, duedates[result.assignment], late_plugin)
                            _record(root, gb, result, plans[result.assignment].source, sub.folder)
                        except Exception as exc:  # noqa: BLE001 - one submission's failure is its own row
                            _grader_error(result, "recording", exc)
                        result.stages["record"] = time.perf_counter() - recording
                        results.append(result)
                        progress.step(result)
                        log_faults(progress.log, result)
                        if result.fault:  # a fresh sandbox could not run it either: stop, say why
                            for other in futures:
                                other.cancel()
                            break
    stopped = next((r for r in results if r.fault), None)
    if stopped is not None:
        records.store(root, results)
        raise SystemExit(_printable(
            f"error: the grader could not run {stopped.student!r}/{stopped.assignment}: {stopped.fault} "
            f"(in a warm worker and in a fresh sandbox). This is the grader's fault, not the learner's; "
            f"the sandbox's own error is in autograde/grading.log. The batch stopped after "
            f"{len(results)} of {len(subs)} submission(s); grades.csv was not written."))
    unrendered = write_feedback(root, results, by_key, todo, jobs=jobs) if feedback else []
    records.store(root, results)
    out = (root / csv).resolve()
    records.export_csv(root, db_url, out)  # from the gradebook: manual scores included
    check_batch(results, subs, out)
    counts = Counter(r.status for r in results)
    print("statuses: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())), file=sys.stderr)
    print(boundary.probe().summary(), file=sys.stderr)
    attempted = sum(r.learner_nb is not None for r in results) if feedback else 0
    if unrendered:  # never reported "written": each row's detail says why, and a status page stands in
        print(_printable(f"warning: {len(unrendered)} feedback page(s) could not be rendered "
                         f"({', '.join(unrendered[:5])}{', ...' if len(unrendered) > 5 else ''}); their rows' "
                         "detail says why"), file=sys.stderr)
    if unrendered and len(unrendered) == attempted:  # none at all: the grader's problem, not a learner's
        raise SystemExit(f"error: wrote {_rel(out, root)}, but not one feedback page could be rendered: "
                         "nbgrader's feedback fails here (see the detail column); fix it and grade again")
    print(f"wrote {_rel(out, root)}, feedback in autograde/feedback/")
    return sorted(results, key=lambda r: (r.assignment, r.student))


def _printable(text: str) -> str:
    """``text`` as one line of plain text (:func:`attnlab.course.escape.shown`): nothing in it
    ends the line, moves the cursor, colours a terminal or forges a line of the log."""
    return escape.shown(text)


def log_faults(log: Path | None, result: Result) -> None:
    """The grader's own failures on one submission (a warm worker or a sandbox that could not
    run it), with the process's own output, into ``grading.log``."""
    if log is None or not result.faults:
        return
    try:
        with open(log, "a", encoding="utf-8", errors="backslashreplace") as fh:
            for fault in result.faults:
                fh.write(escape.shown_lines(f"   grader fault on {escape.shown(result.student)!r}/"
                                            f"{escape.shown(result.assignment)}: {fault}") + "\n")
    except OSError:
        pass


# Statuses that take points away by themselves (timed out, out of memory and kernel died take
# only what did not finish, which may be nothing).
PENALISING = ("tampering detected",)


class BatchError(SystemExit):
    """The batch broke one of its invariants: it exits non-zero, naming each submission."""


def rows_missing(csv_path: Path, keys) -> list[tuple[str, str]]:
    """The ``(student, assignment)`` of ``keys`` with no row in the CSV ``csv_path``."""
    with open(csv_path, newline="", encoding="utf-8") as fh:
        rows = {(r["student_id"], r["assignment"]) for r in csv_module.DictReader(fh)}
    rows |= {(s[1:], a) for s, a in rows if s.startswith("'")}  # (records.csv_cell's quote)
    return sorted(k for k in set(keys) if k not in rows and (escape.shown(k[0]), escape.shown(k[1])) not in rows)


def check_batch(results: list[Result], subs: list[Submission], csv_path: Path | None = None) -> None:
    """The invariants every batch keeps, checked on what it wrote: one result per submission found
    and one row for each in ``csv_path``; a score that is what its cells add up to (less a late
    penalty); a status that takes points away (``PENALISING``) has taken them. A breach stops
    with a message naming each submission, never exit 0."""
    problems = []
    found = {(s.student, s.assignment) for s in subs}
    graded = {(r.student, r.assignment) for r in results}
    for student, assignment in sorted(found - graded):
        problems.append(f"{student!r}/{assignment}: found but not graded")
    if csv_path is not None:
        for student, assignment in rows_missing(csv_path, graded):
            problems.append(f"{student!r}/{assignment}: graded but no row in {csv_path.name}")
    for r in results:
        cells = sum(v.score for v in r.cells)
        if r.cells and abs(max(0.0, cells - r.late_penalty) - r.score) > 1e-9:
            problems.append(f"{r.student!r}/{r.assignment}: score {r.score:g} is not what its cells add up to")
        if r.status in PENALISING and r.max_score > 0 and r.score >= r.max_score:
            problems.append(f"{r.student!r}/{r.assignment}: {r.status} with full marks")
    if problems:
        raise BatchError("error: the batch broke its own rules (the grader's fault; nothing here is the "
                         "learners'):\n  " + "\n  ".join(_printable(p) for p in problems))


def _grade_shard(root: Path, subs: list[Submission], jobs: int, limits: Limits, feedback: bool,
                 shard) -> list[Result]:
    """``grade --shard I/N``: the shard's share of ``subs``, graded as ``_grade`` grades them, with
    everything written under the shard's own folder (its copy of the gradebook, rows, autograded
    notebooks, feedback pages, log); ``attnlab-course merge`` joins the shards."""
    mine = [s for s in subs if shard.owns(s.student, s.assignment)]
    todo = sorted({s.assignment for s in mine})
    base, release_id = shards.prepare(root, shard)
    db_url = "sqlite:///" + str(base / "gradebook.db")
    unreleased = [a for a in todo if not _in_gradebook(db_url, a)]
    if unreleased:  # releasing writes notebooks/ and the gradebook: once, before the shards start
        raise SystemExit(f"error: the gradebook has no {', '.join(unreleased)}: run `attnlab-course release` once "
                         "before grading in shards (shards never write the course's gradebook)")
    print(f"shard {shard.index}/{shard.count} of release {release_id}: {len(mine)} of {len(subs)} submission(s)"
          f"{' of ' + ', '.join(todo) if todo else ''} with {jobs} job(s), into {_rel(base, root)}/", file=sys.stderr)
    results: list[Result] = []
    if mine:
        preflight.check(hide=[str(root)], memory_bytes=int(limits.memory_mib * 2**20))
        if not secret.load(root):
            print("warning: no course secret (autograde/course_secret or ATTNLAB_COURSE_SECRET): hidden "
                  "tests use the public inputs written in attnlab.checks", file=sys.stderr)
        plans = {a: plan_assignment(root, a) for a in todo}
        progress = Progress(len(mine), log=base / "grading.log", jobs=jobs)
        by_key = {(s.student, s.assignment): s for s in mine}
        fonts = font_list_folder(root)
        if not any(fonts.glob("fontlist-*.json")):  # not built by a release: this shard's own
            fonts = base / ".grading" / fonts.name
        with tempfile.TemporaryDirectory(prefix="attnlab-grading-") as scratch:
            start_font_list(fonts, Path(scratch))
            with _warm_workers(Path(scratch), limits, [root], min(jobs, len(mine))), \
                    ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                futures = [pool.submit(grade_submission, s, plans[s.assignment], limits, Path(scratch), [root])
                           for s in mine]
                apply_due_dates(root, db_url)
                duedates = {a: _duedate(db_url, a) for a in todo}
                # (imported here: late imports nbgrader, slow to import, and only grading needs it)
                from . import late

                late_plugin = late.load(root)
                with _open_gradebook(db_url) as gb:  # the shard's copy: nbgrader's feedback reads it
                    for future in as_completed(futures):
                        result = future.result()
                        sub = by_key[(result.student, result.assignment)]
                        try:
                            mark_late(result, sub.timestamp, duedates[result.assignment], late_plugin)
                            if result.learner_nb is not None:
                                records.write_autograded(root, result, plans[result.assignment].source,
                                                         sub.folder, base=base)
                            records.record_in_gradebook(gb, result, result.notebook[: -len(".ipynb")])
                        except Exception as exc:  # noqa: BLE001
                            _grader_error(result, "recording", exc)
                        results.append(result)
                        progress.step(result)
                        log_faults(progress.log, result)
                        if result.fault:
                            for other in futures:
                                other.cancel()
                            break
        stopped = next((r for r in results if r.fault), None)
        if stopped is not None:
            raise SystemExit(f"error: the grader could not run {stopped.student!r}/{stopped.assignment}: "
                             f"{stopped.fault} (in a warm worker and in a fresh sandbox); the sandbox's own "
                             f"error is in {_rel(base, root)}/grading.log. This shard stopped and is not finished.")
        check_batch(results, mine)
        if feedback:
            write_feedback(root, results, by_key, todo, base=base, db_url=db_url, jobs=jobs)
    results.sort(key=lambda r: (r.assignment, r.student))
    shards.finish(base, shard, release_id,
                  [shards.result_entry(r, records.store_row(r)) for r in results])
    counts = Counter(r.status for r in results)
    if counts:
        print("statuses: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())), file=sys.stderr)
    print(f"wrote {_rel(base, root)}/ (then, when every shard is done: attnlab-course merge)")
    return results


@contextlib.contextmanager
def _warm_workers(scratch: Path, limits: Limits, denied: list[Path], jobs: int):
    """The batch's warm workers (on unless ``ATTNLAB_WARM=0``, :mod:`attnlab.course.warm`): one
    per job slot starts at once, in the background; all end with the batch."""
    try:
        prestart_workers(scratch, limits, denied, jobs)
        yield
    finally:
        warm.close_pool(scratch)


def _open_gradebook(db_url: str):
    from nbgrader.api import Gradebook

    return Gradebook(db_url)


def _record(root: Path, gb, result: Result, source: dict, folder: Path) -> None:
    if result.learner_nb is not None:
        records.write_autograded(root, result, source, folder)
    records.record_in_gradebook(gb, result, result.notebook[: -len(".ipynb")])


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def merge_shards(root: Path, csv: str = "autograde/grades.csv") -> Path:
    """Join the shards of the current release into the course's gradebook, autograded notebooks,
    feedback, grading store and CSV."""
    # (imported here: nbgrader is slow to import, and only merging needs it in this module)
    from nbgrader.api import Gradebook

    # (imported here: feedback imports nbgrader too)
    from .feedback import polish_feedback

    root = Path(root)
    entries, release_id, count = shards.collect(root)
    db_url = "sqlite:///" + str(root / "autograde" / "gradebook.db")
    todo = sorted({e["row"]["assignment"] for _, e in entries})
    missing = [a for a in todo if not _in_gradebook(db_url, a)]
    if missing:
        release(root, missing)
    apply_due_dates(root, db_url)
    pages: dict[str, list[Path]] = {a: [] for a in todo}
    with Gradebook(db_url) as gb:
        for folder, e in entries:
            row = e["row"]
            student, assignment = row["student_id"], row["assignment"]
            result = SimpleNamespace(
                student=student, assignment=assignment, timestamp=row.get("timestamp") or "",
                late_penalty=e.get("late_penalty", 0.0),
                cells=[SimpleNamespace(grade_id=g, score=s) for g, s in e["scores"].items()])
            records.record_in_gradebook(gb, result, row["notebook"][: -len(".ipynb")])
            for kind in ("autograded", "feedback"):
                src = folder / kind / student / assignment
                if src.is_dir() and not src.is_symlink():
                    dest = root / "autograde" / kind / student / assignment
                    shutil.copytree(src, dest, dirs_exist_ok=True)
                    if kind == "feedback":
                        pages[assignment] += sorted(dest / p.name for p in src.iterdir() if p.suffix == ".html")
    for assignment in todo:
        try:
            polish_feedback(root, assignment, pages[assignment])
        except Exception as exc:  # noqa: BLE001 - as `grade` does
            print(shown(f"warning: feedback of {assignment} not polished: {type(exc).__name__}: {exc}"), file=sys.stderr)
    graded = {(e["row"]["student_id"], e["row"]["assignment"]) for _, e in entries}
    left = sorted(f"{shown(s.student)}/{shown(s.assignment)}" for s in discover(root, todo, None)[0]
                  if (s.student, s.assignment) not in graded)
    if left:  # handed in after the shards ran (or left out by their filters): not refused, said
        print(f"warning: {len(left)} submission(s) in autograde/submitted/ are in no shard: {', '.join(left[:10])}"
              f"{', ...' if len(left) > 10 else ''}; grade them (attnlab-course grade --student ...)", file=sys.stderr)
    records.store_rows(root, [e["row"] for _, e in entries])
    out = (root / csv).resolve()
    records.export_csv(root, db_url, out)
    lost = rows_missing(out, graded)
    if lost:  # one row per submission the shards graded, or a loud stop (grade.check_batch's rule)
        raise BatchError(f"error: {out.name} has no row for {len(lost)} submission(s) the shards graded: "
                         + ", ".join(f"{s!r}/{a}" for s, a in lost[:20]))
    print(f"merged {count} shard(s) of release {release_id}: {len(entries)} submission(s)",
          file=sys.stderr)
    return out
