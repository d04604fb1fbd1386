"""The general diagnosis layer (``attnlab.checks._relations``): every relation is found and named
on a wrong answer built from a reference's output by that relation, and none is claimed for a
right answer or for an unrelated error (noise, one wrong entry)."""
from __future__ import annotations

import numpy as np
import pytest

import attnlab
from attnlab.checks import CheckFailure, check_sdpa, check_softmax
from attnlab.checks._core import Case, Outcome, call
from attnlab.checks._relations import first_difference, known_sizes, name_factor, relate

SDPA_ARGS = ("Q", "K", "V", "mask")
SA_ARGS = ("X", "W_q", "W_k", "W_v")
MHA_ARGS = ("X_q", "X_kv", "W_q", "W_k", "W_v", "W_o", "num_heads", "mask")


def _rng(seed=0):
    return np.random.default_rng(seed)


def _relation(reference, args, wrong, *, arg_names=(), outputs=(), kwargs=None, probe=None):
    case = Case(tuple(args), dict(kwargs or {}))
    got = wrong if isinstance(wrong, Outcome) else Outcome(value=wrong)
    return relate(case, got, call(reference, case), reference, arg_names=arg_names, outputs=outputs,
                  probe=probe)


def _sdpa_args(Lq=3, Lk=5, Dk=8, Dv=2, seed=0, mask=None):
    rng = _rng(seed)
    return [rng.normal(size=(Lq, Dk)), rng.normal(size=(Lk, Dk)), rng.normal(size=(Lk, Dv)), mask]


def _sa_args(L=4, D=6, Dk=8, Dv=3, seed=1):
    rng = _rng(seed)
    return [rng.normal(size=(L, D)), rng.normal(size=(D, Dk)), rng.normal(size=(D, Dk)), rng.normal(size=(D, Dv))]


def _mha_args(seed=2, mask=None):
    rng = _rng(seed)
    L, D = 4, 6
    return [rng.normal(size=(1, L, D)), rng.normal(size=(1, 5, D)), rng.normal(size=(D, D)), rng.normal(size=(D, D)),
            rng.normal(size=(D, D)), rng.normal(size=(D, D)), 2, mask]


# --- the output relations -------------------------------------------------------------------

def test_transposed_weights_are_named():
    x = _rng().normal(size=(4, 4))
    found = _relation(attnlab.softmax, [x], attnlab.softmax(x).T, arg_names=("x",))
    assert found is not None and found.kind == "transpose"
    assert "transpose" in found.message and "each column sums to one" in found.message


