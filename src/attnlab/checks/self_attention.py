"""Checks for notebook 03, self_attention: ``self_attention``, ``append_ones``, ``absorb_bias``
and the torch module ``SelfAttention``.

Each check takes the learner's function (or class) and ``hidden=False``; nbgrader's hidden tests
call it with ``hidden=True``, which draws other inputs (other seeds and shapes). The sizes
``L, D, Dk, Dv`` all differ, and batches have a size other than ``Dk``, so that every mistake
below gives a different answer from the right one.
"""
from __future__ import annotations

import numpy as np

from ..self_attention import absorb_bias as _absorb_bias
from ..self_attention import append_ones as _append_ones
from ..self_attention import self_attention as _self_attention
from ..attention import scaled_dot_product_attention as _sdpa
from ..averages import softmax as _softmax
from ..masks import masked_softmax as _masked_softmax
from ._contract import invoke_numpy
from ._core import Case, CheckRaised, Mistake, case_rng, run_check
from ._predict import Prediction, WrongPrediction
from . import _divergence
from ._modules import (DROPOUT_FIX, DROPOUT_PRINCIPLE, DropoutActive, NoGradient, in_out, materialise,
                       require_gradients, run_eval)

# ---------------------------------------------------------------------------------------------
# self_attention(X, W_q, W_k, W_v)


def _T(x):
    return np.swapaxes(x, -1, -2)


