"""Concept checks (:mod:`attnlab.concepts`, issue 57): the question banks hold up (every wrong option
names a catalogued mistake or prediction answer, every concept of the notebook's line in the course
map has a question, the right option is not the longest more often than chance, no question gives
another's answer away, each section to reread exists), Hake's gain and the item statistics agree
with figures computed by hand, the grader's static reading of the answers, and a class graded in a
test shows its figures in the report and the exports."""
from __future__ import annotations

import csv
import json
import math
import re

import pytest

import classbook as cb
import coursekit as ck
from attnlab import concepts as cc
from attnlab.concepts import _stats
from attnlab.course import cli, concept_scores

NOTEBOOKS = cc.notebooks()


def test_every_notebook_has_a_bank():
    assert NOTEBOOKS == ck.assignments()


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_every_wrong_option_names_a_catalogued_misconception(notebook):
    b = cc.bank(notebook)
    assert cc.check_links(b) == []
    for q in b.questions:
        assert set(q.misconceptions) == {letter for letter, _ in q.options} - {q.right}


def _map_row(text: str, notebook: str) -> str:
    row = next(line for line in text.splitlines() if line.startswith(f"| {notebook[:2]} |"))
    return row.split("|")[3].strip()


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_every_concept_of_the_course_map_has_a_question(notebook):
    """START.md's course map, split at ';', names the notebook's concepts; each is a concept of the
    bank, and every concept of the bank is in START.md's or the README's line of the notebook."""
    b = cc.bank(notebook)
    start = _map_row((ck.ROOT / "START.md").read_text(encoding="utf-8"), notebook)
    readme = _map_row((ck.ROOT / "README.md").read_text(encoding="utf-8"), notebook)
    maps = {c.map for c in b.concepts}
    missing = [p.strip() for p in start.split(";") if p.strip() not in maps]
    assert not missing, f"{notebook}: concepts of START.md's course map without a question: {missing}"
    for c in b.concepts:
        assert c.map in start or c.map in readme, f"{notebook}: {c.map!r} is in neither course map"
        assert any(q.concept == c.id for q in b.questions)


def _longest_right(b) -> int:
    n = 0
    for q in b.questions:
        lengths = [len(t) for _, t in q.options]
        if len(q.text(q.right)) == max(lengths) and lengths.count(max(lengths)) == 1:
            n += 1
    return n


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_the_right_option_is_not_usually_the_longest(notebook):
    b = cc.bank(notebook)
    assert _longest_right(b) <= 0.4 * len(b.questions), f"{notebook}: the right option is the longest too often"


def test_the_right_option_is_not_the_longest_more_often_than_chance_overall():
    questions = [q for n in NOTEBOOKS for q in cc.bank(n).questions]
    hits = sum(_longest_right(cc.bank(n)) for n in NOTEBOOKS)
    n = len(questions)
    p = sum(1 / len(q.options) for q in questions) / n  # chance: one option in k
    tail = sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(hits, n + 1))
    assert tail > 0.05, f"the right option is the longest in {hits} of {n} questions (chance {p:.2f}, p = {tail:.3g})"


def test_the_right_letter_varies():
    for n in NOTEBOOKS:
        letters = [q.right for q in cc.bank(n).questions]
        assert len(set(letters)) >= 2, f"{n}: every right option is {letters[0]!r}"


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_no_question_gives_another_questions_answer(notebook):
    """No stem or option holds another question's right option (of 10 characters or more) word for word."""
    b = cc.bank(notebook)
    for q in b.questions:
        answer = q.text(q.right).strip().lower()
        if len(answer) < 10:
            continue
        for other in b.questions:
            if other is q:
                continue
            texts = [other.stem] + [t for _, t in other.options]
            assert not any(answer in t.lower() for t in texts), f"{notebook}: {other.id} holds {q.id}'s answer"


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_each_section_to_reread_is_a_section_of_the_notebook(notebook):
    nb = ck.load(ck.solution_path(notebook))
    headings = [line[3:].strip() for c in nb["cells"] if c["cell_type"] == "markdown"
                for line in "".join(c["source"]).splitlines() if line.startswith("## ")]
    numbered = {h.split(" ", 1)[0]: h for h in headings if re.match(r"\d+\.", h)}
    b = cc.bank(notebook)
    for section in {c.section for c in b.concepts} | {q.reread for q in b.questions}:
        number, title = section.split(" ", 1)
        assert number in numbered, f"{notebook}: no section {number} for {section!r}"
        first = re.sub(r"\W", "", title.split()[0]).lower()
        assert re.sub(r"\W", "", numbered[number].split()[1]).lower() == first, (section, numbered[number])


