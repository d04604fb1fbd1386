"""How the checks' messages read: every check called by a notebook's grade cells is run on every
wrong implementation of ``tests/catalogue/`` (as ``tests/test_catalogue.py`` runs them, but each
notebook's solutions only once), and every message, first run and second run, is read:

* no phrase of six words or more said twice in two sentences (``On L=6, D=8 (L=6, D=8)``);
* counts agree with their nouns ("1 case", "3 cases"; never "1 cases");
* "above" only where something is above it in the message, never "the equation above" (a
  check cannot know that the exercise shows one);
* an in-place write, once named, is not followed by "does not look like any mistake we know";
* "expected" and "yours" are never printed identical.
"""
from __future__ import annotations

import re

import pytest

import coursekit as ck
from attnlab.checks import _core, _run

NOUNS = (r"(?:case|entr(?:y|ie)|item|row|column|key|quer(?:y|ie)|token|head|step|layer|array|value|"
         r"dimension|sample|pixel|word|sentence|call|element|mistake|batch(?:e)?|input|output)")


def repeated_phrase(message: str, n: int = 6) -> str | None:
    """A sequence of ``n`` words that occurs in two different sentences (not across punctuation)."""
    lines = [line for line in message.splitlines() if not line.lstrip().startswith(("expected:", "yours:"))]
    seen: dict[tuple[str, ...], int] = {}
    for s, sentence in enumerate(re.split(r"[.!?]+(?:\s|$)|\n", "\n".join(lines))):
        for clause in re.split(r"[,:;()\"]", sentence):
            words = [w.strip("'`").lower() for w in clause.split()]
            words = [w for w in words if w]
            for i in range(len(words) - n + 1):
                gram = tuple(words[i:i + n])
                if gram in seen and seen[gram] != s:
                    return " ".join(gram)
                seen.setdefault(gram, s)
    return None


def miscounted(message: str) -> list[str]:
    """"1 cases", "3 case": a count whose noun does not agree with it."""
    # "N+1 rows" is a count of N+1; "8 key/value heads", "32 query heads": the noun is a modifier
    one = re.finditer(rf"(?<![\w.,=+-])1 {NOUNS}s\b", message)
    many = re.finditer(rf"(?<![\w.,=+-])(?:0|[2-9]|\d\d+) {NOUNS}\b(?!s|\(s\)|/| {NOUNS})", message)
    return [m.group(0) for m in (*one, *many)]


def misplaced_above(message: str) -> list[str]:
    """"above" pointing at text in a message's first line, or at an equation: a feedback page shows
    no such text. A quoted value is not a pointer (a prediction's option "above 1%")."""
    lines = [re.sub(r"'[^']*'|\"[^\"]*\"", "''", line) for line in message.splitlines()]
    return [line for i, line in enumerate(lines)
            if re.search(r"\babove\b", line) and (i == 0 or re.search(r"equation above", line))]


def other_problems(message: str) -> list[str]:
    problems = []
    if "changed its input arrays in place" in message and "does not look like any mistake" in message:
        problems.append("an in-place write named, then called unknown")
    expected = re.findall(r"expected: (.*)\n\s*yours:\s+(.*)", message)
    problems += [f"expected and yours both print {a}" for a, b in expected if a.strip() == b.strip()]
    return problems


def _messages() -> list[tuple[str, str]]:
    """``(label, message)`` for every failing grade cell of every catalogue entry, first run and
    second run (the second run is the first one remembered again, as a learner's rerun is)."""
    out = []
    for assignment in ck.assignments():
        nb = ck.load(ck.solution_path(assignment))
        base = ck.run_solutions(nb, ck.setup_namespace(nb))
        for wrong in ck.catalogue(assignment):
            ns = dict(base)
            exec(compile(wrong.code, f"<wrong {wrong.name}>", "exec"), ns)
            for gid in wrong.fails:
                _core._SEEN.clear()
                _core._LAST.clear()
                exc = ck.run_grade_cell(nb, ns, gid)
                if exc is None:
                    continue  # test_catalogue.py says so
                out.append((f"{wrong.name} / {gid}", str(exc)))
                if _core._LAST:
                    exercise, (first, mistake) = next(reversed(_core._LAST.items()))
                    out.append((f"{wrong.name} / {gid} (second run)", _core._remember(exercise, first, mistake)))
    return out


