"""The one type rule (docs/contract.md, "Types"; ``attnlab.checks._contract.type_mistake``), walked over
every numpy exercise of every notebook: the reference solution's own answer, handed back as a
Python list, as a torch tensor, or (for a mask) as 0/1 integers, loses the exercise's points, and
every failing cell names the rule's mistake in the same words. A check that compared values alone
(converting what came back) would let each of these pass."""
from __future__ import annotations

import contextlib
import functools
import io
import re
import types

import numpy as np
import pytest
import torch

import coursekit as ck
from attnlab.checks import _contract

EXERCISES = [(a, gid) for a in ck.assignments() for gid in ck.exercises(ck.load(ck.solution_path(a)))]


def _convert(value, how):
    if isinstance(value, tuple):
        return tuple(_convert(v, how) for v in value)
    if not isinstance(value, np.ndarray) or value.ndim == 0:
        return value
    if how == "list":
        return value.tolist()
    if how == "torch":
        return torch.from_numpy(np.ascontiguousarray(value))
    if how == "int" and value.dtype == bool:
        return value.astype(np.int64)
    if how == "int" and value.dtype.kind == "f":
        return value.astype(np.int64)
    return value


def _name(how, value):
    if how == "list":
        return _contract.LIST_FOR_ARRAY.name
    if how == "torch":
        return _contract.TORCH_FOR_ARRAY.name
    return (_contract.NUMBERS_FOR_MASK if value.dtype == bool else _contract.INTEGER_FOR_FLOAT).name


@functools.lru_cache(maxsize=None)
def _solved(assignment):
    nb = ck.load(ck.solution_path(assignment))
    ns = ck.setup_namespace(nb)
    with contextlib.redirect_stdout(io.StringIO()):
        ck.run_solutions(nb, ns)
    return nb, ns


class _Skipped(BaseException):
    """Raised by the converted answer on its first call when the int form has nothing to test
    (a tuple, or an answer already of integers): a BaseException, so no check takes it for the
    exercise's own error and diagnoses it (minutes on notebook 08's tiled attention)."""


@pytest.mark.parametrize("how", ["list", "torch", "int"])
@pytest.mark.parametrize("assignment,gid", EXERCISES, ids=[f"{a[:2]}:{g}" for a, g in EXERCISES])
def test_the_type_rule_names_a_right_answer_of_the_wrong_type(assignment, gid, how):
    nb, solved = _solved(assignment)
    fn = solved.get(gid)
    if not isinstance(fn, types.FunctionType):
        pytest.skip(f"{gid} is not a function (a module or a value): a torch exercise")
    cells = [g for g, c in ck.grade_cells(nb).items() if re.search(rf"check_\w+\(\s*{gid}\b", c["source"])]
    seen, converted_kinds = [], []

    def converted(*args, **kwargs):
        value = fn(*args, **kwargs)
        if how == "torch" and isinstance(value, (float, int, np.floating, np.integer)) and not isinstance(value, bool):
            if not seen:
                seen.append(_contract.TORCH_FOR_NUMBER.name)
            return torch.tensor(value)  # a 0-d tensor where the answer is one number
        arrays = [v for v in (value if isinstance(value, tuple) else (value,)) if isinstance(v, np.ndarray) and v.ndim]
        if arrays and not seen:
            seen.append(_name(how, arrays[0]) if not isinstance(value, tuple) and arrays[0].dtype.kind not in "iu"
                        else None)
            converted_kinds.append(arrays[0].dtype.kind)
        if how == "int" and seen and (seen[0] is None or (converted_kinds and converted_kinds[0] in "iu")):
            raise _Skipped  # the test skips below: no check needs to run (nor diagnose) any further
        return _convert(value, how)

    ns = dict(solved)
    ns[gid] = converted
    with contextlib.redirect_stdout(io.StringIO()):
        results = {g: ck.run_grade_cell(nb, ns, g) for g in cells}
    if not seen:
        pytest.skip(f"{gid} returns no numpy array on the checks' inputs (a number, a torch exercise)")
    if how == "int" and seen[0] is None:
        pytest.skip("a tuple: its items are each judged by the rule (the list and torch forms test it)")
    if how == "int" and converted_kinds and converted_kinds[0] in "iu":
        pytest.skip("the answer is already integers (indices): there is no int form to test")
    failed = {g: e for g, e in results.items() if e is not None}
    assert failed, f"{gid} answered as a {how} passed every check: {cells}"
    for g, e in failed.items():
        text = str(e)
        assert isinstance(e, AssertionError), f"{g}: {type(e).__name__}: {text}"
        if seen[0] is not None:
            assert seen[0] in text, f"{g}: {text}"
        else:
            assert "returned" in text and (how in text.lower() or "tensor" in text or "list" in text), f"{g}: {text}"


