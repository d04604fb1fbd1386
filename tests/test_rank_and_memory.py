"""Two rules of issue 39 that hold for every learner, tested where they apply.

* **Rank probing before anything is quoted**: code that raises on the input of one rank and runs
  on another (fixed-rank code: no batch axis, or batch-only code given one sequence) is named as
  such, never a raw exception.
* **Memory checks charge the learner for what it holds**: a recurrence that frees its old state at
  every step passes notebook 06's memory check whether it is written in numpy or in torch (torch
  allocates a new tensor for ``S + outer`` at every step; the heap's fragments once made that look
  like every prefix state kept), in-process and through the grader; the prefix sums do not.
"""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import coursekit as ck
from attnlab.checks import (
    check_linear_attention_recurrent, check_sdpa_batched,
    check_softmax,
)
from attnlab.checks._core import CheckFailure


def _message(check, fn) -> str:
    with pytest.raises(CheckFailure) as info:
        check(fn)
    return str(info.value)


# rank probing --------------------------------------------------------------------------------

def softmax_2d_only(x, axis=-1):
    m = x.max(axis=1, keepdims=True)  # axis 1: a 1-D input raises
    e = np.exp(x - m)
    return e / e.sum(axis=1, keepdims=True)


def sdpa_unbatched(Q, K, V, mask=None):
    d = Q.shape[1]
    scores = np.dot(Q, K.T) / np.sqrt(d)  # .T and np.dot: one sequence only
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return np.dot(w, V), w


def mix_tokens_batch_only(X):
    B, L, D = X.shape  # a batch only: one sequence (L, D) cannot be unpacked into three sizes
    scores = np.einsum("bld,bmd->blm", X, X)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ X


@pytest.mark.parametrize("check,fn", [
    (check_softmax, softmax_2d_only),
    (check_sdpa_batched, sdpa_unbatched),
])
def test_fixed_rank_code_is_named_as_such(check, fn):
    text = _message(check, fn)
    assert ("assumes" in text and "axes" in text) or "on a batch" in text, text
    assert "does not look like any mistake" not in text, text


def test_batch_only_code_given_one_sequence_is_named():
    from attnlab.checks import check_mix_tokens
    text = _message(check_mix_tokens, mix_tokens_batch_only)
    assert "assumes more axes than this input has" in text, text


def test_the_contract_errors_are_named():
    from attnlab.checks import check_weighted_average_rejects

    def asserting(values, weights):
        assert np.all(weights >= 0) and np.isclose(weights.sum(), 1), "weights off the simplex"
        return weights @ values

    text = _message(check_weighted_average_rejects, asserting)
    assert "an `assert` where the contract asks for a ValueError" in text, text


# memory: what the learner holds ---------------------------------------------------------------

TORCH_RECURRENCE = '''
import torch

def linear_attention_recurrent(Q, K, V, feature_map):
    q, k, v = (torch.as_tensor(a) for a in (feature_map(Q), feature_map(K), V))
    S = torch.zeros(k.shape[-1], v.shape[-1], dtype=v.dtype)
    z = torch.zeros(k.shape[-1], dtype=v.dtype)
    outs = []
    for t in range(q.shape[0]):
        S = S + torch.outer(k[t], v[t])  # a new tensor each step; the old one is freed
        z = z + k[t]
        outs.append((q[t] @ S) / (q[t] @ z))
    return torch.stack(outs).numpy()
'''

NUMPY_RECURRENCE = '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.zeros((phi_K.shape[-1], V.shape[-1]))
    z = np.zeros(phi_K.shape[-1])
    out = []
    for t in range(len(Q)):
        S = S + np.outer(phi_K[t], V[t])
        z = z + phi_K[t]
        out.append(phi_Q[t] @ S / (phi_Q[t] @ z))
    return np.array(out)
