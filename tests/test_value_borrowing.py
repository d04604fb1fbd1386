"""Issue 26: borrowing decided by values, not names (``attnlab.course.equivalents``).

In process and fast: the learner's function is called as the sandbox calls it, then once more
with the exercise's library equivalents perturbed; an answer that moves was borrowed. The
graded end-to-end routes are in ``tests/adversarial.py`` (``value_routes``).
"""
from __future__ import annotations

import functools
import sys
import types

import numpy as np
import pytest

from attnlab.checks._core import call
from attnlab.course import equivalents as eq


class _Case:
    def __init__(self, args, kwargs=None):
        self.args, self.kwargs = args, kwargs or {}


def _moves(exercise, fn, *args):
    """What the answer of ``fn(*args)`` followed when the equivalents were perturbed (None: nothing)."""
    base = call(fn, _Case(args))
    assert base.error is None, base.message
    return eq.moves_with_library(lambda: call(fn, _Case(args)), base.value, eq.resolve(eq.equivalents(exercise)))


def _x():
    return np.random.default_rng(0).normal(size=(3, 4))


def test_equivalents_follow_the_course_order():
    softmax = {f"{m}.{a}" for m, a in eq.equivalents("softmax")}
    assert {"attnlab.softmax", "attnlab.masked_softmax", "torch.special.softmax", "torch.Tensor.log_softmax",
            "scipy.special.log_softmax", "attnlab.scaled_dot_product_attention", "attnlab.torch.MultiHeadAttention",
            "torch.nn.functional.scaled_dot_product_attention"} <= softmax
    mix = {f"{m}.{a}" for m, a in eq.equivalents("mix_tokens")}
    assert {"attnlab.mix_tokens", "attnlab.scaled_dot_product_attention", "torch.nn.MultiheadAttention"} <= mix
    assert "attnlab.softmax" not in mix and "torch.softmax" not in mix  # an earlier exercise: allowed
    self_attention = {f"{m}.{a}" for m, a in eq.equivalents("self_attention")}
    assert "attnlab.scaled_dot_product_attention" not in self_attention  # the course's own building block
    assert "attnlab.multi_head_attention" in self_attention
    mha = {f"{m}.{a}" for m, a in eq.equivalents("multi_head_attention")}
    assert {"attnlab.torch.MultiHeadAttention", "torch.nn.MultiheadAttention"} <= mha
    assert "attnlab.scaled_dot_product_attention" not in mha and "attnlab.split_heads" not in mha


def test_the_routes_of_the_last_attack_round_move_with_the_library():
    import torch

    import attnlab

    x = _x()
    namespace = {"_sm": torch.special.softmax, "torch": torch, "np": np}  # bound in another cell
    exec("def special(x, axis=-1):\n    return _sm(torch.as_tensor(x), axis).numpy()\n", namespace)  # noqa: S102

    def masked(x, axis=-1):
        return attnlab.masked_softmax(x, None)

    def by_string(x, axis=-1):
        t = torch.as_tensor(x)
        return torch.exp(getattr(t, "log_" + "softmax")(axis)).numpy()

    keep = {"f": attnlab.softmax}
    partial = functools.partial(attnlab.softmax, axis=-1)

    def default(x, axis=-1, _f=(attnlab.softmax,)):
        return _f[0](x, axis)

    assert "attnlab.masked_softmax" in _moves("softmax", masked, x)
    assert "torch.special.softmax" in _moves("softmax", namespace["special"], x)
    assert "torch.Tensor.log_softmax" in _moves("softmax", by_string, x)
    assert _moves("softmax", lambda x: keep["f"](x), x)
    assert _moves("softmax", lambda x: partial(x), x)
    assert _moves("softmax", default, x)

    def mix_as_sdpa(X):
        Q = X * X.shape[-1] ** 0.25
        return attnlab.scaled_dot_product_attention(Q, Q, X)[0]

    assert np.allclose(mix_as_sdpa(x), attnlab.mix_tokens(x))
    assert "attnlab.scaled_dot_product_attention" in _moves("mix_tokens", mix_as_sdpa, x)


