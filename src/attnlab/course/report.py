"""``attnlab-course report``: the class at a glance, as one HTML page with PNG charts.

From the gradebook (scores, manual grades included) and what ``make grade`` stores beside it
(``autograde/.grading/results.json``: each submission's status, its failing checks' messages and
its grading time): each assignment's score distribution, the share of submissions failing each
grade cell, the mistakes the checks named most often, the slowest submissions, and every
submission whose status is not ``graded``. Everything a learner controls (ids, details,
messages) is escaped in the HTML; charts carry no learner ids.
"""
from __future__ import annotations

import html
import re
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from .records import gradebook_rows, load_store

TOP_MISTAKES = 15
SLOWEST = 10
CHARTS = ("mistakes.png", "timings.png", "statuses.png")


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
    mistakes: Counter = Counter()
    for saved in stored.values():
        for message in (saved.get("messages") or {}).values():
            for name in mistake_names(message):
                mistakes[name] += 1
    timings = sorted(((float(s.get("seconds") or 0.0), s.get("student_id", ""), s.get("assignment", ""),
                       s.get("status", "")) for s in stored.values() if s.get("seconds") is not None),
                     reverse=True)
    return {"rows": rows, "cells": cells, "maxima": maxima, "mistakes": mistakes, "timings": timings}


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

    e = html.escape
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
        bins = max(1, min(20, int(top) if top >= 1 else 10))
        ax.hist(scores, bins=bins, range=(0, top or 1), color="#4c72b0", edgecolor="white")
        ax.set_xlabel(f"score (out of {top:g})")
        ax.set_ylabel("submissions")
        ax.set_title(_label(f"{assignment}: score distribution"))
        scores_png = _save(fig, out / f"scores-{_slug(assignment)}.png")
        cellmax = data["cells"].get(assignment, {})
        names = _cell_order(root, assignment, cellmax)
        failing = []
        for c in names:
            lost = sum(1 for r in subs if r.get(c, "") == "" or float(r[c]) < cellmax[c] - 1e-9)
            failing.append(lost / len(subs))
        fail_png = ""
        if names:
            fig = _figure(7, 0.8 + 0.28 * len(names))
            ax = fig.add_subplot()
            ax.barh(range(len(names)), [100 * f for f in failing], color="#c44e52")
            ax.set_yticks(range(len(names)), [_label(n, 40) for n in names])
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
            parts.append("<table><tr><th>grade cell</th><th>failing</th></tr>" + "".join(
                f"<tr><td>{e(n)}</td><td>{100 * f:.0f}%</td></tr>" for n, f in zip(names, failing)) + "</table>")

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
    else:
        parts.append("<p>No failing check recorded (grade with <code>make grade</code> first).</p>")

    # the slowest submissions
    parts.append("<h2 id='slowest'>Slowest submissions</h2>")
    timings = data["timings"]
    if timings:
        fig = _figure(6, 3)
        ax = fig.add_subplot()
        ax.hist([t[0] for t in timings], bins=20, color="#55a868", edgecolor="white")
        ax.set_xlabel("grading time per submission (s)")
        ax.set_ylabel("submissions")
        png = _save(fig, out / "timings.png")
        parts.append(f"<img src='{e(png)}' alt='grading times'>")
        parts.append("<table class='slowest'><tr><th>student</th><th>assignment</th><th>status</th><th>seconds</th></tr>"
                     + "".join(f"<tr><td>{e(s)}</td><td>{e(a)}</td><td>{e(st)}</td><td>{t:.1f}</td></tr>"
                               for t, s, a, st in timings[:SLOWEST]) + "</table>")
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
