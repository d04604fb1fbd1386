"""Checks for notebook 05, multi_head_attention: ``split_heads``, ``merge_heads``,
``multi_head_attention``, ``MultiHeadAttention`` (torch) and ``merge_value_output``.

Each check takes the learner's function (or class) and ``hidden=False``; nbgrader's hidden
tests call it with ``hidden=True``, which draws other inputs than the visible ones. The inputs
separate the known mistakes: several heads (2, 3 and 4) with a head width ``D / H`` different
from ``D`` and from ``H``, ``L != H``, ``Lq != Lk``, a batch ``B > 1``, masks with rows that see
no key.

The module check builds the learner's ``MultiHeadAttention(d_model, num_heads, bias=...)``,
converts it to float64, copies known weights into its four ``nn.Linear`` attributes ``W_q,
W_k, W_v, W_o`` (``linear.weight = W.T``, since ``nn.Linear`` computes ``X @ weight.T``) and
compares ``forward(X_q, X_kv, mask=mask)`` with the numpy reference.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from .. import masks as _masks
from .. import multi_head as _ref
from ._contract import invoke_numpy
from ._core import Case, CheckRaised, Mistake, case_rng, run_check
from ._predict import Prediction, WrongPrediction
from . import _divergence
from ._modules import DROPOUT_FIX, DROPOUT_PRINCIPLE, DropoutActive, in_out, materialise, run_eval

# ---------------------------------------------------------------------------------------------
# split_heads


def _sh_no_transpose(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, num_heads, L, D // num_heads)


def _sh_interleaved(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, L, D // num_heads, num_heads).transpose(0, 3, 1, 2)


def _sh_no_swap(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, L, num_heads, D // num_heads)


def _sh_sizes_swapped(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, L, D // num_heads, num_heads).transpose(0, 2, 1, 3)


def _sh_sequence_split(X, num_heads):
    return np.stack(np.split(X, num_heads, axis=1), axis=1)


def _sh_last_two(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, L, num_heads, D // num_heads).transpose(0, 2, 3, 1)


SPLIT_HEADS_MISTAKES = [
    Mistake("a reshape straight to (B, H, L, Dh), without the transpose",
            "a reshape keeps the memory order, so `X.reshape(B, H, L, Dh)` cuts the *sequence* into "
            "pieces. Reshape to (B, L, H, Dh) first, then swap L and H: "
            "`X.reshape(B, L, H, Dh).transpose(0, 2, 1, 3)`.", _sh_no_transpose),
    Mistake("interleaved heads (a reshape to (B, L, Dh, H)): head h gets columns h, h+H, h+2H, ...",
            "head h owns the *contiguous* columns h*Dh:(h+1)*Dh: reshape to (B, L, H, Dh), where the "
            "last axis (the fastest-moving one) is the head's own width.", _sh_interleaved),
    Mistake("the heads cut but not moved in front of the sequence (shape (B, L, H, Dh))",
            "after `reshape(B, L, H, Dh)`, swap the axes L and H: `.transpose(0, 2, 1, 3)`.",
            _sh_no_swap),
    Mistake("the number of heads and the head width swapped (Dh heads of width H)",
            "`num_heads` is H; the head width is Dh = D // H: reshape to (B, L, H, Dh).",
            _sh_sizes_swapped),
    Mistake("the sequence split into H pieces instead of the features",
            "split the last axis (the D features), not axis 1 (the L tokens): every head sees every "
            "token, with Dh of its features.", _sh_sequence_split),
    Mistake("a transpose that moves the wrong axes (shape (B, H, Dh, L))",
            "from (B, L, H, Dh) only L and H trade places: `.transpose(0, 2, 1, 3)`.", _sh_last_two),
]


def _sh_cases(hidden: bool) -> list[Case]:
    rng = case_rng(151 if hidden else 51, hidden)
    shapes = ([(2, 6, 12, 2), (3, 2, 8, 4), (1, 5, 9, 3)] if hidden
              else [(2, 3, 8, 2), (1, 5, 12, 4), (3, 4, 6, 3), (1, 1, 6, 2)])
    return [Case((rng.normal(size=(B, L, D)), H),
                 why=f"{H} heads of width {D // H}" + (", B=1, one token" if B == L == 1 else ""))
            for B, L, D, H in shapes]


def check_split_heads(split_heads, hidden: bool = False) -> None:
    """Check that ``split_heads(X, num_heads)`` maps ``(B, L, D)`` to ``(B, H, L, Dh)``."""
    run_check(split_heads, exercise="split_heads", reference=_ref.split_heads,
              cases=_sh_cases(hidden), mistakes=SPLIT_HEADS_MISTAKES, arg_names=("X", "num_heads"),
              show_values=not hidden, passed="head h holds the columns h*Dh:(h+1)*Dh",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# merge_heads

def _mh_no_transpose(X):
    B, H, L, Dh = X.shape
    return X.reshape(B, L, H * Dh)


def _mh_interleaved(X):
    B, H, L, Dh = X.shape
    return X.transpose(0, 2, 3, 1).reshape(B, L, H * Dh)


def _mh_sum(X):
    return X.sum(axis=1)


def _mh_mean(X):
    return X.mean(axis=1)


def _mh_sequence(X):
    return np.concatenate([X[:, h] for h in range(X.shape[1])], axis=1)


def _mh_no_reshape(X):
    return X.transpose(0, 2, 1, 3)


MERGE_HEADS_MISTAKES = [
    Mistake("a reshape straight to (B, L, H*Dh), without transposing back",
            "move the head axis next to the head width first: "
            "`X.transpose(0, 2, 1, 3).reshape(B, L, H * Dh)`.", _mh_no_transpose),
    Mistake("interleaved heads (head h's features land in columns h, h+H, ...)",
            "transpose to (B, L, H, Dh), not (B, L, Dh, H), before the reshape: head h must fill "
            "the contiguous columns h*Dh:(h+1)*Dh.", _mh_interleaved),
    Mistake("summing the heads instead of concatenating them",
            "concatenate the heads side by side (shape (B, L, H*Dh)); the output projection W_o "
            "mixes them afterwards.", _mh_sum),
    Mistake("averaging the heads instead of concatenating them",
            "concatenate the heads side by side (shape (B, L, H*Dh)).", _mh_mean),
    Mistake("the heads concatenated along the sequence axis (shape (B, H*L, Dh))",
            "concatenate along the features: `np.concatenate([X[:, h] for h in range(H)], axis=-1)`.",
            _mh_sequence),
    Mistake("transposed back but not reshaped (shape (B, L, H, Dh))",
            "finish with `.reshape(B, L, H * Dh)` to glue the heads together.", _mh_no_reshape),
]


def _mh_cases(hidden: bool) -> list[Case]:
    rng = case_rng(152 if hidden else 52, hidden)
    shapes = ([(2, 2, 5, 6), (1, 4, 3, 2), (3, 3, 2, 3)] if hidden
              else [(2, 2, 3, 4), (1, 4, 5, 3), (3, 3, 4, 2), (1, 2, 1, 3)])
    return [Case((rng.normal(size=s),), why=f"{s[1]} heads of width {s[3]}"
                 + (", B=1, one token" if s[0] == s[2] == 1 else "")) for s in shapes]


def check_merge_heads(merge_heads, hidden: bool = False) -> None:
    """Check that ``merge_heads(X)`` maps ``(B, H, L, Dh)`` back to ``(B, L, H*Dh)``."""
    run_check(merge_heads, exercise="merge_heads", reference=_ref.merge_heads,
              cases=_mh_cases(hidden), mistakes=MERGE_HEADS_MISTAKES, arg_names=("X",),
              show_values=not hidden, passed="the inverse of split_heads",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# multi_head_attention: one parametrised wrong version, and the mistakes made of it

def _mha_variant(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None, biases=(None,) * 4, *,
                 scale="head", split_mode="ok", merge_mode="ok", axis=-1, out_proj=True, mask_mode="ok",
                 weights_mode="heads", W_o_T=False, one_head=False, transposed=False,
                 use_bias=True, query_length=False):
    """Multi-head attention with one deliberate change (the keyword arguments name it)."""
    X_q, X_kv = np.asarray(X_q, dtype=float), np.asarray(X_kv, dtype=float)
    Ws = [np.asarray(W, dtype=float) for W in (W_q, W_k, W_v, W_o)]
    if transposed:
        Ws = [W.T for W in Ws]
    W_q, W_k, W_v, W_o = Ws
    b_q, b_k, b_v, b_o = (np.zeros(W_q.shape[1]) if b is None or not use_bias else np.asarray(b)
                          for b in biases)
    B, Lq, D = X_q.shape
    H = 1 if one_head else num_heads
    Dh = D // H

    def split(X):
        B_, L, _ = X.shape
        if query_length:  # code that assumes Lq == Lk: every sequence reshaped with Lq
            L = Lq
        if split_mode == "no_transpose":
            return X.reshape(B_, H, L, Dh)
        if split_mode == "interleaved":
            return X.reshape(B_, L, Dh, H).transpose(0, 3, 1, 2)
        return X.reshape(B_, L, H, Dh).transpose(0, 2, 1, 3)

    def merge(Z):
        if merge_mode == "no_transpose":
            return Z.reshape(B, Lq, D)
        if merge_mode == "interleaved" or split_mode == "interleaved":
            return Z.transpose(0, 2, 3, 1).reshape(B, Lq, D)
        return Z.transpose(0, 2, 1, 3).reshape(B, Lq, D)

    Q, K, V = split(X_q @ W_q + b_q), split(X_kv @ W_k + b_k), split(X_kv @ W_v + b_v)
    scores = Q @ np.swapaxes(K, -1, -2)  # (B, H, Lq, Lk)
    scores = scores / {"head": np.sqrt(Dh), "model": np.sqrt(D), "ratio": D / num_heads,
                       "none": 1.0}[scale]
    if mask is not None and mask_mode == "unsqueeze1":  # a head axis added in the wrong place
        mask = np.asarray(mask)[:, None]
    if mask is not None and mask_mode != "ignored":
        mask = np.broadcast_to(~mask if mask_mode == "inverted" else mask, scores.shape)
    else:
        mask = np.ones(scores.shape, dtype=bool)
    if mask_mode in ("finite", "nan"):  # masked_fill(-10000) / masked_fill(-inf), then a softmax
        s = np.where(mask, scores, -1e4 if mask_mode == "finite" else -np.inf)
        e = np.exp(s - s.max(axis=-1, keepdims=True))  # NaN on a fully masked row with -inf
        weights = e / e.sum(axis=-1, keepdims=True)
    elif axis == -1:
        weights = _masks.masked_softmax(scores, mask)
    else:
        weights = np.moveaxis(_masks.masked_softmax(np.moveaxis(scores, axis, -1),
                                                    np.moveaxis(mask, axis, -1)), -1, axis)
    out = merge(weights @ V)
    if out_proj:
        out = out @ (W_o.T if W_o_T else W_o) + b_o
    if weights_mode == "mean" or one_head:
        weights = weights.mean(axis=1)
    return out, weights


def _mha(flags: dict):
    """A mistake with the signature of ``multi_head_attention``."""
    return partial(_mha_variant, **flags)


MHA_FLAGS = [  # (name, fix, flags); shared by the function and the module checks
    ("scaling by √D (the model width) instead of √(D/H) (the head width)",
     "each head's dot products have Dh = D / H terms: divide the scores by `np.sqrt(D // H)`.",
     {"scale": "model"}),
    ("scaling by D/H instead of √(D/H)", "divide by the square root of the head width, "
     "`np.sqrt(D // num_heads)`.", {"scale": "ratio"}),
    ("no scaling of the scores", "divide every head's scores by `√(D/H)`.", {"scale": "none"}),
    ("no output projection (W_o unused)",
     "after merging the heads, multiply by `W_o`: `merge_heads(Z) @ W_o`.", {"out_proj": False}),
    ("W_o transposed (`@ W_o.T`)", "the course multiplies `X @ W` with W of shape (in, out): "
     "`merge_heads(Z) @ W_o`.", {"W_o_T": True}),
    ("heads split without the transpose (a reshape straight to (B, H, L, Dh))",
     "use `attnlab.split_heads` (or reshape to (B, L, H, Dh) and swap axes 1 and 2).",
     {"split_mode": "no_transpose"}),
    ("heads merged without transposing back (a reshape straight to (B, L, D))",
     "use `attnlab.merge_heads` (or swap axes 1 and 2 back before reshaping to (B, L, D)).",
     {"merge_mode": "no_transpose"}),
    ("heads split and merged without the transposes (plain reshapes to (B, H, L, Dh) and back)",
     "a reshape alone cuts the sequence, not the features: use `attnlab.split_heads` and "
     "`attnlab.merge_heads` (reshape to (B, L, H, Dh), then swap axes 1 and 2; and back).",
     {"split_mode": "no_transpose", "merge_mode": "no_transpose"}),
    ("interleaved heads (columns h, h+H, ... instead of h*Dh:(h+1)*Dh)",
     "head h owns the contiguous columns h*Dh:(h+1)*Dh: use `attnlab.split_heads` and "
     "`attnlab.merge_heads`.", {"split_mode": "interleaved"}),
    ("a softmax over the heads (axis 1) instead of the keys",
     "each query's weights over the keys must sum to one, in every head: softmax over the last axis.",
     {"axis": 1}),
    ("a softmax over the queries (axis -2) instead of the keys",
     "softmax over the last axis (the keys).", {"axis": -2}),
    ("one head of width D instead of H heads",
     "split Q, K and V into `num_heads` heads (`attnlab.split_heads`), attend in each head, "
     "then merge; the weights have shape (B, H, Lq, Lk).", {"one_head": True}),
    ("weights averaged over the heads, shape (B, Lq, Lk)",
     "return every head's weights, shape (B, H, Lq, Lk) (nn.MultiheadAttention averages them; "
     "this course does not).", {"weights_mode": "mean"}),
    ("ignoring the mask", "pass `mask` to the attention of every head "
     "(`attnlab.scaled_dot_product_attention(Q, K, V, mask)` broadcasts it over the heads).",
     {"mask_mode": "ignored"}),
    ("the mask inverted (True treated as blocked)",
     "True = may attend: pass the mask as it is.", {"mask_mode": "inverted"}),
    ("the query length used for the keys too (code that assumes Lq == Lk)",
     "take each sequence's length from its own array: `Lk = X_kv.shape[1]` for the keys and values.",
     {"query_length": True}),
    ("a mask with an axis added in the wrong place (`mask.unsqueeze(1)` / `mask[:, None]`)",
     "the mask already broadcasts against (B, H, Lq, Lk) (it comes as (Lq, Lk) or (B, 1, 1, Lk)): "
     "pass it as it is; an extra axis shifts its query and key axes onto the wrong ones.",
     {"mask_mode": "unsqueeze1"}),
    ("masked scores filled with a finite number (`masked_fill(~mask, -10000)`, -1e9): a finite fill "
     "value; a fully masked row must give zero weights, not uniform weights and the mean of the values",
     "fill with `-inf` and set the weights of fully masked rows to 0 (`attnlab.masked_softmax` does "
     "both), or zero them with `torch.where(mask.any(-1, keepdim=True), weights, 0)` after the softmax.",
     {"mask_mode": "finite"}),
    ("masked scores filled with -inf: a fully masked row becomes 0/0 = NaN",
     "after the softmax, set the weights of fully masked rows to 0 (`attnlab.masked_softmax` does it).",
     {"mask_mode": "nan"}),
]

FULLY_MASKED_PRINCIPLES = {  # principles of the fully-masked-row mistakes (the others: _principles)
    MHA_FLAGS[-2][0]: "A row with no key to attend to has no weights to share: every weight 0 and a "
                      "zero output. A finite fill leaves a softmax over equal scores, which is "
                      "uniform; mask with -inf and zero the rows that have no allowed key.",
    MHA_FLAGS[-1][0]: "A fully masked row has no allowed key: its softmax divides 0 by 0. Give such "
                      "rows zero weights after the softmax instead of NaN.",
}

MHA_MISTAKES = [Mistake(name, fix, _mha(flags), FULLY_MASKED_PRINCIPLES.get(name, ""))
                for name, fix, flags in MHA_FLAGS]


def _mha_case(rng, B, Lq, Lk, D, H, mask=None, why="", self_attention=False):
    X_q = rng.normal(size=(B, Lq, D))
    X_kv = X_q.copy() if self_attention else rng.normal(size=(B, Lk, D))
    Ws = tuple(rng.normal(size=(D, D)) / np.sqrt(D) * 1.5 for _ in range(4))
    return Case((X_q, X_kv, *Ws, H), {} if mask is None else {"mask": mask},
                why=why or f"{H} heads of width {D // H}, Lq={Lq}, Lk={Lk}")


def _mha_cases(hidden: bool) -> list[Case]:
    rng = case_rng(153 if hidden else 53, hidden)
    if hidden:
        return [_mha_case(rng, 2, 5, 3, 12, 4), _mha_case(rng, 2, 3, 3, 6, 2, self_attention=True,
                                                          why="self-attention, 2 heads of width 3"),
                _mha_case(rng, 1, 2, 7, 16, 4)]
    return [_mha_case(rng, 2, 3, 5, 8, 2),
            _mha_case(rng, 1, 4, 4, 8, 4, self_attention=True, why="self-attention, 4 heads of width 2"),
            _mha_case(rng, 3, 2, 6, 12, 3),
            _mha_case(rng, 1, 1, 3, 9, 3, why="B=1, one query token, D=9 (odd), 3 heads of width 3")]


def _mha_large_case(rng, B, Lq, Lk, D, H, why=""):
    """Scores of the ±1e4 range, with every row's largest score (in every head) on a masked key:
    a softmax that takes its maximum over the masked keys too underflows to 0/0."""
    X_q, X_kv = rng.normal(size=(B, Lq, D)), rng.normal(size=(B, Lk, D))
    Ws = tuple(rng.normal(size=(D, D)) / np.sqrt(D) * 1.5 for _ in range(4))
    Dh = D // H

    def scores(X_q, X_kv):
        Q = (X_q @ Ws[0]).reshape(B, Lq, H, Dh).transpose(0, 2, 1, 3)  # (B, H, Lq, Dh)
        K = (X_kv @ Ws[1]).reshape(B, Lk, H, Dh).transpose(0, 2, 1, 3)  # (B, H, Lk, Dh)
        return Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)  # (B, H, Lq, Lk)

    factor = np.sqrt(1e4 / np.abs(scores(X_q, X_kv)).max())
    X_q, X_kv = X_q * factor, X_kv * factor  # now max |score| = 1e4
    top = scores(X_q, X_kv).argmax(axis=-1)  # (B, H, Lq)
    mask = np.ones((B, 1, Lq, Lk), dtype=bool)
    for b, h, q in np.ndindex(top.shape):
        mask[b, 0, q, top[b, h, q]] = False  # Lk > H: every row keeps an allowed key
    return Case((X_q, X_kv, *Ws, H), {"mask": mask},
                why=why or f"scores of ±1e4 with each row's largest score on a masked key, {H} heads "
                           f"of width {Dh}, a mask (B, 1, Lq, Lk)")


def _mha_masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(154 if hidden else 54, hidden)
    lengths = np.array([3, 0, 5]) if hidden else np.array([5, 0])
    Lq = 4 if hidden else 3
    return [
        _mha_case(rng, 2, 5 if hidden else 4, 5 if hidden else 4, 12 if hidden else 8,
                  3 if hidden else 2, mask=_masks.causal_mask(*(2 * (5 if hidden else 4,))),
                  self_attention=True, why="a causal mask (Lq, Lk), the same for every head"),
        _mha_case(rng, len(lengths), Lq, 5, 8, 4,
                  mask=_masks.padding_mask(lengths, 5)[:, None, None, :],
                  why="a padding mask (B, 1, 1, Lk) with a sequence of length 0"),
        _mha_large_case(rng, *((2, 3, 6, 8, 4) if hidden else (1, 4, 5, 6, 2))),
    ]


MHA_ARGS = ("X_q", "X_kv", "W_q", "W_k", "W_v", "W_o", "num_heads")


def check_multi_head_attention(multi_head_attention, hidden: bool = False) -> None:
    """Check that ``multi_head_attention`` splits, attends per head, merges and projects."""
    run_check(multi_head_attention, exercise="multi_head_attention",
              reference=_ref.multi_head_attention, cases=_mha_cases(hidden), mistakes=MHA_MISTAKES,
              arg_names=MHA_ARGS, outputs=("output", "weights"), show_values=not hidden,
              passed="output (B, Lq, D) and weights (B, H, Lq, Lk) match",
              invoke=invoke_numpy)


def check_multi_head_attention_masked(multi_head_attention, hidden: bool = False) -> None:
    """Check that ``multi_head_attention`` applies one boolean mask to every head."""
    run_check(multi_head_attention, exercise="multi_head_attention",
              reference=_ref.multi_head_attention, cases=_mha_masked_cases(hidden),
              mistakes=MHA_MISTAKES, arg_names=MHA_ARGS, outputs=("output", "weights"),
              show_values=not hidden, passed="masks broadcast over the heads",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# MultiHeadAttention (torch module)

class MissingProjection(CheckRaised, AttributeError):
    """The learner's module has no ``nn.Linear`` attribute of the required name."""