def test_multi_head_attention_through_the_library_module():
    import torch

    import attnlab
    import attnlab.torch as at

    rng = np.random.default_rng(1)
    X_q, X_kv = rng.normal(size=(2, 3, 8)), rng.normal(size=(2, 4, 8))
    W = [rng.normal(size=(8, 8)) for _ in range(4)]

    def through_module(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
        m = at.MultiHeadAttention(X_q.shape[-1], num_heads).double()
        with torch.no_grad():
            for lin, w in zip((m.W_q, m.W_k, m.W_v, m.W_o), (W_q, W_k, W_v, W_o)):
                lin.weight.copy_(torch.as_tensor(w.T))
            out, weights = m(torch.as_tensor(X_q), torch.as_tensor(X_kv))
        return out.numpy(), weights.numpy()

    def from_building_blocks(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):  # what the prompt allows
        Q, K, V = (attnlab.split_heads(a @ w, num_heads) for a, w in ((X_q, W_q), (X_kv, W_k), (X_kv, W_v)))
        Z, A = attnlab.scaled_dot_product_attention(Q, K, V, mask)
        return attnlab.merge_heads(Z) @ W_o, A

    ref = attnlab.multi_head_attention(X_q, X_kv, *W, 2)
    assert np.allclose(through_module(X_q, X_kv, *W, 2)[0], ref[0])
    assert "attnlab.torch.MultiHeadAttention" in _moves("multi_head_attention", through_module, X_q, X_kv, *W, 2)
    assert _moves("multi_head_attention", from_building_blocks, X_q, X_kv, *W, 2) is None


def test_honest_primitives_and_earlier_exercises_keep_their_answers():
    import torch

    import attnlab

    x = _x()

    def numpy_softmax(x, axis=-1):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    def torch_softmax(x, axis=-1):
        t = torch.as_tensor(x)
        e = torch.exp(t - t.amax(dim=axis, keepdim=True))
        return (e / e.sum(dim=axis, keepdim=True)).numpy()

    def logaddexp_softmax(x, axis=-1):
        return np.exp(x - np.logaddexp.reduce(x, axis=axis, keepdims=True))

    class Own(torch.nn.Module):  # the learner's own module
        def forward(self, t):
            e = torch.exp(t - t.amax(dim=-1, keepdim=True))
            return e / e.sum(dim=-1, keepdim=True)

    own = Own()
    for honest in (numpy_softmax, torch_softmax, logaddexp_softmax, lambda x: own(torch.as_tensor(x)).numpy()):
        assert _moves("softmax", honest, x) is None
    # an earlier exercise (the learner's or the library's) inside a later one is allowed
    assert _moves("mix_tokens", lambda X: attnlab.softmax(X @ X.T) @ X, x) is None
    assert _moves("mix_tokens", lambda X: numpy_softmax(np.einsum("id,jd->ij", X, X)) @ X, x) is None


def test_everything_is_put_back():
    import torch

    scipy = pytest.importorskip("scipy")  # scikit-learn's dependency, not the course's
    pytest.importorskip("scipy.special")

    import attnlab

    before = (torch.Tensor.log_softmax, torch.special.softmax, attnlab.softmax.__code__,
              scipy.special.softmax.__code__, torch.nn.MultiheadAttention.forward.__code__)
    keep = [torch.softmax]
    with eq.Perturbed(eq.resolve(eq.equivalents("softmax"))):
        assert keep[0] is not torch.softmax or keep[0].__name__ == "perturbed"
        assert attnlab.softmax.__code__ is not before[2]
    after = (torch.Tensor.log_softmax, torch.special.softmax, attnlab.softmax.__code__,
             scipy.special.softmax.__code__, torch.nn.MultiheadAttention.forward.__code__)
    assert all(a is b for a, b in zip(before, after))
    assert keep[0] is torch.softmax and keep[0].__name__ == "softmax"
    assert "__attnlab_value_probe__" not in vars(sys.modules["attnlab.averages"])


def test_a_function_that_is_not_deterministic_is_not_accused():
    import attnlab

    rng = np.random.default_rng(3)

    def noisy(x, axis=-1):  # uses the library only for a self-test that is thrown away
        attnlab.softmax(x)
        return x + rng.normal(scale=1e-3, size=x.shape)

    assert _moves("softmax", noisy, _x()) is None


def test_copies_of_the_reference_code_whatever_they_are_called():
    import attnlab

    ref = attnlab.softmax
    replaced = types.FunctionType(ref.__code__.replace(co_name="my_softmax"), ref.__globals__, "softmax",
                                  ref.__defaults__)
    assert "copy" in eq.copied_code(replaced, "softmax", eq.equivalents("softmax"))

    class Holder:
        def __call__(self, x, axis=-1):
            return replaced(x, axis)

    assert eq.copied_code(Holder(), "softmax", eq.equivalents("softmax"))

    def honest(x, axis=-1):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)

    assert eq.copied_code(honest, "softmax", eq.equivalents("softmax")) is None
    # the reference itself (no copy): the name-based route's business, not this one's
    assert eq.copied_code(ref, "softmax", eq.equivalents("softmax")) is None