def test_a_bank_that_breaks_a_rule_is_refused_by_name():
    concepts = {"c": ("a concept", "1. A section")}
    good = [dict(id=f"q{i}", concept="c", stem="s?", options=[("x", None), (f"y{i}", "softmax: z"), ("w", "softmax: z")])
            for i in range(1, 6)]
    cc.build("01_weighted_averages", concepts, good)
    with pytest.raises(cc.BankError, match=r"q1.*all/none of the above"):
        cc.build("01_weighted_averages", concepts, [dict(good[0], options=[("x", None), ("All of the above", "softmax: z"),
                                                                          ("w", "softmax: z")])] + good[1:])
    with pytest.raises(cc.BankError, match=r"q2.*exactly one right option"):
        cc.build("01_weighted_averages", concepts, [good[0], dict(good[1], options=[("x", None), ("y", None), ("w", "a: b")])]
                 + good[2:])
    with pytest.raises(cc.BankError, match=r"q3.*concept 'nope'"):
        cc.build("01_weighted_averages", concepts, good[:2] + [dict(good[2], concept="nope")] + good[3:])
    with pytest.raises(cc.BankError, match=r"5 to 8 questions, got 4"):
        cc.build("01_weighted_averages", concepts, good[:4])
    b = cc.build("01_weighted_averages", concepts, [dict(good[0], options=[("x", None), ("y", "softmax: no such mistake"),
                                                                            ("w", "nocard: z")])] + good[1:])
    problems = cc.check_links(b)
    assert any("no card named 'nocard'" in p for p in problems)
    assert any("no mistake or wrong answer named 'no such mistake'" in p for p in problems)


# -- the figures, on numbers computed by hand ------------------------------------------------

def test_hake_gain():
    assert _stats.hake_gain(0.2, 0.6) == pytest.approx(0.5)
    assert _stats.hake_gain(0.5, 0.25) == pytest.approx(-0.5)
    assert _stats.hake_gain(1.0, 1.0) is None
    with pytest.raises(ValueError, match="pre"):
        _stats.hake_gain(1.5, 0.5)


def test_item_statistics_by_hand():
    # three learners, three items: totals 3, 1, 1
    scores = [{"a": 1, "b": 1, "c": 1}, {"a": 1, "b": 0, "c": 0}, {"a": 0, "b": 0, "c": 1}]
    s = _stats.item_statistics(scores, ["a", "b", "c"])
    assert s["a"]["difficulty"] == pytest.approx(2 / 3)
    # a: x = (1, 1, 0), rest = (2, 0, 1): deviations (1/3, 1/3, -2/3) and (1, -1, 0): r = 0 / ... = 0
    assert s["a"]["discrimination"] == pytest.approx(0.0)
    # b: x = (1, 0, 0), rest = (2, 1, 1): r = 1
    assert s["b"]["discrimination"] == pytest.approx(1.0)
    assert _stats.item_statistics([{"a": 1}, {"a": 1}], ["a"])["a"]["discrimination"] is None  # constant item