def test_permuted_axes_are_named_on_tuples_and_batches():
    args = _sdpa_args()
    Z, A = attnlab.scaled_dot_product_attention(*args)
    found = _relation(attnlab.scaled_dot_product_attention, args, (Z, A.T), arg_names=SDPA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "permute" and "the weights you returned" in found.message
    X = _rng(3).normal(size=(2, 4, 6))
    Ws = _sa_args()[1:]
    Z, A = attnlab.self_attention(X, *Ws)
    found = _relation(attnlab.self_attention, [X, *Ws], (Z.transpose(1, 0, 2), A), arg_names=SA_ARGS,
                      outputs=("Z", "A"))
    assert found is not None and found.kind == "permute" and "(1, 0, 2)" in found.message


@pytest.mark.parametrize("which,size,letter", [("sqrt", 8, "Dk"), ("inv", 8, "Dk"), ("plain", 3, "Lq")])
def test_a_constant_factor_is_named_by_the_size_it_is(which, size, letter):
    args = _sdpa_args()
    Z, A = attnlab.scaled_dot_product_attention(*args)
    c = {"sqrt": np.sqrt(size), "inv": 1 / size, "plain": size}[which]
    found = _relation(attnlab.scaled_dot_product_attention, args, (Z * c, A), arg_names=SDPA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "factor"
    assert f"where {size} is " in found.message and letter in found.message


def test_a_factor_that_is_no_size_is_stated_without_a_name():
    x = _rng(4).normal(size=(3, 5))
    found = _relation(attnlab.softmax, [x], attnlab.softmax(x) * 1.37, arg_names=("x",))
    assert found is not None and found.kind == "factor" and "1.37" in found.message and "where" not in found.message


def test_gaussian_weights_times_the_number_of_keys():
    rng = _rng(5)
    xq, xk = rng.normal(size=(3,)), rng.normal(size=(7,))
    w = attnlab.gaussian_attention_weights(xq, xk, 0.8)
    found = _relation(attnlab.gaussian_attention_weights, [xq, xk, 0.8], w * 7,
                      arg_names=("x_query", "x_keys", "bandwidth"))
    assert found is not None and found.kind == "factor" and "where 7 is Lk" in found.message


def test_a_constant_shift_is_named():
    x = _rng(6).normal(size=(3, 5))
    found = _relation(attnlab.softmax, [x], attnlab.softmax(x) - 0.25, arg_names=("x",))
    assert found is not None and found.kind == "shift" and "-0.25" in found.message


@pytest.mark.parametrize("shape", [(3, 5), (2, 3, 4)])
def test_softmax_over_the_wrong_axis_is_named(shape):
    x = _rng(7).normal(size=shape) * 2
    found = _relation(attnlab.softmax, [x], attnlab.softmax(x, axis=-2), arg_names=("x",))
    assert found is not None and found.kind == "axis" and "normalised over axis" in found.message


def test_attention_weights_normalised_over_queries_are_named():
    Q, K, V, _ = _sdpa_args(Lq=4, Lk=6)
    S = Q @ K.T / np.sqrt(Q.shape[-1])
    A = attnlab.softmax(S, axis=0)  # over the queries
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V], (A @ V, A), arg_names=SDPA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "axis" and "(the queries) instead of" in found.message


def test_right_values_in_a_wrong_shape_or_order_are_named():
    args = _mha_args()
    Z, A = attnlab.multi_head_attention(*args)
    found = _relation(attnlab.multi_head_attention, args, (Z.reshape(-1), A), arg_names=MHA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "reshape"
    swapped = Z.shape[:-2] + (Z.shape[-1], Z.shape[-2])  # two sizes handed over in the other order
    found = _relation(attnlab.multi_head_attention, args, (Z.reshape(swapped), A), arg_names=MHA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "sizes-exchanged" and "exchanged" in found.message
    found = _relation(attnlab.multi_head_attention, args, (Z[:, ::-1], A), arg_names=MHA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "order"


def test_a_transpose_with_a_factor_is_named_as_two_mistakes():
    x = _rng(8).normal(size=(4, 4))
    found = _relation(attnlab.softmax, [x], attnlab.softmax(x).T * 2, arg_names=("x",))
    assert found is not None and found.kind == "transpose-factor" and "two mistakes" in found.message


# --- the input relations --------------------------------------------------------------------

def test_swapped_arguments_are_named():
    Q, K, V, _ = _sdpa_args(Lq=5, Lk=5)
    wrong = attnlab.scaled_dot_product_attention(K, Q, V)
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V], wrong, arg_names=SDPA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "swap" and "K Qᵀ" in found.message


def test_a_transposed_input_is_named():
    Q, K, V, _ = _sdpa_args(Lk=5, Dv=5)
    wrong = attnlab.scaled_dot_product_attention(Q, K, V.T)
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V], wrong, arg_names=SDPA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "input-transpose" and "V.T" in found.message


def test_mask_ignored_inverted_or_transposed_is_named():
    Q, K, V, _ = _sdpa_args(Lq=4, Lk=4)
    causal = np.tril(np.ones((4, 4), dtype=bool))
    ref = attnlab.scaled_dot_product_attention
    cases = {"mask-ignored": ref(Q, K, V), "mask-inverted": ref(Q, K, V, ~causal),
             "mask-axis": ref(Q, K, V, causal.T)}
    for kind, wrong in cases.items():
        found = _relation(ref, [Q, K, V, causal], wrong, arg_names=SDPA_ARGS, outputs=("output", "weights"))
        assert found is not None and found.kind == kind, (kind, found)
    rng = _rng(9)
    keep = rng.random((1, 1, 1, 5)) > 0.3
    keep[..., 0] = True
    args = _mha_args(mask=keep)
    found = _relation(attnlab.multi_head_attention, args, attnlab.multi_head_attention(*args[:-1]),
                      arg_names=MHA_ARGS, outputs=("output", "weights"))
    assert found is not None and found.kind == "mask-ignored"


def test_a_rank_the_code_assumes_is_named_with_a_probe():
    def unbatched(Q, K, V, mask=None):
        S = Q @ K.T / np.sqrt(Q.shape[-1])  # (Lq, Lk): only without a batch axis
        A = attnlab.softmax(S)
        return A @ V, A
    rng = _rng(10)
    args = [rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4)), rng.normal(size=(2, 5, 6))]
    case = Case(tuple(args))
    got = call(unbatched, case)
    assert got.error is not None
    found = _relation(attnlab.scaled_dot_product_attention, args, got, arg_names=SDPA_ARGS,
                      outputs=("output", "weights"), probe=lambda c: call(unbatched, c))
    assert found is not None and found.kind == "rank" and "no batch axis" in found.message
    # without the learner's code (the trusted grader) nothing is claimed
    assert _relation(attnlab.scaled_dot_product_attention, args, got, arg_names=SDPA_ARGS) is None
    # code wrong on the items as well: no rank claimed
    def wrong_everywhere(Q, K, V, mask=None):
        raise ValueError("no")
    assert _relation(attnlab.scaled_dot_product_attention, args, got, arg_names=SDPA_ARGS,
                     probe=lambda c: call(wrong_everywhere, c)) is None


