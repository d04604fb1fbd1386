"""Concept checks: what a class learned, measured before and after each notebook.

Each notebook has a question bank, one data module beside the cards
(``attnlab/concepts/<notebook>.py``, named like the notebook's checks module): the concepts of the
notebook's line in the course map (``START.md``), each with the section to reread, and 5 to 8
multiple-choice questions. Every question targets one concept; its wrong options are
misconceptions the course already knows, each named as ``"<exercise>: <name>"`` where ``<name>``
is a mistake of that exercise's card or a wrong answer of that prediction's card
(:func:`check_links`). The same questions are asked before the notebook (never graded, no answer
shown) and after it (graded or not, as the course configuration says:
:mod:`attnlab.course.concept_scores`).

In the notebook, plain Python and no widget::

    attnlab.concepts.ask("01_weighted_averages", "before")   # prints the questions
    concepts_before = {"q1": "b", "q2": "a"}                    # the learner's answers
    ...
    attnlab.concepts.gain("01_weighted_averages", concepts_before, concepts_after)

:func:`gain` shows a self-study learner their own score and Hake's gain per concept, and the
section to reread for each concept missed after; it never shows which option was right. The
grader reads the two dictionaries from the submitted notebook without running it
(:func:`answers_in_notebook`); the class report computes the class's figures with
:mod:`attnlab.concepts._stats`.
"""
from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from functools import lru_cache

from ._stats import class_gain, flags, hake_gain, item_statistics

__all__ = ["Bank", "BankError", "Concept", "Question", "answers_in_notebook", "ask", "bank", "check_links",
           "class_gain", "flags", "gain", "hake_gain", "item_statistics", "notebooks", "score"]

# The notebook -> its bank's module (named like its checks module, without the number)
MODULES = {
    "01_weighted_averages": "weighted_averages",
    "02_query_key_value": "query_key_value",
    "03_self_attention": "self_attention",
    "04_masks_and_cross_attention": "masks_and_cross_attention",
    "05_multi_head_attention": "multi_head_attention",
    "06_attention_as_kernel_machine": "attention_as_kernel_machine",
    "07_rnn_translation_with_attention": "rnn_translation_with_attention",
    "08_efficient_attention": "efficient_attention",
    "09_transformer": "transformer",
    "10_attention_on_images": "attention_on_images",
    "11_modern_attention": "modern_attention",
    "12_what_attention_learns": "what_attention_learns",
    "13_attention_variants": "attention_variants",
}
WHEN = ("before", "after")
VARIABLE = {"before": "concepts_before", "after": "concepts_after"}  # the notebook's answer dicts
LETTERS = "abcdef"
MIN_QUESTIONS, MAX_QUESTIONS = 5, 8
GIVEAWAYS = re.compile(r"\b(all|none|both|neither) of (the|these) (above|answers|options)\b", re.I)
MAX_ANSWER_CELL = 20_000   # characters: a longer cell is not an answer cell (the grader never parses it)


class BankError(ValueError):
    """A question bank that breaks a rule: the message names the notebook, the question and the rule."""


@dataclass(frozen=True)
class Concept:
    """One concept of a notebook: ``id``, the course map's words for it, and the section to reread."""
    id: str
    map: str
    section: str


@dataclass(frozen=True)
class Question:
    """One multiple-choice question. ``options`` are ``(letter, text)``; ``right`` is a letter;
    ``misconceptions`` maps each wrong letter to ``"<exercise>: <mistake or wrong answer>"``."""
    id: str
    concept: str
    stem: str
    options: tuple[tuple[str, str], ...]
    right: str
    misconceptions: dict
    reread: str

    def text(self, letter: str) -> str:
        return dict(self.options)[letter]


@dataclass(frozen=True)
class Bank:
    """A notebook's concept check: its concepts (in the map's order) and its questions."""
    notebook: str
    concepts: tuple[Concept, ...]
    questions: tuple[Question, ...]

    def concept(self, cid: str) -> Concept:
        return next(c for c in self.concepts if c.id == cid)

    def question(self, qid: str) -> Question:
        return next(q for q in self.questions if q.id == qid)


def notebooks() -> list[str]:
    """Every notebook with a concept check, in the course's order."""
    return list(MODULES)