@pytest.mark.parametrize("assignment", ["01_weighted_averages", "02_query_key_value", "03_self_attention",
                                        "04_masks_and_cross_attention", "05_multi_head_attention",
                                        "06_attention_as_kernel_machine", "07_rnn_translation_with_attention",
                                        "08_efficient_attention", "09_transformer", "10_attention_on_images",
                                        "11_modern_attention", "12_what_attention_learns",
                                        "13_attention_variants"])
def test_no_solution_is_a_copy_of_the_library(assignment):
    """Copies are found by content against the whole library (issue 40): no solution is one."""
    import ast
    import json
    import re
    from pathlib import Path

    import torch

    import attnlab

    nb = json.loads((Path(__file__).parents[1] / "solutions" / assignment / f"{assignment}.ipynb").read_text())
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in nb["cells"]]
    names = {n for s in sources for n in re.findall(r"check_\w+\((\w+)", s)}
    for cell, source in zip(nb["cells"], sources):
        if cell["cell_type"] != "code":
            continue
        for node in ast.parse(source).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
                ns = {"np": np, "torch": torch, "nn": torch.nn, "F": torch.nn.functional, "math": __import__("math"),
                      "attnlab": attnlab, "at": sys.modules.get("attnlab.torch"), "__name__": "__main__"}
                exec(compile(ast.Module([node], []), "<solution>", "exec"), ns)  # noqa: S102
                assert eq.copied_code(ns[node.name], node.name, eq.equivalents(node.name)) is None, node.name


# --- answers kept from the library (a cache, a default argument, a table) ----------------------

def _graded(exercise, fn, *calls):
    """Call ``fn`` on each input as the sandbox's graded calls do (tripwires from
    ``sandbox._tripwire_targets``); what the tripwires caught (None: nothing)."""
    from attnlab.course import sandbox, tamper

    wires = sandbox._Tripwires()
    saved = sandbox._VALUE_PROBE["module"]
    sandbox._VALUE_PROBE["module"] = eq
    try:
        for args in calls:
            wires.arm(exercise, sandbox._tripwire_targets(exercise, {exercise: tamper.runtime_targets(exercise)}))
            with wires.watching():
                fn(*args)
            wires.disarm()
        return wires.hits.get(exercise)
    finally:
        wires.disarm()
        sandbox._VALUE_PROBE["module"] = saved
        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_ArmAfterImport"]


def test_every_equivalent_is_a_tripwire_of_its_exercise_only():
    from attnlab.course import sandbox, tamper

    saved = sandbox._VALUE_PROBE["module"]
    sandbox._VALUE_PROBE["module"] = eq
    try:
        watch = {"softmax": tamper.runtime_targets("softmax"), "mix_tokens": tamper.runtime_targets("mix_tokens")}
        softmax = set(sandbox._tripwire_targets("softmax", watch))
        assert set(watch["softmax"]) <= softmax and set(eq.equivalents("softmax")) <= softmax
        assert ("attnlab", "masked_softmax") in softmax and ("attnlab", "masked_softmax") not in watch["softmax"]
        mix = set(sandbox._tripwire_targets("mix_tokens", watch))
        assert ("attnlab", "scaled_dot_product_attention") in mix and ("attnlab", "softmax") not in mix
        assert sandbox._tripwire_targets("weighted_sum", watch) == []  # not an exercise of the job
    finally:
        sandbox._VALUE_PROBE["module"] = saved