class WrongProjectionShape(CheckRaised, ValueError):
    """A projection's weight is not ``(d_model, d_model)``."""


class UnexpectedBias(CheckRaised, ValueError):
    """``bias=False`` but a projection has a bias."""


class MissingBias(CheckRaised, ValueError):
    """``bias=True`` but a projection has no bias."""


class NotAModule(CheckRaised, TypeError):
    """The learner's class does not build an ``nn.Module``."""


PROJECTIONS = ("W_q", "W_k", "W_v", "W_o")


def _invoke_module(cls, X_q, X_kv, num_heads, mask, W_q, W_k, W_v, W_o,
                   b_q=None, b_k=None, b_v=None, b_o=None):
    """Build ``cls(d_model, num_heads, bias=...)``, load the weights, run ``forward``."""
    import torch
    from torch import nn

    D = X_q.shape[-1]
    bias = b_q is not None
    torch.manual_seed(0)
    module = cls(D, num_heads, bias=bias)
    if not isinstance(module, nn.Module):
        raise NotAModule(f"MultiHeadAttention({D}, {num_heads}) is a {type(module).__name__}, "
                         "not an nn.Module: subclass nn.Module and call super().__init__()")
    mask_t = None if mask is None else torch.from_numpy(np.asarray(mask))
    for name in PROJECTIONS:
        linear = getattr(module, name, None)
        if not isinstance(linear, nn.Linear):
            raise MissingProjection(
                f"MultiHeadAttention(d_model={D}, num_heads={num_heads}) needs an attribute "
                f"self.{name} = nn.Linear(d_model, d_model, bias=bias); "
                + ("it has none" if linear is None else f"it is a {type(linear).__name__}"))
    materialise(module, lambda m: m(torch.from_numpy(X_q).float(), torch.from_numpy(X_kv).float(), mask=mask_t))
    for name in PROJECTIONS:
        linear = getattr(module, name)
        in_f, out_f = in_out(linear)
        if (out_f, in_f) != (D, D):
            raise WrongProjectionShape(
                f"self.{name}.weight has shape {(out_f, in_f)}, expected "
                f"(d_model, d_model) = {(D, D)}")
        if bias and linear.bias is None:
            raise MissingBias(f"bias=True but self.{name} has no bias")
        if not bias and linear.bias is not None:
            raise UnexpectedBias(f"bias=False but self.{name} has a bias")
    module = module.double()
    with torch.no_grad():
        for name, W, b in zip(PROJECTIONS, (W_q, W_k, W_v, W_o), (b_q, b_k, b_v, b_o)):
            linear = getattr(module, name)
            linear.weight.copy_(torch.from_numpy(np.ascontiguousarray(W.T)))  # X @ W = X @ weight.T
            if b is not None:
                linear.bias.copy_(torch.from_numpy(b))
    return run_eval(module, lambda m: m(torch.from_numpy(X_q), torch.from_numpy(X_kv), mask=mask_t),
                    "MultiHeadAttention")


