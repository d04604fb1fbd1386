"""No ✓ message answers a later prediction of the same notebook (issue 57).

A learner reads the ✓ lines in the order of the notebook: the success line of every check a grade
cell calls (``✓ exercise: passed``), and, for a prediction, its explanation (``✓ prediction_x:
right. ...``, also shown with a wrong answer). A later predict-then-run question is worth
something only if none of these lines already said its answer. Notebook 13's top-k check once
said "k = Lk is dense attention" two cells before the prediction that asks what top-k attention
with k = Lk is.

What "gives away" means here, precisely. Text is compared as tokens: lower-case words, numbers
(``1,152`` and ``1 152`` are one number) and the symbols ``= < > + - * / ^ √ %``. A ✓ line shown
before a prediction's solution cell gives that prediction away when

1. **the answer is said verbatim**: the right answer as ``Prediction.show`` writes it appears
   in the line: a shape or a set of indices with its brackets (``(4, 100)``, ``{2, 3}``, spaces
   ignored); a number of three digits or more as a whole token (in any of its usual spellings,
   never as part of a longer number); a choice's option of two content words or more as a whole
   token run. A small number or a one-word option ("partly", "the same") occurs in ordinary
   sentences, so it is matched by rule 2 only; or
2. **the conclusion is restated**: the line shares a run of at least ``RUN`` consecutive tokens
   with the prediction's own explanation, and that run holds a content word (or the number) of
   the right answer. ("k = lk is dense attention" is such a run for ``prediction_topk_full``,
   whose answer is "equal to dense attention".)

Content words are the tokens of the answer minus a short list of function words. The negative
tests below build lines that break each rule and lines that must pass.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import coursekit as ck

RUN = 4  # shared tokens with the explanation that make a restated conclusion
FUNCTION_WORDS = frozenset("a an and as at be by for from in is it of on or than that the to with".split())
_TOKEN = re.compile(r"\d+(?:[ ,]\d{3})*(?:\.\d+)?|[a-z_]+|[=<>+\-*/^√%]")


def tokens(text: str) -> list[str]:
    """Lower-case words, numbers (thousands separators dropped) and the symbols of formulas."""
    text = text.lower().replace("·", " * ").replace("×", " x ").replace("−", "-")
    return [t.replace(",", "").replace(" ", "") if t[0].isdigit() else t for t in _TOKEN.findall(text)]


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return n > 0 and any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


def _shared_runs(a: list[str], b: list[str], at_least: int) -> list[list[str]]:
    """The maximal runs of at least ``at_least`` tokens that ``a`` and ``b`` share."""
    runs = []
    for i in range(len(a)):
        for j in range(len(b)):
            if i and j and a[i - 1] == b[j - 1]:
                continue  # not the start of a maximal run
            k = 0
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            if k >= at_least:
                runs.append(a[i:i + k])
    return runs


def gives_away(line: str, prediction) -> str | None:
    """Why ``line`` (a ✓ message) gives ``prediction``'s answer away, or None (the rules above)."""
    shown = prediction.show(prediction.encode(prediction.answer))
    answer = tokens(shown.strip("'\""))
    content = [t for t in answer if t not in FUNCTION_WORDS and not re.fullmatch(r"[=<>+\-*/^√%]", t)]
    said = tokens(line)
    if prediction.kind in ("shape", "indices"):  # written with its brackets: "(4, 100)", "{2, 3}", "set()"
        written = shown.split(" (")[0] if shown.startswith("set()") else shown
        if re.sub(r"\s", "", written) in re.sub(r"\s", "", line):
            return f"it says the answer, {shown}"
    else:
        verbatim = len(content) >= 2 if prediction.kind == "choice" else len(answer[0].replace(".", "")) >= 3
        if verbatim and _contains_run(said, answer):
            return f"it says the answer, {shown}"
    for run in _shared_runs(said, tokens(prediction.explanation), RUN):
        if set(run) & set(content):
            return f"it restates the explanation's conclusion: {' '.join(run)!r} (the answer is {shown})"
    return None


@dataclass(frozen=True)
class Shown:
    """A ✓ line and the grade cell that prints it."""

    grade_id: str
    line: str


def _success_line(check_name: str) -> str:
    import attnlab.checks as checks

    spec = ck.recorded_spec(getattr(checks, check_name), hidden=False)
    return f"✓ {spec.exercise}: {spec.passed}"