@pytest.fixture(scope="module")
def messages(capsys_module=None):
    saved = dict(_core._SEEN), dict(_core._LAST)
    try:
        yield _messages()
    finally:
        _core._SEEN.clear(), _core._LAST.clear()
        _core._SEEN.update(saved[0]), _core._LAST.update(saved[1])


def test_the_catalogue_gives_messages(messages):
    assert len(messages) > 400  # every notebook's catalogue ran


@pytest.mark.parametrize("rule", [repeated_phrase, miscounted, misplaced_above, other_problems],
                         ids=lambda f: f.__name__)
def test_every_message_reads_well(messages, rule):
    bad = [(label, found) for label, message in messages for found in [rule(message)] if found]
    assert not bad, "\n".join(f"{label}: {found}" for label, found in bad[:20])


# --- the rules themselves can fail ----------------------------------------------------------

def test_the_rules_catch_what_they_are_for():
    assert repeated_phrase("Compare each step with the equation. Then compare each step with the equation again.")
    assert repeated_phrase("The weights are the right values in the wrong order.\n"
                           "Hint: the right values in the wrong order.")
    assert repeated_phrase("It reads a 3 x 3 block of the layer and then a 3 x 3 block of the input.") is None
    assert miscounted("matches the reference (1 cases).") == ["1 cases"]
    assert miscounted("differs in 3 entry of 12") == ["3 entry"]
    assert not miscounted("(1 case), 2 cases, 1 of 6 entries, shape (1, 4), 10 keys, has 3 dimension(s)")
    assert misplaced_above("compare each step with the equation above")
    assert misplaced_above("x is not right.\nCompare each step with the equation above.")
    assert not misplaced_above("x is not right.\nThe values shown above differ.")
    assert not misplaced_above("prediction_x = 'above 1%' is not right.")
    assert misplaced_above("prediction_x = 'above 1%' is not right, as above.")
    assert other_problems("x changed its input arrays in place.\nThis does not look like any mistake we know")
    assert other_problems("  expected: [1, 2]\n  yours:    [1, 2]")
    assert not other_problems("  expected: [1, 2]\n  yours:    [1, 3]")


def test_success_line_counts_its_cases():
    spec = _run.CheckSpec(exercise="f", reference=lambda x: x, cases=[_core.Case((1.0,))])
    assert spec.success().endswith("(1 case).")
    spec.cases = [_core.Case((1.0,)), _core.Case((2.0,))]
    assert spec.success().endswith("(2 cases).")


def test_a_case_named_by_its_sizes_is_not_described_twice():
    case = _core.Case((), {"L": 6, "D": 8}, why="L=6, D=8")
    assert _core.describe(case, ()) == "L=6, D=8"


def test_the_second_run_counter_is_kept_per_check(monkeypatch):
    monkeypatch.setattr(_core, "_SEEN", {})
    mistake = _core.Mistake("a mistake", "the fix", lambda: None, "the principle")
    message = "f is not right yet.\nWhat to change: the principle"
    assert "How to fix it" not in _core._remember("f", message, mistake, check="first check")
    assert "How to fix it" not in _core._remember("f", message, mistake, check="second check")
    again = _core._remember("f", message, mistake, check="first check")
    assert "How to fix it (second run): the fix" in again and "What to change" not in again


def test_in_place_write_is_named_alone():
    spec = _run.CheckSpec(exercise="f", reference=lambda x: x * 1.0, cases=[_core.Case((1.0,))])
    verdict = spec.verdict(0, _core.Outcome(value=1.0, mutated=True))
    assert verdict is not None and "in place" in verdict[0] and "does not look like" not in verdict[0]


def test_an_assertion_where_a_valueerror_is_due_is_worded_as_such():
    spec = _run.CheckSpec(exercise="f", reference=lambda x: x, cases=[_core.Case((1.0,), raises=ValueError)])
    message = spec.judge(0, _core.Outcome(error="AssertionError", message="bad shape"))
    assert "raised AssertionError (from an `assert` statement?) where a correct answer raises ValueError" in message
