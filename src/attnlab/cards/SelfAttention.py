"""SelfAttention (notebook 03): single-head self-attention as a torch module, with learned
projections ``W_q, W_k, W_v`` (``nn.Linear``) and an optional mask.

The check builds the learner's class with known weights (:func:`attnlab.checks.self_attention.invoke_module`)
and compares ``forward`` with the numpy reference. A mistake's code is a whole class, so the check
runs it the same way: each mistake's ``impl`` is its class called through ``invoke_module``.
"""
from __future__ import annotations

from functools import partial

from ..checks import _divergence
from ..checks._core import Case, Mistake, case_rng
from ..checks._modules import DROPOUT_FIX, DROPOUT_PRINCIPLE
from ..checks.self_attention import MODULE_ARGS, attention_args, invoke_module, module_reference
from ._card import Card, Contract


def _uses() -> dict:
    import attnlab.torch as at

    return {"at": at}  # the notebook's setup cell: `import attnlab.torch as at`


def _cell(forward: str, init: str | None = None, header: str = "class SelfAttention(nn.Module):") -> str:
    """A learner's SelfAttention cell with the given forward body (and __init__ body)."""
    return f'''{header}
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
{_INIT if init is None else init}

    def forward(self, X, mask=None):
{forward}
'''


_INIT = '''        self.d_in, self.d_k, self.d_v = d_in, d_k, d_v
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)'''
_QKV = '''        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
'''
_SCORES = _QKV + '''        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)
'''
_RIGHT = _SCORES + '''        A = at.masked_softmax(scores, mask)
        return A @ V, A'''

_BOTH = ("test_self_attention_module", "test_self_attention_module_mask")
_MASK = ("test_self_attention_module_mask",)