def _module_reference(X_q, X_kv, num_heads, mask, W_q, W_k, W_v, W_o,
                      b_q=None, b_k=None, b_v=None, b_o=None):
    """The numpy reference, with the biases of ``nn.Linear`` (zero when there are none)."""
    return _mha_variant(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask, (b_q, b_k, b_v, b_o))


def _module_variant(X_q, X_kv, num_heads, mask, W_q, W_k, W_v, W_o,
                    b_q=None, b_k=None, b_v=None, b_o=None, **flags):
    return _mha_variant(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask, (b_q, b_k, b_v, b_o),
                        **flags)


def _raises(exc_type, *args, **kwargs):
    raise exc_type("a known structural mistake")


MODULE_MISTAKES = [
    Mistake("the projections not stored as self.W_q, self.W_k, self.W_v, self.W_o (nn.Linear)",
            "in __init__, create exactly these four attributes: "
            "`self.W_q = nn.Linear(d_model, d_model, bias=bias)` and likewise W_k, W_v, W_o (the "
            "check copies known weights into them).", partial(_raises, MissingProjection)),
    Mistake("projections that are not (d_model, d_model)",
            "every projection maps d_model to d_model: `nn.Linear(d_model, d_model, bias=bias)`; "
            "the heads are cut out of its output by split_heads.", partial(_raises, WrongProjectionShape)),
    Mistake("nn.Linear's default bias=True used although bias=False",
            "pass the constructor's argument on: `nn.Linear(d_model, d_model, bias=bias)`.",
            partial(_raises, UnexpectedBias)),
    Mistake("the `bias` argument ignored (no bias although bias=True)",
            "pass the constructor's argument on: `nn.Linear(d_model, d_model, bias=bias)`.",
            partial(_raises, MissingBias)),
    Mistake("not an nn.Module", "declare `class MultiHeadAttention(nn.Module)` and call "
            "`super().__init__()` first in __init__.", partial(_raises, NotAModule)),
    Mistake("dropout left active in eval mode", DROPOUT_FIX, partial(_raises, DropoutActive), DROPOUT_PRINCIPLE),
    Mistake("`X @ self.W_q.weight`: nn.Linear stores its weight as (out, in)",
            "call the layer, `self.W_q(X)`, which computes `X @ weight.T + bias`.",
            partial(_module_variant, transposed=True)),
    Mistake("the projections' biases left out (`X @ self.W_q.weight.T` without `+ self.W_q.bias`)",
            "call the layers (`self.W_q(X_q)`), which add their biases.",
            partial(_module_variant, use_bias=False)),
] + [Mistake(name, fix.replace("`attnlab.", "`attnlab.torch.").replace("`np.sqrt(", "`math.sqrt("),
             partial(_module_variant, **flags), FULLY_MASKED_PRINCIPLES.get(name, ""))
     for name, fix, flags in MHA_FLAGS]


