"""Issue 40: borrowing decided by what an exercise *allows*, not by a list of what it forbids.

During an exercise's graded call the reference, every function of the course library (public and
private) that the exercise does not allow, every torch function or op that computes the exercise
(whatever the route: ``torch.ops.aten``, ``torch._C``, private names, C calling C) and every
library function named for what the exercise computes are tripwires. The answer is materialised
inside the call; copies of the library's code are found by their content; the value probe calls on
an input the learner has not seen, and a drift below the checks' tolerance is judged.

In process: each call goes through the sandbox's own ``_answer`` (the graded call, its tripwires
and the encoding of its value) and ``_value_probe``.
"""
from __future__ import annotations

import collections
import functools
import sys
import types

import numpy as np
import pytest

from attnlab.checks._core import call as call_once
from attnlab.course import equivalents as eq


def _x(shape=(3, 4), seed=0):
    return np.random.default_rng(seed).normal(size=shape)


class _Session:
    """The sandbox's state for one submission: tripwires, the borrowed verdicts, a results folder."""

    def __init__(self, tmp_path):
        from attnlab.course import sandbox

        self.sandbox = sandbox
        self.results = tmp_path
        self.borrowed: dict[str, str] = {}
        self.saved = sandbox._VALUE_PROBE["module"]
        sandbox._VALUE_PROBE["module"] = eq
        sandbox._VALUE_PROBE["pending"].clear()
        sandbox._VALUE_PROBE["counts"].clear()
        self.wires = sandbox._Tripwires()
        self.ids = 0

    def answer(self, name, fn, *args, **kwargs):
        from attnlab.course import tamper

        self.ids += 1
        call = {"id": self.ids, "name": name, "invoke": None, "args": args, "kwargs": kwargs}
        watch = {name: tamper.runtime_targets(name)}
        self.sandbox._answer(call, {name: fn}, watch, self.wires, set(), self.borrowed, self.results,
                             {"call_timeout": 60}, sys.stdout, call_once)
        import json

        return json.loads((self.results / f"{self.ids:04d}.json").read_text())

    def probe(self, name, fn):
        pending = self.sandbox._VALUE_PROBE["pending"].pop(name)
        args, kwargs, invoke, answer = pending
        moved = self.sandbox._value_probe(fn, name, args, kwargs, invoke, answer, {"call_timeout": 60}, sys.stdout,
                                          call_once)
        return moved

    def close(self):
        self.wires.disarm()
        self.sandbox._VALUE_PROBE["module"] = self.saved
        self.sandbox._VALUE_PROBE["pending"].clear()
        self.sandbox._VALUE_PROBE["counts"].clear()
        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_ArmAfterImport"]


@pytest.fixture
def session(tmp_path):
    s = _Session(tmp_path)
    yield s
    s.close()


def _caught(session, name, fn, *calls):
    for args in calls:
        session.answer(name, fn, *args)
    return session.borrowed.get(name)


# --- the routes: each computes the right answer through something the exercise does not allow -----

