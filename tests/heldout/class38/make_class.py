#!/usr/bin/env python3
"""Held-out class for the attnlab grader.

Usage: python3 make_class.py CLONE_DIR

Writes CLONE_DIR/autograde/submitted/<student>/<assignment>/<assignment>.ipynb for a class of
about 36 submissions (notebooks 01, 02 and a few of 04) and expected.json (next
to this script): for each (student, assignment) what a correct grader must do, the README
sentence the expectation rests on, and a category that figures.py aggregates.

Only the course's public material is read: solutions/ (the nbgrader source, as smoke.py's
"correct submission") and notebooks/ (the released student version). Standard library only.
"""
import base64
import copy
import json
import os
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Small real images (12 x 8 px, made with Pillow 13), base64.
JPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAARCAAIAAwDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDhLv7b5o+z/c289Ov41aj3+Um/7+0bvrRRXBVxftKMKXJFcvVKzfq+p+h08PyVZVOeTv0b0Xouh//Z"
GIF = "R0lGODdhDAAIAIEAAMgeHhQU3AAAAAAAACwAAAAADAAIAAAIGgABCBxIsKBBgwESKkSoMCHDhg8XHpxIUWBAADs="
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAwAAAAICAIAAABChommAAAAKUlEQVR4nGM8ISfHQAgwEVTBwMDAAmf5fNuHJreFy4kEk6iniJFqvgMA6BMFGbRWt+EAAAAASUVORK5CYII="

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">'
       '<rect x="1" y="1" width="118" height="38" fill="#eef" stroke="#336"/>'
       '<text x="10" y="25" font-size="14">q &#183; k / &#8730;d</text></svg>')

A01, A02, A04 = "01_weighted_averages", "02_query_key_value", "04_masks_and_cross_attention"

# README sentences each expectation rests on (quoted from README.md at the commit graded).
R = {
    "correct": [
        "A smoke (`tools/smoke.py PYTHON`) is what a new user does first: ... one correct submission graded under the sandbox to full marks",
        "| `graded` | graded normally (errors in the learner's own cells, files left out of the copy and notes such as \"starting a process\" are listed in `detail`) |",
        "`autograde/grades.csv`, built from the gradebook: one row per student and notebook with `status`, `score`, `max_score`, ...",
    ],
    "filled": [
        "Replace `raise NotImplementedError()` with your code, run the cell, try it in the cell below, then run the check cell",
        "Check cells are graded; some also run hidden tests on inputs you don't see.",
        "The library for an *earlier* exercise stays allowed, as the notebooks themselves do it (`attnlab.softmax` inside `mix_tokens`, ...)",
    ],
    "blank": [
        "Replace `raise NotImplementedError()` with your code, run the cell, ... then run the check cell",
        "Check cells are graded",
        "| `graded` | graded normally (errors in the learner's own cells ... are listed in `detail`) |",
    ],
    "wrong": [
        "a check cell after every exercise that says *what* is wrong (not just `AssertionError`)",
        "a `detail` saying why (the status's reason, and for a partial score each cell that lost points with its check's message)",
    ],
    "tamper": [
        "| `tampering detected` | the code patched a library function or the grader, ... those exercises score 0, `detail` says what was found |",
        "Plain nbgrader runs the learner's code in the same kernel as the tests, so a learner can patch `np.allclose` ... `attnlab-course grade` never lets learner code near a verdict.",
    ],
    "timeout": [
        "| `timed out` | the notebook, a cell (60 s) or an exercise call (10 s) ran out of time; what finished was graded |",
    ],
    "malformed": [
        "| `malformed notebook` | the file is not a readable notebook (bad JSON, not UTF-8, a symbolic link, more than 4 MiB of code and text); scores 0. ... |",
        "one row per student and notebook",
    ],
    "raise_cell": [
        "| `graded` | graded normally (errors in the learner's own cells, ... are listed in `detail`) |",
    ],
    "attachments": [
        "Nothing a learner saved is active for the instructor. The autograded notebook ... keeps the learner's markdown and outputs only through `nh3` ...; SVG shown as an image",
        "Large outputs (plots) are fine; bad metadata is ignored with a note",
        "size limits on the code a learner wrote, not on outputs",
    ],
    "ids": [
        "Student ids: nbgrader knows learners by the folder names in `autograde/submitted/`",
        "Made by nbgrader's feedback converter, one submission at a time, from the path the grader knows (a student id is never a pattern: `lee [1]` gets its page too)",
        "**Data stays data.** Student ids are never glob patterns",
        "one row per student and notebook",
    ],
    "lms": [  # used by figures.py --export (README at 222f873)
        "One row per learner, a column for each assignment that has been graded",
        "The last column, `attnlab status`, names each assignment of the row whose status is not `graded` (`02_query_key_value: tampering detected; 05_multi_head_attention: late`)",
        "an id that could pass for another row is refused, with the learner named and nothing written: ... and, for Canvas, one naming the rows Canvas reads specially (`Points Possible`, `Muted`, `Manual Posting`); map such a learner with a roster",
    ],
    "after": [
        "Nothing of one submission reaches the next: the child's memory is a copy, ... (`tests/test_warm.py`)",
        "A worker whose child was stopped for time or memory, or ended abnormally, is replaced.",
    ],
}

