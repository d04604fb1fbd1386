"""The check machinery itself: deterministic, quiet, and helpful on odd answers."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import attnlab
from attnlab.checks import CheckFailure, check_mix_tokens, check_softmax, check_weighted_average


def _message(check, fn):
    with pytest.raises(CheckFailure) as info:
        check(fn)
    return str(info.value)


def test_checks_are_deterministic(monkeypatch):
    monkeypatch.setenv("ATTNLAB_FEEDBACK", "mistake-only")  # no second-run tier
    def wrong(x, axis=-1):
        return attnlab.softmax(x, axis=0)
    assert _message(check_softmax, wrong) == _message(check_softmax, wrong)


def test_hidden_inputs_differ_from_visible_ones(capsys):
    seen = []

    def spy(x, axis=-1):
        seen.append(np.array(x, copy=True))
        return attnlab.softmax(x, axis)
    check_softmax(spy)
    visible = len(seen)
    check_softmax(spy, hidden=True)
    assert not any(np.array_equal(h, v) for h in seen[visible:] for v in seen[:visible])


def test_a_harmless_warning_does_not_fail_a_correct_answer(capsys):
    def noisy(x, axis=-1):
        warnings.warn("this API is deprecated", DeprecationWarning)
        np.log(np.array([0.0]))  # a RuntimeWarning: divide by zero
        return attnlab.softmax(x, axis)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        check_softmax(noisy)
    captured = capsys.readouterr()
    assert captured.err == "" and "✓ softmax" in captured.out


def test_missing_return_is_named():
    def no_return(values, weights):
        weights @ values
    assert "did you forget the `return`" in _message(check_weighted_average, no_return)


def test_in_place_mutation_is_named():
    def mutating(x, axis=-1):
        x -= np.max(x, axis=axis, keepdims=True)
        e = np.exp(x)
        return e / e.sum(axis=axis, keepdims=True)
    assert "changed its input arrays in place" in _message(check_softmax, mutating)


def test_not_a_function_and_unknown_mistakes():
    assert "should be a function" in _message(check_softmax, 3)

    def odd(X):
        return X * 2.0
    message = _message(check_mix_tokens, odd)
    assert "does not look like any mistake we know" in message and "expected:" in message


def test_torch_answers_to_numpy_exercises_are_named():
    """docs/contract.md: numpy exercises return numpy arrays, never tensors (issue 27); torch code
    that ends with `.numpy()` is a fair route."""
    torch = pytest.importorskip("torch")

    def torch_softmax(x, axis=-1):
        return torch.softmax(torch.as_tensor(x), dim=axis)
    with pytest.raises(CheckFailure) as info:
        check_softmax(torch_softmax)
    assert "a torch tensor returned from a numpy exercise" in str(info.value)
    check_softmax(lambda x, axis=-1: torch_softmax(x, axis).numpy())


def test_hidden_messages_show_no_values():
    def wrong(x, axis=-1):
        return attnlab.softmax(x, axis=0)
    with pytest.raises(CheckFailure) as info:
        check_softmax(wrong, hidden=True)
    assert "expected:" not in str(info.value) and "axis 0" in str(info.value)


# ---------------------------------------------------------------------------------------------
# Tolerance policy, crash reading, wording, rendering (issue 12)

def test_float32_softmax_passes_visible_and_hidden(capsys):
    def softmax32(x, axis=-1):
        x = np.asarray(x, dtype=np.float32)
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    from attnlab.checks import check_softmax_stable
    for hidden in (False, True):
        check_softmax(softmax32, hidden=hidden)
        check_softmax_stable(softmax32, hidden=hidden)


def test_epsilon_in_the_normaliser_passes_but_a_large_one_is_named_by_size():
    def eps(e_):
        def softmax(x, axis=-1):
            e = np.exp(x - np.max(x, axis=axis, keepdims=True))
            return e / (e.sum(axis=axis, keepdims=True) + e_)
        return softmax
    check_softmax(eps(1e-6))
    message = _message(check_softmax, eps(1e-3))
    assert "epsilon" in message and "float32" in message


def test_torch_and_numpy_crashes_of_one_mistake_get_one_name():
    torch = pytest.importorskip("torch")

    def torch_T(X):
        X = torch.as_tensor(X)
        return torch.softmax(X @ X.T, dim=-1) @ X
    from attnlab.checks import check_mix_tokens_batched
    assert "`X.T` on a batch" in _message(check_mix_tokens_batched, torch_T)


def test_plural_names_take_a_plural_verb():
    from attnlab.checks._core import compare
    assert "the weights you returned differ " in compare(np.ones(3), np.zeros(3), rtol=1e-5, atol=1e-9,
                                                          what="the weights you returned")
    assert "the output you returned differs " in compare(np.ones(3), np.zeros(3), rtol=1e-5, atol=1e-9,
                                                          what="the output you returned")


def test_a_check_failure_renders_as_its_message_alone():
    failure = CheckFailure("softmax is not right yet.\nOn x: ...")
    assert failure._render_traceback_() == ["softmax is not right yet.", "On x: ..."]


def test_an_exception_the_check_raised_is_not_blamed_on_the_learner():
    from attnlab.checks._core import Case, Outcome
    from attnlab.checks._run import CheckSpec
    spec = CheckSpec("SelfAttention", lambda x: x, [Case((np.ones(2),))])
    message = spec.judge(0, Outcome(error="ProjectionBias", message="`self.W_q` has a bias"))
    assert "the check could not use your SelfAttention" in message and "raised" not in message



def test_feedback_tiers(monkeypatch, capsys):
    from attnlab.checks import explain

    def wrong(x, axis=-1):
        return attnlab.softmax(x, axis=0)
    from attnlab.checks import _core
    monkeypatch.setattr(_core, "_SEEN", {})  # a fresh session
    monkeypatch.delenv("ATTNLAB_FEEDBACK", raising=False)
    first = _message(check_softmax, wrong)
    assert "What to change:" in first and "How to fix it" not in first and "keepdims" not in first
    capsys.readouterr()
    explain("softmax")
    assert "keepdims" in capsys.readouterr().out
    second = _message(check_softmax, wrong)
    assert "How to fix it" in second
    monkeypatch.setenv("ATTNLAB_FEEDBACK", "mistake-only")
    graded = _message(check_softmax, wrong)
    assert "known mistake" in graded and "What to change" not in graded and "How to fix" not in graded
    explain("softmax")
    assert "turned off" in capsys.readouterr().out


def test_every_general_mistake_has_a_principle_without_code():
    """The cards' mistakes are checked by tests/test_cards.py; the general layer's here: the
    type rule's and the error contract's table, and every edit the rules generate."""
    from attnlab.checks import _contract, _generated
    from attnlab.checks._core import Mistake
    general = [v for v in vars(_contract).values() if isinstance(v, Mistake)]
    assert len(general) >= 10
    generated = [m for ref in (attnlab.softmax, attnlab.weighted_average, attnlab.scaled_dot_product_attention,
                               attnlab.causal_mask) for m in _generated.singles(ref)]
    assert len(generated) >= 20
    for m in general + generated:
        assert m.principle, f"no principle: {m.name}"
        assert "np." not in m.principle and "torch." not in m.principle, f"code in the principle of {m.name}"
        assert m.fix, f"no fix: {m.name}"


def test_the_grader_composes_mistake_only_messages(monkeypatch):
    # make grade judges in its own process through CheckSpec.judge: the setting applies there
    from attnlab.checks import SpecRecorded, SpecRecorder
    from attnlab.checks._core import call

    def wrong(x, axis=-1):
        return attnlab.softmax(x, axis=0)
    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        check_softmax(recorder, hidden=True)
    spec = recorder.spec
    monkeypatch.setenv("ATTNLAB_FEEDBACK", "mistake-only")
    graded = next(m for i, c in enumerate(spec.cases) if (m := spec.judge(i, call(wrong, c))))
    assert "known mistake" in graded and "What to change" not in graded and "How to fix" not in graded
    monkeypatch.setenv("ATTNLAB_FEEDBACK", "full")
    full = next(m for i, c in enumerate(spec.cases) if (m := spec.judge(i, call(wrong, c))))
    assert "What to change" in full and "How to fix" not in full  # the grader never adds the code


def test_memory_check_sees_torch_allocations():
    torch = pytest.importorskip("torch")
    from attnlab.checks import check_tiled_attention_memory

    def untiled(Q, K, V, tile_size, causal=False):
        Q, K, V = (torch.as_tensor(a) for a in (Q, K, V))
        scores = Q @ K.transpose(-2, -1) / Q.shape[-1] ** 0.5
        return torch.softmax(scores, dim=-1) @ V, torch.logsumexp(scores, dim=-1)
    assert "materialising the full (Lq, Lk) score matrix" in _message(check_tiled_attention_memory, untiled)


@pytest.mark.parametrize("library", ["numpy", "torch"])
def test_memory_check_passes_honest_tiling_after_a_small_warm_up(library):
    """The forked child warms up on two tiles only (cheaper than a full first call): an honest
    tiled attention, numpy or torch (whose first call loads kernels and its allocator), still
    stays far below the limit, in the visible and the hidden case."""
    from attnlab.checks import check_tiled_attention_memory
    from attnlab.checks._memory import can_fork_measure

    if not can_fork_measure():
        pytest.skip("no forked measurement here (tracemalloc instead)")
    if library == "torch":
        torch = pytest.importorskip("torch")

        def tiled(Q, K, V, tile_size, causal=False):
            Q, K, V = (torch.as_tensor(a) for a in (Q, K, V))
            out = torch.empty(Q.shape[:-1] + V.shape[-1:], dtype=Q.dtype)
            lse = torch.empty(Q.shape[:-1], dtype=Q.dtype)
            for i in range(0, Q.shape[-2], tile_size):
                q = Q[..., i:i + tile_size, :] / Q.shape[-1] ** 0.5
                m = torch.full(q.shape[:-1], -torch.inf, dtype=Q.dtype)
                l = torch.zeros_like(m)
                acc = torch.zeros(q.shape[:-1] + V.shape[-1:], dtype=Q.dtype)
                for j in range(0, K.shape[-2], tile_size):
                    s = q @ K[..., j:j + tile_size, :].transpose(-2, -1)
                    m_new = torch.maximum(m, s.amax(-1))
                    p = torch.exp(s - m_new[..., None])
                    scale = torch.exp(m - m_new)
                    l = l * scale + p.sum(-1)
                    acc = acc * scale[..., None] + p @ V[..., j:j + tile_size, :]
                    m = m_new
                out[..., i:i + tile_size, :] = acc / l[..., None]
                lse[..., i:i + tile_size] = m + torch.log(l)
            return out, lse
    else:
        tiled = attnlab.efficient.tiled_attention
    for hidden in (False, True):
        check_tiled_attention_memory(tiled, hidden=hidden)  # raises CheckFailure if it fails


def test_ipython_shows_the_message_without_a_traceback():
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output
    shell = InteractiveShell.instance()
    with capture_output() as cap:
        shell.run_cell("import attnlab\nfrom attnlab.checks import check_softmax\n"
                       "check_softmax(lambda x, axis=-1: attnlab.softmax(x, axis=0))")
    assert cap.stdout.startswith("softmax is not right yet.") and "Traceback" not in cap.stdout


def test_the_shape_alone_can_name_the_mistake():
    def weights_of_sorts(X):
        S = X @ np.swapaxes(X, -1, -2)
        return np.exp(S) / 2.0  # (L, L): only "returning the attention weights" has that shape
    message = _message(check_mix_tokens, weights_of_sorts)
    assert "The shape alone points to a known mistake: returning the attention weights" in message


def test_two_mistakes_at_once_are_named_as_such():
    from attnlab.checks import check_multi_head_attention

    def mha(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
        Q, K, V = (attnlab.split_heads(a, num_heads) for a in (X_q @ W_q, X_kv @ W_k, X_kv @ W_v))
        weights = attnlab.softmax(Q @ np.swapaxes(K, -1, -2))  # no scale
        return attnlab.merge_heads(weights @ V), weights  # no W_o
    message = _message(check_multi_head_attention, mha)
    assert "two known mistakes at once: no scaling of the scores; and no output projection" in message


def test_catalogue_distinctness_helper_reports_a_mistake_equal_to_the_reference():
    """coursekit.mistakes_not_told_apart (used by the notebook 07 and 09 tests) can fail."""
    import coursekit as ck
    from attnlab.checks import Case, Mistake, run_check

    def double(x):
        return 2 * x

    def check_double(fn, hidden=False):
        run_check(fn, exercise="double", reference=double, cases=[Case((np.arange(3.0),))],
                  mistakes=[Mistake("same as the reference", "", double),
                            Mistake("triples", "", lambda x: 3 * x)])

    assert ck.mistakes_not_told_apart([check_double], False, crash_loses_points=False) == ["same as the reference"]


def test_a_specs_reference_runs_once_per_case_and_each_caller_gets_its_own_copy():
    """The grader judges a class's answers against one spec: the reference runs once per case
    (its plain outcome kept), every verdict gets a copy it may change, and a reference whose
    value is not plain data (a module) runs afresh each time."""
    import numpy as np

    from attnlab.checks._core import Case, Outcome
    from attnlab.checks._run import CheckSpec

    runs = []

    def reference(x):
        runs.append(1)
        return np.exp(x) / np.exp(x).sum()

    x = np.array([0.0, 1.0, 2.0])
    spec = CheckSpec("softmax", reference, [Case((x,)), Case((x[:2],))])
    right = reference(x)
    runs.clear()
    for _ in range(5):  # a right answer: the reference is the only other call
        assert spec.verdict(0, Outcome(value=right.copy())) is None
    assert len(runs) == 1
    for wrong in (right + 1, right * 2, right[::-1].copy()):  # still named as wrong
        assert "is not right yet" in spec.verdict(0, Outcome(value=wrong))[0]
    runs.clear()
    mine = spec.reference_outcome(0)
    mine.value[:] = 0
    assert np.allclose(spec.reference_outcome(0).value, right) and not runs
    spec.reference_outcome(1)
    spec.reference_outcome(1)
    assert len(runs) == 1  # each case once

    class Module:
        pass

    made = []
    module_spec = CheckSpec("layer", lambda: made.append(1) or Module(), [Case(())])
    module_spec.reference_outcome(0)
    module_spec.reference_outcome(0)
    assert len(made) == 2


@pytest.mark.parametrize("how", ["raise", "assert"])
def test_the_learners_own_input_check_refusing_a_valid_input_is_named_as_such(how):
    """A `raise` or an `assert` the learner wrote, whose message borrows a library's wording
    about shapes, is the learner's input check refusing an input the contract allows: never a
    catalogued shape crash (issue 39)."""
    words = "mat1 and mat2 shapes cannot be multiplied: expected 3 axes"
    guard = (f"    if Q.ndim != 3:\n        raise ValueError({words!r})\n" if how == "raise"
             else f"    assert Q.ndim == 3, {words!r}\n")
    ns = {"np": np}
    exec("def scaled_dot_product_attention(Q, K, V, mask=None):\n" + guard +
         "    return attnlab.scaled_dot_product_attention(Q, K, V, mask)\n", {"np": np, "attnlab": attnlab}, ns)
    from attnlab.checks import check_sdpa
    message = _message(check_sdpa, ns["scaled_dot_product_attention"])
    assert "your own input check refuses a valid input" in message, message
    assert "looks like a known mistake" not in message and "points to a known mistake" not in message, message


def test_a_library_shape_error_is_not_taken_for_the_learners_own_check():
    from attnlab.checks._core import Case, call

    def matmul_crash(x):
        return x @ np.ones((x.shape[-1] + 1, 2))

    def own(x):
        raise ValueError("shapes cannot be multiplied")

    assert not call(matmul_crash, Case((np.ones((2, 3)),))).own
    assert call(own, Case((np.ones((2, 3)),))).own


def test_a_name_the_code_uses_but_never_defines_is_named():
    def softmax(x, axis=-1):
        e = np.exp(x - helper_max(x))  # noqa: F821 - the learner's helper, from a cell never run
        return e / e.sum(axis=axis, keepdims=True)

    message = _message(check_softmax, softmax)
    assert "your code uses `helper_max`, which is not defined" in message, message


def test_a_mistake_whose_plain_code_gives_nan_at_an_edge_is_named_when_the_learner_guards_it():
    """The card's read-before-write code gives 0/0 at t = 0; a learner who guards that step (a 0
    row) made the same mistake, and is told so (issue 39)."""
    from attnlab.checks import check_linear_attention_recurrent

    def linear_attention_recurrent(Q, K, V, feature_map):
        phi_Q, phi_K = feature_map(Q), feature_map(K)
        S, z = np.zeros((phi_K.shape[1], V.shape[1])), np.zeros(phi_K.shape[1])
        out = []
        for t in range(len(Q)):
            den = phi_Q[t] @ z
            out.append(phi_Q[t] @ S / den if den > 0 else np.zeros(V.shape[1]))  # read before the update
            S = S + np.outer(phi_K[t], V[t])
            z = z + phi_K[t]
        return np.array(out)

    message = _message(check_linear_attention_recurrent, linear_attention_recurrent)
    assert "state updated after the readout" in message, message


def test_an_error_of_a_subclass_of_the_contracts_error_is_that_error():
    """The contract says ValueError: a learner's own ``class ShapeError(ValueError)`` raised on a
    bad input is a ValueError (by the class, not its name)."""
    from attnlab.checks._core import Case, call
    from attnlab.checks._run import _problem

    class ShapeError(ValueError):
        pass

    def refuses(x):
        raise ShapeError("x must be 2-D")

    case = Case((np.ones(3),), raises=ValueError)
    got = call(refuses, case)
    assert got.error == "ShapeError" and "ValueError" in got.bases
    assert _problem(got, call(refuses, case), case, "f", (), rtol=1e-6, atol=1e-9) is None