def _fail(notebook: str, where: str, what: str):
    raise BankError(f"concept check of {notebook}{', ' + where if where else ''}: {what}")


def build(notebook: str, concepts: dict, questions: list) -> Bank:
    """A :class:`Bank` from a data module's ``CONCEPTS`` and ``QUESTIONS``, checked against the
    format (the links to the cards are :func:`check_links`'s)."""
    if not isinstance(concepts, dict) or not concepts:
        _fail(notebook, "", f"expected CONCEPTS, a dict of concept id -> (the map's words, section), got {concepts!r}")
    cs = []
    for cid, value in concepts.items():
        if not (isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) and v for v in value)):
            _fail(notebook, f"concept {cid!r}", f"expected (the map's words, the section to reread), got {value!r}")
        cs.append(Concept(cid, *value))
    if not MIN_QUESTIONS <= len(questions) <= MAX_QUESTIONS:
        _fail(notebook, "", f"expected {MIN_QUESTIONS} to {MAX_QUESTIONS} questions, got {len(questions)}")
    qs, seen = [], set()
    for k, raw in enumerate(questions):
        if not isinstance(raw, dict):
            _fail(notebook, f"question {k + 1}", f"expected a dict, got {type(raw).__name__}")
        qid = raw.get("id")
        where = f"question {qid!r}"
        if not (isinstance(qid, str) and re.fullmatch(r"q\d+", qid)):
            _fail(notebook, f"question {k + 1}", f"expected an id 'q1', 'q2', ..., got {qid!r}")
        if qid in seen:
            _fail(notebook, where, "two questions have this id")
        seen.add(qid)
        unknown = set(raw) - {"id", "concept", "stem", "options", "reread"}
        if unknown:
            _fail(notebook, where, f"unknown keys {sorted(unknown)} (expected id, concept, stem, options, reread)")
        concept = raw.get("concept")
        if concept not in concepts:
            _fail(notebook, where, f"concept {concept!r} is not one of the notebook's: {', '.join(concepts)}")
        stem = raw.get("stem")
        if not (isinstance(stem, str) and stem.strip()):
            _fail(notebook, where, "expected a stem, a non-empty string")
        options = raw.get("options")
        if not (isinstance(options, (list, tuple)) and 3 <= len(options) <= len(LETTERS)):
            _fail(notebook, where, f"expected 3 to {len(LETTERS)} options, got {options!r}")
        lettered, rights, links = [], [], {}
        for letter, option in zip(LETTERS, options):
            if not (isinstance(option, tuple) and len(option) == 2 and isinstance(option[0], str) and option[0]):
                _fail(notebook, where, f"option {letter}: expected (text, None for the right option or "
                                       f"'<exercise>: <misconception>'), got {option!r}")
            text, link = option
            if GIVEAWAYS.search(text):
                _fail(notebook, where, f"option {letter} ({text!r}) is an 'all/none of the above': it answers by elimination")
            lettered.append((letter, text))
            if link is None:
                rights.append(letter)
            elif isinstance(link, str) and ": " in link:
                links[letter] = link
            else:
                _fail(notebook, where, f"option {letter}: its misconception must be '<exercise>: <name>', got {link!r}")
        if len(rights) != 1:
            _fail(notebook, where, f"expected exactly one right option (misconception None), got {len(rights)}")
        texts = [t.strip().lower() for _, t in lettered]
        if len(set(texts)) != len(texts):
            _fail(notebook, where, "two options have the same text")
        reread = raw.get("reread") or concepts[concept][1]
        qs.append(Question(qid, concept, stem, tuple(lettered), rights[0], links, reread))
    missing = [c.id for c in cs if not any(q.concept == c.id for q in qs)]
    if missing:
        _fail(notebook, "", f"concepts without a question: {', '.join(missing)}")
    return Bank(notebook, tuple(cs), tuple(qs))


@lru_cache(maxsize=None)
def bank(notebook: str) -> Bank:
    """The concept check of ``notebook`` (``"01_weighted_averages"``, or its number ``"01"``)."""
    name = _notebook(notebook)
    module = importlib.import_module(f"{__name__}.{MODULES[name]}")
    if getattr(module, "NOTEBOOK", None) != name:
        _fail(name, "", f"its module {module.__name__} says NOTEBOOK = {getattr(module, 'NOTEBOOK', None)!r}")
    return build(name, module.CONCEPTS, module.QUESTIONS)