EXPECT = {  # category -> what a correct grader must do
    "correct": {"row": True, "status": ["graded"], "score": "max"},
    "blank": {"row": True, "score": 0},
    "wrong": {"row": True, "score_below_max": True},
    "penalised": None,  # per case below
    "attachments": {"row": True, "status": ["graded"], "score": "max"},
    "ids": {"row": True, "status": ["graded"], "score": "max"},
}


def load(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def gid(cell):
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def src(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def strip_markers(text):
    keep = [l for l in text.split("\n") if l.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")]
    return "\n".join(keep)


def max_score(nb):
    return sum(c["metadata"]["nbgrader"].get("points", 0) for c in nb["cells"]
               if c.get("metadata", {}).get("nbgrader", {}).get("grade"))


def code_cell(cid, source, outputs=()):
    return {"cell_type": "code", "execution_count": None, "id": cid, "metadata": {},
            "outputs": list(outputs), "source": source}


def md_cell(cid, source, attachments):
    return {"attachments": attachments, "cell_type": "markdown", "id": cid, "metadata": {},
            "source": source}


def index_of(nb, grade_id):
    for i, c in enumerate(nb["cells"]):
        if gid(c) == grade_id:
            return i
    raise KeyError(grade_id)


def edit(nb, grade_id, old, new):
    """A learner's mistake: replace `old` by `new` in one exercise's code (must be there)."""
    nb = copy.deepcopy(nb)
    c = nb["cells"][index_of(nb, grade_id)]
    s = src(c)
    assert old in s, (grade_id, old)
    c["source"] = s.replace(old, new, 1)
    return nb


def insert(nb, before_grade_id, cell):
    nb = copy.deepcopy(nb)
    nb["cells"].insert(index_of(nb, before_grade_id), cell)
    return nb


def append_to(nb, grade_id, text):
    nb = copy.deepcopy(nb)
    c = nb["cells"][index_of(nb, grade_id)]
    c["source"] = src(c) + text
    return nb


def filled(student_nb, solution_nb):
    """The student notebook with every answer cell written as the solution writes it."""
    nb = copy.deepcopy(student_nb)
    answers = {gid(c): strip_markers(src(c)) for c in solution_nb["cells"]
               if c.get("metadata", {}).get("nbgrader", {}).get("solution")}
    for c in nb["cells"]:
        if c.get("metadata", {}).get("nbgrader", {}).get("solution") and gid(c) in answers:
            c["source"] = answers[gid(c)]
    return nb


def b64(text):
    return base64.b64encode(text.encode()).decode()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_class.py CLONE_DIR")
    clone = Path(sys.argv[1]).resolve()
    sol = {a: load(clone / "solutions" / a / f"{a}.ipynb") for a in (A01, A02, A04)}
    stu = {a: load(clone / "notebooks" / a / f"{a}.ipynb") for a in (A01, A02, A04)}
    fill = {a: filled(stu[a], sol[a]) for a in (A01, A02, A04)}
    maxes = {a: max_score(sol[a]) for a in (A01, A02, A04)}

    cases = []  # (student, assignment, category, kind, notebook-or-bytes, expect, readme keys, note)

    def add(student, a, category, kind, nb, expect=None, readme=(), note=""):
        student = unicodedata.normalize("NFC", student)
        cases.append(dict(student=student, assignment=a, category=category, kind=kind, nb=nb,
                          expect=expect or EXPECT[category], readme=list(readme) or [category],
                          note=note))

    # --- correct work -------------------------------------------------------------------------
    for a in (A01, A02, A04):
        add("ana", a, "correct", "solution copy", sol[a], readme=["correct"])
    for a in (A01, A02):
        add("cara", a, "correct", "student notebook filled in", fill[a], readme=["correct", "filled"])
    # a correct notebook with a scratch cell at the end that raises (the error saved in its output)
    err = {"output_type": "error", "ename": "NameError",
           "evalue": "name 'total_weight' is not defined",
           "traceback": ["\u001b[0;31mNameError\u001b[0m: name 'total_weight' is not defined"]}
    nb = copy.deepcopy(fill[A01])
    nb["cells"].append(code_cell("scratch-lee-1", "# checking my own sums\nprint(total_weight)", [err]))
    add("lee", A01, "correct", "filled in + a scratch cell that raises", nb,
        readme=["correct", "raise_cell"])

    # --- blank ----------------------------------------------------------------------------------
    for a in (A01, A02, A04):
        add("dan", a, "blank", "student notebook as released", stu[a])

    # --- wrong implementations (one exercise each, a learner's plausible mistake) --------------
    add("eve", A01, "wrong", "softmax without the max shift",
        edit(sol[A01], "softmax", "shifted = x - np.max(x, axis=axis, keepdims=True)", "shifted = x"))
    add("eve", A02, "wrong", "attend without 1/sqrt(Dk)",
        edit(sol[A02], "attend", "scores = K @ q / np.sqrt(Dk)", "scores = K @ q"))
    add("fay", A01, "wrong", "weighted_average ignores the weights",
        edit(fill[A01], "weighted_average", "return weights @ values", "return values.mean(axis=0)"))
    add("fay", A02, "wrong", "sdpa ignores the mask",
        edit(fill[A02], "scaled_dot_product_attention",
             "scores = np.where(mask, scores, -np.inf)", "scores = scores  # TODO: mask"))
    add("gus", A01, "wrong", "mix_tokens without the softmax",
        edit(sol[A01], "mix_tokens", "return attnlab.softmax(scores, axis=-1) @ X", "return scores @ X"))
    add("gus", A02, "wrong", "score_variance returns the standard deviation",
        edit(sol[A02], "score_variance", "return float(np.var(scores))", "return float(np.std(scores))"))
    add("hal", A01, "wrong", "a wrong prediction",
        edit(fill[A01], "predict_scaled_logits", 'prediction_scaled_logits = "sharper"',
             'prediction_scaled_logits = "flatter"'))
    add("hal", A02, "wrong", "sdpa divides by Dk, not sqrt(Dk)",
        edit(fill[A02], "scaled_dot_product_attention", "/ np.sqrt(Dk)", "/ Dk"))
    add("rae", A04, "wrong", "causal mask off by one",
        edit(sol[A04], "causal_mask", "return j <= i", "return j < i"))

    # --- penalised: tampering, an infinite loop, a file that is not JSON ------------------------
    tamper = {"row": True, "status_not": ["graded", "late"], "score_below_max": True,
              "status_preferred": "tampering detected"}
    add("ivy", A01, "penalised", "correct code; np.allclose patched inside the softmax cell",
        append_to(sol[A01], "softmax", "\n\n# my softmax is right, the check is too strict\n"
                  "np.allclose = lambda *a, **k: True\n"), tamper, ["tamper"])
    nb = edit(fill[A02], "attend", "scores = K @ q / np.sqrt(Dk)", "scores = K @ q")
    nb = insert(nb, "test_attend", code_cell("patch-jon-1",
        "# the tolerance is too tight for my version\n"
        "np.testing.assert_allclose = lambda *a, **k: None"))
    add("jon", A02, "penalised", "wrong attend; np.testing.assert_allclose patched in its own cell",
        nb, tamper, ["tamper"])
    nb = edit(fill[A01], "softmax", "shifted = x - np.max(x, axis=axis, keepdims=True)", "shifted = x")
    nb = insert(nb, "test_softmax", code_cell("patch-kim-1", "np.allclose = lambda *a, **k: True"))
    add("kim", A01, "penalised", "wrong softmax; np.allclose patched in its own cell", nb, tamper,
        ["tamper"])
    nb = edit(sol[A01], "mix_tokens", "return attnlab.softmax(scores, axis=-1) @ X", "return scores @ X")
    nb = insert(nb, "test_mix_tokens", code_cell("patch-lou-1",
        "# the batched check keeps failing, skip the checks\n"
        "import attnlab.checks\n"
        "for _name in dir(attnlab.checks):\n"
        "    if _name.startswith(\"check_\"):\n"
        "        setattr(attnlab.checks, _name, lambda *a, **k: None)\n"
        "        globals()[_name] = lambda *a, **k: None"))
    add("lou", A01, "penalised", "wrong mix_tokens; the course's check functions patched", nb,
        tamper, ["tamper"])
    nb = edit(fill[A02], "score_variance",
              "    q = rng.standard_normal((n_samples, d_k))",
              "    var = 0.0\n"
              "    while abs(var - d_k) > 1e-9:  # keep drawing until the estimate settles\n"
              "        q = rng.standard_normal((n_samples, d_k))\n"
              "        k = rng.standard_normal((n_samples, d_k))\n"
              "        var = float(np.var(np.sum(q * k, axis=-1)))\n"
              "    q = rng.standard_normal((n_samples, d_k))")
    add("mo", A02, "penalised", "score_variance never returns (infinite loop)", nb,
        {"row": True, "status": ["timed out"], "score_below_max": True}, ["timeout"])
    text = json.dumps(sol[A01], indent=1, ensure_ascii=False)
    add("ned", A01, "penalised", "upload cut off: not JSON", text[: len(text) // 2].encode("utf-8"),
        {"row": True, "status": ["malformed notebook"], "score": 0}, ["malformed"])

    # --- images pasted into markdown cells as attachments, on correct notebooks ----------------
    nb = insert(sol[A01], "softmax", md_cell("pasted-pat-1",
        "My drawing of the softmax:\n\n![photo](attachment:photo.jpg)\n\nand the animation:\n\n"
        "![anim](attachment:anim.gif)", {"photo.jpg": {"image/jpeg": JPEG},
                                          "anim.gif": {"image/gif": GIF}}))
    add("pat", A01, "attachments", "JPEG + GIF attachments", nb, readme=["attachments", "correct"])
    nb = insert(fill[A02], "attend", md_cell("pasted-pat-2",
        "![screenshot](attachment:image.png)", {"image.png": {"image/png": PNG}}))
    nb = insert(nb, "scaled_dot_product_attention", md_cell("pasted-pat-3",
        "The diagram: ![diagram](attachment:diagram.svg)", {"diagram.svg": {"image/svg+xml": b64(SVG)}}))
    add("pat", A02, "attachments", "PNG + SVG attachments", nb, readme=["attachments", "correct"])
    nb = copy.deepcopy(fill[A01])
    nb["cells"].insert(1, md_cell("pasted-quinn-1",
        "Notes: ![a](attachment:a.jpg) ![b](attachment:b.gif) ![c](attachment:c.png) ![d](attachment:d.svg)",
        {"a.jpg": {"image/jpeg": JPEG}, "b.gif": {"image/gif": GIF}, "c.png": {"image/png": PNG},
         "d.svg": {"image/svg+xml": b64(SVG)}}))
    add("quinn", A01, "attachments", "all four kinds in one cell", nb, readme=["attachments", "correct"])

    # --- unusual student ids, correct notebooks -------------------------------------------------
    for student, a in ((".alice", A01), ("jo smith", A01), ("zoë", A02), ("Łukasz", A01),
                       ("Points Possible", A01), ("Student", A02), ("ID number", A02)):
        add(student, a, "ids", "correct, unusual id", sol[a] if a == A01 else fill[a],
            readme=["ids", "correct"])

    # --- correct work after all of the above (student ids sort last: a reused worker grades it)
    for student in ("zed", "zara"):
        for a in (A01, A02):
            add(student, a, "correct", "correct, graded after the trouble",
                sol[a] if student == "zed" else fill[a], readme=["correct", "after"])

    # --- write ----------------------------------------------------------------------------------
    root = clone / "autograde" / "submitted"
    root.mkdir(parents=True, exist_ok=True)
    seen = set()
    for c in cases:
        key = (c["student"], c["assignment"])
        assert key not in seen, key
        seen.add(key)
        folder = root / c["student"] / c["assignment"]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{c['assignment']}.ipynb"
        if isinstance(c["nb"], bytes):
            path.write_bytes(c["nb"])
        else:
            path.write_text(json.dumps(c["nb"], indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    expected = {
        "about": "held-out class for attnlab-course grade; one entry per (student, assignment). "
                 "expect keys: row (a grades.csv row exists), status (one of), status_not (none of), "
                 "score ('max' = the assignment's max_score, or a number), score_below_max.",
        "max_score": maxes,
        "readme": R,
        "lms_header_names": ["Student", "ID", "SIS User ID", "Section", "Points Possible",
                             "ID number", "Username", "Email address", "Full name"],
        "cases": [{k: c[k] for k in ("student", "assignment", "category", "kind", "expect", "note")}
                  | {"readme": [s for key in c["readme"] for s in R[key]]} for c in cases],
    }
    out = HERE / "expected.json"
    out.write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(cases)} submissions of {len({c['student'] for c in cases})} students written under "
          f"{root}; expectations in {out}")


if __name__ == "__main__":
    main()