# --- never claimed where it does not hold ---------------------------------------------------

EXERCISES = [
    (attnlab.softmax, lambda: [_rng(11).normal(size=(4, 4))], ("x",), ()),
    (attnlab.scaled_dot_product_attention, lambda: _sdpa_args(Lq=4, Lk=4, Dk=4, Dv=4,
                                                              mask=np.tril(np.ones((4, 4), bool))),
     SDPA_ARGS, ("output", "weights")),
    (attnlab.self_attention, _sa_args, SA_ARGS, ("Z", "A")),
    (attnlab.multi_head_attention, _mha_args, MHA_ARGS, ("output", "weights")),
    (attnlab.gaussian_attention_weights, lambda: [_rng(12).normal(size=(3,)), _rng(13).normal(size=(6,)), 0.7],
     ("x_query", "x_keys", "bandwidth"), ()),
]


def _perturb(value, how, rng):
    if isinstance(value, tuple):
        return (_perturb(value[0], how, rng),) + tuple(value[1:])
    value = np.array(value, dtype=float, copy=True)
    if how == "noise":
        return value + rng.normal(scale=1e-2, size=value.shape)
    value.flat[value.size // 2] += 0.3  # one wrong entry
    return value


@pytest.mark.parametrize("reference,make,names,outputs", EXERCISES, ids=lambda x: getattr(x, "__name__", ""))
def test_no_relation_for_right_or_unrelated_answers(reference, make, names, outputs):
    args = make()
    right = reference(*args)
    assert _relation(reference, args, right, arg_names=names, outputs=outputs) is None
    for how in ("noise", "one entry"):
        wrong = _perturb(right, how, _rng(14))
        assert _relation(reference, args, wrong, arg_names=names, outputs=outputs) is None, how


def test_sizes_and_factor_names():
    Q, K, V, _ = _sdpa_args()
    sizes = known_sizes(Case((Q, K, V)), SDPA_ARGS)
    assert sizes[8] == ["Dk"] and sizes[3] == ["Lq"] and sizes[5] == ["Lk"] and sizes[2] == ["Dv"]
    assert name_factor(np.sqrt(8), sizes) == "√8, where 8 is Dk"
    assert name_factor(1 / 5, sizes) == "1/5, where 5 is Lk"
    assert name_factor(1.37, sizes) is None


def test_first_difference_shows_the_first_differing_row_only_when_visible():
    right = attnlab.softmax(_rng(15).normal(size=(3, 4)))
    wrong = right.copy()
    wrong[1, 2] += 0.1
    text = first_difference(Outcome(value=wrong), Outcome(value=right))
    assert "1 of 12 entries, first in row [1]" in text and "expected:" in text
    hidden = first_difference(Outcome(value=wrong), Outcome(value=right), show_values=False)
    assert "row [1]" in hidden and "expected:" not in hidden
    assert first_difference(Outcome(value=right), Outcome(value=right)) is None


# --- through the checks ---------------------------------------------------------------------

def test_a_check_names_the_relation_below_the_catalogue():
    def shifted(x, axis=-1):
        return attnlab.softmax(x, axis) + 0.5
    with pytest.raises(CheckFailure) as info:
        check_softmax(shifted)
    assert "exact relation to the right answer" in str(info.value) and "plus a constant 0.5" in str(info.value)


def test_the_catalogue_still_wins():
    def over_axis_0(x, axis=-1):
        return attnlab.softmax(x, axis=0)
    with pytest.raises(CheckFailure) as info:
        check_softmax(over_axis_0)
    assert "known mistake" in str(info.value) and "exact relation" not in str(info.value)


def test_hidden_cases_show_no_values():
    def one_off(Q, K, V, mask=None):
        Z, A = attnlab.scaled_dot_product_attention(Q, K, V, mask)
        Z = np.array(Z, copy=True)
        Z.flat[0] += 1.0
        return Z, A
    with pytest.raises(CheckFailure) as info:
        check_sdpa(one_off, hidden=True)
    assert "expected:" not in str(info.value) and "first in row" in str(info.value)


@pytest.mark.parametrize("c,words", [(np.sqrt(8), "where 8 is Dk"), (1 / np.sqrt(3), "where 3 is Lq"), (0.77, "0.77")])
def test_scores_scaled_inside_the_softmax_are_named(c, words):
    Q, K, V, _ = _sdpa_args()
    S = Q @ K.T / np.sqrt(Q.shape[-1])
    A = attnlab.softmax(c * S)  # e.g. no 1/√Dk: the right scores times √Dk
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V], (A @ V, A), arg_names=SDPA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "scores-factor" and words in found.message, found