def _notebook(notebook: str) -> str:
    key = str(notebook)
    found = [n for n in MODULES if n == key or n[:2] == key.zfill(2)[:2] and len(key) <= 2]
    if len(found) != 1:
        raise BankError(f"notebook: expected one of {', '.join(MODULES)} (or its number), got {notebook!r}")
    return found[0]


def check_links(b: Bank) -> list[str]:
    """What is wrong with the links of ``b``'s wrong options to the catalogue (empty: nothing):
    every misconception must be ``"<exercise>: <name>"`` with ``<name>`` a mistake of the card of
    ``<exercise>``, or a wrong answer of that prediction, from this notebook or an earlier one."""
    # (imported here: the cards import every check; a notebook asking its questions needs none of them)
    from ..cards import card

    problems = []
    for q in b.questions:
        for letter, link in q.misconceptions.items():
            exercise, _, name = link.partition(": ")
            c = card(exercise)
            if c is None:
                problems.append(f"{b.notebook} {q.id} option {letter}: no card named {exercise!r}")
                continue
            if c.notebook[:2] > b.notebook[:2]:
                problems.append(f"{b.notebook} {q.id} option {letter}: {exercise} is taught later ({c.notebook})")
            names = [m.name for m in c.mistakes]
            if c.prediction is not None:
                names += [w.name for w in c.prediction.wrong]
            if name not in names:
                problems.append(f"{b.notebook} {q.id} option {letter}: {exercise}'s card has no mistake or wrong "
                                f"answer named {name!r}")
    return problems


# -- answers ---------------------------------------------------------------------------------

def normalise(b: Bank, answers, strict: bool = True) -> dict[str, str]:
    """``{question id: letter}`` from a learner's dict (keys ``"q1"`` or ``1``, letters in any
    case, ``"(b)"`` or ``"b)"``; None or "" is unanswered). ``strict``: a ValueError naming an
    unknown question or letter; else such entries are left out (the grader's reading)."""
    if answers is None:
        return {}
    if not isinstance(answers, dict):
        if strict:
            raise ValueError(f"answers: expected a dict such as {{'q1': 'b'}}, got {type(answers).__name__}")
        return {}
    ids = [q.id for q in b.questions]
    out = {}
    for key, value in answers.items():
        qid = f"q{key}" if isinstance(key, int) and not isinstance(key, bool) else str(key).strip().lower()
        if qid not in ids:
            if strict:
                raise ValueError(f"answers: {key!r} is not a question of {b.notebook}'s check (expected one of "
                                 f"{', '.join(ids)})")
            continue
        if value is None or value == "":
            continue
        letter = str(value).strip().strip("()").rstrip(")").strip().lower()
        if letter not in dict(b.question(qid).options):
            if strict:
                raise ValueError(f"answers: {qid} = {value!r} is not one of its options "
                                 f"({', '.join(dict(b.question(qid).options))})")
            continue
        out[qid] = letter
    return out


def score(notebook: str, answers) -> dict:
    """A learner's check scored: ``{"taken", "share", "items": {qid: 0/1}, "concepts": {cid:
    (right, asked)}, "chosen": [misconception, ...]}``. Unanswered questions count wrong; a check
    with no answer at all is not ``taken``."""
    b = bank(notebook)
    given = normalise(b, answers, strict=False)
    items = {q.id: int(given.get(q.id) == q.right) for q in b.questions}
    concepts = {c.id: (sum(items[q.id] for q in b.questions if q.concept == c.id),
                       sum(1 for q in b.questions if q.concept == c.id)) for c in b.concepts}
    chosen = [b.question(qid).misconceptions[letter] for qid, letter in given.items()
              if letter in b.question(qid).misconceptions]
    return {"taken": bool(given), "share": sum(items.values()) / len(items), "items": items,
            "concepts": concepts, "chosen": chosen}


