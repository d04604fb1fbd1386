"""Hidden inputs derive from the instructor's course secret (ATTNLAB_COURSE_SECRET)."""
from __future__ import annotations

import numpy as np

import attnlab
from attnlab.checks import check_softmax
from attnlab.checks._core import SECRET_ENV, case_seed


def _inputs(check, hidden):
    seen = []

    def spy(x, axis=-1):
        seen.append(np.array(x, copy=True))
        return attnlab.softmax(x, axis)
    check(spy, hidden=hidden)
    return seen


def test_without_a_secret_hidden_seeds_are_the_public_ones(monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)
    assert case_seed(101, True) == 101 and case_seed(1, False) == 1


def test_the_secret_changes_hidden_inputs_only(monkeypatch, capsys):
    monkeypatch.delenv(SECRET_ENV, raising=False)
    public_visible, public_hidden = _inputs(check_softmax, False), _inputs(check_softmax, True)
    monkeypatch.setenv(SECRET_ENV, "a course secret")
    secret_visible, secret_hidden = _inputs(check_softmax, False), _inputs(check_softmax, True)
    assert all(np.array_equal(a, b) for a, b in zip(public_visible, secret_visible))
    assert len(public_hidden) == len(secret_hidden)
    assert not any(np.array_equal(a, b) for a, b in zip(public_hidden, secret_hidden) if a.size > 1)
    monkeypatch.setenv(SECRET_ENV, "another secret")
    other = _inputs(check_softmax, True)
    assert not all(np.array_equal(a, b) for a, b in zip(other, secret_hidden))