def test_scores_scaled_with_a_mask():
    Q, K, V, _ = _sdpa_args(Lq=4, Lk=4)
    causal = np.tril(np.ones((4, 4), dtype=bool))
    S = np.where(causal, Q @ K.T, -np.inf)  # no 1/√Dk
    A = attnlab.softmax(S)
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V, causal], (A @ V, A), arg_names=SDPA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "scores-factor" and "where 8 is Dk" in found.message


def test_a_ratio_of_two_sizes_is_named():
    Q, K, V, _ = _sdpa_args()  # Lq = 3, Dk = 8: scaled by √Lq instead of √Dk
    S = Q @ K.T / np.sqrt(3)
    A = attnlab.softmax(S)
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V], (A @ V, A), arg_names=SDPA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "scores-factor" and "√(8/3), where 8 is Dk and 3 is Lq" in found.message


def test_a_wrong_single_number_is_no_factor():
    x = _rng(16).normal(size=(5,))
    def total(x):
        return np.array(x.sum())
    assert _relation(total, [x], np.array(x.sum() * 0.7), arg_names=("x",)) is None


def test_the_trusted_grader_names_relations_from_the_outcome_alone():
    from attnlab.checks import SpecRecorded, SpecRecorder
    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        check_softmax(recorder, hidden=True)
    spec = recorder.spec
    case = spec.cases[0]
    wrong = Outcome(value=attnlab.softmax(*case.args, **case.kwargs) + 0.5)  # what came back from the sandbox
    message = spec.judge(0, wrong)
    assert "exact relation to the right answer" in message and "plus a constant 0.5" in message


# --- relations added for the unnamed corpus entries (shift, cut, integer, axes, scale, Aᵀ V, residual) ---