CARD = Card(
    "SelfAttention", "03_self_attention",
    summary="self-attention with learned projections: nn.Linear layers W_q, W_k, W_v, and "
            "forward(X, mask) returning (Z, A)",
    contract=Contract(
        args=MODULE_ARGS, reference=module_reference, invoke=invoke_module, outputs=("Z", "A"),
        reference_module=_divergence.self_attention_class,
        shapes="SelfAttention(d_in, d_k, d_v, bias=False) has nn.Linear layers W_q, W_k (d_in -> d_k) "
               "and W_v (d_in -> d_v), with a bias if and only if bias is True; forward takes X "
               "(..., L, d_in) and a boolean mask broadcastable to (..., L, L), True = may attend",
        returns="(Z, A): Z (..., L, d_v) the outputs, A (..., L, L) = softmax(Q Kᵀ / √d_k) with "
                "masked weights 0 (a fully masked row all 0); gradients reach every projection"),
    uses=_uses,
    mistakes=[
        Mistake(
            "a class that is not an nn.Module",
            principle="The class must be a torch module, initialised as one.",
            fix="write `class SelfAttention(nn.Module):` and call `super().__init__()` first in __init__.",
            fails=_BOTH, code=_cell(_RIGHT, header="class SelfAttention:")),
        Mistake(
            "the projections are not the nn.Linear attributes W_q, W_k, W_v",
            principle="The projections are linear layers stored under the names the stub gives.",
            fix="create them in __init__ under exactly these names, `self.W_q = nn.Linear(d_in, d_k, "
                "bias=bias)`, `self.W_k = nn.Linear(d_in, d_k, bias=bias)`, `self.W_v = nn.Linear(d_in, "
                "d_v, bias=bias)`: the check copies known weights into them.",
            fails=_BOTH, code=_cell('''\
        Q, K, V = self.query(X), self.key(X), self.value(X)
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A @ V, A''', init='''\
        self.d_k = d_k
        self.query = nn.Linear(d_in, d_k, bias=bias)
        self.key = nn.Linear(d_in, d_k, bias=bias)
        self.value = nn.Linear(d_in, d_v, bias=bias)''')),
        Mistake(
            "a projection of the wrong size",
            principle="Queries and keys map d_in to d_k; values map d_in to d_v.",
            fix="`nn.Linear(in_features, out_features)`: W_q and W_k map d_in -> d_k, W_v maps d_in -> d_v.",
            fails=_BOTH, code=_cell(_RIGHT, init='''\
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_k, bias=bias)  # values as wide as the keys''')),
        Mistake(
            "the `bias` argument not passed on to nn.Linear",
            principle="The constructor's bias setting must reach every projection.",
            fix="`nn.Linear` has a bias unless told otherwise: write `nn.Linear(d_in, d_k, bias=bias)` "
                "(and the same for W_k and W_v).",
            fails=_BOTH, code=_cell(_RIGHT, init='''\
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k)
        self.W_k = nn.Linear(d_in, d_k)
        self.W_v = nn.Linear(d_in, d_v)''')),
        Mistake(
            "dropout left active in eval mode",
            principle=DROPOUT_PRINCIPLE, fix=DROPOUT_FIX,
            fails=_BOTH, code=_cell(_SCORES + '''\
        A = at.masked_softmax(scores, mask)
        A = torch.nn.functional.dropout(A, p=0.1)  # training=True by default
        return A @ V, A''')),
        Mistake(
            "a step outside torch's autograd (`.numpy()`, `.detach()`, `torch.no_grad()`): no "
            "gradient reaches the projections before it",
            principle="Training needs a gradient for every weight: keep the whole forward pass in torch, so "
                      "that backpropagation reaches W_q, W_k and W_v.",
            fix="compute the scores, the softmax and `A @ V` with torch operations on the tensors "
                "themselves (`attnlab.torch.masked_softmax`, `torch.softmax`), never through numpy.",
            fails=_BOTH, code=_cell(_SCORES + '''\
        A = attnlab.masked_softmax(scores.detach().numpy(), None if mask is None else mask.numpy())
        A = torch.from_numpy(A)
        return A @ V, A''')),
        Mistake(
            "`X @ self.W_q.weight` without the transpose: nn.Linear stores its weight as (out, in)",
            principle="A linear layer's weight is stored (out, in): let the layer apply itself, or transpose.",
            fix="call the layer, `self.W_q(X)`, which computes `X @ weight.T + bias`.",
            fails=_BOTH, code=_cell('''\
        Q, K, V = X @ self.W_q.weight, X @ self.W_k.weight, X @ self.W_v.weight
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A @ V, A''')),
        Mistake(
            "no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √d_k)",
            principle="Scores are divided by √d_k before the softmax.",
            fix="divide the scores by `math.sqrt(self.d_k)` (store d_k in __init__).",
            fails=_BOTH, code=_cell(_QKV + '''\
        A = at.masked_softmax(Q @ K.transpose(-1, -2), mask)
        return A @ V, A''')),
        Mistake(
            "scaling by √d_in (the input width) instead of √d_k",
            principle="The scale comes from the query/key width d_k, not the input width.",
            fix="the scores are dot products of d_k-dimensional vectors: divide by `math.sqrt(d_k)`.",
            fails=_BOTH, code=_cell(_QKV + '''\
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_in), mask)
        return A @ V, A''')),
        Mistake(
            "scaling by d_k instead of √d_k",
            principle="The scale is the square root of d_k, not d_k itself.",
            fix="divide by `math.sqrt(self.d_k)`.",
            fails=_BOTH, code=_cell(_QKV + '''\
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / self.d_k, mask)
        return A @ V, A''')),
        Mistake(
            "scaling by √d_v instead of √d_k",
            principle="The scale comes from the query/key width d_k, not the value width.",
            fix="the scale belongs to the query-key dot product: `math.sqrt(self.d_k)`.",
            fails=_BOTH, code=_cell(_QKV + '''\
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_v), mask)
        return A @ V, A''')),
        Mistake(
            "no softmax: the scaled scores used as weights",
            principle="Scaled scores go through a softmax over the keys to become weights.",
            fix="A = `attnlab.torch.masked_softmax(scores, mask)` (or `torch.softmax(scores, dim=-1)` "
                "without a mask).",
            fails=_BOTH, code=_cell(_SCORES + '''\
        A = scores if mask is None else scores.masked_fill(~mask, 0.0)
        return A @ V, A''')),
        Mistake(
            "a softmax over the wrong axis (over the queries, dim=-2)",
            principle="Each query's weights over the keys sum to one: normalise over the last dimension.",
            fix="each query's weights must sum to one over the keys: softmax over the last dim.",
            fails=_BOTH, code=_cell(_SCORES + '''\
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        A = torch.softmax(scores, dim=-2)
        return A @ V, A''')),
        Mistake(
            "X used as the values (no W_v)",
            principle="Values are their own projection of X.",
            fix="values are `self.W_v(X)`; then `Z = A @ V`.",
            fails=_BOTH, code=_cell(_SCORES + '''\
        A = at.masked_softmax(scores, mask)
        return A @ X, A''')),
        Mistake(
            "W_q used for the keys as well",
            principle="Keys have their own projection, distinct from the queries'.",
            fix="keys come from their own map: `K = self.W_k(X)`.",
            fails=_BOTH, code=_cell('''\
        Q, K, V = self.W_q(X), self.W_q(X), self.W_v(X)
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A @ V, A''')),
        Mistake(
            "returning (A, Z) instead of (Z, A)",
            principle="The contract returns the output Z first, then the weights A.",
            fix="return the outputs first: `return A @ V, A`.",
            fails=_BOTH, code=_cell(_SCORES + '''\
        A = at.masked_softmax(scores, mask)
        return A, A @ V''')),
        Mistake(
            "the mask is ignored",
            principle="Masked-out keys must get weight exactly zero.",
            fix="pass the mask on: `A = attnlab.torch.masked_softmax(scores, mask)`.",
            fails=_MASK, code=_cell(_SCORES + '''\
        A = torch.softmax(scores, dim=-1)
        return A @ V, A''')),
        Mistake(
            "the mask is inverted (True treated as blocked)",
            principle='True means "may attend": keep the scores where the mask is True.',
            fix="`True` means *may attend*: keep the scores where the mask is True.",
            fails=_MASK, code=_cell(_SCORES + '''\
        A = at.masked_softmax(scores, None if mask is None else ~mask)
        return A @ V, A''')),
        Mistake(
            "the mask applied after the softmax (A * mask) without renormalising",
            principle="Block the scores before the softmax so the remaining weights still sum to one.",
            fix="mask the scores before the softmax; `attnlab.torch.masked_softmax(scores, mask)` does it.",
            fails=_MASK, code=_cell(_SCORES + '''\
        A = torch.softmax(scores, dim=-1)
        if mask is not None:
            A = A * mask
        return A @ V, A''')),
        Mistake(
            "a fully masked row becomes NaN (masked_fill with -inf, then softmax)",
            principle="A row with no allowed key needs its own rule: all-zero weights, never 0/0.",
            fix="a row with no key to attend to must get zero weights: use "
                "`attnlab.torch.masked_softmax(scores, mask)`, which handles it.",
            fails=_MASK, code=_cell(_SCORES + '''\
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        A = torch.softmax(scores, dim=-1)
        return A @ V, A''')),
        Mistake(
            "masked scores filled with a large negative number: a fully masked row gets uniform "
            "weights instead of zeros",
            principle="A row with no allowed key must get zero weights, not a uniform spread; handle it "
                      "explicitly.",
            fix="use `attnlab.torch.masked_softmax(scores, mask)`: masked weights exactly 0, and a fully "
                "masked row all 0.",
            fails=_MASK, code=_cell(_SCORES + '''\
        if mask is not None:
            scores = scores.masked_fill(~mask, -1e9)
        A = torch.softmax(scores, dim=-1)
        return A @ V, A''')),
    ],
)