def test_one_rule_names_the_same_mistake_in_every_check():
    """The rule's names are one table; every check that names a type mistake takes it from there."""
    names = {m.name for m in _contract.TYPE_MISTAKES}
    assert len(names) == len(_contract.TYPE_MISTAKES)
    ndarray = "ndarray:f:float64"
    assert _contract.type_mistake(["list", []], ndarray)[0] is _contract.LIST_FOR_ARRAY
    assert _contract.type_mistake("tensor:f:float32", ndarray)[0] is _contract.TORCH_FOR_ARRAY
    assert _contract.type_mistake("ndarray:i:int64", ndarray)[0] is _contract.INTEGER_FOR_FLOAT
    assert _contract.type_mistake("ndarray:f:float32", ndarray) is None  # float32 stays fair
    assert _contract.type_mistake("ndarray:i:int64", "ndarray:b:bool")[0] is _contract.NUMBERS_FOR_MASK
    assert _contract.type_mistake("ndarray:f:float64", "ndarray:b:bool")[0] is _contract.NUMBERS_FOR_MASK
    assert _contract.type_mistake("tensor0", "float")[0] is _contract.TORCH_FOR_NUMBER
    assert _contract.type_mistake("npscalar:f:float64", "float") is None
    assert _contract.type_mistake("int", "float") is None
    pair = ["tuple", [ndarray, ndarray]]
    assert _contract.type_mistake(["list", [ndarray, ndarray]], pair) is None  # a list for a tuple is fair
    assert _contract.type_mistake(["tuple", [ndarray, "tensor:f:float32"]], pair)[0] is _contract.TORCH_FOR_ARRAY


@pytest.mark.notebooks
def test_the_grader_applies_the_type_rule(tmp_path):
    """Through the grader (the learner's code in its sandbox, the verdict in the trusted process):
    the kind of the answer travels with it, so a list and an int mask lose their points there too,
    with the rule's words in the feedback."""
    course = ck.make_course(tmp_path)
    cases = {
        "01_weighted_averages": ("weighted_average", "values, weights", ".tolist()", _contract.LIST_FOR_ARRAY),
        "04_masks_and_cross_attention": ("padding_mask", "lengths, Lk", ".astype(int)", _contract.NUMBERS_FOR_MASK),
    }
    for assignment, (gid, args, tail, _) in cases.items():
        source = ck.solution_cells(ck.load(ck.solution_path(assignment)))[gid]["source"]
        wrapped = (f"{source}\n_right = {gid}\n\ndef {gid}({args}):\n"
                   f"    return _right({args}){tail}\n")
        ck.submit(course, "typed", assignment, ck.completed_student_notebook(assignment, {gid: wrapped}))
        ck.submit(course, "right", assignment, ck.completed_student_notebook(assignment))
        proc = ck.course_command(course, "grade", assignment)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    for assignment, (gid, _, _, mistake) in cases.items():
        scores = ck.cell_scores(course, assignment)
        full = ck.max_points(ck.load(ck.solution_path(assignment)))
        assert scores["right"] == full
        lost = [g for g, pts in scores["typed"].items() if pts < full[g]]
        assert lost and all(g.startswith("test_" + gid) for g in lost), lost
        page = ck.feedback_text(course, "typed", assignment)
        assert mistake.name in page
        # what only a notebook session can do is not offered on a page the grader wrote
        assert "checks.explain" not in page and "run this check again" not in page, page