def test_an_off_by_one_position_is_named_and_not_claimed_elsewhere():
    lengths = np.array([2, 5, 1])
    one_short = np.arange(5)[None, :] < lengths[:, None] - 1
    found = _relation(attnlab.padding_mask, [lengths, 5], one_short, arg_names=("lengths", "Lk"))
    assert found is not None and found.kind == "shift-index" and "axis 1" in found.message
    ahead = np.arange(5)[None, :] <= np.arange(3)[:, None] + 1  # j <= i + 1
    assert _relation(attnlab.causal_mask, [3, 5], ahead, arg_names=("Lq", "Lk")).kind == "shift-index"
    # one wrong entry is no shift
    wrong = attnlab.padding_mask(lengths, 5).copy()
    wrong[1, 0] = False
    found = _relation(attnlab.padding_mask, [lengths, 5], wrong, arg_names=("lengths", "Lk"))
    assert found is None or found.kind != "shift-index"


def test_the_first_element_copied_to_the_others_is_named_before_a_shift():
    """A batch of two whose answer is the first element's, copied: it also looks like a shift by one
    along the batch axis (the edge is not compared), but the message must say what happened."""
    Q, K, V = (_rng(21 + i).normal(size=(2, 4, 3)) for i in range(3))
    right, _ = attnlab.scaled_dot_product_attention(Q, K, V)
    copied = np.broadcast_to(right[:1], right.shape).copy()
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V], (copied, np.zeros((2, 4, 4))),
                      arg_names=("Q", "K", "V"), outputs=("output", "weights"))
    assert found is not None and found.kind == "first-slice" and "axis 0" in found.message, found
    # the last element copied to the others is not the first element's answer
    last = np.broadcast_to(right[1:], right.shape).copy()
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V], (last, np.zeros((2, 4, 4))),
                      arg_names=("Q", "K", "V"), outputs=("output", "weights"))
    assert found is None or found.kind != "first-slice"


def test_one_entry_too_few_or_too_many_along_an_axis_is_named():
    x = _rng(20).normal(size=(3, 6))
    right = attnlab.softmax(x)
    found = _relation(attnlab.softmax, [x], right[:, :-1], arg_names=("x",))
    assert found is not None and found.kind == "cut" and "last" in found.message and "axis 1" in found.message
    found = _relation(attnlab.softmax, [x], np.concatenate([right, right[:, :1]], axis=1), arg_names=("x",))
    assert found is not None and found.kind == "cut" and "extra" in found.message
    # a short answer whose values are not the right ones
    assert _relation(attnlab.softmax, [x], right[:, 1:] + 0.1, arg_names=("x",)) is None


def test_an_integer_array_of_truncated_values_is_named():
    x = _rng(21).normal(size=(4, 4)) * 3
    ident = lambda x: np.asarray(x, dtype=float) * 1.0  # noqa: E731
    found = _relation(ident, [x], np.trunc(x).astype(int), arg_names=("x",))
    assert found is not None and found.kind == "integer" and "toward zero" in found.message
    assert _relation(ident, [x], np.round(x).astype(int), arg_names=("x",)).kind == "integer"
    # integers that are not the right values cut or rounded: nothing claimed
    wrong = np.trunc(x).astype(int)
    wrong[0, 0] += 5
    assert _relation(ident, [x], wrong, arg_names=("x",)) is None


def test_code_that_needs_a_leading_axis_is_named_with_a_probe():
    def two_d_only(x):
        z = np.exp(x - x.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)
    x = _rng(22).normal(size=(5,))
    got = call(two_d_only, Case((x,)))
    assert got.error is not None
    found = _relation(attnlab.softmax, [x], got, arg_names=("x",), probe=lambda c: call(two_d_only, c))
    assert found is not None and found.kind == "rank" and "1-D" in found.message
    def always_wrong(x):
        raise ValueError("no")
    assert _relation(attnlab.softmax, [x], got, arg_names=("x",), probe=lambda c: call(always_wrong, c)) is None


