"""The pieces of trusted grading, fast: every grade cell can be split across the two processes,
the sandbox's answers are plain data, and the static checks flag cheats but not the solutions."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import coursekit as ck
from attnlab.course import tamper
from attnlab.course.plan import PlanError, job_calls, parse_grade_cell, plan_assignment
from attnlab.course.sandbox import Opaque, decode, encode


@pytest.mark.parametrize("assignment", ck.assignments())
def test_every_grade_cell_can_be_graded_in_isolation(assignment):
    plan = plan_assignment(ck.ROOT, assignment)
    source = ck.load(ck.solution_path(assignment))
    assert [c.grade_id for c in plan.grade_cells] == list(ck.grade_cells(source))
    assert plan.max_score == sum(ck.max_points(source).values())
    calls = job_calls(plan)
    pickle.loads(pickle.dumps(calls))  # the inputs travel to the sandbox by pickle
    assert sorted(c["id"] for c in calls) == list(range(len(calls)))
    for cell in plan.grade_cells:
        assert any(cc.hidden for cc in cell.calls) and any(not cc.hidden for cc in cell.calls)


@pytest.mark.parametrize("assignment", ck.assignments())
def test_no_false_alarm_on_the_solutions(assignment):
    plan = plan_assignment(ck.ROOT, assignment)
    nb = ck.load(ck.solution_path(assignment))
    for gid, cell in ck.solution_cells(nb).items():
        if cell["cell_type"] == "code":
            assert tamper.borrowed(cell["source"], plan.exercises[gid]) == []
            assert tamper.tampering(cell["source"], plan.all_exercises) == []


@pytest.mark.parametrize("source,expected", [
    ("def softmax(x, axis=-1):\n    return attnlab.softmax(x, axis)", "attnlab.softmax"),
    ("def softmax(x, axis=-1):\n    return torch.softmax(torch.tensor(x), axis).numpy()", "torch.softmax"),
    ("from scipy.special import softmax", "softmax"),
    ("def softmax(x, axis=-1):\n    from scipy.special import logsumexp\n    return np.exp(x - logsumexp(x, axis, keepdims=True))", "logsumexp"),
])
def test_borrowed_answers_are_flagged(source, expected):
    findings = tamper.borrowed(source, ["softmax"])
    assert findings and expected in findings[0].detail


@pytest.mark.parametrize("source,expected", [
    ("np.allclose = lambda *a, **k: True", "np.allclose"),
    ("import numpy\nnumpy.testing.assert_allclose = print", "numpy.testing.assert_allclose"),
    ("get_ipython().input_transformers_post.append(f)", "input transformers"),
    ("get_ipython().set_custom_exc((Exception,), h)", "exception handler"),
    ("import sqlite3", "sqlite3"),
    ("import attnlab.checks as c\nc.check_softmax = print", "attnlab.checks"),
    ("import builtins\nbuiltins.print = len", "builtins"),
    ("import sys\nsys.modules['attnlab'] = None", "sys.modules"),
    ("%matplotlib inline\nnp.isclose = None", "np.isclose"),
])
def test_tampering_is_flagged(source, expected):
    findings = tamper.tampering(source, ["softmax"])
    assert any(expected in f.detail for f in findings), findings


@pytest.mark.parametrize("source", [
    "%matplotlib inline\nimport numpy as np\nx = np.linspace(0, 1, 5)\nplt.plot(x, x ** 2)\nplt.show()",
    "class Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.w = torch.nn.Linear(2, 2)",
    "model.eval()\nresults = {'a': 1}\nresults['b'] = 2",
])
def test_ordinary_code_is_not_flagged(source):
    assert tamper.tampering(source, ["softmax"]) == []


def test_results_come_back_as_plain_arrays(tmp_path):
    value = (np.arange(6.0).reshape(2, 3), np.array([True, False]), None, "a string", 3.5)
    arrays: dict = {}
    desc = encode(value, arrays)
    np.savez(tmp_path / "r.npz", **arrays)
    with np.load(tmp_path / "r.npz", allow_pickle=False) as loaded:
        back = decode(desc, loaded)
    np.testing.assert_array_equal(back[0], value[0])
    np.testing.assert_array_equal(back[1], value[1])
    assert back[2] is None and isinstance(back[3], Opaque) and float(back[4]) == 3.5


def test_unsupported_grade_cells_are_refused():
    with pytest.raises(PlanError):
        parse_grade_cell("g", '"""Check that ..."""\nassert softmax(1) == 1')
    with pytest.raises(PlanError):
        parse_grade_cell("g", "check_softmax(softmax, hidden=flag)")
    assert parse_grade_cell("g", '"""Check."""\ncheck_softmax(softmax)\n### BEGIN HIDDEN TESTS\n'
                                 'check_softmax(softmax, hidden=True)\n### END HIDDEN TESTS') == [
        ("check_softmax", "softmax", False), ("check_softmax", "softmax", True)]