# The check calls the learner's class through invoke_module (build it, copy known weights in, run
# forward); a mistake's code is such a class, and is called the same way.
for _mistake in CARD.mistakes:
    object.__setattr__(_mistake, "impl", partial(invoke_module, _mistake.impl))
del _mistake


def _args(rng, batch, L, D, Dk, Dv, bias):
    X, W_q, W_k, W_v = attention_args(rng, batch, L, D, Dk, Dv)
    kwargs = {}
    if bias:
        kwargs = {"b_q": rng.normal(size=Dk), "b_k": rng.normal(size=Dk), "b_v": rng.normal(size=Dv)}
    return (X, W_q, W_k, W_v), kwargs


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(331 if hidden else 101, hidden)
    shapes = ([((), 5, 3, 4, 2, False), ((3,), 4, 5, 2, 3, False), ((), 3, 4, 5, 2, True)] if hidden
              else [((), 4, 6, 3, 5, False), ((2,), 3, 5, 4, 2, False), ((), 5, 3, 2, 4, True)])
    out = []
    for b, L, D, Dk, Dv, bias in shapes:
        args, kwargs = _args(rng, b, L, D, Dk, Dv, bias)
        why = f"SelfAttention({D}, {Dk}, {Dv}{', bias=True' if bias else ''}) with known weights"
        out.append(Case(args, kwargs, why=why))
    return out


def mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(332 if hidden else 102, hidden)
    shapes = [((), 5, 3, 4, 2), ((2,), 4, 6, 3, 5)] if hidden else [((), 4, 6, 3, 5), ((2,), 3, 5, 4, 2)]
    out = []
    for full, (b, L, D, Dk, Dv) in enumerate(shapes):
        args, kwargs = _args(rng, b, L, D, Dk, Dv, False)
        mask = rng.random((*b, L, L)) < 0.5
        flat = mask.reshape(-1, L)
        for row in flat:  # every row: some key allowed, some blocked
            i, j = rng.choice(L, size=2, replace=False)
            row[i], row[j] = True, False
        mask = flat.reshape(mask.shape)
        if full:
            mask[(0,) * len(b) + (1,)] = False
        kwargs["mask"] = mask
        why = ("a mask; token 1 of the first sequence may attend to nothing" if full
               else "a mask (True = may attend)")
        out.append(Case(args, kwargs, why=f"SelfAttention({D}, {Dk}, {Dv}) with known weights, {why}"))
    return out


def check_self_attention_module(SelfAttention, hidden: bool = False) -> None:
    """Check ``SelfAttention(d_in, d_k, d_v, bias=False)``: its ``W_q, W_k, W_v`` and ``forward``."""
    CARD.check(SelfAttention, cases(hidden), hidden=hidden,
               passed="forward matches the reference, with and without bias")


def check_self_attention_module_mask(SelfAttention, hidden: bool = False) -> None:
    """Check ``SelfAttention.forward(X, mask)``: masked weights 0, a fully masked row all 0."""
    CARD.check(SelfAttention, mask_cases(hidden), hidden=hidden,
               passed="forward with a mask matches the reference")
