"""Predict, then run: predictions are read, graded and explained, in-process and split across
the course grader's two processes; every question in ``attnlab.checks`` is consistent (its
answer passes, each catalogued wrong prediction fails with its name, None scores nothing)."""
from __future__ import annotations

import importlib
import pkgutil

import numpy as np
import pytest

import attnlab.checks as checks
from attnlab.checks import CheckFailure, SpecRecorded, SpecRecorder
from attnlab.checks._core import call
from attnlab.checks._predict import Prediction, WrongPrediction, read_prediction
from attnlab.course.sandbox import decode, encode

NUMBER = Prediction("prediction_variance", "number", 64, "Var(q·k) = d_k.", rtol=0.1,
                    wrong=(WrongPrediction(8, "√d_k instead of d_k", "that is the standard deviation."),
                           WrongPrediction(4096, "d_k² instead of d_k", "the variances add, once per term.")))
CHOICE = Prediction("prediction_weights", "choice", "sharper", "Scaling logits lowers the temperature.",
                    options=("sharper", "flatter", "unchanged"),
                    wrong=(WrongPrediction("unchanged", "softmax is scale-invariant",
                                           "it is shift-invariant, not scale-invariant."),))
INT_CHOICE = Prediction("prediction_row", "choice", 2, "Row 2.", options=(0, 1, 2))
SHAPE = Prediction("prediction_shape", "shape", (4, 100), "Each word gets a 100-d query.",
                   wrong=(WrongPrediction((4, 300), "the embedding width", "W_q maps 300 to 100."),))
INDICES = Prediction("prediction_rows", "indices", {2, 3}, "Rows 2 and 3 have no key.",
                     wrong=(WrongPrediction(set(), "no empty row", "the padding removes all keys."),))


def _message(question, value) -> str | None:
    try:
        question.check(value)
    except CheckFailure as exc:
        return str(exc)
    return None


def _split(question, value) -> str | None:
    """The course grader's route: the spec in the trusted process, the learner's value read in
    'the sandbox', the outcome through the sandbox's plain-array encoding, judged back home."""
    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        question.check(recorder)
    spec = recorder.spec
    outcome = call(value, spec.cases[0], spec.invoke)
    if outcome.error is None:
        arrays: dict = {}
        desc = encode(outcome.value, arrays)
        outcome.value = decode(desc, arrays)
    return spec.judge(0, outcome)


@pytest.mark.parametrize("route", [_message, _split], ids=["in-process", "split"])
@pytest.mark.parametrize("question,value,right", [
    (NUMBER, 64, True), (NUMBER, 63.0, True), (NUMBER, np.float32(66.5), True), (NUMBER, 80, False),
    (CHOICE, "sharper", True), (CHOICE, "  Sharper ", True), (CHOICE, "flatter", False),
    (INT_CHOICE, 2, True), (INT_CHOICE, np.int64(2), True), (INT_CHOICE, 1, False),
    (SHAPE, (4, 100), True), (SHAPE, [4, 100], True), (SHAPE, (100, 4), False), (SHAPE, (4, 100, 1), False),
    (INDICES, {3, 2}, True), (INDICES, [2, 3, 3], True), (INDICES, np.array([3, 2]), True),
    (INDICES, {2}, False), (INDICES, set(), False),
])
def test_predictions_are_graded(route, question, value, right):
    message = route(question, value)
    if right:
        assert message is None
    else:
        assert message is not None and f"The answer is {question.show(question.encode(question.answer))}" in message


@pytest.mark.parametrize("route", [_message, _split], ids=["in-process", "split"])
def test_wrong_predictions_are_named_and_explained(route):
    message = route(NUMBER, 4096)
    assert "d_k² instead of d_k" in message and "the variances add" in message and "Var(q·k) = d_k." in message
    assert "tempting" not in route(NUMBER, 1000)
    assert "softmax is scale-invariant" in route(CHOICE, "UNCHANGED")
    assert "no empty row" in route(INDICES, set()) and "set() (no index)" in route(INDICES, set())