def _softmax_routes():
    import importlib
    import operator

    import torch

    import attnlab

    masks = sys.modules["attnlab.masks"]
    rows = vars(masks)["_softmax" + "_rows"]          # a private helper, reached by a string
    la = getattr(attnlab, "linear_" + "attention")     # a later exercise: exp as its feature map
    align = getattr(attnlab, "soft_" + "align")        # a later exercise: scores A Bᵀ = x
    efficient = importlib.import_module("attnlab.efficient")
    _sm = torch._C._VariableFunctions._softmax          # bound before the call: C calling C
    _lsm = torch.ops.aten._log_softmax.default
    _safe = getattr(torch.ops.aten, "_safe_softmax")

    def last(f):
        def softmax(x, axis=-1):
            x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
            return np.moveaxis(f(x), -1, axis)
        return softmax

    def by_rows(x):
        return rows(np.ascontiguousarray(x), np.empty_like(x))

    def by_linear_attention(x):
        flat = x.reshape(-1, x.shape[-1])
        out = [la(np.zeros((1, 1)), r[:, None], np.eye(r.size), np.exp)[0] for r in flat]
        return np.array(out).reshape(x.shape)

    def by_soft_align(x):
        flat = x.reshape(-1, x.shape[-1])
        return np.array([align(r[None, :], np.eye(r.size))[0][0] for r in flat]).reshape(x.shape)

    def by_online_update(x):  # one step over all keys, the identity as values: acc / l = softmax
        flat = x.reshape(-1, x.shape[-1])  # (R, Lk): R queries
        R, n = flat.shape
        m, l, acc = efficient.online_softmax_update(np.full(R, -np.inf), np.zeros(R), np.zeros((R, n)), flat, np.eye(n))
        return (acc / l[:, None]).reshape(x.shape)

    def by_apply_along_axis(x):  # numpy's Python code calls the library
        return np.apply_along_axis(getattr(attnlab, "soft" + "max"), -1, x)

    def by_private_torch(x):
        return torch._softmax(torch.as_tensor(x), -1, False).numpy()

    def by_op_registry(x):
        return torch.exp(_lsm(torch.as_tensor(x), -1, False)).numpy()

    def by_safe_softmax(x):
        return _safe(torch.as_tensor(x), -1).numpy()

    def by_c_calling_c(x):
        t = torch.as_tensor(x)
        return collections.deque(map(_sm, [t], [-1], [False]), maxlen=1)[0].numpy()

    def by_methodcaller(x):
        return functools.reduce(lambda acc, f: f(acc), [operator.methodcaller("softmax", -1)],
                                torch.as_tensor(x)).numpy()

    def by_functional_private(x):
        return torch.ops.aten.softmax.int(torch.as_tensor(x), -1).numpy()

    def by_cross_entropy(x):  # a loss that runs a log-softmax inside, under another name
        t = torch.as_tensor(x).reshape(-1, x.shape[-1])
        R, n = t.shape
        ce = torch.nn.functional.cross_entropy
        return torch.stack([-ce(t, torch.full((R,), j), reduction="none") for j in range(n)], -1).exp() \
            .reshape(x.shape).numpy()

    routes = {"private helper by string": by_rows, "cross_entropy per class": by_cross_entropy,
              "linear_attention with exp": by_linear_attention,
              "soft_align on an identity": by_soft_align, "apply_along_axis(softmax)": by_apply_along_axis,
              "torch._softmax": by_private_torch, "aten._log_softmax.default": by_op_registry,
              "aten._safe_softmax": by_safe_softmax, "C calling C (map over deque)": by_c_calling_c,
              "methodcaller through reduce": by_methodcaller, "aten.softmax.int": by_functional_private}
    routes["online_softmax_update"] = by_online_update
    try:
        extmath = importlib.import_module("sklearn.utils.extmath")
        routes["sklearn extmath.softmax"] = lambda x: getattr(extmath, "soft" + "max")(x.reshape(-1, x.shape[-1])
                                                                                      .copy()).reshape(x.shape)
    except ImportError:
        pass
    try:
        special = importlib.import_module("scipy.special")
        _lse = special.logsumexp
        routes["scipy logsumexp bound before"] = lambda x: np.exp(x - _lse(x, axis=-1, keepdims=True))
    except ImportError:
        pass
    return {name: last(f) for name, f in routes.items()}


def test_every_softmax_route_computes_the_softmax():
    import attnlab

    x = _x()
    for route, fn in _softmax_routes().items():
        assert np.allclose(fn(x), attnlab.softmax(x)), route


@pytest.mark.parametrize("route", sorted(_softmax_routes()))
def test_softmax_routes_are_caught_in_the_graded_call(session, route):
    fn = _softmax_routes()[route]
    assert _caught(session, "softmax", fn, (_x(),)), route