def _module_case(rng, B, Lq, Lk, D, H, bias=False, mask=None, why=""):
    X_q, X_kv = rng.normal(size=(B, Lq, D)), rng.normal(size=(B, Lk, D))
    Ws = tuple(rng.normal(size=(D, D)) / np.sqrt(D) * 1.5 for _ in range(4))
    bs = tuple(rng.normal(size=D) * 0.5 for _ in range(4)) if bias else (None,) * 4
    return Case((X_q, X_kv, H, mask, *Ws, *bs),
                why=why or f"d_model={D}, {H} heads of width {D // H}, bias={bias}")


def _module_cases(hidden: bool) -> list[Case]:
    rng = case_rng(155 if hidden else 55, hidden)
    if hidden:
        return [_module_case(rng, 2, 4, 2, 12, 3), _module_case(rng, 1, 3, 6, 8, 2)]
    return [_module_case(rng, 2, 3, 5, 8, 2), _module_case(rng, 3, 4, 2, 12, 4),
            _module_case(rng, 1, 1, 3, 9, 3, why="B=1, one query token, d_model=9 (odd), 3 heads of width 3")]


def _module_bias_cases(hidden: bool) -> list[Case]:
    rng = case_rng(156 if hidden else 56, hidden)
    D, H = (12, 3) if hidden else (8, 4)
    lengths = np.array([1, 4]) if hidden else np.array([5, 2])
    return [
        _module_case(rng, 2, 3, 5, D, H, bias=True),
        _module_case(rng, 2, 4, 5, D, H, bias=True,
                     mask=_masks.padding_mask(lengths, 5)[:, None, None, :],
                     why=f"d_model={D}, {H} heads, bias=True, a padding mask (B, 1, 1, Lk)"),
        _module_case(rng, 2, 3, 4, D, H, bias=True,
                     mask=_masks.padding_mask(np.array([0, 3] if hidden else [4, 0]), 4)[:, None, None, :],
                     why=f"d_model={D}, {H} heads, a sequence of length 0: its rows are fully masked"),
    ]


