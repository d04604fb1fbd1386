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


@pytest.mark.parametrize("assignment", ["01_weighted_averages", "02_query_key_value", "05_multi_head_attention"])
def test_no_solution_is_a_copy_of_the_library(assignment):
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
                ns = {"np": np, "torch": torch, "nn": torch.nn, "attnlab": attnlab, "__name__": "__main__"}
                exec(compile(ast.Module([node], []), "<solution>", "exec"), ns)  # noqa: S102
                assert eq.copied_code(ns[node.name], node.name, eq.equivalents(node.name)) is None, node.name