def _kept_routes():
    import torch

    import attnlab

    @functools.lru_cache(maxsize=None)
    def kept(key, shape):
        return attnlab.masked_softmax(np.frombuffer(key).reshape(shape), None)

    def lru(x, axis=-1):
        x = np.ascontiguousarray(x, dtype=float)
        return kept(x.tobytes(), x.shape).copy()

    table = {}

    def by_bytes(x, axis=-1):
        key = np.ascontiguousarray(x, dtype=float).tobytes()
        if key not in table:
            table[key] = torch.exp(getattr(torch.as_tensor(x), "log_" + "softmax")(axis)).numpy()
        return table[key]

    def default(x, axis=-1, _memo={}):  # noqa: B006 - the attack
        key = x.tobytes()
        if key not in _memo:
            _memo[key] = torch.special.softmax(torch.as_tensor(x), axis).numpy()
        return _memo[key]

    def attribute(x, axis=-1):
        if not hasattr(attribute, "first"):
            n = x.shape[-1]  # the weights of attention with keys sqrt(n) I are softmax(x)
            attribute.first = attnlab.scaled_dot_product_attention(x, np.sqrt(n) * np.eye(n), np.eye(n))[1]
        return attribute.first  # the first answer, computed by the library, for every later call

    return {"lru_cache": lru, "dict by bytes": by_bytes, "default argument": default, "attribute": attribute}


def test_a_kept_answer_outlasts_the_value_probe_but_not_the_graded_call():
    import attnlab

    x = _x()
    for route, fn in _kept_routes().items():
        assert np.allclose(fn(x), attnlab.softmax(x)), route  # the graded call kept the library's answer
        # the probe's repeat of that call finds the kept answer, unmoved
        assert _moves("softmax", fn, x) is None, route
    for route, fn in _kept_routes().items():
        assert _graded("softmax", fn, (x,), (x,)), route


def test_answers_precomputed_for_the_visible_inputs_and_the_library_for_the_rest():
    import torch

    visible, hidden = _x(), np.random.default_rng(9).normal(size=(2, 5))
    _sm = torch.special.softmax
    table = {visible.tobytes(): _sm(torch.as_tensor(visible), -1).numpy()}  # an earlier cell

    def softmax(x, axis=-1):
        if x.tobytes() in table:
            return table[x.tobytes()]
        return _sm(torch.as_tensor(x), axis).numpy()

    assert _moves("softmax", softmax, visible) is None  # the probe repeats a visible case
    assert _graded("softmax", softmax, (visible,)) is None  # nothing of the library ran in the call
    assert _graded("softmax", softmax, (visible,), (hidden,)) == "torch.special.softmax"


def test_honest_caches_keep_their_marks():
    import torch

    import attnlab

    x = _x()

    @functools.lru_cache(maxsize=8)
    def stable(key, shape):
        s = np.frombuffer(key).reshape(shape)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def softmax(x, axis=-1):
        x = np.ascontiguousarray(x, dtype=float)
        return stable(x.tobytes(), x.shape).copy()

    scores = {}

    def mix_tokens(X):  # its own cached scores, then the library's softmax: an earlier exercise
        key = X.tobytes()
        if key not in scores:
            scores[key] = np.einsum("id,jd->ij", X, X)
        return attnlab.softmax(scores[key], axis=-1) @ X

    def mix_tokens_torch(X):
        t = torch.as_tensor(X)
        return (torch.softmax(t @ t.T, dim=-1) @ t).numpy()

    assert _graded("softmax", softmax, (x,), (x,), (x.T,)) is None
    assert _graded("mix_tokens", mix_tokens, (x,), (x,)) is None
    assert _graded("mix_tokens", mix_tokens_torch, (x,)) is None