def _mix_tokens_routes():
    import importlib

    import torch

    import attnlab
    import attnlab.torch as at

    learned = importlib.import_module("attnlab.learned")
    efficient = importlib.import_module("attnlab.efficient")
    _math = torch.ops.aten._scaled_dot_product_attention_math
    _nn_sdpa = torch._C._nn.scaled_dot_product_attention

    def soft_align(X):
        return attnlab.soft_align(X, X)[0]

    def module_soft_align(X):
        return getattr(learned, "soft_align")(X, X)[0]

    def torch_twin(X):
        return at.soft_align(torch.as_tensor(X), torch.as_tensor(X))[0].numpy()

    def tiled(X):
        Q = X * X.shape[-1] ** 0.25
        return efficient.tiled_attention(Q, Q, X, 2)[0]

    def sdpa_math(X):
        t = torch.as_tensor(X)[None]
        Q = t * t.shape[-1] ** 0.25
        return _math(Q, Q, t)[0][0].numpy()

    def c_nn_sdpa(X):
        t = torch.as_tensor(X)[None]
        Q = t * t.shape[-1] ** 0.25
        return _nn_sdpa(Q, Q, t)[0].numpy()

    def attend_rows(X):
        return np.stack([getattr(attnlab, "att" + "end")(x * X.shape[-1] ** 0.5, X, X)[0] for x in X])

    return {"soft_align(X, X)[0]": soft_align, "attnlab.learned.soft_align": module_soft_align,
            "attnlab.torch.soft_align": torch_twin, "tiled_attention": tiled,
            "aten._scaled_dot_product_attention_math": sdpa_math,
            "torch._C._nn.scaled_dot_product_attention": c_nn_sdpa,
            "attend by rows": attend_rows}


def test_every_mix_tokens_route_computes_mix_tokens():
    import attnlab

    x = _x((4, 3))
    for route, fn in _mix_tokens_routes().items():
        assert np.allclose(fn(x), attnlab.mix_tokens(x)), route


@pytest.mark.parametrize("route", sorted(_mix_tokens_routes()))
def test_mix_tokens_routes_are_caught_in_the_graded_call(session, route):
    fn = _mix_tokens_routes()[route]
    assert _caught(session, "mix_tokens", fn, (_x((4, 3)),)), route


# --- the value is materialised inside the call ---------------------------------------------------

class _Later:
    """Computes its value when the grader reads it, after the call returned."""

    def __init__(self, x):
        self.x = x

    def __array__(self, dtype=None, copy=None):
        import attnlab

        out = getattr(attnlab, "soft" + "max")(self.x)
        return out if dtype is None else out.astype(dtype)


def test_an_answer_computed_after_the_call_returns_is_caught(session):
    x = _x()
    assert _caught(session, "softmax", lambda x, axis=-1: _Later(x), (x,))