MODULE_ARGS = ("X_q", "X_kv", "num_heads", "mask")


def check_mha_module(MultiHeadAttention, hidden: bool = False) -> None:
    """Check that ``MultiHeadAttention(d_model, num_heads)`` with known weights in ``W_q, W_k,
    W_v, W_o`` computes multi-head attention."""
    run_check(MultiHeadAttention, exercise="MultiHeadAttention", reference=_module_reference,
              cases=_module_cases(hidden), mistakes=MODULE_MISTAKES, arg_names=MODULE_ARGS,
              outputs=("output", "weights"), show_values=not hidden, invoke=_invoke_module,
              reference_module=_divergence.multi_head_attention_class,
              passed="forward matches with the weights copied into W_q, W_k, W_v, W_o")


def check_mha_module_bias_mask(MultiHeadAttention, hidden: bool = False) -> None:
    """Check that ``MultiHeadAttention(d_model, num_heads, bias=True)`` uses its biases and masks."""
    run_check(MultiHeadAttention, exercise="MultiHeadAttention", reference=_module_reference,
              cases=_module_bias_cases(hidden), mistakes=MODULE_MISTAKES, arg_names=MODULE_ARGS,
              outputs=("output", "weights"), show_values=not hidden, invoke=_invoke_module,
              reference_module=_divergence.multi_head_attention_class,
              passed="biases and masks are used")