'''

PREFIX_SUMS = '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.cumsum(phi_K[:, :, None] * V[:, None, :], axis=0)  # every prefix state at once
    z = np.cumsum(phi_K, axis=0)
    return np.einsum("lm,lmv->lv", phi_Q, S) / np.sum(phi_Q * z, axis=-1, keepdims=True)
'''


# the learner-style `<=` loop of the fit_bandwidth card: the last of tied candidates wins
LAST_OF_TIES = next(w.code for w in ck.catalogue("06_attention_as_kernel_machine")
                    if w.message.startswith("the last of tied candidates kept"))


def _define(code):
    ns = {"np": np}
    exec(code, ns)
    return ns["linear_attention_recurrent"]


@pytest.mark.parametrize("code", [TORCH_RECURRENCE, NUMPY_RECURRENCE], ids=["torch", "numpy"])
def test_an_honest_recurrence_passes_in_process(code, capsys):
    check_linear_attention_recurrent(_define(code))
    assert "✓ linear_attention_recurrent" in capsys.readouterr().out


def test_the_prefix_sums_fail_in_process():
    assert "prefix state" in _message(check_linear_attention_recurrent, _define(PREFIX_SUMS))


@pytest.mark.notebooks
def test_the_grader_charges_only_what_the_recurrence_holds(tmp_path):
    from attnlab.course import grading
    from attnlab.course.stages import handoff
    from attnlab.course.plan import plan_assignment

    a = "06_attention_as_kernel_machine"
    plan = plan_assignment(ck.ROOT, a)
    subs = []
    for name, code in (("torch", TORCH_RECURRENCE), ("numpy", NUMPY_RECURRENCE), ("prefix", PREFIX_SUMS),
                       ("ties", LAST_OF_TIES)):
        cell = "fit_bandwidth" if name == "ties" else "linear_attention_recurrent"
        nb = ck.completed_student_notebook(a, {cell: code})
        folder = tmp_path / "submitted" / name / a
        folder.mkdir(parents=True)
        (folder / f"{a}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
        subs.append(handoff.Submission(name, a, folder))
    results = {s.student: grading.grade_submission(s, plan, handoff.Limits(), tmp_path, [ck.ROOT]) for s in subs}
    try:
        from attnlab.course import warm
        warm.close_pool(tmp_path)
    except Exception:  # noqa: BLE001 - no pool to close
        pass
    cell = lambda name: {c.grade_id: c for c in results[name].cells}["test_linear_attention_recurrent"]  # noqa: E731
    assert cell("torch").passed, cell("torch").lines
    assert cell("numpy").passed, cell("numpy").lines
    assert not cell("prefix").passed and "prefix state" in cell("prefix").lines[0], cell("prefix").lines
    # the grader names a mistake only where it is the learner's code on the check's other inputs
    # too (read from the answers the sandbox wrote): on the tie alone, "σ not squared" gives the
    # same answer, but not on the other inputs, where this code is right
    ties = {c.grade_id: c for c in results["ties"].cells}["test_fit_bandwidth_candidates"]
    assert not ties.passed
    assert "the last of tied candidates kept" in ties.lines[0] and "not squared" not in ties.lines[0], ties.lines


def test_rank_probing_names_fixed_rank_code_that_is_also_wrong():
    """Raises on the batch, runs (wrongly) on each item: still named by the rank it assumes,
    before the exception is quoted."""
    import attnlab
    from attnlab.checks import _core, _relations

    def learner(x, axis=-1):
        rows, cols = x.shape  # one matrix only
        e = np.exp(x)
        return e / e.sum()  # and normalised over the whole matrix

    case = _core.Case((np.random.default_rng(0).normal(size=(3, 4, 5)),), {})
    got, ref = _core.call(learner, case), _core.call(attnlab.softmax, case)
    assert got.error == "ValueError"
    relation = _relations.relate(case, got, ref, attnlab.softmax, probe=lambda c: _core.call(learner, c))
    assert relation is not None and relation.kind == "rank", relation
    assert "assumes fewer axes" in relation.message and "not right either" in relation.message