def test_scores_scaled_through_the_queries_are_named():
    rng = _rng(23)
    Q, K = rng.normal(size=(4, 3)), rng.normal(size=(7, 3))
    lse = np.log(np.exp(Q @ K.T / np.sqrt(3)).sum(-1))
    wrong = np.exp(Q @ K.T / np.sqrt(7) - lse[:, None])  # scaled by sqrt(Lk)
    found = _relation(attnlab.weights_from_logsumexp, [Q, K, lse], wrong, arg_names=("Q", "K", "logsumexp"))
    assert found is not None and found.kind == "scores-factor" and "√(3/7)" in found.message
    other = np.exp(Q @ K.T / 1.234 - lse[:, None])  # a scale that is no size
    found = _relation(attnlab.weights_from_logsumexp, [Q, K, lse], other, arg_names=("Q", "K", "logsumexp"))
    assert found is None or found.kind != "scores-factor"


def test_the_right_weights_applied_transposed_are_named():
    args = _sa_args(L=4, D=6, Dk=3, Dv=5)
    Z, A = attnlab.self_attention(*args)
    V = args[0] @ args[3]
    found = _relation(attnlab.self_attention, args, (A.T @ V, A), arg_names=SA_ARGS, outputs=("Z", "A"))
    assert found is not None and found.kind == "transpose-weights" and "Aᵀ V" in found.message
    found = _relation(attnlab.self_attention, args, (A.T @ V + 0.01, A), arg_names=SA_ARGS, outputs=("Z", "A"))
    assert found is None or found.kind != "transpose-weights"


def test_the_right_answer_plus_an_input_is_named():
    x = _rng(24).normal(size=(3, 3))
    found = _relation(attnlab.softmax, [x], attnlab.softmax(x) + x, arg_names=("x",))
    assert found is not None and found.kind == "plus-input" and "plus x" in found.message
    assert _relation(attnlab.softmax, [x], attnlab.softmax(x) + 0.5 * x, arg_names=("x",)) is None


def test_errors_and_overflow_are_described_not_named():
    from attnlab.checks._relations import describe_error, describe_overflow
    Q, K, V, _ = _sdpa_args()
    case = Case((Q, K, V))
    text = describe_error(case, Outcome(error="ValueError", message="matmul: mismatch in its core dimension 0"),
                          SDPA_ARGS)
    assert "raised ValueError" in text and "Q (3, 8)" in text and "about shapes" in text
    assert "about shapes" not in describe_error(case, Outcome(error="KeyError", message="'a'"), SDPA_ARGS)
    x = np.array([[1e4, 0.0, -1e4]])
    ref = call(attnlab.softmax, Case((x,)))
    nan = Outcome(value=np.array([[np.nan, 0.0, 0.0]]))
    assert "709.78" in describe_overflow(Case((x,)), nan, ref, ("x",))
    small = np.array([[1.0, 0.0, -1.0]])  # no overflow possible: nothing said
    assert describe_overflow(Case((small,)), nan, call(attnlab.softmax, Case((small,))), ("x",)) is None


def test_a_check_describes_a_raised_error_without_calling_it_unknown():
    def swapped(Q, K, V, mask=None):
        return attnlab.softmax(K @ Q.T / np.sqrt(Q.shape[-1])) @ V
    with pytest.raises(CheckFailure) as err:
        check_sdpa(swapped)
    message = str(err.value)
    assert "raised ValueError" in message and "does not look like any mistake" not in message


def test_keys_left_out_are_named():
    Q, K, V, _ = _sdpa_args(Lq=3, Lk=7, Dk=4, Dv=2, seed=25)
    keep = [0, 1, 3, 4, 6]  # keys 2 and 5 left out (a tile one key short)
    wrong = attnlab.scaled_dot_product_attention(Q, K[keep], V[keep])[0]
    found = _relation(lambda Q, K, V: attnlab.scaled_dot_product_attention(Q, K, V)[0], [Q, K, V], wrong,
                      arg_names=("Q", "K", "V"))
    assert found is not None and found.kind == "keys-left-out" and "2, 5" in found.message
    # a mixture that is no subset of the keys: nothing claimed
    other = 0.5 * wrong + 0.5 * attnlab.scaled_dot_product_attention(Q, K, V)[0]
    found = _relation(lambda Q, K, V: attnlab.scaled_dot_product_attention(Q, K, V)[0], [Q, K, V], other,
                      arg_names=("Q", "K", "V"))
    assert found is None or found.kind != "keys-left-out"