def predictions_and_what_came_before(assignment: str) -> list[tuple[object, list[Shown]]]:
    """Each prediction of the notebook, in order, with every ✓ line its grade cells print before
    the prediction's solution cell (where the learner commits to an answer)."""
    from attnlab.cards import cards_of

    questions = {c.prediction.variable: c.prediction for c in cards_of(assignment) if c.prediction is not None}
    nb = ck.load(ck.solution_path(assignment))
    shown: list[Shown] = []
    out = []
    for cell in nb["cells"]:
        meta = ck.nbg(cell)
        gid = meta.get("grade_id", "")
        if meta.get("solution") and gid.startswith(ck.PREDICTION_PREFIX):
            out.append((questions["prediction_" + gid[len(ck.PREDICTION_PREFIX):]], list(shown)))
        if meta.get("grade") and cell["cell_type"] == "code":
            visible = cell["source"].split("### BEGIN HIDDEN TESTS")[0]
            shown.extend(Shown(gid, _success_line(name)) for name in re.findall(r"\b(check_\w+)\(", visible))
    return out


@pytest.mark.parametrize("assignment", ck.assignments())
def test_no_success_line_answers_a_later_prediction(assignment):
    found = []
    for prediction, before in predictions_and_what_came_before(assignment):
        for s in before:
            why = gives_away(s.line, prediction)
            if why:
                found.append(f"{s.grade_id} before {prediction.variable}: {why}\n    {s.line}")
    assert not found, "✓ lines that answer a later prediction:\n" + "\n".join(found)


def test_every_notebook_is_read():
    """The walk finds every prediction of every notebook, and ✓ lines before most of them."""
    from attnlab.cards import all_cards

    walked = [p.variable for a in ck.assignments() for p, _ in predictions_and_what_came_before(a)]
    assert sorted(walked) == sorted(c.prediction.variable for c in all_cards() if c.prediction is not None)


# ---------------------------------------------------------------------------------------------
# The rules, on lines built to break them (negative tests) and lines that must pass

def _card(variable):
    from attnlab.cards import all_cards

    return next(c.prediction for c in all_cards() if c.prediction is not None and c.prediction.variable == variable)


def test_the_old_topk_line_is_caught():
    """Notebook 13's top-k check before issue 57: its ✓ line restated the later prediction."""
    line = "✓ topk_attention: the k best keys, renormalised; k = Lk is dense attention (4 cases)."
    assert "restates" in gives_away(line, _card("prediction_topk_full"))


def test_a_number_said_in_any_spelling_is_caught():
    question = _card("prediction_mla_cache_bytes")  # 1152 bytes
    for line in ("✓ x: MLA keeps 1,152 bytes per token", "✓ x: 1152 bytes", "✓ x: that is 1 152 bytes"):
        assert "says the answer" in gives_away(line, question), line
    for line in ("✓ x: 11520 bytes", "✓ x: 1.152 GB", "✓ x: 21152 numbers"):
        assert gives_away(line, question) is None, line


def test_an_option_said_verbatim_is_caught():
    question = _card("prediction_topk_full")
    assert "says the answer" in gives_away("✓ x: it is equal to dense attention here", question)


def test_a_constructed_notebook_with_a_spoiler_fails(monkeypatch):
    """The whole walk, on a notebook whose check says a later prediction's answer: the test fails."""
    import attnlab.checks as checks
    from attnlab.checks._run import run_check

    def check_spoiler(fn, hidden=False):
        run_check(fn, exercise="spoiler", reference=lambda: 0.0, cases=[],
                  passed="done; with k = Lk top-k attention is dense attention")

    nb = {"cells": [
        {"cell_type": "code", "source": "check_spoiler(f)",
         "metadata": {"nbgrader": {"grade": True, "grade_id": "test_spoiler"}}},
        {"cell_type": "code", "source": "prediction_topk_full = None",
         "metadata": {"nbgrader": {"solution": True, "grade_id": "predict_topk_full"}}},
    ]}
    monkeypatch.setattr(checks, "check_spoiler", check_spoiler, raising=False)
    monkeypatch.setattr(ck, "load", lambda path: nb)
    monkeypatch.setattr(ck, "solution_path", lambda assignment: assignment)
    with pytest.raises(AssertionError, match="test_spoiler before prediction_topk_full"):
        test_no_success_line_answers_a_later_prediction("13_attention_variants")


def test_ordinary_lines_pass():
    """Lines on the same subject that do not state the answer are not flagged."""
    assert gives_away("✓ topk_attention: each query's k best keys, their weights renormalised to sum to one",
                      _card("prediction_topk_full")) is None
    # "the same" is a single content word: an ordinary phrase, not the option said verbatim
    assert gives_away("✓ x: the same weights serve a sentence of any length", _card("prediction_dog_output")) is None


def test_sets_and_shapes_are_matched_with_their_brackets():
    question = _card("prediction_unflipped_keys")  # {4}
    assert gives_away("✓ x: the last query, 4, sees all three keys", question) is None
    assert "says the answer" in gives_away("✓ x: only the keys {4} change", question)


def test_tokens():
    assert tokens("k = Lk is dense attention") == ["k", "=", "lk", "is", "dense", "attention"]
    assert tokens("1,152 bytes; 65 536") == ["1152", "bytes", "65536"]
