"""The concept checks of a graded class (:mod:`attnlab.concepts`): what ``grade`` stored, as the
class report's figures and the exports' columns.

``grade`` reads each submission's ``concepts_before`` / ``concepts_after`` dictionaries from its
notebook without running it (:func:`attnlab.concepts.answers_in_notebook`) and keeps them in the
grading store (``autograde/.grading/results.json``, a row's ``concepts``). From there:

* :func:`summary`: per notebook, the share right per concept before and after, Hake's gain of the
  class (from its averages, over the learners who took both checks) and its spread over learners,
  the misconceptions chosen most often after, and per question its difficulty and item-rest
  discrimination, with flags; a class where nobody took the "before" check gets post scores only.
* :func:`learner_scores`: each learner's before and after score in %, the exports' extra columns.
* :func:`after_graded`: the course configuration's choice (``autograde/nbgrader_config.py``,
  ``c.ConceptChecks.after = "graded"`` or ``"ungraded"``, the default): the "before" check is never
  graded; a graded "after" check gets points (100) in Canvas's Points Possible row of the export.
"""
from __future__ import annotations

import html
import os
from collections import Counter
from pathlib import Path

from .. import concepts as cc
from ..concepts import _stats
from .escape import shown
from ..checks._core import SECRET_ENV

TOP_CHOSEN = 5
GRADED = ("graded", "ungraded")


def after_graded(root: Path) -> bool:
    """Whether the course grades the "after" check (``c.ConceptChecks.after`` in
    ``autograde/nbgrader_config.py``; ``"ungraded"`` when unset or unreadable)."""
    path = Path(root) / "autograde" / "nbgrader_config.py"
    if not path.is_file():
        return False
    # (imported here: traitlets is the course's dependency, not the library's)
    from traitlets.config.loader import PyFileConfigLoader

    had_secret = SECRET_ENV in os.environ
    try:
        config = PyFileConfigLoader(path.name, path=str(path.parent)).load_config()
    except Exception:  # noqa: BLE001 - a configuration that cannot be read grades nothing extra
        return False
    finally:
        if not had_secret:  # the configuration exports the course secret for nbgrader's processes only
            os.environ.pop(SECRET_ENV, None)
    value = str(config.get("ConceptChecks", {}).get("after", "ungraded")).strip().lower()
    if value not in GRADED:
        raise ValueError(f"autograde/nbgrader_config.py: c.ConceptChecks.after: expected 'graded' or 'ungraded', "
                         f"got {value!r}")
    return value == "graded"


def _answers(saved: dict, when: str) -> dict:
    got = saved.get("concepts") if isinstance(saved.get("concepts"), dict) else {}
    value = got.get(when)
    return value if isinstance(value, dict) else {}


def summary(assignment: str, stored_rows: list[dict]) -> dict | None:
    """The class's concept-check figures of ``assignment`` from its stored rows (None: the
    notebook has no concept check, or nobody answered it)."""
    if assignment not in cc.notebooks():
        return None
    b = cc.bank(assignment)
    pre = {r["student_id"]: cc.score(assignment, _answers(r, "before")) for r in stored_rows}
    post = {r["student_id"]: cc.score(assignment, _answers(r, "after")) for r in stored_rows}
    pre = {s: v for s, v in pre.items() if v["taken"]}
    post = {s: v for s, v in post.items() if v["taken"]}
    if not pre and not post:
        return None
    both = sorted(set(pre) & set(post))
    concepts = []
    for c in b.concepts:
        row = {"concept": c.map, "section": c.section}
        for label, scores in (("pre", pre), ("post", post)):
            right = sum(v["concepts"][c.id][0] for v in scores.values())
            asked = sum(v["concepts"][c.id][1] for v in scores.values())
            row[label] = right / asked if asked else None
        pairs = [(pre[s]["concepts"][c.id][0] / pre[s]["concepts"][c.id][1],
                  post[s]["concepts"][c.id][0] / post[s]["concepts"][c.id][1]) for s in both]
        row["g"] = _stats.class_gain(pairs)["g"] if pairs else None
        concepts.append(row)
    gain = _stats.class_gain([(pre[s]["share"], post[s]["share"]) for s in both])
    items = [q.id for q in b.questions]
    stats_pre = _stats.item_statistics([v["items"] for v in pre.values()], items) if pre else {}
    stats_post = _stats.item_statistics([v["items"] for v in post.values()], items) if post else {}
    questions = [{"id": q.id, "concept": b.concept(q.concept).map, "pre": stats_pre.get(q.id),
                  "post": stats_post.get(q.id), "flags": _stats.flags(stats_pre.get(q.id), stats_post.get(q.id))}
                 for q in b.questions]
    chosen = Counter(m for v in post.values() for m in v["chosen"])
    return {"assignment": assignment, "n_pre": len(pre), "n_post": len(post), "n_both": len(both),
            "concepts": concepts, "gain": gain, "questions": questions,
            "chosen_after": chosen.most_common(TOP_CHOSEN)}