def test_a_tensor_subclass_that_computes_when_read_is_caught(session):
    import torch

    import attnlab

    class Lazy(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if getattr(func, "__name__", "") in ("detach", "numpy", "__array__", "cpu", "__getitem__"):
                with torch._C.DisableTorchFunctionSubclass():
                    w = attnlab.masked_softmax(args[0].as_subclass(torch.Tensor).numpy(), None)
                return w if func.__name__ in ("numpy", "__array__") else torch.as_tensor(w)
            with torch._C.DisableTorchFunctionSubclass():
                return func(*args, **(kwargs or {}))

    def softmax(x, axis=-1):
        return torch.as_tensor(x).as_subclass(Lazy)

    assert _caught(session, "softmax", softmax, (_x(),))


# --- copies of the library's code, found by content ---------------------------------------------

def _copies():
    import inspect
    import marshal

    import attnlab

    masks = sys.modules["attnlab.masks"]
    rows = vars(masks)["_softmax_rows"]
    code = marshal.loads(marshal.dumps(rows.__code__))   # the private helper, through marshal
    copied_rows = types.FunctionType(code, dict(vars(masks)), "helper")

    def via_marshal(x, axis=-1):
        x = np.ascontiguousarray(np.asarray(x, dtype=float))
        return copied_rows(x, np.empty_like(x))

    ns: dict = {"np": np, "fmt": lambda s: str(s)}
    source = inspect.getsource(sys.modules["attnlab.learned"].soft_align).replace("def soft_align", "def _al")
    exec(source, ns)  # noqa: S102
    for name in ("_check_pair", "_softmax_rows", "softmax"):
        if name in vars(sys.modules["attnlab.learned"]):
            ns[name] = vars(sys.modules["attnlab.learned"])[name]
    ns.update({k: v for k, v in vars(sys.modules["attnlab.learned"]).items() if k not in ns and not k.startswith("__")})

    exec("def via_getsource(X):\n    return _al(X, X)[0]\n", ns)  # noqa: S102 - a cell beside it
    via_getsource = ns["via_getsource"]

    renamed: dict = {"numpy": np, "fmt": lambda s: str(s)}   # the reference's source, `np` renamed
    src = inspect.getsource(attnlab.softmax).replace("np.", "numpy.").replace("def softmax", "def my_softmax")
    exec(src, renamed)  # noqa: S102

    return {"softmax": {"marshal of a private helper": via_marshal, "getsource, np renamed": renamed["my_softmax"]},
            "mix_tokens": {"getsource of soft_align": via_getsource}}


@pytest.mark.parametrize("exercise,route", [(e, r) for e, routes in _copies().items() for r in routes])
def test_copies_of_library_code_are_refused_by_content(exercise, route):
    fn = _copies()[exercise][route]
    assert eq.copied_code(fn, exercise, eq.equivalents(exercise)), route


def test_the_bytecode_reading_is_dis_s_reading():
    """The copy finder reads instructions from the bytecode itself (``eq._shape``); it must read
    what ``dis`` reads, on every code object of the course library and the libraries it uses."""
    import dis
    import gc

    def by_dis(code) -> tuple:
        out = []
        for ins in dis.get_instructions(code):
            op = "LOAD_ATTR" if ins.opname == "LOAD_METHOD" else ins.opname
            if ins.opname in eq._SKIP_OPS:
                continue
            if op in eq._NAME_OPS or op.startswith(("JUMP", "POP_JUMP", "FOR_ITER", "SEND")) or ins.arg is None:
                out.append(op)
            else:
                out.append((op, ins.arg))
        return tuple(out)

    codes = [code for code, *_ in eq.surface().values()]
    codes += [f.__code__ for f in gc.get_objects() if isinstance(f, types.FunctionType)][:5000]
    assert len(codes) > 1000
    differ = [c.co_qualname if hasattr(c, "co_qualname") else c.co_name for c in codes if eq._shape(c) != by_dis(c)]
    assert differ == [], differ[:10]


def test_a_copy_made_during_the_call_is_caught(session):
    import inspect

    import attnlab

    def softmax(x, axis=-1):
        ns = {k: v for k, v in vars(sys.modules["attnlab.masks"]).items() if k.isupper()}
        ns["np"] = np
        exec(inspect.getsource(sys.modules["attnlab.masks"]._softmax_rows), ns)  # noqa: S102
        x = np.ascontiguousarray(np.asarray(x, dtype=float))
        return ns["_softmax_rows"](x, np.empty_like(x))

    assert np.allclose(softmax(_x()), attnlab.softmax(_x()))
    assert _caught(session, "softmax", softmax, (_x(),))


# --- the value probe ---------------------------------------------------------------------------

def test_honest_only_on_the_input_the_probe_repeats(session):
    """Borrowed on every input it has not seen, honest on a repeat: the probe's input is fresh."""
    import attnlab

    seen = set()
    lib = {"f": None}

    def softmax(x, axis=-1):
        key = np.ascontiguousarray(x).tobytes()
        if key in seen:
            e = np.exp(x - x.max(axis=axis, keepdims=True))
            return e / e.sum(axis=axis, keepdims=True)
        seen.add(key)
        return (lib["f"] or attnlab.masked_softmax)(x, None)

    x = _x()
    base = call_once(softmax, types.SimpleNamespace(args=(x,), kwargs={}))
    session.sandbox._VALUE_PROBE["pending"]["softmax"] = ((x,), {}, None, base.value)
    assert session.probe("softmax", softmax)


def test_a_drift_below_the_tolerance_is_judged(session):
    """Borrowed, and moved by a tiny random amount on each call so that two runs never agree."""
    import attnlab

    rng = np.random.default_rng(5)

    def softmax(x, axis=-1):
        w = attnlab.masked_softmax(x, None)
        return w * (1 + 3e-6 * rng.standard_normal(w.shape))

    x = _x()
    base = call_once(softmax, types.SimpleNamespace(args=(x,), kwargs={}))
    session.sandbox._VALUE_PROBE["pending"]["softmax"] = ((x,), {}, None, base.value)
    assert session.probe("softmax", softmax)


def test_a_function_that_is_not_deterministic_is_still_not_accused(session):
    import attnlab

    rng = np.random.default_rng(3)

    def noisy(x, axis=-1):  # the library for a self-test that is thrown away, then noise
        attnlab.masked_softmax(x, None)
        return x + rng.normal(scale=1e-3, size=x.shape)

    x = _x()
    base = call_once(noisy, types.SimpleNamespace(args=(x,), kwargs={}))
    session.sandbox._VALUE_PROBE["pending"]["softmax"] = ((x,), {}, None, base.value)
    assert session.probe("softmax", noisy) is None


# --- honest look-alikes keep their marks --------------------------------------------------------

def _honest():
    import importlib

    import torch

    import attnlab
    import attnlab.torch as at

    def numpy_softmax(x, axis=-1):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)

    def torch_softmax(x, axis=-1):
        t = torch.as_tensor(x)
        e = torch.exp(t - t.amax(dim=axis, keepdim=True))
        return (e / e.sum(dim=axis, keepdim=True)).numpy()

    def logaddexp(x, axis=-1):
        return np.exp(x - np.logaddexp.reduce(x, axis=axis, keepdims=True))

    def reduce_over_deque(x, axis=-1):  # C calling C, on primitives
        steps = collections.deque([lambda a: a - a.max(axis=axis, keepdims=True), np.exp,
                                   lambda e: e / e.sum(axis=axis, keepdims=True)])
        return functools.reduce(lambda acc, f: f(acc), steps, np.asarray(x, dtype=float))

    def mix_library_softmax(X):
        return attnlab.softmax(X @ X.T) @ X

    def mix_torch_softmax(X):
        t = torch.as_tensor(X)
        return (torch.softmax(t @ t.T, dim=-1) @ t).numpy()

    def mix_private_torch_softmax(X):  # softmax is an earlier exercise: any route to it is allowed
        t = torch.as_tensor(X)
        return (torch._softmax(t @ t.T, -1, False) @ t).numpy()

    special = importlib.import_module("scipy.special")  # (installed with the course's other packages)

    def mix_scipy_softmax(X):
        return special.softmax(X @ X.T, axis=-1) @ X

    def self_attention_blocks(X, W_q, W_k, W_v):
        return attnlab.scaled_dot_product_attention(X @ W_q, X @ W_k, X @ W_v)

    def self_attention_torch_sdpa_weights(X, W_q, W_k, W_v):  # torch's SDPA: an earlier exercise
        Q, K, V = (torch.as_tensor(X @ W) for W in (W_q, W_k, W_v))
        out = torch.nn.functional.scaled_dot_product_attention(Q[None], K[None], V[None])[0]
        A = torch.softmax(Q @ K.T / Q.shape[-1] ** 0.5, dim=-1)
        return out.numpy(), A.numpy()

    def self_attention_torch_masked(X, W_q, W_k, W_v):  # the torch twin given in notebook 03
        Q, K, V = (torch.as_tensor(X @ W) for W in (W_q, W_k, W_v))
        A = at.masked_softmax(Q @ K.T / Q.shape[-1] ** 0.5, None)
        return (A @ V).numpy(), A.numpy()

    rng = np.random.default_rng(2)
    X, Ws = rng.normal(size=(4, 6)), [rng.normal(size=(6, 5)) for _ in range(3)]
    return [("softmax", f, (_x(),)) for f in (numpy_softmax, torch_softmax, logaddexp, reduce_over_deque)] + [
        ("mix_tokens", f, (_x((4, 3)),)) for f in (mix_library_softmax, mix_torch_softmax, mix_private_torch_softmax,
                                                   mix_scipy_softmax)] + [
        ("self_attention", f, (X, *Ws)) for f in (self_attention_blocks, self_attention_torch_sdpa_weights,
                                                  self_attention_torch_masked)]


