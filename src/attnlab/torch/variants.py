"""Torch twins of ``attnlab.variants`` (notebook 13): dense attention with score and mask mods,
top-k attention, attention sinks, multi-head latent attention; differentiable.

Same shape letters, conventions and error messages as the numpy module. The score and mask mods
are the numpy module's own (they work on tensors too), re-exported here; a mod called here gets
``score`` as a tensor and ``b, h, q, k`` as broadcastable ``torch.long`` index tensors, the
arguments ``torch.nn.attention.flex_attention`` gives it one element at a time.
"""
from __future__ import annotations

import math

import torch

from .._validate import fmt, require_broadcastable, require_int, require_ndim, require_qkv
from .. import variants as _np_variants
from ..variants import (  # noqa: F401  the mods: one implementation for numpy and torch
    alibi_score_mod, and_masks, causal_mask_mod, document_mask_mod, mla_cache_bytes, or_masks,
    prefix_lm_mask_mod, relative_bias_score_mod, sliding_window_mask_mod, softcap_score_mod,
)
from .functional import _check_mask, causal_mask, masked_softmax, scaled_dot_product_attention


def _float(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def _indices(B: int, H: int, Lq: int, Lk: int, device=None):
    """The broadcastable index tensors ``b (B,1,1,1), h (1,H,1,1), q (1,1,Lq,1), k (1,1,1,Lk)``."""
    return tuple(torch.arange(n, device=device).reshape(shape) for n, shape in
                 ((B, (B, 1, 1, 1)), (H, (1, H, 1, 1)), (Lq, (1, 1, Lq, 1)), (Lk, (1, 1, 1, Lk))))


def _as_4d(Q, K, V):
    """Q, K, V as ``(B, H, L, .)``, and whether they came as 2-D ``(L, .)``."""
    Q, K, V = _float(Q), _float(K), _float(V)
    require_qkv(Q, K, V)
    if Q.ndim == K.ndim == V.ndim == 2:
        return Q[None, None], K[None, None], V[None, None], True  # (L, .) -> (1, 1, L, .)
    for name, x, last in (("Q", Q, ("Lq", "Dh")), ("K", K, ("Lk", "Dh")), ("V", V, ("Lk", "Dv"))):
        if x.ndim != 4:
            raise ValueError(f"{name}: expected shape {fmt(('B', 'H') + last)} or {fmt(last)}, got {fmt(x.shape)}")
    if Q.shape[:2] != K.shape[:2] or K.shape[:2] != V.shape[:2]:
        raise ValueError(f"Q, K and V must have the same (B, H): got Q {fmt(Q.shape)}, K {fmt(K.shape)} "
                         f"and V {fmt(V.shape)}")
    return Q, K, V, False


def attention_with_mods(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, score_mod=None,
                        mask_mod=None) -> tuple[torch.Tensor, torch.Tensor]:
    """Dense attention whose scores pass through ``score_mod`` and whose mask is ``mask_mod``.

    ``Q (B, H, Lq, Dh)``, ``K (B, H, Lk, Dh)``, ``V (B, H, Lk, Dv)`` (or 2-D ``(L, .)``) ->
    ``(output (B, H, Lq, Dv), weights (B, H, Lq, Lk))``: the softmax over the allowed keys of
    ``score_mod(Q K^T / sqrt(Dh), b, h, q, k)``, ``mask_mod(b, h, q, k)`` ``True`` = may attend;
    a query with no allowed key gets zero weights and a zero output. Equal to
    ``flex_attention(Q, K, V, score_mod, create_block_mask(mask_mod, B, H, Lq, Lk))``.
    """
    Q, K, V, two_d = _as_4d(Q, K, V)
    scores = (Q / math.sqrt(Q.shape[-1])) @ K.transpose(-1, -2)  # (B, H, Lq, Lk)
    b, h, q, k = _indices(*scores.shape, device=scores.device)
    if score_mod is not None:
        new = torch.as_tensor(score_mod(scores, b, h, q, k))
        require_broadcastable(new.shape, scores.shape, "score_mod", "the scores (B, H, Lq, Lk)")
        scores = new.to(scores.dtype).expand(scores.shape)
    mask = None
    if mask_mod is not None:
        mask = torch.as_tensor(mask_mod(b, h, q, k))
        _check_mask_mod(mask, scores.shape)
    weights = masked_softmax(scores, mask)  # (B, H, Lq, Lk)
    out = weights @ V  # (B, H, Lq, Dv)
    return (out[0, 0], weights[0, 0]) if two_d else (out, weights)


def _check_mask_mod(mask, shape) -> None:
    try:
        _check_mask(mask, shape)
    except ValueError as err:  # name the mod, as the numpy twin does
        raise ValueError(str(err).replace("mask:", "mask_mod:", 1)) from None


def mask_from_mod(mask_mod, B: int, H: int, Lq: int, Lk: int) -> torch.Tensor:
    """The explicit boolean ``(B, H, Lq, Lk)`` mask that ``mask_mod`` describes (``True`` = may attend)."""
    if not callable(mask_mod):
        raise ValueError(f"mask_mod: expected a function mask_mod(b, h, q, k), got {type(mask_mod).__name__}")
    B, H = require_int(B, "B", minimum=1), require_int(H, "H", minimum=1)
    Lq, Lk = require_int(Lq, "Lq"), require_int(Lk, "Lk")
    mask = torch.as_tensor(mask_mod(*_indices(B, H, Lq, Lk)))
    _check_mask_mod(mask, (B, H, Lq, Lk))
    return mask.expand(B, H, Lq, Lk).clone()


def alibi_slopes(H: int) -> torch.Tensor:
    """ALiBi's ``(H,)`` head slopes: ``2^(-8h/H)`` for ``H`` a power of two, the paper's rule otherwise."""
    return torch.from_numpy(_np_variants.alibi_slopes(H))


def sink_window_keys(Lk: int, n_sinks: int, window: int) -> torch.Tensor:
    """The sorted key indices a sink-plus-window cache keeps: the first ``n_sinks`` and the last ``window``."""
    return torch.from_numpy(_np_variants.sink_window_keys(Lk, n_sinks, window))


def sink_window_attention(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, n_sinks: int,
                          window: int) -> tuple[torch.Tensor, torch.Tensor]:
    """One new query ``q (..., Dh)`` against a cache ``K (..., Lk, Dh)``, ``V (..., Lk, Dv)`` that keeps
    only the sinks and the recent window -> ``(output (..., Dv), weights (..., Lk))``, evicted keys 0."""
    q, K, V = _float(q), _float(K), _float(V)
    require_ndim(q, "q", ("Dh",))
    require_ndim(K, "K", ("Lk", "Dh"))
    if q.shape[-1] != K.shape[-1]:
        raise ValueError(f"q and K must have the same width Dh: got q {fmt(q.shape)} and K {fmt(K.shape)}")
    require_qkv(q[..., None, :], K, V)
    keys = sink_window_keys(K.shape[-2], n_sinks, window).to(K.device)  # (Lkept,)
    out, w = scaled_dot_product_attention(q[..., None, :], K[..., keys, :], V[..., keys, :])  # (..., 1, Dv), (..., 1, Lkept)
    weights = w.new_zeros(w.shape[:-2] + (K.shape[-2],))  # (..., Lk)
    weights[..., keys] = w[..., 0, :]
    return out[..., 0, :], weights


def _mla_check(X, W_dkv, W_uk, W_uv, W_q, W_o, H):
    _np_variants._mla_check(*(torch.as_tensor(a).detach().cpu().numpy() for a in (X, W_dkv, W_uk, W_uv, W_q, W_o)), H)
    return (*(_float(a) for a in (X, W_dkv, W_uk, W_uv, W_q, W_o)), int(H))


def _split(X: torch.Tensor, H: int) -> torch.Tensor:
    """``(..., L, H*W) -> (..., H, L, W)``: head ``h`` holds columns ``h*W:(h+1)*W``."""
    return X.reshape(*X.shape[:-1], H, X.shape[-1] // H).transpose(-2, -3)


def mla_naive(X, W_dkv, W_uk, W_uv, W_q, W_o, H: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Multi-head latent attention as defined: latent ``c = X W_dkv``, per-head keys ``c W_uk`` and
    values ``c W_uv``, causal -> ``(output (..., L, Dout), weights (..., H, L, L))`` (see the numpy twin)."""
    X, W_dkv, W_uk, W_uv, W_q, W_o, H = _mla_check(X, W_dkv, W_uk, W_uv, W_q, W_o, H)
    c = X @ W_dkv  # (..., L, Dc)
    Qh, Kh, Vh = _split(X @ W_q, H), _split(c @ W_uk, H), _split(c @ W_uv, H)  # (..., H, L, Dh/Dh/Dv)
    L = X.shape[-2]
    Z, weights = scaled_dot_product_attention(Qh, Kh, Vh, causal_mask(L, L).to(X.device))  # (..., H, L, Dv)
    merged = Z.transpose(-2, -3).reshape(*Z.shape[:-3], L, -1)  # (..., L, H*Dv)
    return merged @ W_o, weights  # (..., L, Dout)


def mla_absorbed(X, W_dkv, W_uk, W_uv, W_q, W_o, H: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Multi-head latent attention with ``W_uk`` folded into the query map and ``W_uv`` into the output
    map, attending over the latent directly; the same result as ``mla_naive`` (see the numpy twin)."""
    X, W_dkv, W_uk, W_uv, W_q, W_o, H = _mla_check(X, W_dkv, W_uk, W_uv, W_q, W_o, H)
    Dc, Dh, Dv = W_dkv.shape[1], W_uk.shape[1] // H, W_uv.shape[1] // H
    c = X @ W_dkv  # (..., L, Dc)
    W_q_latent = W_q.reshape(-1, H, Dh).transpose(0, 1) @ W_uk.reshape(Dc, H, Dh).permute(1, 2, 0)  # (H, D, Dc)
    W_o_latent = W_uv.reshape(Dc, H, Dv).transpose(0, 1) @ W_o.reshape(H, Dv, -1)  # (H, Dc, Dout)
    q_lat = X[..., None, :, :] @ W_q_latent  # (..., H, L, Dc)
    scores = (q_lat / math.sqrt(Dh)) @ c.transpose(-1, -2)[..., None, :, :]  # (..., H, L, L)
    L = X.shape[-2]
    weights = masked_softmax(scores, causal_mask(L, L).to(X.device))  # (..., H, L, L)
    return ((weights @ c[..., None, :, :]) @ W_o_latent).sum(dim=-3), weights  # (..., L, Dout)


def topk_keep(scores: torch.Tensor, k: int) -> torch.Tensor:
    """Boolean mask of the shape of ``scores (..., Lq, Lk)``, ``True`` at each row's ``k`` highest
    scores, ties broken by the lower key index."""
    scores = _float(scores)
    require_ndim(scores, "scores", ("Lq", "Lk"))
    Lk = scores.shape[-1]
    k = require_int(k, "k", minimum=1)
    if k > Lk:
        raise ValueError(f"k: expected an integer in [1, Lk={Lk}], got {k}")
    order = torch.argsort(-scores.detach(), dim=-1, stable=True)[..., :k]  # (..., Lq, k) best keys first
    return torch.zeros(scores.shape, dtype=torch.bool, device=scores.device).scatter(-1, order, True)


def topk_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Top-k attention: ``(output (..., Lq, Dv), weights (..., Lq, Lk))``, each query's softmax
    renormalised over its ``k`` highest-scoring keys (ties: the lower key index), zero elsewhere."""
    Q, K, V = _float(Q), _float(K), _float(V)
    require_qkv(Q, K, V)
    scores = (Q / math.sqrt(Q.shape[-1])) @ K.transpose(-1, -2)  # (..., Lq, Lk)
    weights = masked_softmax(scores, topk_keep(scores, k))  # (..., Lq, Lk)
    return weights @ V, weights  # (..., Lq, Dv)
