"""Nothing hidden reaches the learner (issue 26): the sandbox gets the grading job's calls one at
a time from the grader, so learner code that searches its own process (``gc``, frames) finds at
most the call it is answering; a hidden test's verdict names the check and the mistake, never
what the learner's code printed, raised or returned on it, nor its inputs.

Graded in-process with ``grading.grade_submission`` on notebook 01 (the fastest), beside an honest
submission that must keep full marks."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import coursekit as ck
from attnlab.checks._core import Outcome
from attnlab.course.plan import plan_assignment

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("hidden_boundary")]  # one class graded once

A = "01_weighted_averages"

SOFTMAX = ("    z = x - np.max(x, axis=axis, keepdims=True)\n    e = np.exp(z)\n"
           "    return e / np.sum(e, axis=axis, keepdims=True)\n")

# What a search of the interpreter finds that looks like one of the grader's calls (a dict with
# the inputs), other than the call being answered now; and the reference's answers to them. It
# skips look-alikes (a dataclass's field table has keys 'args' and 'invoke' too) so that it runs
# to the end: a search that crashes proves nothing.
HUNT = (
    "import gc, sys\n"
    "def _calls():\n"
    "    found = {}\n"
    "    for o in gc.get_objects():\n"
    "        if isinstance(o, dict) and isinstance(o.get('args'), (tuple, list)) and 'invoke' in o:\n"
    "            found[id(o)] = o\n"
    "        elif isinstance(o, dict) and isinstance(o.get('calls'), list):\n"
    "            found.update((id(c), c) for c in o['calls'] if isinstance(c, dict))\n"
    "    f = sys._getframe()\n"
    "    while f is not None:\n"
    "        for v in list(f.f_locals.values()):\n"
    "            if isinstance(v, dict) and isinstance(v.get('calls'), list):\n"
    "                found.update((id(c), c) for c in v['calls'] if isinstance(c, dict))\n"
    "        f = f.f_back\n"
    "    arrays = [a for c in found.values() if isinstance(c.get('args'), (tuple, list))\n"
    "              for a in c['args'][:1] if isinstance(a, np.ndarray)]\n"
    "    return list({(a.shape, a.tobytes()): a for a in arrays}.values())  # distinct inputs\n")

ATTACKS = {
    # a cell prints every call it can find into its output (which the feedback shows)
    "prints_the_job": (HUNT + "_seen = _calls()\nprint('FOUND', len(_seen))\nfor a in _seen:\n    print(repr(a))\n",
                       None),
    # a table of answers to the job's own inputs, computed in a cell before any call
    "answers_from_a_table": (
        HUNT + "_table = {a.tobytes(): None for a in _calls()}\nprint('TABLE', len(_table))\n",
        "def softmax(x, axis=-1):\n    if x.tobytes() not in _table:\n        return np.zeros_like(x)\n" + SOFTMAX),
    # during a call, the function looks for the other calls' inputs (and says so by raising); the
    # call it answers (mix_tokens's, when mix_tokens calls softmax) is the one new input it may
    # find (the earlier calls' it has seen already)
    "hunts_while_called": (
        HUNT + "_known = set()\n",
        "def softmax(x, axis=-1):\n    new = [a for a in _calls() if (a.shape, a.tobytes()) not in _known]\n"
        "    _known.update((a.shape, a.tobytes()) for a in new)\n"
        "    others = new\n"
        "    if len(new) > 1:\n        raise ValueError('OTHERS ' + repr(others)[:3000])\n" + SOFTMAX),
    # raises its input back on the hidden cases of check_softmax (the grader's 6th to 10th call)
    "raises_its_input": (
        "_n = [0]\n",
        "def softmax(x, axis=-1):\n    import sys\n"
        "    if sys._getframe(1).f_globals.get('__name__', '').startswith('attnlab.checks'):\n"
        "        _n[0] += 1\n"
        "        if 5 < _n[0] <= 10:\n"
        "            print('PRINTED', repr(x))\n"
        "            raise ValueError('LEAK ' + repr(x) + ' ' + repr(x.shape))\n" + SOFTMAX),
}


def _with_cell(nb: dict, source: str, at: int = 3) -> dict:
    nb = json.loads(json.dumps(nb))
    nb["cells"].insert(at, {"cell_type": "code", "id": f"added-{abs(hash(source)) % 10**8}", "metadata": {},
                            "source": source, "outputs": [], "execution_count": None})
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    from attnlab.course import grading
    from attnlab.course.stages import handoff

    scratch = tmp_path_factory.mktemp("hidden-boundary")
    plan = plan_assignment(ck.ROOT, A)
    subs = []
    for name, (cell, softmax) in {"honest": ("", None), **ATTACKS}.items():
        nb = ck.completed_student_notebook(A, {"softmax": softmax} if softmax else None)
        if cell:
            nb = _with_cell(nb, cell)
        folder = scratch / "submitted" / name / A
        folder.mkdir(parents=True)
        (folder / f"{A}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
        subs.append(handoff.Submission(name, A, folder))
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda s: grading.grade_submission(s, plan, handoff.Limits(), scratch, [ck.ROOT]),
                                subs))
    return plan, {r.student: r for r in results}


def _everything_shown(r) -> str:
    """What the feedback and the CSV row are made of."""
    return json.dumps([r.row(), [c.lines for c in r.cells], r.cell_log], default=str)


def _hidden_inputs(plan) -> list[np.ndarray]:
    return [a for cell in plan.grade_cells for cc in cell.calls if cc.hidden
            for case in cc.spec.cases for a in case.args if isinstance(a, np.ndarray) and a.size > 1]


def _cells(r) -> dict:
    return {c.grade_id: c for c in r.cells}


def test_honest_work_keeps_full_marks(graded):
    _, results = graded
    r = results["honest"]
    assert r.status == "graded" and r.score == r.max_score, (r.status, r.details)


@pytest.mark.parametrize("name", list(ATTACKS))
def test_no_hidden_input_reaches_feedback_or_csv(graded, name):
    plan, results = graded
    shown = _everything_shown(results[name])
    for a in _hidden_inputs(plan):
        for text in (repr(a), repr(a.tolist())[:40], np.array2string(a)[:40]):
            assert text not in shown, f"{name}: a hidden input reached the feedback or the CSV"
    assert "LEAK" not in shown and "PRINTED" not in shown and "OTHERS" not in shown


def test_a_cell_searching_the_process_finds_no_call(graded):
    _, results = graded
    r = results["prints_the_job"]
    assert all(e["status"] == "ok" for e in r.cell_log if "(yours)" in e["label"]), r.cell_log  # the search ran
    out = "".join(str(e.get("stdout", "")) for e in r.cell_log)
    assert "FOUND 0" in out, out[:500]
    # the search itself is tampering (the static checks): every cell at 0, and says why (issue 38)
    assert all(c.score == 0 and "tampering detected" in c.lines[-1] for c in r.cells), [c.lines for c in r.cells]


def test_a_table_of_the_jobs_inputs_earns_nothing(graded):
    _, results = graded
    r = results["answers_from_a_table"]
    assert all(e["status"] == "ok" for e in r.cell_log if "(yours)" in e["label"]), r.cell_log  # the search ran
    out = "".join(str(e.get("stdout", "")) for e in r.cell_log)
    assert "TABLE 0" in out, out[:500]
    cells = _cells(r)
    assert cells["test_softmax"].score == 0 and cells["test_softmax_stable"].score == 0
    assert cells["test_weighted_average"].score == 0  # the search is tampering: every cell at 0 (issue 38)


def test_a_call_finds_no_other_call(graded):
    _, results = graded
    r = results["hunts_while_called"]  # it found nothing to copy; the hunt itself is tampering (issue 38)
    assert all(c.score == 0 and "tampering detected" in c.lines[-1] for c in r.cells), [c.lines for c in r.cells]
    assert not any("hidden test" in line for c in r.cells for line in c.lines), [c.lines for c in r.cells]


def test_a_hidden_failure_names_the_check_not_what_the_code_said(graded):
    _, results = graded
    cells = _cells(results["raises_its_input"])
    cell = cells["test_softmax"]
    assert cell.score == 0 and not cell.passed
    assert "hidden test" in cell.lines[0] and "check_softmax" in cell.lines[0], cell.lines
    assert "ValueError" not in cell.lines[0] and "LEAK" not in cell.lines[0] and "shape (" not in cell.lines[0]
    assert cells["test_softmax_stable"].score == 0 and len(cells["test_softmax_stable"].lines) == 1  # the
    # cases it answered were right: only the tampering note (frames searched) took its points (issue 38)


def test_hidden_messages_are_told_without_the_call():
    """The verdict of a hidden case, unit-tested: an error's text and type stay out; a known
    mistake is named; the same answer on a visible case is quoted."""
    from attnlab.course import grading
    from attnlab.course.stages import judge as judge_stage

    plan = plan_assignment(ck.ROOT, A)
    visible, hidden = (next(cc for cell in plan.grade_cells for cc in cell.calls
                            if cc.learner_name == "softmax" and cc.hidden is h) for h in (False, True))
    raised = Outcome(error="ZeroDivisionError", message="SECRET-INPUT [[1.5, 2.5]] shape (7, 3)")
    message = judge_stage._hidden_message(hidden, 0, raised)
    assert "SECRET" not in message and "ZeroDivisionError" not in message and "(7, 3)" not in message
    assert "check_softmax" in message and "raised an error" in message
    assert "SECRET" in visible.spec.judge(0, raised)  # visible tests may quote
    x = hidden.spec.cases[0].args[0]
    e = np.exp(x)  # the unshifted softmax over the wrong axis, a known mistake when it differs
    wrong = Outcome(value=e / e.sum(axis=0, keepdims=True))
    message = judge_stage._hidden_message(hidden, 0, wrong)
    assert message and "hidden test" in message and repr(x) not in message
    right = Outcome(value=hidden.spec.reference(*hidden.spec.cases[0].args, **hidden.spec.cases[0].kwargs))
    assert judge_stage._hidden_message(hidden, 0, right) is None
    assert judge_stage._hidden_message(hidden, 0, Outcome(error="NotImplementedError")).startswith("softmax is not implemented")


@pytest.mark.parametrize("name", ["TooMuchMemory", "MemoryNotMeasured", "TimeoutError", "MemoryError"])
def test_an_error_the_learner_names_like_the_graders_is_the_learners(name):
    """Issue 40: an exception class the learner calls TooMuchMemory is not the grader's memory
    verdict: on a hidden case its message (which may hold the hidden input) stays out. Only an
    outcome the grader made itself (stages.handoff.GraderOutcome) is quoted."""
    from attnlab.course import grading
    from attnlab.course.stages import judge as judge_stage
    from attnlab.course.stages.handoff import GraderOutcome

    plan = plan_assignment(ck.ROOT, A)
    hidden = next(cc for cell in plan.grade_cells for cc in cell.calls if cc.learner_name == "softmax" and cc.hidden)
    forged = Outcome(error=name, message="SECRET-INPUT [[1.5, 2.5]] shape (7, 3)")
    message = judge_stage._hidden_message(hidden, 0, forged)
    assert "SECRET" not in message and "(7, 3)" not in message, message
    own = GraderOutcome(error=name, message="the grader's own words")
    assert "the grader's own words" in (judge_stage._hidden_message(hidden, 0, own, grader_made=True) or "")