@pytest.mark.parametrize("index", range(11))
def test_honest_look_alikes_are_not_accused(session, index):
    name, fn, args = _honest()[index]
    record = session.answer(name, fn, *args)
    assert record.get("error") is None, record
    assert session.borrowed.get(name) is None, (fn.__name__, session.borrowed)
    assert session.probe(name, fn) is None, fn.__name__


def test_the_honest_list_is_all_run():
    assert len(_honest()) == 11


def test_taking_the_torch_watch_off_the_stack_is_caught(session):
    import torch

    _sm = torch._C._VariableFunctions._softmax

    def softmax(x, axis=-1):
        pop = getattr(torch._C, "_pop_torch_function" + "_stack")
        push = getattr(torch._C, "_push_on_torch_function" + "_stack")
        modes = []
        while torch._C._len_torch_function_stack():
            modes.append(pop())
        try:
            t = torch.as_tensor(x)
            return collections.deque(map(_sm, [t], [axis], [False]), maxlen=1)[0].numpy()
        finally:
            for m in reversed(modes):
                push(m)

    assert _caught(session, "softmax", softmax, (_x(),))


def test_static_reading_flags_the_torch_switches():
    from attnlab.course import tamper

    found = tamper.tampering("import torch\nwith torch._C.DisableTorchFunction():\n    pass\n", ["softmax"])
    assert any("torch" in f.detail for f in found)