def answers_in_notebook(nb: dict) -> dict[str, dict[str, str]]:
    """``{"before": {...}, "after": {...}}``: the learner's answer dicts read from a notebook's
    code cells without running anything (the last assignment of ``concepts_before`` /
    ``concepts_after`` to a dict literal of strings or ints; anything else reads as no answer).
    The grader's reading: it never raises."""
    found: dict[str, dict] = {}
    cells = nb.get("cells") if isinstance(nb, dict) else None
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        if not isinstance(source, str) or len(source) > MAX_ANSWER_CELL or "concepts_" not in source:
            continue
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                continue
            when = next((w for w, v in VARIABLE.items() if v == node.targets[0].id), None)
            if when is None:
                continue
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                value = None
            if isinstance(value, dict) and all(isinstance(k, (str, int)) and isinstance(v, (str, type(None)))
                                               for k, v in value.items()):
                found[when] = {str(k)[:20]: (v or "")[:10] for k, v in list(value.items())[:64]}
            else:
                found[when] = {}
    return {when: found.get(when, {}) for when in WHEN}


# -- in the notebook -------------------------------------------------------------------------

def ask(notebook: str, when: str = "before") -> None:
    """Print the concept check of ``notebook``: the questions and their options, and how to answer.
    Never shows which option is right."""
    if when not in WHEN:
        raise ValueError(f"when: expected 'before' or 'after', got {when!r}")
    b = bank(notebook)
    if when == "before":
        print(f"Concept check, before notebook {b.notebook[:2]}: {len(b.questions)} questions. Not graded, and no "
              "answer is shown: answer with what you think now (a guess is fine). The same questions come back "
              "at the end of the notebook, and there you see what changed.")
    else:
        print(f"Concept check, after notebook {b.notebook[:2]}: the same {len(b.questions)} questions. Your "
              "instructor may grade this one. Answer without scrolling back, then run the cell after your answers.")
    print(f"Write your answers in the cell below, as {VARIABLE[when]} = {{\"q1\": \"b\", \"q2\": \"a\", ...}}.\n")
    for q in b.questions:
        print(f"{q.id}. {q.stem}")
        for letter, text in q.options:
            print(f"    {letter}) {text}")
        print()


def gain(notebook: str, before=None, after=None) -> dict:
    """Print a learner's own result: per concept, right before and after, and Hake's gain; the
    section to reread for each concept with a question missed after. Returns the figures. Never
    shows which option is right. Raises a ValueError naming an answer that is not a question or
    an option."""
    b = bank(notebook)
    pre_given, post_given = normalise(b, before), normalise(b, after)
    pre, post = score(b.notebook, pre_given), score(b.notebook, post_given)
    if not post["taken"]:
        print("No answers after the notebook yet: answer the questions above in concepts_after, then run this cell.")
        return {"pre": pre, "post": post, "g": None}
    width = max(len(c.map) for c in b.concepts)
    print(f"{'concept':<{width}}  before  after  gain")
    for c in b.concepts:
        r1, n = pre["concepts"][c.id]
        r2, _ = post["concepts"][c.id]
        g = hake_gain(r1 / n, r2 / n) if pre["taken"] else None
        shown = f"{r1}/{n}" if pre["taken"] else "-"
        print(f"{c.map:<{width}}  {shown:>6}  {r2}/{n:<3}  {'' if g is None else f'{g:+.2f}'}")
    g = hake_gain(pre["share"], post["share"]) if pre["taken"] else None
    if pre["taken"]:
        print(f"\nIn all: {pre['share']:.0%} before, {post['share']:.0%} after; normalised gain g = "
              + ("(none: full marks before)" if g is None else f"{g:.2f}")
              + " (the share of what you did not know that you learned).")
    else:
        print(f"\nIn all: {post['share']:.0%} after. You skipped the check before the notebook, so there is no gain "
              "to show: only where you stand now.")
    missed = [c for c in b.concepts if post["concepts"][c.id][0] < post["concepts"][c.id][1]]
    if missed:
        print("\nTo reread, for the concepts with a question missed:")
        for c in missed:
            sections = sorted({q.reread for q in b.questions if q.concept == c.id and not post["items"][q.id]})
            print(f"  {c.map}: section {'; '.join(sections)}")
    else:
        print("\nEvery question right after the notebook.")
    return {"pre": pre, "post": post, "g": g}