def test_a_mask_mistake_with_the_softmax_over_the_wrong_axis_is_named_as_two():
    rng = _rng(26)
    scores = rng.normal(size=(4, 6))
    mask = rng.random((4, 6)) < 0.6
    mask[:, 0] = True
    mask[0, :] = True
    def inverted_over_queries(scores, mask):
        blocked = np.where(mask, -np.inf, scores)
        m = blocked.max(axis=-2, keepdims=True)
        e = np.exp(blocked - np.where(np.isfinite(m), m, 0.0))
        total = e.sum(axis=-2, keepdims=True)
        return e / np.where(total > 0, total, 1.0)
    wrong = inverted_over_queries(scores, mask)
    found = _relation(attnlab.masked_softmax, [scores, mask], wrong, arg_names=("scores", "mask"))
    assert found is not None and found.kind == "mask-and-axis" and "inverted" in found.message
    # the inverted mask alone, with noise: neither relation claimed
    noisy = attnlab.masked_softmax(scores, ~mask) + rng.normal(scale=1e-2, size=scores.shape) * ~mask
    found = _relation(attnlab.masked_softmax, [scores, mask], noisy, arg_names=("scores", "mask"))
    assert found is None or found.kind not in ("mask-and-axis", "mask-inverted")


def test_one_head_is_named():
    args = _mha_args(seed=27)
    one = list(args)
    one[6] = 1
    found = _relation(attnlab.multi_head_attention, args, attnlab.multi_head_attention(*one), arg_names=MHA_ARGS,
                      outputs=("output", "weights"))
    assert found is not None and found.kind == "one-head" and "num_heads=1" in found.message
    out, w = attnlab.multi_head_attention(*one)
    found = _relation(attnlab.multi_head_attention, args, (out + 0.01, w), arg_names=MHA_ARGS,
                      outputs=("output", "weights"))
    assert found is None or found.kind != "one-head"


def test_a_factor_per_slice_is_named_at_the_largest_slices():
    x = _rng(28).normal(size=(4, 5))
    z = np.exp(x - x.max(-1, keepdims=True))
    eps = z / (z.sum(-1, keepdims=True) + 1e-3)  # an epsilon in the normaliser
    found = _relation(attnlab.softmax, [x], eps, arg_names=("x",))
    assert found is not None and found.kind == "slice-factor" and "each row" in found.message
    X = _rng(29).normal(size=(2, 3, 4, 4))
    ident = lambda X: np.asarray(X, dtype=float) * 1.0  # noqa: E731
    gate = _rng(30).random((2, 3, 1, 1)) + 0.5  # one factor per (b, c) map
    found = _relation(ident, [X], X * gate, arg_names=("X",))
    assert found is not None and found.kind == "slice-factor" and "axes 2, 3" in found.message
    # a factor per entry is no factor per slice
    found = _relation(ident, [X], X * (_rng(31).random(X.shape) + 0.5), arg_names=("X",))
    assert found is None or found.kind != "slice-factor"


def test_partly_right_answers_say_where():
    from attnlab.checks._relations import describe_partial
    x = _rng(32).normal(size=(4, 5))
    right = attnlab.softmax(x)
    wrong = right.copy()
    wrong[2:] = wrong[2:] * 0.5 + 0.1  # rows 2-3 wrong, rows 0-1 right
    text = describe_partial(Outcome(value=wrong), Outcome(value=right))
    assert text is not None and "index 0-1 of axis 0" in text and "only at index 2-3" in text
    # wrong everywhere: nothing said
    assert describe_partial(Outcome(value=right + 0.1), Outcome(value=right)) is None
    # a tuple with one right item
    text = describe_partial(Outcome(value=(right + 0.1, right)), Outcome(value=(right, right)), ("output", "weights"))
    assert "the weights you returned are right" in text