# The class of the report test, on notebook 01 (right options b d b c c b c; concepts: average q1 q7,
# data-dependent q2, softmax q3 q4, temperature q5 q6).
RIGHT = {"q1": "b", "q2": "d", "q3": "b", "q4": "c", "q5": "c", "q6": "b", "q7": "c"}
WRONG_ALL = {q: "a" for q in RIGHT}
CLASS = {  # student: (before, after)
    "alice": ({**WRONG_ALL, "q1": "b"}, dict(RIGHT)),                        # 1/7 -> 7/7, g = 1
    "=bob": ({**WRONG_ALL, "q1": "b", "q2": "d", "q6": "b"}, {**RIGHT, "q3": "a"}),  # 3/7 -> 6/7, g = 0.75
    "carol": ({}, {**RIGHT, "q5": "a", "q6": "a"}),                             # skipped before; 5/7 after
    "dave<script>": (dict(RIGHT), {**RIGHT, "q5": "a"}),                        # 7/7 -> 6/7 (no own g)
}


def _rows(klass=CLASS):
    return [{"student_id": s, "assignment": cb.ASSIGNMENT, "concepts": {"before": pre, "after": post}}
            for s, (pre, post) in klass.items()]


def test_the_class_figures_by_hand():
    s = concept_scores.summary(cb.ASSIGNMENT, _rows())
    assert (s["n_pre"], s["n_post"], s["n_both"]) == (3, 4, 3)
    g = s["gain"]
    # averages over alice, bob and dave: pre (1 + 3 + 7) / 21 = 11/21, post (7 + 6 + 6) / 21 = 19/21
    assert g["pre"] == pytest.approx(11 / 21) and g["post"] == pytest.approx(19 / 21)
    assert g["g"] == pytest.approx(0.8)  # (8/21) / (10/21)
    # the spread: alice 1.0 and bob 0.75 (dave had full marks before)
    assert g["spread"]["n"] == 2 and g["spread"]["median"] == pytest.approx(0.875)
    assert g["spread"]["sd"] == pytest.approx(0.25 / math.sqrt(2))
    softmax = next(c for c in s["concepts"] if c["concept"] == "the softmax and its max trick")
    assert softmax["pre"] == pytest.approx(2 / 6) and softmax["post"] == pytest.approx(7 / 8)
    q = {x["id"]: x for x in s["questions"]}
    assert q["q1"]["pre"]["difficulty"] == 1.0 and "too easy before" in q["q1"]["flags"]
    assert q["q2"]["pre"]["difficulty"] == pytest.approx(2 / 3)
    assert q["q2"]["pre"]["discrimination"] == pytest.approx(2 / math.sqrt(28 / 3))  # x (0,1,1), rest (1,2,6)
    # q3 after: x (1,0,1,1), rest (6,6,4,5): r = -0.75 / sqrt(0.75 * 2.75)
    assert q["q3"]["post"]["discrimination"] == pytest.approx(-0.75 / math.sqrt(0.75 * 2.75))
    assert "the best learners get it wrong" in q["q3"]["flags"]
    assert s["chosen_after"][0] == ("prediction_scaled_logits: larger scores spread the weight", 2)


def test_a_class_that_skipped_before_gets_post_only():
    s = concept_scores.summary(cb.ASSIGNMENT, _rows({k: ({}, post) for k, (_, post) in CLASS.items()}))
    assert s["n_pre"] == 0 and s["gain"]["g"] is None
    assert "post scores only" in concept_scores.html_section(s, graded=False)


# -- the learner's side and the grader's reading ----------------------------------------------

def test_the_answers_are_read_from_the_notebook_without_running_it():
    nb = {"cells": [
        {"cell_type": "code", "source": 'concepts_before = {"q1": "b", 2: "A"}'},
        {"cell_type": "code", "source": "concepts_after = {'q1': __import__('os').getcwd()}"},  # not a literal
        {"cell_type": "code", "source": "concepts_after = {'q1': 'c', 'q3': None}\nx = 1"},
        {"cell_type": "code", "source": "def broken(:"},
    ]}
    assert cc.answers_in_notebook(nb) == {"before": {"q1": "b", "2": "A"}, "after": {"q1": "c", "q3": ""}}
    assert cc.answers_in_notebook({"cells": "nonsense"}) == {"before": {}, "after": {}}
    assert cc.score("01", {"q1": "b", "2": "A", "q9": "z"})["items"]["q1"] == 1  # unknown entries ignored


