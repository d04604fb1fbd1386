"""``attnlab-course report``: the class at a glance, as one HTML page with PNG charts.

From the gradebook (scores, manual grades included) and what ``make grade`` stores beside it
(``autograde/.grading/results.json``: each submission's status, its failing checks' messages and
its grading time): each assignment's score distribution, what the class learned by the concept checks before and
after each notebook (:mod:`attnlab.course.concept_scores`), the share of submissions failing each
grade cell (named by its exercise, as the learner knows it: ``softmax: stays finite ...``, the
grade id beside it), the mistakes the checks named most often (wrong answers only: an exercise
left blank or a prediction not answered is counted apart, and a check that could not judge an
answer, the submission's status says why), the slowest submissions (by their own grading time:
the one-off start of a warm worker is shown apart, never charged to the submission that happened
to wait for it), and every submission whose status is not ``graded``. Everything a learner
controls (ids, details, messages) is escaped in the HTML; charts carry no learner ids.
"""
from __future__ import annotations

import html
import re
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from . import concept_scores
from .escape import shown
from .records import gradebook_rows, load_store

TOP_MISTAKES = 15
SLOWEST = 10
CHARTS = ("mistakes.png", "timings.png", "statuses.png")

# Stages of Result.stages (results.json's "stages") that are a batch's one-off costs, paid by
# whichever submission happened to need them: starting (or replacing) a job slot's warm worker.
ONE_OFF_STAGES = ("warm worker",)

# What a failing check's message says, beyond a wrong answer:
UNATTEMPTED = re.compile(r"(.+?) is not (implemented|answered|defined) yet\b|(.+?) is not defined: run the cell")
WRONG = re.compile(r".+? (is not right yet|did not finish in time|ran out of memory|raised an error|does not "
                   r"match the reference)\b")  # a check's words for an answer it judged wrong
UNJUDGED = re.compile(r"(.+?) could not be checked\b|no points: tampering detected\b|(.+?): no points: ")


def classify(message: str, status: str = "graded") -> tuple[str, list[str]]:
    """``(kind, names)`` of a failing check's message. ``kind``: ``"mistake"`` (a wrong answer:
    the names it gives, :func:`mistake_names`), ``"unattempted"`` (the exercise left as handed
    out: ``["softmax"]``), or ``"unjudged"`` (no answer could be judged: the notebook stopped
    before the check, tampering; and, in a submission whose ``status`` is neither ``graded``
    nor ``late``, any message that names no wrong answer: the status says why)."""
    text = str(message or "").strip()
    if not text:
        return "unjudged", []
    first = text.splitlines()[0].strip()
    m = UNATTEMPTED.match(first)
    if m:
        return "unattempted", [m.group(1) or m.group(3)]
    if UNJUDGED.match(first):
        return "unjudged", [first[:160]]
    if status not in ("graded", "late") and not WRONG.match(first):
        return "unjudged", [first[:160]]
    return "mistake", mistake_names(text)


def own_seconds(saved: dict) -> tuple[float, float]:
    """``(the submission's own grading time, its share of one-off costs)`` from a stored row:
    ``seconds`` less the ``ONE_OFF_STAGES`` of its ``stages`` (rows stored before stages were
    kept: all of it its own)."""
    total = float(saved.get("seconds") or 0.0)
    stages = saved.get("stages") if isinstance(saved.get("stages"), dict) else {}
    one_off = 0.0
    for name in ONE_OFF_STAGES:
        try:
            one_off += max(0.0, float(stages.get(name) or 0.0))
        except (TypeError, ValueError):
            continue
    one_off = min(one_off, total)
    return total - one_off, one_off


def mistake_names(message: str) -> list[str]:
    """What a check's message names: ``softmax: no max subtraction: ...`` for a catalogued
    mistake (two for a combination), ``softmax: not implemented yet``, ``softmax: a mistake not
    in the catalogue``; else the message's first line."""
    text = str(message or "").strip()
    if not text:
        return []
    first = text.splitlines()[0].strip()
    m = re.match(r"(.+?) is not (right|implemented|answered) yet\b", first)
    exercise = m.group(1) if m else ""
    prefix = f"{exercise}: " if exercise else ""
    for line in text.splitlines():
        line = line.strip()
        two = re.match(r"This looks like two known mistakes at once: (.+?); and (.+?)\.?$", line)
        if two:
            return [prefix + two.group(1), prefix + two.group(2)]
        one = re.match(r"(?:This looks like a known mistake|The shape alone points to a known mistake): (.+?)\.?$", line)
        if one:
            return [prefix + one.group(1)]
        if line.startswith("This does not look like any mistake we know"):
            return [prefix + "a mistake not in the catalogue"]
    if m and m.group(2) in ("implemented", "answered"):
        return [f"{exercise}: not {m.group(2)} yet"]
    return [first[:160]]


