"""Predict, then run: predictions are read, graded and explained, in-process and split across
the course grader's two processes; every question in ``attnlab.checks`` is consistent (its
answer passes, each catalogued wrong prediction fails with its name, None scores nothing)."""
from __future__ import annotations

import importlib
import pkgutil
import re

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


# --- a prediction is never answered above its question ---------------------------------------
# The text above a predict-then-run question (the story, the question's givens, the code cells
# and what they print) must not hold its answer: not the answer's words, nor its number in any
# unit, nor a sentence that says it in other words. Every notebook is read (issue 41).
ANSWER_ABOVE_NOTEBOOKS = ("01_weighted_averages", "02_query_key_value", "03_self_attention",
                          "04_masks_and_cross_attention", "05_multi_head_attention",
                          "06_attention_as_kernel_machine", "07_rnn_translation_with_attention",
                          "08_efficient_attention", "09_transformer", "10_attention_on_images",
                          "11_modern_attention", "12_what_attention_learns",
                          "13_attention_variants")

_BYTE_UNITS = {"bytes": 1, "byte": 1, "B": 1, "KB": 1e3, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
               "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
# the unit a number question asks in: a number above it counts in any unit of the same kind
QUESTION_UNITS = {"prediction_gqa_cache_gb": "GB", "prediction_score_memory_gib": "GiB"}
# sentences that say a choice question's answer in other words (regular expressions, any case)
_ORDER_BLIND = [r"\bno positions\b", r"order[- ]blind", r"ignores? (?:the )?(?:word )?order", r"bag of words",
          r"permutation[- ](?:in|equi)varian", r"(?:does not|doesn't|cannot|can't|never) (?:see|sees|know|knows) (?:the )?(?:word )?order",
          r"no (?:notion|sense|idea) of (?:position|order|where)", r"depends? only on which (?:tokens|words)",
          r"(?:reorder|shuffl|revers|swap)\w*[^.]{0,60}(?:reorders?|shuffles?|permutes?|swaps?) (?:the|their) outputs?",
          r"(?:does not|doesn't|do not|don't) care about (?:the )?order", r"never on where (?:they|it) (?:are|is)",
          r"cannot tell (?:a|one) [^.]{0,30} from (?:the|another|a)"]
TELLS = {
    "prediction_shifted_scores": [r"only (?:through|on) (?:the )?offset", r"only sees the angle between",
                                  r"depends? only on (?:the )?(?:offset|difference|relative)",
                                  r"R_\{\(p'\s*-\s*p\)", r"(?:shift|move)[^.]{0,40}leaves? every score",
                                  # issue 41: the intro's "not only on p - p'" and "see *relative* positions"
                                  r"not only on \$?p\s*-\s*p'", r"not only on (?:the )?(?:offset|difference)",
                                  r"\*?relative\*? positions?"],
    # the same move in floating point: the text above must not say that positions or angles lose precision
    "prediction_bf16_shifted_scores": [r"(?:bf16|bfloat16|half[- ]precision)[^.]{0,80}(?:integers?|positions?)[^.]{0,40}(?:exact|round)",
                                       r"(?:positions?|integers?)[^.]{0,40}(?:rounds?|rounded|collapse)\w*[^.]{0,40}(?:same|one|8,?192)",
                                       r"angles?[^.]{0,40}in (?:float32|full precision)", r"integers?[^.]{0,30}(?:up to|below|only to) 256\b",
                                       r"(?:lose|loses|lost) (?:its |their )?positions"],
    "prediction_float32_shifted_scores": [r"error[^.]{0,60}(?:grows?|proportional|scales?) (?:with|to) (?:the )?position",
                                          r"error is absolute", r"within (?:about )?0\.00\d radians?",
                                          r"float32[^.]{0,60}not (?:exactly )?(?:shift[- ])?invariant",
                                          r"rounded[^.]{0,40}relative to its (?:own )?size"],
    "prediction_beats_least_squares": [r"solves the whole problem",
                                       r"least squares[^.]{0,60}\b(?:exact|better|beats|more accurate|wins)",
                                       # issue 41: the question's "targets without noise", the "best one-step
                                       # method" above it, and the heading "Is one step as good as solving?"
                                       r"without noise", r"noiseless", r"best \*?(?:one-step|single[- ]step)",
                                       r"as good as solv", r"one step is not a solve", r"\bis one step\b"],
    "prediction_gqa_cache_gb": [r"H_\{?kv\}?\s*\\cdot", r"(?:for|per) every key/value head", r"per key/value head",
                                r"queries are (?:never|not) (?:cached|kept)",
                                # issue 41: the full-heads cache stated above the question (17.18 GB) makes
                                # the answer one division
                                r"(?:cache|keeps?)[^.]{0,80}\d[\d.,]*(?:</span>)?\s*Gi?B\b"],
    "prediction_reversed_hypothesis": _ORDER_BLIND,
    "prediction_control_shifted_loss": [r"control[^.]{0,160}(?:worse than (?:chance|guessing)|above (?:chance|\\ln V))",
                                        r"(?:confident(?:ly)?|sure)[^.]{0,40}wrong", r"wrong[^.]{0,40}confiden",
                                        r"(?:reads?|copies) (?:the token )?11 (?:positions|places) back[^.]{0,80}"
                                        r"(?:shifted|moved|other period|wrong token)"],
    # issue: two period questions of notebook 12 (outside the training periods)
    "prediction_period2_prev_ablated": [r"(?:only|just) two (?:different |distinct )?tokens[^.]{0,80}(?:one of them|target|answer)",
                                        r"(?:copies|copy) from the context[^.]{0,80}(?:two|2) tokens",
                                        r"period 2[^.]{0,120}(?:ablat|without (?:the )?layer[- ]1)[^.]{0,80}(?:between|partly|partial|still copies|hurt)",
                                        r"(?:ablat|without)[^.]{0,60}layer[- ]1[^.]{0,80}period 2[^.]{0,80}(?:between|partly|partial|still copies|hurt)",
                                        r"(?:breaks?|broken)[^.]{0,40}only (?:where|when) the repeat holds many"],
    "prediction_period15_copying": [r"(?:never|not) more than 11 (?:positions|places) (?:behind|back)",
                                    r"longer (?:periods?|distances?)[^.]{0,60}(?:worse|weaker|partly|partial|fades?)",
                                    r"extrapolat", r"period 1[3-9][^.]{0,80}(?:partly|partial|between|worse|fails?)",
                                    r"(?:outside|beyond) (?:the )?(?:range of the )?training periods[^.]{0,80}(?:partly|partial|between|worse)"],
    "prediction_topk_full": [r"k\s*=\s*L_?\{?k\}?[^.]{0,60}(?:is|equals?|gives?) (?:the )?dense",
                             r"(?:every|all) keys? (?:is |are )?kept[^.]{0,60}(?:same|dense|softmax)",
                             r"renormalis\w+ over all (?:the )?keys"],
    # notebooks 01-10
    "prediction_scaled_logits": [r"lower(?:s|ing)? the temperature", r"(?:gaps?|differences?)[^.]{0,40}ten times (?:larger|bigger)",
                                 r"raised to the (?:10th|tenth) power", r"largest score takes (?:almost )?all the weight",
                                 r"(?:larger|bigger) (?:scores|logits)[^.]{0,40}(?:sharper|more peaked|closer to one-hot)", r"temperature (?:of )?(?:τ|\\tau) *= *0\.1",
                                 r"(?:multiply|scal)\w* (?:every|the|all) (?:scores|logits)[^.]{0,60}(?:sharper|peak|one-hot)",
                                 r"larger (?:gaps|differences)[^.]{0,40}sharper", r"w_i\s*/\s*w_j[^.]{0,60}(?:squar|power|\^\{?10)"],
    "prediction_the_attends_to": [r"rewards? (?:the )?(?:length|norm)", r"grows with the \*?(?:length|norm)",
                                  r"(?:long|large)(?:er)? (?:vectors?|tokens?|words?)[^.]{0,60}(?:wins?|more weight|largest weight)",
                                  r"\bdog\b[^.]{0,60}(?:largest|most) weight", r"\bdog\b[^.]{0,30}edges? out",
                                  r"largest sum of (?:its )?features wins", r"does not (?:usually )?match itself best"],
    "prediction_dot_winner": [r"rewards? (?:the )?(?:length|norm)", r"grows with the \*?(?:length|norm)",
                              r"long(?:er)? key[^.]{0,60}(?:wins?|beats?|more weight)", r"length as well as",
                              r"(?:a|the) short(?:er)? key[^.]{0,60}(?:loses?|less weight)"],
    "prediction_dog_output": _ORDER_BLIND,
    "prediction_reversed_sentence": _ORDER_BLIND,
    "prediction_shuffled_output": _ORDER_BLIND + [r"\bequivarian", r"shuffl\w* the (?:pixels|tokens|patches)[^.]{0,40}shuffles? (?:the )?(?:tokens|outputs?)",
                                                  r"same vector[^.]{0,40}(?:new|other) (?:place|position)"],
    "prediction_gradient_decay": [r"\b1\s*/\s*L\b", r"inversely (?:proportional )?(?:to|with) (?:the length|L\b)",
                                  r"shar\w+ (?:the|its) weight[^.]{0,40}(?:L|every) keys?"],
    "prediction_first_output": [r"out(?:put)?_\{?0\}?\s*=\s*v_\{?0", r"(?:token|query) 0 (?:may )?(?:only )?(?:attends?|sees?|reads?) (?:only )?(?:to )?itself",
                                r"(?:single|one) key[^.]{0,40}(?:weight (?:of )?1|all the weight)",
                                r"first (?:token|output|row)[^.]{0,60}(?:its own value|v_\{?0)"],
    "prediction_clitic_peak": [r"t'[^.]{0,80}\blove\b", r"(?:attends?|looks?|peaks?) (?:to|at|on) [\"“]?love",
                               r"backward (?:GRU|RNN|pass)[^.]{0,80}(?:has )?(?:already )?read",
                               r"keys? (?:are|is) (?:the )?(?:bidirectional )?(?:GRU |encoder )?states?, not (?:the )?words",
                               r"attention (?:does not|doesn't|need not) follow the (?:gold )?alignment"],
    "prediction_dk_sum": [r"(?:gradients?|dK)[^.]{0,40}sums? to (?:the )?(?:zero|0)", r"Σ_j dK_j\s*=\s*0",
                          r"(?:same|common) (?:vector|shift|c) (?:added )?to every key[^.]{0,80}(?:cancel|unchanged|ignore)",
                          r"(?:move|shift)\w* every key by the same"],
    "prediction_offset_dot": [r"depends? only on (?:the )?(?:offset|difference|distance)", r"function of (?:the )?offset",
                              r"q\s*-\s*p\b[^.]{0,10}alone", r"(?:turns?|rotates?) [^.]{0,30}whatever (?:p|the position)",
                              r"same (?:offset|distance)[^.]{0,60}same (?:dot|score|similarity)"],
}
# questions whose notebook is being rewritten elsewhere: known to fail, named here until it lands
ANSWERED_ABOVE_KNOWN: dict[str, str] = {}  # (a question answered above: xfail with why; none now)
_UNIT = re.compile(r"\s*(?P<unit>" + "|".join(sorted(map(re.escape, _BYTE_UNITS), key=len, reverse=True))
                   + r")(?![A-Za-z])")
_QUESTION_HEADING = re.compile(r"(?:#+\s*|\*\*)Predict, then run", re.I)


def _numbers(text: str):
    """``(value, unit or None)`` for every number the text shows (``claims.number_in`` reads each)."""
    from attnlab.claims import _NUMBER, number_in

    for m in _NUMBER.finditer(text):
        shown = number_in(m.group(0))
        if shown is None:
            continue
        unit = _UNIT.match(text, m.end())
        yield shown[0], unit.group("unit") if unit else None


def _gives_number(text: str, answer: float, rtol: float, unit: str | None) -> str | None:
    """The first number of ``text`` that the question's check would accept as its answer, once
    converted to the question's unit (bytes to GB, GiB to GB, ...); a number with no unit is read
    in the question's unit."""
    for value, shown_unit in _numbers(text):
        if unit is not None and shown_unit is not None:
            value = value * _BYTE_UNITS[shown_unit] / _BYTE_UNITS[unit]
        elif shown_unit is not None:
            continue
        if abs(value - answer) <= max(rtol, 1e-12) * abs(answer) + (1e-12 if answer == 0 else 0.0):
            return f"{value:g} {unit or ''}".strip()
    return None


def _printed_above(nb: dict, index: int) -> str:
    """What the code cells above cell ``index`` print, run in order in a fresh namespace."""
    import contextlib
    import io
    import os

    os.environ.setdefault("MPLBACKEND", "Agg")
    out = io.StringIO()
    ns: dict = {"__name__": "__notebook__"}
    with contextlib.redirect_stdout(out):
        for cell in nb["cells"][:index]:
            if cell["cell_type"] == "code":
                exec(compile(cell["source"], "<cell above>", "exec"), ns)
    import matplotlib.pyplot as plt
    plt.close("all")
    return out.getvalue()


def _answer_above_cases():
    import coursekit as ck
    from attnlab.cards import all_cards

    questions = {c.prediction.variable: c.prediction for c in all_cards() if c.prediction is not None}
    for assignment in ANSWER_ABOVE_NOTEBOOKS:
        nb = ck.load(ck.solution_path(assignment))
        for index, cell in enumerate(nb["cells"]):
            gid = ck.nbg(cell).get("grade_id", "")
            if not gid.startswith(ck.PREDICTION_PREFIX):   # the answer's cell, not its grade cell
                continue
            variable = "prediction_" + gid[len(ck.PREDICTION_PREFIX):]
            marks = ([pytest.mark.xfail(reason=ANSWERED_ABOVE_KNOWN[variable], strict=True)]
                     if variable in ANSWERED_ABOVE_KNOWN else [])
            yield pytest.param(assignment, index, questions[variable], marks=marks, id=f"{assignment[:2]}:{variable}")


@pytest.mark.parametrize("assignment,index,question", list(_answer_above_cases()))
def test_a_prediction_is_not_answered_above_its_question(assignment, index, question):
    import coursekit as ck

    nb = ck.load(ck.solution_path(assignment))
    above = nb["cells"][:index]
    markdown = "\n".join(c["source"] for c in above if c["cell_type"] == "markdown")
    code = "\n".join(c["source"] for c in above if c["cell_type"] == "code")
    heading = list(_QUESTION_HEADING.finditer(markdown))
    story = markdown[: heading[-1].start()] if heading else markdown   # the text before the question
    # (an earlier question's own paragraph names its options: not a statement of this answer)
    story = re.sub(r"(?:#+\s*|\*\*)Predict, then run.*?(?:\n\s*\n|$)", "", story, flags=re.I | re.S)
    assert heading, f"{question.variable}: no 'Predict, then run' heading above its cell"
    name = question.variable
    for tell in TELLS.get(name, ()):
        said = re.search(tell, re.sub(r"\s+", " ", story), re.I)
        assert said is None, f"{name}: the text above says the answer in other words: {said.group(0)!r}"
    if question.kind == "number":
        unit = QUESTION_UNITS.get(name)
        printed = _printed_above(nb, index)
        for where, text in (("the text above", markdown), ("the code above", code),
                            ("what the cells above print", printed)):
            found = _gives_number(text, float(question.answer), question.rtol, unit)
            assert found is None, f"{name}: {where} already shows the answer {question.answer} (as {found})"
    elif question.kind == "choice":
        assert name in TELLS, f"{name}: list the sentences that would give its answer away in TELLS"
        answer = str(question.answer)
        # (an earlier question's own option list quotes its options: those are not answers)
        asked = "\n".join(c["source"] for c in above if c["cell_type"] == "code"
                          and not ck.nbg(c).get("grade_id", "").startswith(ck.PREDICTION_PREFIX))
        quoted = re.search(rf"[\"'`“]{re.escape(answer)}[\"'`”]", story + asked, re.I)
        assert quoted is None, f"{name}: the text above quotes the answer {answer!r}"
    else:
        shown = question.show(question.encode(question.answer))
        assert shown not in story + code, f"{name}: the text above shows the answer {shown}"


@pytest.mark.parametrize("text,answer,rtol,unit,gives", [
    ("a cache of 4.29 GB", 4.29, 0.01, "GB", True),
    ("a cache of 4,294,967,296 bytes", 4.29, 0.01, "GB", True),          # another unit
    ("that is 4.00 GiB", 4.29, 0.01, "GB", True),                         # 4 GiB = 4.295 GB
    ("4.294967296 GB\n", 4.29, 0.01, "GB", True),                         # a printed value
    ("with 4 heads of width 128 and 17.18 GB", 4.29, 0.01, "GB", False),  # a bare 4 is no 4.29
    ("8 key/value heads, 32 layers", 4.29, 0.01, "GB", False),
    ("a score of 64", 64, 0.1, None, True),
    ("d_k = 8 and 4096 samples", 64, 0.1, None, False),
])
def test_a_number_above_is_read_in_every_unit(text, answer, rtol, unit, gives):
    assert (_gives_number(text, answer, rtol, unit) is not None) == gives