# ---------------------------------------------------------------------------------------------
# merge_value_output

def _mvo_rows(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    return np.stack([W_v[h * Dh:(h + 1) * Dh].T @ W_o[h * Dh:(h + 1) * Dh] for h in range(num_heads)])


def _mvo_o_columns(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    return np.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[:, h * Dh:(h + 1) * Dh].T
                     for h in range(num_heads)])


def _mvo_sum(W_v, W_o, num_heads):
    return W_v @ W_o


def _mvo_order(W_v, W_o, num_heads):
    return np.swapaxes(_ref.merge_value_output(W_v, W_o, num_heads), -1, -2)


def _mvo_interleaved(W_v, W_o, num_heads):
    return np.stack([W_v[:, h::num_heads] @ W_o[h::num_heads] for h in range(num_heads)])


def _mvo_last_axis(W_v, W_o, num_heads):
    return np.moveaxis(_ref.merge_value_output(W_v, W_o, num_heads), 0, -1)


def _mvo_same(W_v, W_o, num_heads):
    return np.broadcast_to(W_v @ W_o / num_heads, (num_heads, *W_v.shape)).copy()


MERGE_VALUE_OUTPUT_MISTAKES = [
    Mistake("W_v's rows instead of its columns for head h (`W_v[h*Dh:(h+1)*Dh].T`)",
            "head h's values are the columns h*Dh:(h+1)*Dh of X @ W_v, so take the columns "
            "`W_v[:, h*Dh:(h+1)*Dh]` (shape (D, Dh)).", _mvo_rows),
    Mistake("W_o's columns instead of its rows for head h",
            "head h's slice of the concatenation meets the rows h*Dh:(h+1)*Dh of W_o: "
            "`W_o[h*Dh:(h+1)*Dh]` (shape (Dh, D)).", _mvo_o_columns),
    Mistake("the sum over heads, W_v @ W_o, instead of one matrix per head",
            "return one (D, D) matrix per head, stacked to (H, D, D); they sum to W_v @ W_o, but "
            "each head multiplies its own attention weights.", _mvo_sum),
    Mistake("each head's product transposed (W_o[h]ᵀ W_v[:, h]ᵀ)",
            "the product in the order the data flows: `W_v[:, h] @ W_o[h]` (value first, then "
            "output).", _mvo_order),
    Mistake("interleaved heads (columns h, h+H, ...)",
            "head h owns the contiguous block h*Dh:(h+1)*Dh.", _mvo_interleaved),
    Mistake("the heads stacked on the last axis, shape (D, D, H)",
            "stack on a new first axis: `np.stack([...], axis=0)` gives (H, D, D).", _mvo_last_axis),
    Mistake("the same matrix for every head (W_v @ W_o / H)",
            "each head has its own block of columns of W_v and rows of W_o.", _mvo_same),
]


