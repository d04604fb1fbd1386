"""Notebook 02's checks: correct answers written in other ways pass, the statistical check of
``score_variance`` is robust to how the samples are drawn, hidden inputs differ from visible
ones, and every spec can travel to the grading sandbox.

(The references ``attend``, ``score_variance`` and ``scaled_dot_product_attention`` are tested
against torch in ``test_reference.py``.)
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import attnlab
from attnlab.checks import (
    CheckFailure, SpecRecorded, SpecRecorder, check_attend, check_attend_sharp, check_score_variance,
    check_score_variance_rng, check_sdpa, check_sdpa_batched, check_sdpa_fully_masked, check_sdpa_mask,
)

SDPA_CHECKS = (check_sdpa, check_sdpa_batched, check_sdpa_mask, check_sdpa_fully_masked)
ALL_CHECKS = (check_attend, check_attend_sharp, check_score_variance, check_score_variance_rng, *SDPA_CHECKS)


def _passes(check, fn):
    check(fn)
    check(fn, hidden=True)


# ---------------------------------------------------------------------------------------------
# score_variance: any correct way of drawing the samples passes

def sv_keys_first(d_k, n_samples, rng):
    k = rng.standard_normal((n_samples, d_k))
    q = rng.standard_normal((n_samples, d_k))
    return float(np.var(np.einsum("nd,nd->n", q, k)))


def sv_one_draw(d_k, n_samples, rng):
    qk = rng.normal(size=(2, n_samples, d_k))
    return float((qk[0] * qk[1]).sum(-1).var(ddof=1))


def sv_transposed(d_k, n_samples, rng):
    q = rng.standard_normal((d_k, n_samples))
    k = rng.standard_normal((d_k, n_samples))
    return np.var(np.sum(q * k, axis=0))  # a numpy float is fine too


def sv_loop(d_k, n_samples, rng):
    scores = [rng.standard_normal(d_k) @ rng.standard_normal(d_k) for _ in range(n_samples)]
    return float(np.mean(np.square(scores)) - np.mean(scores) ** 2)


@pytest.mark.parametrize("fn", [attnlab.score_variance, sv_keys_first, sv_one_draw, sv_transposed, sv_loop])
def test_score_variance_checks_accept_every_correct_sampling(fn):
    _passes(check_score_variance, fn)
    _passes(check_score_variance_rng, fn)


def test_score_variance_check_rejects_a_constant():
    with pytest.raises(CheckFailure, match="a generator of your own"):
        check_score_variance_rng(lambda d_k, n_samples, rng: float(d_k))


# ---------------------------------------------------------------------------------------------
# attend and scaled_dot_product_attention: other correct implementations pass

def attend_via_matrix_form(q, K, V):
    out, w = attnlab.scaled_dot_product_attention(q[None, :], K, V)
    return out[0], w[0]


def attend_torch(q, K, V):
    q, K, V = (torch.tensor(a) for a in (q, K, V))
    w = torch.softmax(K @ q / q.shape[0] ** 0.5, dim=0)
    return (w @ V).numpy(), w.numpy()  # a numpy exercise returns arrays (docs/contract.md); torch inside is fine


@pytest.mark.parametrize("fn", [attnlab.attend, attend_via_matrix_form, attend_torch])
def test_attend_checks_accept_correct_variants(fn):
    _passes(check_attend, fn)
    _passes(check_attend_sharp, fn)


def sdpa_nan_to_num(Q, K, V, mask=None):
    scores = np.einsum("...qd,...kd->...qk", Q, K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        w = np.nan_to_num(attnlab.softmax(scores), nan=0.0)
    return w @ V, w


def sdpa_masked_softmax(Q, K, V, mask=None):
    w = attnlab.masked_softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]), mask)
    return w @ V, w


def sdpa_torch(Q, K, V, mask=None):
    tQ, tK, tV = (torch.tensor(a) for a in (Q, K, V))
    scores = tQ @ tK.transpose(-1, -2) / Q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~torch.tensor(mask), float("-inf"))
    w = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    out = F.scaled_dot_product_attention(tQ, tK, tV, attn_mask=None if mask is None else torch.tensor(mask))
    return out.nan_to_num(0.0).numpy(), w.numpy()  # arrays out, as the numpy exercise asks


@pytest.mark.parametrize("fn", [attnlab.scaled_dot_product_attention, sdpa_nan_to_num,
                                sdpa_masked_softmax, sdpa_torch])
def test_sdpa_checks_accept_correct_variants(fn):
    for check in SDPA_CHECKS:
        _passes(check, fn)


# ---------------------------------------------------------------------------------------------
# Determinism, hidden inputs, and the sandbox

@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda c: c.__name__)
def test_hidden_inputs_differ_from_visible_ones(check):
    specs = []
    for hidden in (False, True):
        recorder = SpecRecorder()
        with pytest.raises(SpecRecorded):
            check(recorder, hidden=hidden)
        specs.append(recorder.spec)
    visible, hidden = specs
    seen = [a for c in visible.cases for a in c.args if isinstance(a, np.ndarray)]
    secret = [a for c in hidden.cases for a in c.args if isinstance(a, np.ndarray)]
    assert not any(h.shape == v.shape and np.array_equal(h, v) for h in secret for v in seen)
    assert [repr(c.args) for c in visible.cases] != [repr(c.args) for c in hidden.cases]
    payload = [{"invoke": s.invoke, "args": c.args, "kwargs": c.kwargs} for s in specs for c in s.cases]
    assert pickle.loads(pickle.dumps(payload)) is not None  # the sandbox receives these


def test_hidden_score_variance_messages_do_not_show_the_seed():
    def std(d_k, n_samples, rng):
        return float(np.std(np.sum(rng.standard_normal((n_samples, d_k)) * rng.standard_normal((n_samples, d_k)), -1)))
    with pytest.raises(CheckFailure) as info:
        check_score_variance(std, hidden=True)
    assert "default_rng(" not in str(info.value) and "standard deviation" in str(info.value)


def test_messages_are_deterministic(monkeypatch):
    def no_scale(Q, K, V, mask=None):
        w = attnlab.masked_softmax(Q @ np.swapaxes(K, -1, -2), mask)
        return w @ V, w
    from attnlab.checks import _core
    monkeypatch.setenv("ATTNLAB_FEEDBACK", "full")  # the self-study tiers
    _core._SEEN.clear()
    messages = []
    for _ in range(2):
        with pytest.raises(CheckFailure) as info:
            check_sdpa(no_scale)
        messages.append(str(info.value))
    # the same diagnosis both times; only the feedback tier grows: the code-level fix is shown
    # on the second failing run, not the first
    # (the first run gives the principle, the second replaces it with the code-level fix)
    tiers = ("What to change:", "(For the code-level fix", "How to fix it (second run)")
    first, second = ("\n".join(line for line in m.splitlines() if not line.startswith(tiers))
                     for m in messages)
    assert first == second and "no scaling" in first
    assert "What to change:" in messages[0]
    assert "How to fix it (second run)" not in messages[0] and "How to fix it (second run)" in messages[1]