def _sa_K_T(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = _softmax(Q @ K.T / np.sqrt(W_q.shape[1]))
    return A @ V, A


def _sa_W_T(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q.T, X @ W_k.T, X @ W_v.T  # fails unless D == Dk == Dv
    A = _softmax(Q @ _T(K) / np.sqrt(W_q.shape[1]))
    return A @ V, A


def _sa_no_scale(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = _softmax(Q @ _T(K))
    return A @ V, A


def _sa_scale_D(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = _softmax(Q @ _T(K) / np.sqrt(X.shape[-1]))
    return A @ V, A


def _sa_scale_Dk(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = _softmax(Q @ _T(K) / W_q.shape[1])
    return A @ V, A


def _sa_scale_Dv(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = _softmax(Q @ _T(K) / np.sqrt(W_v.shape[1]))
    return A @ V, A


def _sa_axis(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = _softmax(Q @ _T(K) / np.sqrt(W_q.shape[1]), axis=-2)
    return A @ V, A


def _sa_axis0(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = _softmax(Q @ _T(K) / np.sqrt(W_q.shape[1]), axis=0)
    return A @ V, A


def _sa_no_softmax(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = Q @ _T(K) / np.sqrt(W_q.shape[1])
    return A @ V, A


def _sa_values_X(X, W_q, W_k, W_v):
    Q, K = X @ W_q, X @ W_k
    A = _softmax(Q @ _T(K) / np.sqrt(W_q.shape[1]))
    return A @ X, A


def _sa_keys_Wq(X, W_q, W_k, W_v):
    Q, V = X @ W_q, X @ W_v
    A = _softmax(Q @ _T(Q) / np.sqrt(W_q.shape[1]))
    return A @ V, A


def _sa_q_k_swapped(X, W_q, W_k, W_v):
    Q, K, V = X @ W_k, X @ W_q, X @ W_v
    A = _softmax(Q @ _T(K) / np.sqrt(W_q.shape[1]))
    return A @ V, A


def _sa_no_max(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    e = np.exp(Q @ _T(K) / np.sqrt(W_q.shape[1]))  # no shift: exp(1e4) = inf
    A = e / e.sum(axis=-1, keepdims=True)
    return A @ V, A


def _sa_swapped(X, W_q, W_k, W_v):
    Z, A = _self_attention(X, W_q, W_k, W_v)
    return A, Z


SELF_ATTENTION_MISTAKES = [
    Mistake("`K.T` (or `X.T`) on a batch: it reverses every axis, not just the last two",
            "use `np.swapaxes(K, -1, -2)`, which transposes only the last two axes and keeps the "
            "batch axes in front.", _sa_K_T),
    Mistake("transposed weights (`X @ W_q.T`)",
            "the weights are (in, out) = (D, Dk): multiply as `X @ W_q` (it is `nn.Linear` that "
            "stores them transposed).", _sa_W_T),
    Mistake("no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dk)",
            "divide the scores by `np.sqrt(Dk)`, with `Dk = W_q.shape[1]`.", _sa_no_scale),
    Mistake("scaling by √D (the input width) instead of √Dk",
            "the scores are dot products of Dk-dimensional queries and keys: divide by "
            "`np.sqrt(W_q.shape[1])`, not by the square root of X's width.", _sa_scale_D),
    Mistake("scaling by Dk instead of √Dk",
            "divide by the square root: `np.sqrt(W_q.shape[1])`.", _sa_scale_Dk),
    Mistake("scaling by √Dv (the value width) instead of √Dk",
            "the scale belongs to the query-key dot product: `np.sqrt(W_q.shape[1])`.", _sa_scale_Dv),
    Mistake("a softmax over the wrong axis (over the queries, axis -2)",
            "row i of A holds token i's weights over all tokens: softmax over the last axis.",
            _sa_axis),
    Mistake("a softmax over the wrong axis (axis=0, which is the batch axis for a batch)",
            "row i of A holds token i's weights over all tokens: `attnlab.softmax(scores, axis=-1)`.",
            _sa_axis0),
    Mistake("no softmax: the scaled scores used as weights",
            "A = `attnlab.softmax(scores, axis=-1)`: the weights must be on the simplex.",
            _sa_no_softmax),
    Mistake("X used as the values (no W_v)",
            "the values are a learned map of X too: `V = X @ W_v`, then `Z = A @ V`.", _sa_values_X),
    Mistake("W_q used for the keys as well (Q Qᵀ)",
            "keys come from their own projection: `K = X @ W_k`.", _sa_keys_Wq),
    Mistake("W_q and W_k swapped (queries from W_k, keys from W_q)",
            "`Q = X @ W_q` and `K = X @ W_k`; swapping them transposes the scores.", _sa_q_k_swapped),
    Mistake("returning (A, Z) instead of (Z, A)",
            "return the outputs first: `return A @ V, A`.", _sa_swapped),
    Mistake("a softmax without the max subtraction: exp overflows for large scores (inf / inf = NaN)",
            "use a stable softmax (`attnlab.softmax`, or subtract each row's maximum before `np.exp`).",
            _sa_no_max, "Shift each row of scores by its maximum before exponentiating; the shift "
            "cancels in the ratio and keeps exp below overflow."),
]


def _weights(rng, D, M):
    return rng.normal(size=(D, M)) / np.sqrt(D)  # keeps the scores of order 1


def _sa_args(rng, batch, L, D, Dk, Dv):
    return (rng.normal(size=(*batch, L, D)), _weights(rng, D, Dk), _weights(rng, D, Dk),
            _weights(rng, D, Dv))


def _sa_cases(hidden: bool) -> list[Case]:
    rng = case_rng(301 if hidden else 71, hidden)
    sizes = [(5, 3, 4, 2), (3, 7, 2, 5), (6, 4, 5, 3)] if hidden else [(4, 6, 3, 5), (5, 3, 4, 2), (3, 8, 2, 3)]
    cases = [Case(_sa_args(rng, (), *s), why="one sequence; L, D, Dk and Dv all differ") for s in sizes]
    X, W_q, W_k, W_v = _sa_args(rng, (), *((5, 3, 4, 2) if hidden else (4, 5, 3, 2)))
    cases.append(Case((X, W_q * 3000.0, W_k, W_v), why="large queries: scores of about 1e3 to 1e4"))
    return cases


def _sa_batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(302 if hidden else 72, hidden)
    shapes = [((3,), 5, 3, 4, 2), ((2, 3), 4, 5, 2, 3)] if hidden else [((2,), 4, 6, 3, 5), ((3, 2), 3, 4, 5, 2)]
    return [Case(_sa_args(rng, b, *s), why="a batch of sequences (..., L, D)") for b, *s in shapes]


def check_self_attention(self_attention, hidden: bool = False) -> None:
    """Check ``self_attention(X, W_q, W_k, W_v)`` on one sequence ``(L, D)``."""
    run_check(self_attention, exercise="self_attention", reference=_self_attention,
              cases=_sa_cases(hidden), mistakes=SELF_ATTENTION_MISTAKES,
              arg_names=("X", "W_q", "W_k", "W_v"), outputs=("Z", "A"), show_values=not hidden,
              passed="Z and A match on one sequence",
              invoke=invoke_numpy)


def check_self_attention_batched(self_attention, hidden: bool = False) -> None:
    """Check ``self_attention`` on a batch ``(..., L, D)``."""
    run_check(self_attention, exercise="self_attention", reference=_self_attention,
              cases=_sa_batched_cases(hidden), mistakes=SELF_ATTENTION_MISTAKES,
              arg_names=("X", "W_q", "W_k", "W_v"), outputs=("Z", "A"), show_values=not hidden,
              passed="works on batches",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# append_ones(X)

def _ao_prepend(X):
    return np.concatenate([np.ones(X.shape[:-1] + (1,)), X], axis=-1)


def _ao_hstack(X):
    return np.hstack([X, np.ones((X.shape[0], 1))])


def _ao_row(X):
    return np.concatenate([X, np.ones(X.shape[:-2] + (1, X.shape[-1]))], axis=-2)


def _ao_zeros(X):
    return np.concatenate([X, np.zeros(X.shape[:-1] + (1,))], axis=-1)


def _ao_plus_one(X):
    return X + 1


def _ao_ones_only(X):
    return np.ones(X.shape[:-1] + (1,))


APPEND_ONES_MISTAKES = [
    Mistake("ones prepended (the first column) instead of appended (the last)",
            "put the ones *after* the features: `np.concatenate([X, ones], axis=-1)`; "
            "absorb_bias puts b in the last row to meet them.", _ao_prepend),
    Mistake("`np.hstack` / `axis=1`: right for one sequence (L, D), wrong for a batch (..., L, D)",
            "build the ones with `np.ones(X.shape[:-1] + (1,))` and concatenate along the last "
            "axis, `axis=-1`, which is the feature axis whatever the batch dimensions.", _ao_hstack),
    Mistake("a row of ones (a new token) instead of a column (a new feature)",
            "every token gets one more feature: concatenate along the last axis, `axis=-1`, "
            "giving shape (..., L, D+1).", _ao_row),
    Mistake("a column of zeros instead of ones",
            "use `np.ones`: the bias row of absorb_bias is multiplied by this column.", _ao_zeros),
    Mistake("adding 1 to every entry instead of appending a column of ones",
            "keep X as it is and add a new last column: `np.concatenate([X, ones], axis=-1)`.",
            _ao_plus_one),
    Mistake("returning only the column of ones",
            "return X with the ones attached: `np.concatenate([X, ones], axis=-1)`.", _ao_ones_only),
]


def _ao_cases(hidden: bool) -> list[Case]:
    rng = case_rng(311 if hidden else 81, hidden)
    shapes = [(5, 2), (3, 6)] if hidden else [(4, 3), (2, 5)]
    return [Case((rng.normal(size=s),), why="one sequence (L, D)") for s in shapes]


def _ao_batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(312 if hidden else 82, hidden)
    shapes = [(3, 4, 2), (2, 2, 3, 5)] if hidden else [(2, 4, 3), (3, 2, 5, 4)]
    return [Case((rng.normal(size=s),), why="a batch of sequences (..., L, D)") for s in shapes]


def check_append_ones(append_ones, hidden: bool = False) -> None:
    """Check that ``append_ones(X)`` appends a column of ones to one sequence ``(L, D)``."""
    run_check(append_ones, exercise="append_ones", reference=_append_ones,
              cases=_ao_cases(hidden), mistakes=APPEND_ONES_MISTAKES, arg_names=("X",),
              show_values=not hidden, passed="a column of ones at the end",
              invoke=invoke_numpy)


def check_append_ones_batched(append_ones, hidden: bool = False) -> None:
    """Check that ``append_ones`` works on a batch ``(..., L, D)``."""
    run_check(append_ones, exercise="append_ones", reference=_append_ones,
              cases=_ao_batched_cases(hidden), mistakes=APPEND_ONES_MISTAKES, arg_names=("X",),
              show_values=not hidden, passed="works on batches",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# absorb_bias(W, b)

def _ab_first(W, b):
    return np.vstack([b, W])


def _ab_transposed(W, b):
    return np.vstack([W, b]).T


def _ab_added(W, b):
    return W + b


def _ab_flat(W, b):
    return np.append(W, b)


def _ab_column(W, b):
    return np.hstack([W, b[:, None]])  # needs len(b) == D


def _ab_zero_row(W, b):
    return np.vstack([W, np.zeros(W.shape[1])])


def _ab_ones_row(W, b):
    return np.vstack([W, np.ones(W.shape[1])])


ABSORB_BIAS_MISTAKES = [
    Mistake("b as the first row instead of the last",
            "append_ones puts the ones in the *last* column, so b must be the *last* row: "
            "`np.vstack([W, b])`.", _ab_first),
    Mistake("the result transposed: shape (M, D+1) instead of (D+1, M)",
            "keep W's layout (in, out) = (D, M) and add b as one more row: `np.vstack([W, b])`.",
            _ab_transposed),
    Mistake("b added to W instead of stacked under it",
            "`W + b` adds b to every row; the bias needs a row of its own: `np.vstack([W, b])`.",
            _ab_added),
    Mistake("a flat array (`np.append` without an axis)",
            "`np.append` flattens; stack along the rows: `np.vstack([W, b])` or "
            "`np.concatenate([W, b[None, :]], axis=0)`.", _ab_flat),
    Mistake("b appended as a column instead of a row",
            "b has one entry per *output* (M of them): it is a new row under W, `np.vstack([W, b])`.",
            _ab_column),
    Mistake("a row of zeros (or ones) instead of b",
            "the new last row is the bias itself: `np.vstack([W, b])`.", _ab_zero_row),
    Mistake("a row of zeros (or ones) instead of b",
            "the new last row is the bias itself: `np.vstack([W, b])`.", _ab_ones_row),
]


def _ab_cases(hidden: bool) -> list[Case]:
    rng = case_rng(321 if hidden else 91, hidden)
    shapes = [(5, 3), (2, 6), (4, 4)] if hidden else [(3, 5), (6, 2), (4, 4)]
    return [Case((rng.normal(size=(D, M)), rng.normal(size=M)), why="weights (D, M) and a bias (M,)")
            for D, M in shapes]


def check_absorb_bias(absorb_bias, hidden: bool = False) -> None:
    """Check that ``absorb_bias(W, b)`` returns ``(D+1, M)`` with ``b`` as the last row."""
    run_check(absorb_bias, exercise="absorb_bias", reference=_absorb_bias,
              cases=_ab_cases(hidden), mistakes=ABSORB_BIAS_MISTAKES, arg_names=("W", "b"),
              show_values=not hidden, passed="b is the last row of a (D+1, M) matrix",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# SelfAttention (torch): built with known weights, compared with the numpy reference.

_LINEARS = (("W_q", "d_k"), ("W_k", "d_k"), ("W_v", "d_v"))


class NotAModule(CheckRaised, TypeError):
    """The learner's class does not build an ``nn.Module``."""


class ProjectionMissing(CheckRaised, AttributeError):
    """``W_q``, ``W_k`` or ``W_v`` is missing or not an ``nn.Linear``."""


class ProjectionShape(CheckRaised, ValueError):
    """A projection maps the wrong number of features."""


class ProjectionBias(CheckRaised, ValueError):
    """A projection has a bias where it should not, or none where it should."""


def invoke_module(cls, X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    """Build ``cls(d_in, d_k, d_v[, bias=True])``, copy the known weights (and biases) into its
    ``W_q``, ``W_k``, ``W_v`` (``nn.Linear``), and return ``forward(X[, mask])`` in float64."""
    import torch
    from torch import nn

    D, Dk, Dv = W_q.shape[0], W_q.shape[1], W_v.shape[1]
    bias = b_q is not None
    call = f"SelfAttention({D}, {Dk}, {Dv}" + (", bias=True)" if bias else ")")
    module = cls(D, Dk, Dv, bias=True) if bias else cls(D, Dk, Dv)
    if not isinstance(module, nn.Module):
        raise NotAModule(f"{call} is a {type(module).__name__}, not an nn.Module")
    sizes = {"d_k": Dk, "d_v": Dv}
    X_t = torch.from_numpy(X)
    mask_t = None if mask is None else torch.from_numpy(mask)

    def forward(m, X_t=X_t):
        return m(X_t) if mask_t is None else m(X_t, mask_t)

    for name, _ in _LINEARS:
        if not isinstance(getattr(module, name, None), nn.Linear):
            linear = getattr(module, name, None)
            raise ProjectionMissing(f"{call} has no nn.Linear attribute `self.{name}` (found "
                                    f"{type(linear).__name__ if linear is not None else 'nothing'})")
    materialise(module, lambda m: forward(m, X_t.float()))
    for name, out in _LINEARS:
        linear = getattr(module, name)
        in_f, out_f = in_out(linear)
        if (out_f, in_f) != (sizes[out], D):
            raise ProjectionShape(f"in {call}, `self.{name}` maps {in_f} -> {out_f} features, "
                                  f"expected d_in={D} -> {out}={sizes[out]}")
        if bias != (linear.bias is not None):
            raise ProjectionBias(f"in {call}, `self.{name}` has {'a' if linear.bias is not None else 'no'} bias")
    module = module.double()
    with torch.no_grad():
        for (name, _), W, b in zip(_LINEARS, (W_q, W_k, W_v), (b_q, b_k, b_v)):
            linear = getattr(module, name)
            linear.weight.copy_(torch.from_numpy(np.ascontiguousarray(W.T)))  # nn.Linear: (out, in)
            if b is not None:
                linear.bias.copy_(torch.from_numpy(b))
    result = run_eval(module, forward, "SelfAttention")
    if _agrees(result, _module_reference(X, W_q, W_k, W_v, b_q, b_k, b_v, mask)):  # else the comparison names it
        # b_k gets no gradient by design (q·b_k is the same for every key of a row: the softmax ignores it)
        require_gradients(module, forward, [f"{name}.weight" for name, _ in _LINEARS], call)
    return result


def _agrees(result, expected) -> bool:
    """Whether a forward pass's ``(Z, A)`` is the reference's (then its gradients are judged)."""
    try:
        return len(result) == len(expected) and all(
            np.allclose(np.asarray(r.detach() if hasattr(r, "detach") else r, dtype=float), e,
                        rtol=1e-6, atol=1e-8, equal_nan=True) for r, e in zip(result, expected))
    except (TypeError, ValueError, RuntimeError):
        return False


def _m_no_gradient(*args, **kwargs):
    raise NoGradient("no gradient to the projections")


def _m_not_module(*args, **kwargs):
    raise NotAModule("not an nn.Module")


def _m_missing(*args, **kwargs):
    raise ProjectionMissing("no nn.Linear attribute")


def _m_shape(*args, **kwargs):
    raise ProjectionShape("wrong size")


def _m_weight_untransposed(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    # `X @ self.W_q.weight`: nn.Linear's weight is (out, in), i.e. W.T
    return _module_reference(X, W_q.T, W_k.T, W_v.T, b_q, b_k, b_v, mask)


def _m_dropout(*args, **kwargs):
    raise DropoutActive("dropout")


def _m_bias(*args, **kwargs):
    raise ProjectionBias("bias")


def _module_reference(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    zero = (0.0, 0.0, 0.0) if b_q is None else (b_q, b_k, b_v)
    return _sdpa(X @ W_q + zero[0], X @ W_k + zero[1], X @ W_v + zero[2], mask)


def _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v):
    if b_q is None:
        return X @ W_q, X @ W_k, X @ W_v
    return X @ W_q + b_q, X @ W_k + b_k, X @ W_v + b_v


def _m_no_scale(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    A = _masked_softmax(Q @ _T(K), mask)
    return A @ V, A


def _m_scale_D(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    A = _masked_softmax(Q @ _T(K) / np.sqrt(X.shape[-1]), mask)
    return A @ V, A


def _m_scale_Dk(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    A = _masked_softmax(Q @ _T(K) / W_q.shape[1], mask)
    return A @ V, A


def _m_scale_Dv(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    A = _masked_softmax(Q @ _T(K) / np.sqrt(W_v.shape[1]), mask)
    return A @ V, A


def _m_no_softmax(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    A = Q @ _T(K) / np.sqrt(W_q.shape[1])
    if mask is not None:
        A = np.where(mask, A, 0.0)
    return A @ V, A


def _m_axis(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    A = _masked_softmax(np.swapaxes(Q @ _T(K) / np.sqrt(W_q.shape[1]), -1, -2),
                        None if mask is None else np.swapaxes(mask, -1, -2))
    A = np.swapaxes(A, -1, -2)  # columns sum to one
    return A @ V, A


def _m_values_X(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, _ = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    A = _masked_softmax(Q @ _T(K) / np.sqrt(W_q.shape[1]), mask)
    return A @ X, A


def _m_keys_Wq(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, _, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    A = _masked_softmax(Q @ _T(Q) / np.sqrt(W_q.shape[1]), mask)
    return A @ V, A


def _m_swapped(*args, **kwargs):
    Z, A = _module_reference(*args, **kwargs)
    return A, Z


def _m_mask_ignored(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    return _module_reference(X, W_q, W_k, W_v, b_q, b_k, b_v)


def _m_mask_inverted(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    return _module_reference(X, W_q, W_k, W_v, b_q, b_k, b_v, None if mask is None else ~mask)


def _m_mask_nan(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    s = Q @ _T(K) / np.sqrt(W_q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    A = _softmax(s)  # NaN on a fully masked row
    return A @ V, A


def _m_mask_large_negative(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Q, K, V = _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)
    s = Q @ _T(K) / np.sqrt(W_q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -1e9)
    A = _softmax(s)
    return A @ V, A


def _m_mask_after(X, W_q, W_k, W_v, b_q=None, b_k=None, b_v=None, mask=None):
    Z, A = _module_reference(X, W_q, W_k, W_v, b_q, b_k, b_v)
    if mask is not None:
        A = A * mask
    return A @ _qkv(X, W_q, W_k, W_v, b_q, b_k, b_v)[2], A


MODULE_MISTAKES = [
    Mistake("a class that is not an nn.Module",
            "write `class SelfAttention(nn.Module):` and call `super().__init__()` first in __init__.",
            _m_not_module),
    Mistake("the projections are not the nn.Linear attributes W_q, W_k, W_v",
            "create them in __init__ under exactly these names, `self.W_q = nn.Linear(d_in, d_k, "
            "bias=bias)`, `self.W_k = nn.Linear(d_in, d_k, bias=bias)`, `self.W_v = nn.Linear(d_in, "
            "d_v, bias=bias)`: the check copies known weights into them.", _m_missing),
    Mistake("a projection of the wrong size",
            "`nn.Linear(in_features, out_features)`: W_q and W_k map d_in -> d_k, W_v maps d_in -> d_v.",
            _m_shape),
    Mistake("the `bias` argument not passed on to nn.Linear",
            "`nn.Linear` has a bias unless told otherwise: write `nn.Linear(d_in, d_k, bias=bias)` "
            "(and the same for W_k and W_v).", _m_bias),
    Mistake("dropout left active in eval mode", DROPOUT_FIX, _m_dropout, DROPOUT_PRINCIPLE),
    Mistake("a step outside torch's autograd (`.numpy()`, `.detach()`, `torch.no_grad()`): no "
            "gradient reaches the projections before it",
            "compute the scores, the softmax and `A @ V` with torch operations on the tensors "
            "themselves (`attnlab.torch.masked_softmax`, `torch.softmax`), never through numpy.",
            _m_no_gradient,
            "Training needs a gradient for every weight: keep the whole forward pass in torch, so "
            "that backpropagation reaches W_q, W_k and W_v."),
    Mistake("`X @ self.W_q.weight` without the transpose: nn.Linear stores its weight as (out, in)",
            "call the layer, `self.W_q(X)`, which computes `X @ weight.T + bias`.", _m_weight_untransposed,
            "A linear layer's weight is stored (out, in): let the layer apply itself, or transpose."),
    Mistake("no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √d_k)",
            "divide the scores by `math.sqrt(self.d_k)` (store d_k in __init__).", _m_no_scale),
    Mistake("scaling by √d_in (the input width) instead of √d_k",
            "the scores are dot products of d_k-dimensional vectors: divide by `math.sqrt(d_k)`.",
            _m_scale_D),
    Mistake("scaling by d_k instead of √d_k", "divide by `math.sqrt(self.d_k)`.", _m_scale_Dk),
    Mistake("scaling by √d_v instead of √d_k",
            "the scale belongs to the query-key dot product: `math.sqrt(self.d_k)`.", _m_scale_Dv),
    Mistake("no softmax: the scaled scores used as weights",
            "A = `attnlab.torch.masked_softmax(scores, mask)` (or `torch.softmax(scores, dim=-1)` "
            "without a mask).", _m_no_softmax),
    Mistake("a softmax over the wrong axis (over the queries, dim=-2)",
            "each query's weights must sum to one over the keys: softmax over the last dim.",
            _m_axis),
    Mistake("X used as the values (no W_v)",
            "values are `self.W_v(X)`; then `Z = A @ V`.", _m_values_X),
    Mistake("W_q used for the keys as well",
            "keys come from their own map: `K = self.W_k(X)`.", _m_keys_Wq),
    Mistake("returning (A, Z) instead of (Z, A)", "return the outputs first: `return A @ V, A`.",
            _m_swapped),
    Mistake("the mask is ignored",
            "pass the mask on: `A = attnlab.torch.masked_softmax(scores, mask)`.", _m_mask_ignored),
    Mistake("the mask is inverted (True treated as blocked)",
            "`True` means *may attend*: keep the scores where the mask is True.", _m_mask_inverted),
    Mistake("the mask applied after the softmax (A * mask) without renormalising",
            "mask the scores before the softmax; `attnlab.torch.masked_softmax(scores, mask)` does it.",
            _m_mask_after),
    Mistake("a fully masked row becomes NaN (masked_fill with -inf, then softmax)",
            "a row with no key to attend to must get zero weights: use "
            "`attnlab.torch.masked_softmax(scores, mask)`, which handles it.", _m_mask_nan),
    Mistake("masked scores filled with a large negative number: a fully masked row gets uniform "
            "weights instead of zeros",
            "use `attnlab.torch.masked_softmax(scores, mask)`: masked weights exactly 0, and a fully "
            "masked row all 0.", _m_mask_large_negative),
]


def _m_args(rng, batch, L, D, Dk, Dv, bias):
    X, W_q, W_k, W_v = _sa_args(rng, batch, L, D, Dk, Dv)
    kwargs = {}
    if bias:
        kwargs = {"b_q": rng.normal(size=Dk), "b_k": rng.normal(size=Dk), "b_v": rng.normal(size=Dv)}
    return (X, W_q, W_k, W_v), kwargs


def _m_cases(hidden: bool) -> list[Case]:
    rng = case_rng(331 if hidden else 101, hidden)
    shapes = ([((), 5, 3, 4, 2, False), ((3,), 4, 5, 2, 3, False), ((), 3, 4, 5, 2, True)] if hidden
              else [((), 4, 6, 3, 5, False), ((2,), 3, 5, 4, 2, False), ((), 5, 3, 2, 4, True)])
    cases = []
    for b, L, D, Dk, Dv, bias in shapes:
        args, kwargs = _m_args(rng, b, L, D, Dk, Dv, bias)
        why = f"SelfAttention({D}, {Dk}, {Dv}{', bias=True' if bias else ''}) with known weights"
        cases.append(Case(args, kwargs, why=why))
    return cases


def _m_mask_cases(hidden: bool) -> list[Case]:
    rng = case_rng(332 if hidden else 102, hidden)
    shapes = [((), 5, 3, 4, 2), ((2,), 4, 6, 3, 5)] if hidden else [((), 4, 6, 3, 5), ((2,), 3, 5, 4, 2)]
    cases = []
    for full, (b, L, D, Dk, Dv) in enumerate(shapes):
        args, kwargs = _m_args(rng, b, L, D, Dk, Dv, False)
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
        cases.append(Case(args, kwargs, why=f"SelfAttention({D}, {Dk}, {Dv}) with known weights, {why}"))
    return cases


_MODULE_ARGS = ("X", "W_q.weight.T", "W_k.weight.T", "W_v.weight.T")


def check_self_attention_module(SelfAttention, hidden: bool = False) -> None:
    """Check ``SelfAttention(d_in, d_k, d_v, bias=False)``: its ``W_q, W_k, W_v`` and ``forward``."""
    run_check(SelfAttention, exercise="SelfAttention", reference=_module_reference,
              cases=_m_cases(hidden), mistakes=MODULE_MISTAKES, arg_names=_MODULE_ARGS,
              outputs=("Z", "A"), show_values=not hidden, invoke=invoke_module,
              reference_module=_divergence.self_attention_class,
              passed="forward matches the reference, with and without bias")


def check_self_attention_module_mask(SelfAttention, hidden: bool = False) -> None:
    """Check ``SelfAttention.forward(X, mask)``: masked weights 0, a fully masked row all 0."""
    run_check(SelfAttention, exercise="SelfAttention", reference=_module_reference,
              cases=_m_mask_cases(hidden), mistakes=MODULE_MISTAKES, arg_names=_MODULE_ARGS,
              outputs=("Z", "A"), show_values=not hidden, invoke=invoke_module,
              reference_module=_divergence.self_attention_class,
              passed="forward with a mask matches the reference")


# ---------------------------------------------------------------------------------------------
# Predict, then run

PARAMETER_COUNT = Prediction(
    "prediction_parameter_count", "number", 90_000,
    "W_q and W_k are (D, Dk) = (300, 100) and W_v is (D, Dv) = (300, 100): 3 x 300 x 100 = 90,000 "
    "numbers. The sentence length L appears nowhere: the same weights serve a sentence of any "
    "length.",
    wrong=(
        WrongPrediction(360_000, "one set of weights per word",
                        "The weights are shared by every token: Q = X W_q applies the same W_q to "
                        "every row of X, so the count does not grow with L = 4."),
        WrongPrediction(30_000, "one projection instead of three",
                        "There are three maps, for queries, keys and values, each 300 x 100."),
        WrongPrediction(60_000, "queries and keys only",
                        "The values have their own map W_v, (300, 100), as well."),
        WrongPrediction(90_016, "the attention matrix counted as parameters",
                        "A = softmax(Q Kᵀ / √Dk) is computed from the input for every sentence; it "
                        "is not learned, so its L x L = 16 entries are not parameters."),
    ),
)


def check_prediction_parameter_count(prediction_parameter_count, hidden: bool = False) -> None:
    """Check the prediction of the number of parameters of the worked example's layer."""
    PARAMETER_COUNT.check(prediction_parameter_count, hidden=hidden)


DOG_OUTPUT = Prediction(
    "prediction_dog_output", "choice", "the same",
    "Self-attention is permutation-equivariant: reordering the tokens reorders the scores' rows "
    "and columns together, and the row-wise softmax and the weighted average do not care about "
    "order, so each token's output depends on which tokens are present, never on where they are. "
    "'dog' gets exactly the same vector in both sentences, for every choice of W_q, W_k and W_v.",
    options=("the same", "different", "depend on the weights"),
    wrong=(
        WrongPrediction("different", "word order changes the meaning, so the output changes",
                        "It changes the meaning for us, but the layer has no input that says where "
                        "a word is: it sees the same set of three vectors, merely listed in "
                        "another order."),
        WrongPrediction("depend on the weights", "equal only for special weights",
                        "The argument S' = P S Pᵀ, A' = P A Pᵀ, Z' = P Z uses no property of the "
                        "weights: it holds for all of them."),
    ),
)


def check_prediction_dog_output(prediction_dog_output, hidden: bool = False) -> None:
    """Check the prediction of whether 'dog' gets the same output in both word orders."""
    DOG_OUTPUT.check(prediction_dog_output, hidden=hidden)
