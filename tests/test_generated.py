"""Mistakes generated from the reference by rule (``attnlab.checks._generated``): an answer that
is the reference with one or two edits, on every input a check has, is named by the edit in the
exercise's words; an answer that equals an edit on one input only is not."""
from __future__ import annotations

import numpy as np
import pytest

import attnlab
from attnlab.checks import CheckFailure, _generated, check_softmax, check_weighted_average


def _message(check, fn) -> str:
    with pytest.raises(CheckFailure) as info:
        check(fn)
    return str(info.value)


def test_the_rules_edit_the_reference():
    names = [m.name for m in _generated.singles(attnlab.softmax)]
    assert "a mean where a sum belongs (divided by the number of terms)" in names
    assert "`sum` over axis 0 instead of the `axis` argument" in names
    assert any("keepdims" in n for n in names)
    assert not any("raise" in n for n in names)  # the input validation is left alone
    assert _generated.pairs(attnlab.softmax), "no paired edits"


def test_an_edit_equal_on_every_input_is_named():
    def mean_not_sum(x, axis=-1):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.mean(e, axis=axis, keepdims=True)

    message = _message(check_softmax, mean_not_sum)
    assert "the right computation with one edit" in message
    assert "a mean where a sum belongs" in message


def test_two_edits_are_named_together():
    def two(x, axis=-1):
        e = np.exp(x - np.max(x, axis=0, keepdims=True))
        return e / np.mean(e, axis=axis, keepdims=True)

    message = _message(check_softmax, two)
    assert "with two edits" in message and "a mean where a sum belongs" in message and "`max` over axis 0" in message


def test_an_edit_equal_on_one_input_only_is_not_named():
    """Wrong like the edit on the first case, right elsewhere: the edit is not the learner's code."""
    first = {}

    def once(x, axis=-1):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        if not first:
            first["seen"] = True
            return e / np.mean(e, axis=axis, keepdims=True)
        return e / np.sum(e, axis=axis, keepdims=True)

    message = _message(check_softmax, once)
    assert "edit" not in message


def test_a_non_finite_answer_is_not_named_by_an_edit():
    def overflow(x, axis=-1):
        e = np.exp(x + np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)

    from attnlab.checks import check_softmax_stable
    message = _message(check_softmax_stable, overflow)
    assert "edit" not in message


def test_the_catalogue_comes_first():
    def no_keepdims(x, axis=-1):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis)

    message = _message(check_softmax, no_keepdims)
    assert "known mistake: a sum without `keepdims=True`" in message and "edit" not in message


def test_a_wrong_answer_no_edit_gives_is_not_named_by_one():
    def weird(values, weights):
        return weights @ values + 0.1

    message = _message(check_weighted_average, weird)
    assert "the right computation with" not in message


def test_an_edit_inside_a_helper_the_reference_calls_is_named():
    """Where the reference hands its work to one of the course's functions, that function's steps
    are edited too (one level down), and named with the helper (issue 39)."""
    from attnlab.cards import card

    gqa = card("grouped_query_attention").contract.reference
    names = [m.name for m in _generated.singles(gqa)]
    assert any("inside `scaled_dot_product_attention`" in n for n in names), names


def test_a_helper_is_named_only_when_the_learner_wrote_it():
    """Feedback names only functions the learner wrote (an exercise, with its card) or the step
    in words; never a helper of the library the learner has never seen (issue 57: notebook 13's
    feedback named `_apply_mods`, `document_mask_mod` and `topk_keep`)."""
    import re

    from attnlab.cards import all_cards

    exercises = {c.exercise for c in all_cards()}
    named = set()
    for c in all_cards():
        reference = getattr(c.contract, "reference", None) if c.contract is not None else None
        if reference is None:
            continue
        for m in _generated.singles(reference):
            named.update(re.findall(r"inside `(\w+)`", m.name))
    assert named and named <= exercises, sorted(named - exercises)
    assert not _generated.learner_function("_apply_mods") and not _generated.learner_function("topk_keep")
    assert _generated.learner_function("masked_softmax")


def test_a_wrong_step_inside_a_helper_is_told_in_words():
    from attnlab.checks import check_topk_attention

    def one_key_too_many(Q, K, V, k):
        s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
        order = np.argsort(-s, axis=-1, kind="stable")[..., :k + 1]
        keep = np.zeros(s.shape, dtype=bool)
        np.put_along_axis(keep, order, True, axis=-1)
        s = np.where(keep, s, -np.inf)
        e = np.exp(s - s.max(-1, keepdims=True))
        w = e / e.sum(-1, keepdims=True)
        return w @ V, w

    message = _message(check_topk_attention, one_key_too_many)
    assert "in the step that chooses each query's k best keys" in message, message
    assert "topk_keep" not in message