def test_multi_head_attention_kept_from_the_library_module():
    import torch

    import attnlab
    import attnlab.torch as at

    rng = np.random.default_rng(1)
    X_q, X_kv = rng.normal(size=(2, 3, 8)), rng.normal(size=(2, 4, 8))
    W = [rng.normal(size=(8, 8)) for _ in range(4)]
    kept = {}

    def through_module(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
        key = (X_q.tobytes(), X_kv.tobytes(), num_heads)
        if key not in kept:
            m = at.MultiHeadAttention(X_q.shape[-1], num_heads).double()
            with torch.no_grad():
                for lin, w in zip((m.W_q, m.W_k, m.W_v, m.W_o), (W_q, W_k, W_v, W_o)):
                    lin.weight.copy_(torch.as_tensor(w.T))
                out, weights = m(torch.as_tensor(X_q), torch.as_tensor(X_kv))
            kept[key] = out.numpy(), weights.numpy()
        return kept[key]

    blocks = {}

    def from_building_blocks(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
        key = (X_q.tobytes(), X_kv.tobytes(), num_heads)
        if key not in blocks:
            Q, K, V = (attnlab.split_heads(a @ w, num_heads) for a, w in ((X_q, W_q), (X_kv, W_k), (X_kv, W_v)))
            Z, A = attnlab.scaled_dot_product_attention(Q, K, V, mask)
            blocks[key] = attnlab.merge_heads(Z) @ W_o, A
        return blocks[key]

    def with_torch_softmax(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):  # softmax: an earlier exercise
        Q, K, V = (torch.as_tensor(attnlab.split_heads(a @ w, num_heads))
                   for a, w in ((X_q, W_q), (X_kv, W_k), (X_kv, W_v)))
        A = torch.softmax(Q @ K.transpose(-1, -2) / Q.shape[-1] ** 0.5, dim=-1)
        return attnlab.merge_heads((A @ V).numpy()) @ W_o, A.numpy()

    args = (X_q, X_kv, *W, 2)
    through_module(*args)
    assert _moves("multi_head_attention", through_module, *args) is None  # kept: the probe alone misses it
    kept.clear()  # a fresh submission: its first graded call computes
    assert "MultiHeadAttention" in _graded("multi_head_attention", through_module, args, args)
    kept.clear()
    assert _graded("multi_head_attention", from_building_blocks, args, args) is None
    assert np.allclose(with_torch_softmax(*args)[0], attnlab.multi_head_attention(*args)[0])
    assert _graded("multi_head_attention", with_torch_softmax, args) is None


def test_a_namespace_that_calls_itself_the_library_is_not_the_library():
    """The library calling itself is exempt from the tripwires; a learner's function whose globals
    say ``__name__ = "attnlab.checks.x"`` (a shipped module, an exec) is not the library."""
    import attnlab
    import attnlab.averages
    from attnlab.course import borrowing

    x = _x()
    ns = {"__name__": "attnlab.checks.mine", "attnlab": attnlab}
    exec("_k = {}\ndef softmax(x, axis=-1):\n    k = x.tobytes()\n    if k not in _k:\n"  # noqa: S102
         "        _k[k] = attnlab.masked_softmax(x, None)\n    return _k[k]\n", ns)
    assert _graded("softmax", ns["softmax"], (x,), (x,)) == "attnlab.masked_softmax"

    real = vars(attnlab.averages)
    borrowing._snapshot_library_code()  # as the sandbox does before the learner's first cell
    try:
        exec("def _planted(x, axis=-1):\n    import attnlab\n    return attnlab.masked_softmax(x, None)\n",  # noqa: S102
             real)
        assert _graded("softmax", real["_planted"], (x,)) == "attnlab.masked_softmax"
        # the library calling itself stays exempt: the checks run the reference softmax
        from attnlab.checks import check_softmax

        def honest(x, axis=-1):
            e = np.exp(x - np.max(x, axis=axis, keepdims=True))
            return e / np.sum(e, axis=axis, keepdims=True)

        assert _graded("softmax", check_softmax, (honest,)) is None
    finally:
        real.pop("_planted", None)