def _mvo_cases(hidden: bool) -> list[Case]:
    rng = case_rng(157 if hidden else 57, hidden)
    sizes = [(12, 3), (8, 2), (6, 6)] if hidden else [(6, 2), (8, 4), (9, 3)]
    return [Case((rng.normal(size=(D, D)), rng.normal(size=(D, D)), H),
                 why=f"D={D}, {H} heads of width {D // H}") for D, H in sizes]


def check_merge_value_output(merge_value_output, hidden: bool = False) -> None:
    """Check that ``merge_value_output(W_v, W_o, num_heads)`` is ``W_v[:, h] @ W_o[h]`` per head."""
    run_check(merge_value_output, exercise="merge_value_output",
              reference=_ref.merge_value_output, cases=_mvo_cases(hidden),
              mistakes=MERGE_VALUE_OUTPUT_MISTAKES, arg_names=("W_v", "W_o", "num_heads"),
              show_values=not hidden, passed="one (D, D) matrix per head",
              invoke=invoke_numpy)


# ---------------------------------------------------------------------------------------------
# Predict, then run


_D, _PARAMS = 64, 4 * 64 * 64 + 4 * 64  # four (D, D) weights and four (D,) biases

PARAMS_H1 = Prediction(
    "prediction_params_h1", "number", _PARAMS,
    f"The layer holds four D x D matrices (W_q, W_k, W_v, W_o) and, with bias=True, four biases "
    f"of width D: 4 * 64² + 4 * 64 = {_PARAMS}.",
    wrong=(
        WrongPrediction(4 * _D * _D, "the biases forgotten",
                        "With bias=True each of the four nn.Linear layers also has a bias of width D: "
                        "4 * 64 more parameters."),
        WrongPrediction(3 * _D * _D + 3 * _D, "no output projection",
                        "Queries, keys and values are three projections, but the heads' concatenation "
                        "is projected once more by W_o: four in all."),
        WrongPrediction(_D * _D + _D, "one projection",
                        "Queries, keys, values and the output each have their own D x D matrix."),
    ),
)