def _label(text: str, width: int = 60) -> str:
    """Chart text: no mathtext (a ``$`` is shown as it is), cut to ``width``."""
    text = text if len(text) <= width else text[: width - 1] + "\u2026"
    return text.replace("$", r"\$")


def _figure(width: float, height: float):
    from matplotlib.figure import Figure  # Agg, without touching pyplot's global backend

    fig = Figure(figsize=(width, height), dpi=100)
    fig.set_layout_engine("constrained")
    return fig


def _save(fig, path: Path) -> str:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    fig.savefig(path, format="png")
    return path.name


def _cell_order(root: Path, assignment: str, cellmax: dict[str, float]) -> list[str]:
    """Grade cells in the order of the source notebooks in ``solutions/`` (the rest sorted)."""
    import json

    order: list[str] = []
    for path in sorted((root / "solutions" / assignment).glob("*.ipynb")):
        try:
            for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
                gid = (cell.get("metadata", {}).get("nbgrader", {}) or {}).get("grade_id")
                if gid in cellmax and gid not in order:
                    order.append(gid)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return order + sorted(set(cellmax) - set(order))


def cell_labels(root: Path, assignment: str) -> dict[str, str]:
    """``{grade id: "exercise: what it checks"}`` from the source notebooks in ``solutions/`` (the
    summary of the feedback pages names grade cells so too)."""
    import json

    # (imported here: feedback imports nbgrader, slow to import, and only the cell labels need it)
    from .feedback import cell_labels as labels_of

    labels: dict[str, str] = {}
    for path in sorted((root / "solutions" / assignment).glob("*.ipynb")):
        try:
            labels.update(labels_of(json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return labels


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:80] or "assignment"


def collect(root: Path, db_path: Path) -> dict:
    """Everything the page shows, from the gradebook and the grading store."""
    from nbgrader.api import Gradebook

    if not db_path.is_file():
        raise SystemExit(f"error: no gradebook at {db_path}: grade the submissions first (make grade)")
    stored = load_store(root)
    with Gradebook("sqlite:///" + str(db_path)) as gb:
        rows, _ = gradebook_rows(gb, root)
        cells: dict[str, dict[str, float]] = {}   # assignment -> {grade cell: max points}
        for assignment in gb.assignments:
            for nb in assignment.notebooks:
                for gc in nb.grade_cells:
                    cells.setdefault(assignment.name, {})[gc.name] = float(gc.max_score or 0.0)
        maxima = {a.name: float(a.max_score or 0.0) for a in gb.assignments}
    mistakes: Counter = Counter()      # a wrong answer's name -> failing checks naming it
    unattempted: Counter = Counter()   # (assignment, exercise) -> submissions that left it blank
    unjudged = 0                       # failing checks that could not judge an answer
    blank_submissions = 0              # submissions with at least one exercise left blank
    for saved in stored.values():
        blank = set()
        for message in (saved.get("messages") or {}).values():
            kind, names = classify(message, str(saved.get("status") or "graded"))
            if kind == "mistake":
                for name in names:
                    mistakes[name] += 1
            elif kind == "unattempted":
                blank.update((str(saved.get("assignment", "")), n) for n in names)
            else:
                unjudged += 1
        for key in blank:
            unattempted[key] += 1
        blank_submissions += bool(blank)
    timings = []
    for s in stored.values():
        if s.get("seconds") is None:
            continue
        own, one_off = own_seconds(s)
        timings.append((own, s.get("student_id", ""), s.get("assignment", ""), s.get("status", ""), one_off))
    timings.sort(key=lambda t: (-t[0], t[2], t[1]))
    return {"rows": rows, "cells": cells, "maxima": maxima, "mistakes": mistakes, "unattempted": unattempted,
            "blank_submissions": blank_submissions, "unjudged": unjudged, "timings": timings}


def score_edges(top: float) -> list[float]:
    """The histogram's bin edges for scores out of ``top``: a bar per score where scores are whole
    points (11/12 is never in 12/12's bar), else twenty bars below full marks and one for full marks."""
    if top >= 1 and float(top).is_integer() and top <= 40:
        return [k - 0.5 for k in range(int(top) + 2)]
    top, width = top or 1.0, (top or 1.0) / 20
    return [k * width for k in range(20)] + [top * (1 - 1e-9), top + width]


def concepts_section(root: Path, stored: dict) -> str:
    """The report's concept checks: per notebook answered, :func:`concept_scores.html_section`."""
    by_assignment: dict[str, list[dict]] = {}
    for (_, assignment), saved in sorted(stored.items()):
        by_assignment.setdefault(assignment, []).append(saved)
    sections = [concept_scores.summary(a, rows) for a, rows in sorted(by_assignment.items())]
    sections = [s for s in sections if s is not None]
    head = ("<h2 id='concepts'>What the class learned: concept checks</h2><p>The same questions before and after "
            "each notebook (<code>attnlab.concepts</code>); Hake's normalised gain g = (after - before) / "
            "(100% - before).</p>")
    if not sections:
        return head + "<p>No concept check answered in the graded submissions.</p>"
    graded = concept_scores.after_graded(root)
    return head + "\n".join(concept_scores.html_section(s, graded) for s in sections)


def write_report(root: Path, out: Path | None = None, db_path: Path | None = None) -> Path:
    """Write ``index.html`` and its PNGs to ``out`` (default ``autograde/report/``)."""
    out = Path(out) if out else root / "autograde" / "report"
    data = collect(root, db_path or root / "autograde" / "gradebook.db")
    out.mkdir(parents=True, exist_ok=True)
    for pattern in ("scores-*.png", "failing-*.png", *CHARTS):  # the last report's charts, only those
        for old in out.glob(pattern):
            old.unlink()
    rows = data["rows"]
    by_assignment: dict[str, list[dict]] = {}
    for r in rows:
        by_assignment.setdefault(r["assignment"], []).append(r)
    from matplotlib.ticker import MaxNLocator

    def e(text) -> str:  # every sink: one line of visible text (no bidi control, no line break), then HTML
        return html.escape(shown(text))
    parts = [f"<h1>Class report</h1><p>{len({r['student_id'] for r in rows})} learner(s), {len(rows)} "
             f"submitted notebook(s); made {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC from the gradebook.</p>"]

    # each assignment: score distribution and the share failing each grade cell
    parts.append("<h2>Scores and checks, per assignment</h2>")
    for assignment in sorted(by_assignment):
        subs = by_assignment[assignment]
        top = data["maxima"].get(assignment) or max((float(r["max_score"] or 0) for r in subs), default=0.0)
        scores = [float(r["score"] or 0.0) for r in subs]
        fig = _figure(6, 3)
        ax = fig.add_subplot()
        ax.hist(scores, bins=score_edges(top), color="#4c72b0", edgecolor="white")
        ax.set_xlabel(f"score (out of {top:g})")
        ax.set_ylabel("submissions")
        ax.set_title(_label(f"{assignment}: score distribution"))
        scores_png = _save(fig, out / f"scores-{_slug(assignment)}.png")
        cellmax = data["cells"].get(assignment, {})
        names = _cell_order(root, assignment, cellmax)
        labels = cell_labels(root, assignment)
        failing = []
        for c in names:
            lost = sum(1 for r in subs if r.get(c, "") == "" or float(r[c]) < cellmax[c] - 1e-9)
            failing.append(lost / len(subs))
        fail_png = ""
        if names:
            fig = _figure(7, 0.8 + 0.28 * len(names))
            ax = fig.add_subplot()
            ax.barh(range(len(names)), [100 * f for f in failing], color="#c44e52")
            ax.set_yticks(range(len(names)), [_label(labels.get(n, n), 50) for n in names])
            ax.invert_yaxis()
            ax.set_xlim(0, 100)
            ax.set_xlabel("% of submissions losing points")
            ax.set_title(_label(f"{assignment}: failing each check"))
            fail_png = _save(fig, out / f"failing-{_slug(assignment)}.png")
        mean = sum(scores) / len(scores) if scores else 0.0
        parts.append(f"<h3>{e(assignment)}</h3><p>{len(subs)} submission(s), mean {mean:.2f} / {top:g}</p>"
                     f"<img src='{e(scores_png)}' alt='score distribution of {e(assignment)}'>")
        if fail_png:
            parts.append(f"<img src='{e(fail_png)}' alt='share failing each check of {e(assignment)}'>")
            parts.append("<table class='checks'><tr><th>check</th><th>grade id</th><th>failing</th></tr>" + "".join(
                f"<tr><td>{e(labels.get(n, n))}</td><td><code>{e(n)}</code></td><td>{100 * f:.0f}%</td></tr>"
                for n, f in zip(names, failing)) + "</table>")

    # what the class learned: the concept checks before and after each notebook
    parts.append(concepts_section(root, load_store(root)))

    # the mistakes the checks named most often
    parts.append("<h2 id='mistakes'>Mistakes most often named</h2>")
    common = data["mistakes"].most_common(TOP_MISTAKES)
    if common:
        fig = _figure(8, 0.8 + 0.3 * len(common))
        ax = fig.add_subplot()
        ax.barh(range(len(common)), [n for _, n in common], color="#dd8452")
        ax.set_yticks(range(len(common)), [_label(m) for m, _ in common])
        ax.invert_yaxis()
        ax.set_xlabel("failing checks naming it")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        png = _save(fig, out / "mistakes.png")
        parts.append(f"<img src='{e(png)}' alt='mistakes most often named'>")
        parts.append("<table class='mistakes'><tr><th>mistake</th><th>times named</th></tr>" + "".join(
            f"<tr><td>{e(m)}</td><td>{n}</td></tr>" for m, n in common) + "</table>")
    elif data["unattempted"] or data["unjudged"]:
        parts.append("<p>No wrong answer recorded: every failing check was an exercise left blank or a "
                     "check that could not judge an answer (below).</p>")
    else:
        parts.append("<p>No failing check recorded (grade with <code>make grade</code> first).</p>")
    blank = data["unattempted"]
    if blank:
        parts.append(f"<h3 id='unattempted'>Exercises not attempted</h3><p>Left as handed out (<code>raise "
                     f"NotImplementedError()</code>, a prediction still <code>None</code>, not defined): "
                     f"{sum(blank.values())} exercise(s) in {data['blank_submissions']} submission(s). Not "
                     f"mistakes: counted here, apart.</p>")
        parts.append("<table class='unattempted'><tr><th>assignment</th><th>exercise</th><th>submissions leaving "
                     "it blank</th></tr>" + "".join(
                         f"<tr><td>{e(a)}</td><td>{e(x)}</td><td>{n}</td></tr>"
                         for (a, x), n in sorted(blank.items(), key=lambda kv: (-kv[1], kv[0]))) + "</table>")
    if data["unjudged"]:
        parts.append(f"<p class='unjudged'>{data['unjudged']} failing check(s) could not judge an answer (the "
                     f"notebook stopped first, tampering, a status other than graded): see "
                     f"<a href='#statuses'>the statuses</a>.</p>")

    # the slowest submissions
    parts.append("<h2 id='slowest'>Slowest submissions</h2>")
    timings = data["timings"]
    if timings:
        fig = _figure(6, 3)
        ax = fig.add_subplot()
        ax.hist([t[0] for t in timings], bins=20, color="#55a868", edgecolor="white")
        ax.set_xlabel("grading time per submission, its own (s)")
        ax.set_ylabel("submissions")
        png = _save(fig, out / "timings.png")
        parts.append(f"<img src='{e(png)}' alt='grading times'>")
        one_off = sum(t[4] for t in timings)
        parts.append("<p>By each submission's own grading time; the one-off start of a warm worker (paid by "
                     "whichever submission first needed it) is not part of it"
                     + (f": {one_off:.1f} s in all, shown apart" if one_off else "") + ".</p>")
        parts.append("<table class='slowest'><tr><th>student</th><th>assignment</th><th>status</th><th>seconds</th>"
                     "<th>+ warm worker start</th></tr>"
                     + "".join(f"<tr><td>{e(s)}</td><td>{e(a)}</td><td>{e(st)}</td><td>{t:.1f}</td>"
                               f"<td>{f'{w:.1f}' if w else ''}</td></tr>"
                               for t, s, a, st, w in timings[:SLOWEST]) + "</table>")
    else:
        parts.append("<p>No grading times recorded (they are kept from the next <code>make grade</code> on).</p>")

    # every status other than `graded`
    parts.append("<h2 id='statuses'>Submissions not simply graded</h2>")
    counts = Counter(r["status"] for r in rows)
    others = [r for r in rows if r["status"] != "graded"]
    if others:
        fig = _figure(6, 0.8 + 0.3 * len(counts))
        ax = fig.add_subplot()
        statuses = sorted(counts)
        ax.barh(range(len(statuses)), [counts[s] for s in statuses],
                color=["#4c72b0" if s == "graded" else "#c44e52" for s in statuses])
        ax.set_yticks(range(len(statuses)), [_label(s, 30) for s in statuses])
        ax.invert_yaxis()
        ax.set_xlabel("submissions")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        png = _save(fig, out / "statuses.png")
        parts.append(f"<img src='{e(png)}' alt='statuses'>")
        parts.append("<table class='statuses'><tr><th>student</th><th>assignment</th><th>status</th><th>score</th>"
                     "<th>detail</th></tr>" + "".join(
                         f"<tr><td>{e(r['student_id'])}</td><td>{e(r['assignment'])}</td><td>{e(r['status'])}</td>"
                         f"<td>{e(r['score'])} / {e(r['max_score'])}</td><td>{e(r['detail'][:500])}</td></tr>"
                         for r in sorted(others, key=lambda r: (r["status"], r["assignment"], r["student_id"])))
                     + "</table>")
    else:
        parts.append(f"<p>All {len(rows)} submission(s) graded.</p>")

    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Class report</title><style>"
            "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
            "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .5em;"
            "text-align:left;vertical-align:top}img{max-width:100%;display:block;margin:1em 0}"
            "</style></head><body>" + "\n".join(parts) + "</body></html>\n")
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