def test_an_argument_the_code_never_reads_is_named():
    """The right answer with one argument at its default, or positions counted 0, 1, 2, ...:
    the code never reads what it is given (issue 39)."""
    from attnlab.cards import card

    rope = card("rope").contract.reference
    rng = _rng(3)
    x, positions = rng.normal(size=(4, 8)), np.array([5, 2, 8, 11])
    counted = _relation(rope, [x, positions, 100.0], rope(x, np.arange(4), 100.0),
                        arg_names=("x", "positions", "base"))
    assert counted is not None and counted.kind == "argument-ignored" and "count 0, 1, 2" in counted.message
    default = _relation(rope, [x, positions, 100.0], rope(x, positions), arg_names=("x", "positions", "base"))
    assert default is not None and default.kind == "argument-ignored" and "base left at its default" in default.message


def test_two_inputs_both_transposed_are_named():
    def g(A, B):  # a function whose inputs' orientation matters
        return A @ np.exp(B) - B

    rng = _rng(4)
    A, B = rng.normal(size=(4, 4)), rng.normal(size=(4, 4))
    found = _relation(g, [A, B], g(A.T, B.T), arg_names=("A", "B"))
    assert found is not None and found.kind == "both-transposed", found
    assert _relation(g, [A, B], g(A.T, B), arg_names=("A", "B")).kind != "both-transposed"


def test_rows_left_out_are_named_as_zeroed_slices():
    from attnlab.checks._relations import _row_factor_relation, _Tol

    e = _rng(5).normal(size=(5, 4))
    g = e.copy()
    g[[1, 3]] = 0.0
    found = _row_factor_relation(g, e, "your result", _Tol(1e-6, 1e-9, 0.0))
    assert found is not None and found.kind == "slices-zeroed" and "at 1, 3" in found.message, found
    g = e * np.array([[1.0], [2.0], [1.0], [0.5], [1.0]])  # real factors: a factor per row, not zeroed
    assert _row_factor_relation(g, e, "your result", _Tol(1e-6, 1e-9, 0.0)).kind == "slice-factor"


def test_a_mask_applied_after_the_softmax_is_named():
    """The weights are the unmasked softmax times the mask (no renormalising): named for any
    exercise whose reference takes a mask (issue 39)."""
    rng = _rng(6)
    Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    mask = np.array([[True, True, False, True, False]] * 3)
    _, A = attnlab.scaled_dot_product_attention(Q, K, V)
    found = _relation(attnlab.scaled_dot_product_attention, [Q, K, V, mask], (A * mask @ V, A * mask),
                      arg_names=SDPA_ARGS, outputs=("output", "weights"))
    assert found is not None and found.kind == "mask-after-softmax", found
    renormalised = A * mask / (A * mask).sum(-1, keepdims=True)  # that is the right answer
    assert _relation(attnlab.scaled_dot_product_attention, [Q, K, V, mask], (renormalised @ V, renormalised),
                     arg_names=SDPA_ARGS, outputs=("output", "weights")) is None


def test_code_without_a_batch_axis_is_named_where_the_answer_pools_the_batch():
    """A score averaged over the batch (one number): the code that is right on each item alone
    but indexes the first two axes is told it assumes no batch axis (issue 39)."""
    from attnlab.checks._core import call

    reference = attnlab.previous_token_score  # (notebook 12's exercise until issue 41; the library keeps it)
    weights = attnlab.softmax(_rng(7).normal(size=(3, 6, 6)), axis=-1)

    def unbatched(w):
        return float(np.mean([w[t, t - 1] for t in range(1, w.shape[-1])]))

    found = _relation(reference, [weights], call(unbatched, Case((weights,))),
                      arg_names=("weights",), probe=lambda case: call(unbatched, case))
    assert found is not None and found.kind == "rank" and "no batch axis" in found.message, found