def check_prediction_params_h1(prediction_params_h1, hidden: bool = False) -> None:
    """Check the prediction of the parameter count of MultiHeadAttention(64, 1, bias=True)."""
    PARAMS_H1.check(prediction_params_h1, hidden=hidden)


PARAMS_H8 = Prediction(
    "prediction_params_h8", "number", _PARAMS,
    f"The same {_PARAMS} as with one head. More heads do not add matrices: the eight heads are "
    "eight groups of Dh = 8 columns of the same four D x D matrices (head h uses the columns "
    "h*Dh:(h+1)*Dh of W_q, W_k, W_v and the same rows of W_o). The number of heads changes how "
    "the columns are grouped, not how many there are.",
    wrong=(
        WrongPrediction(8 * _PARAMS, "every head has its own D x D matrices",
                        "A head does not project to the full width D; it owns only Dh = D / H columns "
                        "of each matrix, so the eight heads together have exactly D columns."),
        WrongPrediction(_PARAMS // 8, "the parameters are shared out among the heads",
                        "Each head uses 1/8 of the columns, but there are eight heads: together they "
                        "use every column, so nothing is divided."),
        WrongPrediction(4 * _D * 8 + 4 * _D, "one head's matrices (D x Dh) only",
                        "That is the share of one head; the layer holds all eight heads' columns."),
    ),
)


def check_prediction_params_h8(prediction_params_h8, hidden: bool = False) -> None:
    """Check the prediction of the parameter count of MultiHeadAttention(64, 8, bias=True)."""
    PARAMS_H8.check(prediction_params_h8, hidden=hidden)