def test_the_learner_sees_the_gain_and_what_to_reread_but_no_answer(capsys):
    cc.ask("01", "before")
    asked = capsys.readouterr().out
    assert "q7." in asked and "concepts_before" in asked
    result = cc.gain("01_weighted_averages", CLASS["=bob"][0], CLASS["=bob"][1])
    out = capsys.readouterr().out
    assert result["g"] == pytest.approx(0.75)
    assert "3. The softmax: from scores to weights" in out  # q3 missed after
    b = cc.bank("01")
    assert not any(q.text(q.right) in out for q in b.questions)
    with pytest.raises(ValueError, match="q9"):
        cc.gain("01", {}, {"q9": "a"})


# -- a class graded in a test: the report and the exports -------------------------------------

pytestmark_group = pytest.mark.xdist_group("concepts_report")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = cb.build(tmp_path_factory.mktemp("concepts"))
    store = course / "autograde" / ".grading" / "results.json"
    rows = json.loads(store.read_text(encoding="utf-8"))
    for row in rows:
        pre, post = CLASS[row["student_id"]]
        row["concepts"] = {"before": pre, "after": post}
    store.write_text(json.dumps(rows), encoding="utf-8")
    return course


@pytestmark_group
def test_the_report_shows_the_concept_tables(course, monkeypatch):
    monkeypatch.setenv("ATTNLAB_COURSE_ROOT", str(course))
    assert cli.main(["report"]) == 0
    text = (course / "autograde" / "report" / "index.html").read_text(encoding="utf-8")
    section = text.split("<h2 id='concepts'>")[1].split("<h2")[0]
    assert "<tr><td>the softmax and its max trick</td><td>33%</td><td>88%</td>" in section
    assert "class normalised gain g = 0.80" in section
    assert "median 0.88" in section
    assert "<td>prediction_scaled_logits: larger scores spread the weight</td><td>2</td>" in section
    items = section.split("<table class='items'>")[1].split("</table>")[0]
    assert re.search(r"<td>q1</td>.*?too easy before", items)
    assert re.search(r"<td>q3</td><td>[^<]*</td><td>[^<]*</td><td>75%</td><td>[^<]*</td><td>-0.52</td>"
                     r"<td>the best learners get it wrong</td>", items)
    assert "not graded" in section


@pytestmark_group
def test_the_exports_carry_the_concept_scores(course, monkeypatch, tmp_path):
    monkeypatch.setenv("ATTNLAB_COURSE_ROOT", str(course))
    out = tmp_path / "canvas.csv"
    assert cli.main(["export", "--format", "canvas", "--output", str(out)]) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    before, after = f"{cb.ASSIGNMENT} concepts before (%)", f"{cb.ASSIGNMENT} concepts after (%)"
    assert rows[0][-3:] == [before, after, "attnlab status"]
    assert rows[1][-3:] == ["", "", ""]  # ungraded: no points for the after check
    by_id = {r[2]: r for r in rows[2:]}
    assert by_id["alice"][-3:-1] == ["14.2857", "100"]
    assert by_id["carol"][-3:-1] == ["", "71.4286"]
    out2 = tmp_path / "moodle.csv"
    assert cli.main(["export", "--format", "moodle", "--output", str(out2), "--no-concept-columns"]) == 0
    with open(out2, newline="", encoding="utf-8") as fh:
        assert before not in next(csv.reader(fh))


@pytestmark_group
def test_a_graded_after_check_gets_points_in_canvas(course, monkeypatch, tmp_path):
    config = course / "autograde" / "nbgrader_config.py"
    text = config.read_text(encoding="utf-8")
    config.write_text(text + '\nc.ConceptChecks.after = "graded"\n', encoding="utf-8")
    try:
        assert concept_scores.after_graded(course)
        monkeypatch.setenv("ATTNLAB_COURSE_ROOT", str(course))
        out = tmp_path / "canvas.csv"
        assert cli.main(["export", "--format", "canvas", "--output", str(out)]) == 0
        with open(out, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
        assert rows[1][-3:] == ["", "100", ""]
    finally:
        config.write_text(text, encoding="utf-8")