def learner_scores(stored: dict) -> dict[tuple[str, str], tuple[float | None, float | None]]:
    """``{(student, assignment): (before %, after %)}`` for every stored submission with a concept
    check taken (None for a check not taken)."""
    out = {}
    for (student, assignment), saved in stored.items():
        if assignment not in cc.notebooks():
            continue
        pre, post = (cc.score(assignment, _answers(saved, w)) for w in cc.WHEN)
        if pre["taken"] or post["taken"]:
            out[(student, assignment)] = (100 * pre["share"] if pre["taken"] else None,
                                          100 * post["share"] if post["taken"] else None)
    return out


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.2f}"


def html_section(s: dict, graded: bool) -> str:
    """The report's section of one notebook's concept check (``s`` from :func:`summary`)."""
    def e(text) -> str:
        return html.escape(shown(text))

    a = s["assignment"]
    parts = [f"<h3 id='concepts-{e(a)}'>{e(a)}: concept check</h3>",
             f"<p>{s['n_pre']} learner(s) answered before the notebook, {s['n_post']} after, {s['n_both']} both. "
             f"The check after is {'graded' if graded else 'not graded'} (course configuration); the check "
             f"before never is.</p>"]
    no_pre = s["n_pre"] == 0
    if no_pre:
        parts.append("<p class='no-pre'>No learner took the check before the notebook: post scores only, and no "
                     "gain can be computed.</p>")
    parts.append("<table class='concepts'><tr><th>concept</th><th>right before</th><th>right after</th>"
                 "<th>class g</th><th>section to reread</th></tr>" + "".join(
                     f"<tr><td>{e(c['concept'])}</td><td>{_pct(c['pre'])}</td><td>{_pct(c['post'])}</td>"
                     f"<td>{_num(c['g'])}</td><td>{e(c['section'])}</td></tr>" for c in s["concepts"]) + "</table>")
    g = s["gain"]
    if not no_pre:
        sp = g["spread"]
        if g["g"] is None:
            text = ("no class gain: no learner took both checks" if not g["n"]
                    else "no class gain: the class averaged full marks before")
        else:
            text = (f"class normalised gain g = {g['g']:.2f} (Hake: from the class's averages, {_pct(g['pre'])} before "
                    f"and {_pct(g['post'])} after, over the {g['n']} learner(s) who took both)")
        if sp["n"]:
            text += (f"; over the {sp['n']} learner(s) below full marks before, their own g has median "
                     f"{sp['median']:.2f}, quartiles {sp['q1']:.2f} to {sp['q3']:.2f}, range {sp['min']:.2f} to "
                     f"{sp['max']:.2f}" + (f", standard deviation {sp['sd']:.2f}" if sp["sd"] is not None else ""))
        parts.append(f"<p class='gain'>{e(text)}.</p>")
    if s["chosen_after"]:
        parts.append("<table class='misconceptions'><tr><th>misconception chosen after the notebook</th>"
                     "<th>times</th></tr>" + "".join(f"<tr><td>{e(m)}</td><td>{n}</td></tr>"
                                                    for m, n in s["chosen_after"]) + "</table>")
    else:
        parts.append("<p>No wrong option chosen after the notebook.</p>")

    def stat(st, key, fmt):
        return "" if not st or st.get(key) is None else fmt(st[key])
    parts.append("<table class='items'><tr><th>question</th><th>concept</th><th>difficulty before</th>"
                 "<th>difficulty after</th><th>discrimination before</th><th>discrimination after</th>"
                 "<th>flags</th></tr>" + "".join(
                     f"<tr><td>{e(q['id'])}</td><td>{e(q['concept'])}</td><td>{stat(q['pre'], 'difficulty', _pct)}</td>"
                     f"<td>{stat(q['post'], 'difficulty', _pct)}</td>"
                     f"<td>{stat(q['pre'], 'discrimination', _num)}</td><td>{stat(q['post'], 'discrimination', _num)}</td>"
                     f"<td>{e('; '.join(q['flags']))}</td></tr>" for q in s["questions"]) + "</table>")
    parts.append("<p>Difficulty: the share right. Discrimination: the item-rest correlation (the question's 0/1 "
                 f"against the rest of the check); flagged when more than {_stats.TOO_EASY_BEFORE:.0%} are right "
                 "before the notebook, or when it is negative (the best learners get it wrong).</p>")
    return "\n".join(parts)