@pytest.mark.parametrize("route", [_message, _split], ids=["in-process", "split"])
@pytest.mark.parametrize("question,value,expected", [
    (NUMBER, None, "not answered yet"),
    (NUMBER, "64", "without quotes"),
    (NUMBER, True, "expected a number"),
    (NUMBER, [64], "expected a number"),
    (CHOICE, "sharp", "expected one of 'sharper', 'flatter', 'unchanged'"),
    (CHOICE, 0, "expected one of"),
    (INT_CHOICE, "2", "expected one of 0, 1, 2"),
    (SHAPE, "4x100", "expected a shape"),
    (SHAPE, (4.0, 100), "non-negative ints"),
    (INDICES, "2, 3", "expected a set of indices"),
    (INDICES, np.array([False, False, True, True]), "boolean mask"),
])
def test_unanswered_and_unreadable_predictions(route, question, value, expected):
    message = route(question, value)
    assert message is not None and expected in message


def test_a_prediction_that_is_not_defined():
    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        NUMBER.check(recorder)
    from attnlab.checks import Outcome
    message = recorder.spec.judge(0, Outcome(error="NameError", message="name 'prediction_variance' is not defined"))
    assert "not defined" in message


def test_a_question_whose_wrong_answer_counts_as_right_is_refused():
    with pytest.raises(ValueError, match="counts as right"):
        Prediction("p", "number", 64, "x", rtol=0.5, wrong=(WrongPrediction(80, "too big", "x"),))
    with pytest.raises(ValueError, match="expected one of"):
        Prediction("p", "choice", "maybe", "x", options=("yes", "no"))


def test_read_prediction_returns_plain_numbers():
    assert read_prediction("Flatter", "choice", ("sharper", "flatter")).item() == 1
    np.testing.assert_array_equal(read_prediction(range(3), "indices"), [0, 1, 2])
    np.testing.assert_array_equal(read_prediction(5, "shape"), [5])


def _all_questions() -> list[tuple[str, Prediction]]:
    """Every question: the cards' (one per question) and any a check module still holds."""
    from attnlab.cards import all_cards

    found = [(f"cards.{c.exercise}", c.prediction) for c in all_cards() if c.prediction is not None]
    for info in pkgutil.iter_modules(checks.__path__):
        module = importlib.import_module(f"attnlab.checks.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, Prediction) and not name.startswith("_") and all(obj is not q for _, q in found):
                found.append((f"{info.name}.{name}", obj))
    import coursekit as ck
    cells = sum(len(ck.predictions(ck.load(ck.solution_path(a)))) for a in ck.assignments())
    assert len(found) >= cells, f"{len(found)} questions found for {cells} predict-then-run cells"
    return found


QUESTIONS = _all_questions()


@pytest.mark.parametrize("name,question", QUESTIONS, ids=[n for n, _ in QUESTIONS])
def test_every_course_question_is_consistent(name, question, capsys):
    question.check(question.answer)
    assert question.explanation in capsys.readouterr().out
    needed = min(2, len(question.options) - 1) if question.kind == "choice" else 2  # a yes/no has one
    assert len(question.wrong) >= needed, f"{name}: catalogue at least two tempting wrong predictions"
    for w in question.wrong:
        message = _message(question, w.answer)
        assert message is not None and w.name in message and w.why in message
    assert "not answered yet" in _message(question, None)
    check = getattr(checks, f"check_{question.variable}", None)
    assert check is not None, f"attnlab.checks has no check_{question.variable} for {name}"


def test_graded_course_feedback_names_the_slip_but_not_the_answer(monkeypatch):
    monkeypatch.setenv("ATTNLAB_FEEDBACK", "mistake-only")
    for route in (_message, _split):
        message = route(NUMBER, 4096)
        assert "d_k² instead of d_k" in message
        assert "The answer is" not in message and "Var(q·k) = d_k." not in message