def _conversions():
    import attnlab

    def borrowed(W, num_heads):
        D, n = W.shape
        Dh = n // num_heads
        return W.reshape(D, num_heads, Dh)[..., attnlab.halves_to_interleaved(Dh)].reshape(D, n)

    def own(W, num_heads):
        D, n = W.shape
        Dh = n // num_heads
        order = np.stack([np.arange(Dh // 2), np.arange(Dh // 2) + Dh // 2], axis=-1).reshape(Dh)
        return W.reshape(D, num_heads, Dh)[..., order].reshape(D, n)

    return {"borrowed": borrowed, "own": own}


@pytest.mark.parametrize("which", ["borrowed", "own"])
def test_the_checkpoint_conversion_cannot_borrow_the_one_head_order(session, which):
    """Notebook 11's conversion exercise: the library's one-head permutation
    (``attnlab.halves_to_interleaved``, shown only after the exercise) is the step the learner
    derives, so calling it is borrowing; the learner's own order is not."""
    W = np.random.default_rng(0).normal(size=(6, 16))
    record = session.answer("halves_to_interleaved_weights", _conversions()[which], W, 2)
    assert record.get("error") is None, record
    verdict = session.borrowed.get("halves_to_interleaved_weights")
    assert (verdict is not None) == (which == "borrowed"), verdict
