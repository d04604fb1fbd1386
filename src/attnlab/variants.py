"""Attention variants (numpy reference for notebook 13): almost every one is dense attention with a
function applied to the scores or to the mask.

Shape letters: ``B`` batch, ``H`` heads, ``Lq`` query length, ``Lk`` key/value length, ``L`` a
sequence length, ``D`` model width, ``Dh`` query/key width of one head, ``Dv`` value width,
``Dc`` the width of MLA's latent.

Conventions:

* **Mods** (the names of ``torch.nn.attention.flex_attention``): a *score mod*
  ``score_mod(score, b, h, q, k)`` returns a new score; a *mask mod* ``mask_mod(b, h, q, k)``
  returns a boolean, ``True`` = *may attend* (the course's mask convention). Both are called once,
  vectorised: ``score`` is the ``(B, H, Lq, Lk)`` array of scaled scores and ``b, h, q, k`` are
  integer index arrays of shapes ``(B, 1, 1, 1)``, ``(1, H, 1, 1)``, ``(1, 1, Lq, 1)`` and
  ``(1, 1, 1, Lk)`` that broadcast against it, so a mod written with arithmetic, comparisons,
  ``&``, ``|`` and indexing works elementwise. ``q`` is the query's row and ``k`` the key's column,
  so ``k - q`` is the key's position relative to the query for self-attention (top-left aligned,
  as ``causal_mask``). The mods here also accept torch tensors, so the same mod drives
  ``attnlab.torch.attention_with_mods`` and torch's ``flex_attention``.
* **Order**: score mod first, then the mask: a masked entry gets weight exactly 0 whatever its
  score; a query with no key to attend to gets all-zero weights and a zero output (``masked_softmax``).
* **Top-k**: ties between equal scores are broken by the lower key index.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ._validate import fmt, require_broadcastable, require_int, require_ndim, require_qkv
from .attention import scaled_dot_product_attention
from .masks import causal_mask, check_mask, masked_softmax

ScoreMod = Callable[..., "np.ndarray"]
MaskMod = Callable[..., "np.ndarray"]


# --------------------------------------------------------------------------- helpers


def _is_torch(x) -> bool:
    return type(x).__module__.split(".")[0] == "torch"


def _table(table: np.ndarray, like):
    """``table`` as an array of ``like``'s kind: a tensor on its device when ``like`` is a tensor
    (floats in ``like``'s dtype), else ``table`` itself. No numpy attribute is read on the torch
    path, so that torch's ``flex_attention`` can trace a mod that calls this."""
    if _is_torch(like):
        import torch

        out = torch.as_tensor(table, device=like.device)
        return out.to(like.dtype) if (out.is_floating_point() and like.is_floating_point()) else out
    return table


def _indices(B: int, H: int, Lq: int, Lk: int):
    """The broadcastable index arrays ``b (B,1,1,1), h (1,H,1,1), q (1,1,Lq,1), k (1,1,1,Lk)``."""
    return (np.arange(B).reshape(B, 1, 1, 1), np.arange(H).reshape(1, H, 1, 1),
            np.arange(Lq).reshape(1, 1, Lq, 1), np.arange(Lk).reshape(1, 1, 1, Lk))


def _as_4d(Q, K, V):
    """Q, K, V as float64 ``(B, H, L, .)``, and whether they came as 2-D ``(L, .)``."""
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
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


def _apply_mods(scores, score_mod, mask_mod):
    """The modded scores ``(B, H, Lq, Lk)`` and the mask (``None`` without a mask mod)."""
    b, h, q, k = _indices(*scores.shape)
    if score_mod is not None:
        new = np.asarray(score_mod(scores, b, h, q, k), dtype=float)
        require_broadcastable(new.shape, scores.shape, "score_mod", "the scores (B, H, Lq, Lk)")
        scores = np.broadcast_to(new, scores.shape)
    mask = None
    if mask_mod is not None:
        mask = np.asarray(mask_mod(b, h, q, k))
        check_mask(mask, scores.shape, name="mask_mod")
    return scores, mask


_apply_mods.step = "applies the score mod and the mask mod"  # feedback's words for it


# --------------------------------------------------------------------------- dense attention with mods


def attention_with_mods(Q: np.ndarray, K: np.ndarray, V: np.ndarray, score_mod: ScoreMod | None = None,
                        mask_mod: MaskMod | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Dense attention whose scores pass through ``score_mod`` and whose mask is ``mask_mod``.

    Args:
        Q: ``(B, H, Lq, Dh)`` queries, or ``(Lq, Dh)`` (then ``b = h = 0``).
        K: ``(B, H, Lk, Dh)`` keys, or ``(Lk, Dh)``.
        V: ``(B, H, Lk, Dv)`` values, or ``(Lk, Dv)``.
        score_mod: ``score_mod(score, b, h, q, k) -> new score``, called once with the
            ``(B, H, Lq, Lk)`` scores ``Q K^T / sqrt(Dh)`` and broadcastable integer index arrays
            ``b (B,1,1,1), h (1,H,1,1), q (1,1,Lq,1), k (1,1,1,Lk)``; ``None``: the scores as they are.
        mask_mod: ``mask_mod(b, h, q, k) -> bool`` broadcastable to ``(B, H, Lq, Lk)``,
            ``True`` = may attend; ``None``: every key.

    Returns:
        ``(output (B, H, Lq, Dv), weights (B, H, Lq, Lk))`` (2-D in, 2-D out): the softmax over
        the allowed keys of the modded scores. With neither mod it is
        ``scaled_dot_product_attention``; a masked entry gets weight exactly 0 and a query with no
        allowed key all-zero weights and a zero output. The semantics of
        ``torch.nn.attention.flex_attention.flex_attention(Q, K, V, score_mod, block_mask)``.
    """
    Q, K, V, two_d = _as_4d(Q, K, V)
    scores = (Q / np.sqrt(Q.shape[-1])) @ np.swapaxes(K, -1, -2)  # (B, H, Lq, Dh) x (B, H, Dh, Lk) -> (B, H, Lq, Lk)
    scores, mask = _apply_mods(scores, score_mod, mask_mod)
    weights = masked_softmax(scores, mask)  # (B, H, Lq, Lk); masked -> -inf before the softmax, in effect
    out = weights @ V  # (B, H, Lq, Lk) x (B, H, Lk, Dv) -> (B, H, Lq, Dv)
    return (out[0, 0], weights[0, 0]) if two_d else (out, weights)


def mask_from_mod(mask_mod: MaskMod, B: int, H: int, Lq: int, Lk: int) -> np.ndarray:
    """The explicit boolean ``(B, H, Lq, Lk)`` mask that ``mask_mod`` describes (``True`` = may attend)."""
    if not callable(mask_mod):
        raise ValueError(f"mask_mod: expected a function mask_mod(b, h, q, k), got {type(mask_mod).__name__}")
    B, H = require_int(B, "B", minimum=1), require_int(H, "H", minimum=1)
    Lq, Lk = require_int(Lq, "Lq"), require_int(Lk, "Lk")
    mask = np.asarray(mask_mod(*_indices(B, H, Lq, Lk)))
    check_mask(mask, (B, H, Lq, Lk), name="mask_mod")
    return np.broadcast_to(mask, (B, H, Lq, Lk)).copy()


mask_from_mod.step = "turns the mask mod into a mask over every (query, key) pair"  # feedback's words for it


# --------------------------------------------------------------------------- score mods


def alibi_slopes(H: int) -> np.ndarray:
    """ALiBi's ``(H,)`` head slopes (Press et al., 2022).

    For ``H`` a power of two, head ``h = 1..H`` (1-based) gets ``2^(-8h/H)``: a geometric sequence
    from ``2^(-8/H)`` down to ``2^-8``. For any other ``H``, the paper's rule (its reference code
    and Hugging Face's ``_get_alibi_slopes``): the slopes of the largest power of two ``n < H``,
    followed by the first ``H - n`` of every other slope of ``2n``'s list (its 1st, 3rd, 5th, ...).
    """
    H = require_int(H, "H", minimum=1)

    def power_of_two(n: int) -> np.ndarray:
        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)  # (n,)

    n = 1 << (H.bit_length() - 1)  # the largest power of two <= H
    if n == H:
        return power_of_two(H)
    return np.concatenate([power_of_two(n), power_of_two(2 * n)[0::2][: H - n]])  # (H,)


def alibi_score_mod(H: int) -> ScoreMod:
    """ALiBi as a score mod: ``score + slope[h] * (k - q)`` with ``slope = alibi_slopes(H)``.

    A key ``d`` tokens before the query loses ``slope[h] * d``: a linear penalty with distance,
    steeper for the first heads. Keys after the query get a bonus instead; ALiBi is meant for
    causal attention, where they are masked.
    """
    slopes = alibi_slopes(H)  # (H,)

    def score_mod(score, b, h, q, k):
        return score + _table(slopes, score)[h] * (k - q)  # (B, H, Lq, Lk)

    return score_mod


def softcap_score_mod(c: float) -> ScoreMod:
    """Soft-capping (Gemma 2, Grok): ``c * tanh(score / c)``, a smooth squash of the scores into
    ``(-c, c)`` (``[-c, c]`` in floating point, where ``tanh`` rounds to 1), close to the identity
    for ``|score| << c``. ``c > 0``."""
    if isinstance(c, bool) or not isinstance(c, (int, float, np.number)) or not np.isfinite(c) or c <= 0:
        raise ValueError(f"c: expected a positive finite number, got {c!r}")
    c = float(c)

    def score_mod(score, b, h, q, k):
        return c * (score / c).tanh() if _is_torch(score) else c * np.tanh(score / c)

    return score_mod


def relative_bias_score_mod(bias: np.ndarray) -> ScoreMod:
    """A learned relative-position bias as a score mod: ``score + bias[h, (k - q) + Lmax - 1]``.

    Args:
        bias: ``(H, 2*Lmax - 1)``: column ``Lmax - 1 + r`` is head ``h``'s bias for a key ``r``
            positions after the query (``r`` from ``-(Lmax - 1)`` to ``Lmax - 1``; column
            ``Lmax - 1`` is the query itself). Offsets beyond ``Lmax - 1`` use the table's edge
            column (clipped, as Shaw et al., 2018).
    """
    bias = np.asarray(bias, dtype=float)
    require_ndim(bias, "bias", ("H", "2*Lmax-1"), batch=False)
    if bias.shape[1] % 2 == 0:
        raise ValueError(f"bias: expected an odd number of columns 2*Lmax-1, got {fmt(bias.shape)}")
    r_max = bias.shape[1] // 2  # Lmax - 1

    def score_mod(score, b, h, q, k):
        rel = (k - q).clip(-r_max, r_max) + r_max  # (1, 1, Lq, Lk) column of each offset
        return score + _table(bias, score)[h, rel]  # (B, H, Lq, Lk)

    return score_mod


# --------------------------------------------------------------------------- mask mods


def causal_mask_mod(b, h, q, k):
    """The causal mask mod: ``k <= q``, query ``q`` sees keys ``0..q`` (top-left, as ``causal_mask``)."""
    return k <= q


def sliding_window_mask_mod(window: int, offset: int = 0) -> MaskMod:
    """Sliding window: ``0 <= (q + offset) - k < window``, the rule of ``sliding_window_mask``
    (query row ``q`` at absolute position ``q + offset``; ``offset = Lk - Lq`` for the newest rows
    of a cache). A token sees itself and the ``window - 1`` tokens before it."""
    window = require_int(window, "window", minimum=1)
    offset = require_int(offset, "offset")

    def mask_mod(b, h, q, k):
        rel = (q + offset) - k  # (1, 1, Lq, Lk) query minus key position
        return (rel >= 0) & (rel < window)

    return mask_mod


def document_mask_mod(doc_ids: np.ndarray, causal: bool = True) -> MaskMod:
    """Packed sequences: a query attends only to keys of its own document, ``doc_ids[q] == doc_ids[k]``,
    and, when ``causal`` (the default, as a decoder trains on packed documents), only to keys
    ``k <= q``. ``doc_ids``: ``(L,)`` integer document of each token; queries and keys are
    positions of the same packed sequence (``Lq, Lk <= L``)."""
    doc_ids = np.asarray(doc_ids)
    require_ndim(doc_ids, "doc_ids", ("L",), batch=False)
    if doc_ids.size and doc_ids.dtype.kind not in "iu":
        raise ValueError(f"doc_ids: expected integers, got dtype {doc_ids.dtype}")

    def mask_mod(b, h, q, k):
        docs = _table(doc_ids, q)  # (L,)
        same = docs[q] == docs[k]  # (1, 1, Lq, Lk)
        return same & (k <= q) if causal else same

    return mask_mod


document_mask_mod.step = "decides which keys each query may see"  # feedback's words for it


def prefix_lm_mask_mod(prefix_len: int) -> MaskMod:
    """Prefix LM: every query sees the whole prefix ``k < prefix_len`` (bidirectional inside it),
    and the keys up to itself ``k <= q`` (causal after it)."""
    prefix_len = require_int(prefix_len, "prefix_len")

    def mask_mod(b, h, q, k):
        return (k < prefix_len) | (k <= q)

    return mask_mod


def _check_mods(mods, name: str) -> None:
    if not mods:
        raise ValueError(f"{name}: expected at least one mask mod, got none")
    for m in mods:
        if not callable(m):
            raise ValueError(f"{name}: expected mask mods mask_mod(b, h, q, k), got {type(m).__name__}")


def and_masks(*mods: MaskMod) -> MaskMod:
    """The mask mod that allows a pair when every one of ``mods`` allows it."""
    _check_mods(mods, "and_masks")

    def mask_mod(b, h, q, k):
        out = mods[0](b, h, q, k)
        for m in mods[1:]:
            out = out & m(b, h, q, k)
        return out

    return mask_mod


def or_masks(*mods: MaskMod) -> MaskMod:
    """The mask mod that allows a pair when any one of ``mods`` allows it."""
    _check_mods(mods, "or_masks")

    def mask_mod(b, h, q, k):
        out = mods[0](b, h, q, k)
        for m in mods[1:]:
            out = out | m(b, h, q, k)
        return out

    return mask_mod


# --------------------------------------------------------------------------- attention sinks


def sink_window_keys(Lk: int, n_sinks: int, window: int) -> np.ndarray:
    """The keys a sink-plus-window cache keeps (StreamingLLM, Xiao et al., 2024): sorted indices.

    The first ``n_sinks`` tokens (the *attention sinks*) and the last ``window`` tokens; the
    sinks are not counted in the window, so ``min(Lk, n_sinks + window)`` keys are kept, each once.
    """
    Lk = require_int(Lk, "Lk")
    n_sinks = require_int(n_sinks, "n_sinks")
    window = require_int(window, "window", minimum=1)
    keep = np.zeros(Lk, dtype=bool)
    keep[: n_sinks] = True  # the sinks
    keep[max(0, Lk - window):] = True  # the recent window
    return np.flatnonzero(keep)  # (min(Lk, n_sinks + window),)


def sink_window_attention(q: np.ndarray, K: np.ndarray, V: np.ndarray, n_sinks: int,
                          window: int) -> tuple[np.ndarray, np.ndarray]:
    """One new query against a cache that keeps only the sinks and the recent window.

    Args:
        q: ``(..., Dh)`` the new query; K: ``(..., Lk, Dh)`` and V: ``(..., Lk, Dv)`` the cache.
        n_sinks, window: as ``sink_window_keys``.

    Returns:
        ``(output (..., Dv), weights (..., Lk))``: dense attention over the kept keys only;
        the evicted keys get weight 0.
    """
    q = np.asarray(q, dtype=float)
    require_ndim(q, "q", ("Dh",))
    K, V = np.asarray(K, dtype=float), np.asarray(V, dtype=float)
    require_ndim(K, "K", ("Lk", "Dh"))
    if q.shape[-1] != K.shape[-1]:
        raise ValueError(f"q and K must have the same width Dh: got q {fmt(q.shape)} and K {fmt(K.shape)}")
    require_qkv(q[..., None, :], K, V)
    keys = sink_window_keys(K.shape[-2], n_sinks, window)  # (Lkept,)
    out, w = scaled_dot_product_attention(q[..., None, :], K[..., keys, :], V[..., keys, :])  # (..., 1, Dv), (..., 1, Lkept)
    weights = np.zeros(w.shape[:-2] + (K.shape[-2],))  # (..., Lk)
    weights[..., keys] = w[..., 0, :]
    return out[..., 0, :], weights


# --------------------------------------------------------------------------- multi-head latent attention


def _mla_check(X, W_dkv, W_uk, W_uv, W_q, W_o, H):
    X, W_dkv, W_uk, W_uv, W_q, W_o = (np.asarray(a, dtype=float) for a in (X, W_dkv, W_uk, W_uv, W_q, W_o))
    H = require_int(H, "H", minimum=1)
    require_ndim(X, "X", ("L", "D"))
    for name, W in (("W_dkv", W_dkv), ("W_uk", W_uk), ("W_uv", W_uv), ("W_q", W_q), ("W_o", W_o)):
        require_ndim(W, name, ("in", "out"), batch=False)
    D, Dc = W_dkv.shape
    checks = [("W_dkv", W_dkv, X.shape[-1], None, "(D, Dc) with D the width of X"),
              ("W_uk", W_uk, Dc, H, "(Dc, H*Dh)"), ("W_uv", W_uv, Dc, H, "(Dc, H*Dv)"),
              ("W_q", W_q, D, None, "(D, H*Dh)"), ("W_o", W_o, W_uv.shape[1], None, "(H*Dv, Dout)")]
    for name, W, rows, heads, spec in checks:
        if W.shape[0] != rows or (heads and W.shape[1] % heads):
            raise ValueError(f"{name}: expected shape {spec} for X {fmt(X.shape)}, W_dkv {fmt(W_dkv.shape)} "
                             f"and H={H}, got {fmt(W.shape)}")
    if W_q.shape[1] != W_uk.shape[1]:
        raise ValueError(f"W_q and W_uk must have the same width H*Dh: got W_q {fmt(W_q.shape)} and W_uk {fmt(W_uk.shape)}")
    return X, W_dkv, W_uk, W_uv, W_q, W_o, H


def _split(X: np.ndarray, H: int) -> np.ndarray:
    """``(..., L, H*W) -> (..., H, L, W)``: head ``h`` holds columns ``h*W:(h+1)*W`` (as ``split_heads``)."""
    return np.swapaxes(X.reshape(*X.shape[:-1], H, X.shape[-1] // H), -2, -3)


def mla_naive(X: np.ndarray, W_dkv: np.ndarray, W_uk: np.ndarray, W_uv: np.ndarray, W_q: np.ndarray,
              W_o: np.ndarray, H: int) -> tuple[np.ndarray, np.ndarray]:
    """Multi-head latent attention (DeepSeek-V2), computed the way it is defined: causal self-attention.

    Each token is compressed to a latent ``c = X W_dkv`` of width ``Dc``, the only thing cached;
    head ``h``'s keys and values are up-projections of it, ``c W_uk[:, h]`` and ``c W_uv[:, h]``.

    Args:
        X: ``(..., L, D)`` tokens.
        W_dkv: ``(D, Dc)`` the down-projection to the latent.
        W_uk: ``(Dc, H*Dh)`` and W_uv: ``(Dc, H*Dv)`` the up-projections to keys and values.
        W_q: ``(D, H*Dh)`` the queries.  W_o: ``(H*Dv, Dout)`` the output map.
        H: the number of heads.

    Returns:
        ``(output (..., L, Dout), weights (..., H, L, L))``, scale ``sqrt(Dh)``, causal.

    Decoupled RoPE is left out. It cannot be absorbed (see ``mla_absorbed``): the rotation of a
    key depends on its position and sits between the up-projection and the dot product, so
    ``W_uk`` can no longer be folded into the query map. DeepSeek-V2 therefore adds a separate
    small RoPE key (width ``rope_dim``, shared by all heads) that is cached beside the latent.
    """
    X, W_dkv, W_uk, W_uv, W_q, W_o, H = _mla_check(X, W_dkv, W_uk, W_uv, W_q, W_o, H)
    c = X @ W_dkv  # (..., L, D) x (D, Dc) -> (..., L, Dc): the cache
    Qh = _split(X @ W_q, H)  # (..., L, H*Dh) -> (..., H, L, Dh)
    Kh = _split(c @ W_uk, H)  # (..., L, H*Dh) -> (..., H, L, Dh)
    Vh = _split(c @ W_uv, H)  # (..., L, H*Dv) -> (..., H, L, Dv)
    L = X.shape[-2]
    Z, weights = scaled_dot_product_attention(Qh, Kh, Vh, causal_mask(L, L))  # (..., H, L, Dv), (..., H, L, L)
    merged = np.swapaxes(Z, -2, -3).reshape(*Z.shape[:-3], L, -1)  # (..., L, H, Dv) -> (..., L, H*Dv)
    return merged @ W_o, weights  # (..., L, H*Dv) x (H*Dv, Dout) -> (..., L, Dout)


def mla_absorbed(X: np.ndarray, W_dkv: np.ndarray, W_uk: np.ndarray, W_uv: np.ndarray, W_q: np.ndarray,
                 W_o: np.ndarray, H: int) -> tuple[np.ndarray, np.ndarray]:
    """Multi-head latent attention with the up-projections absorbed: attention over the latent itself.

    Head ``h``'s score is ``(x W_q[:, h]) . (c W_uk[:, h]) = x (W_q[:, h] W_uk[:, h]^T) . c``: the
    key up-projection folds into a query map ``D -> Dc``. Its output ``(A c W_uv[:, h]) W_o[h]``
    is ``(A c) (W_uv[:, h] W_o[h])``: the value up-projection folds into an output map
    ``Dc -> Dout``. So every head attends over the cached latents ``c (..., L, Dc)`` directly, as
    multi-query attention with one key/value head of width ``Dc`` (still scaled by ``sqrt(Dh)``),
    and no per-head key or value is ever materialised. Same arguments and result as ``mla_naive``.

    Why RoPE cannot be absorbed: with RoPE the score is ``(R_i x W_q) . (R_j c W_uk)`` for
    position rotations ``R_i, R_j``; ``R_j`` sits between ``W_uk`` and the dot product and
    depends on the key's position, so no fixed matrix can be folded into the query map. DeepSeek-V2
    keeps the latent free of positions and adds a decoupled RoPE key of width ``rope_dim``,
    shared across heads and cached beside the latent (``mla_cache_bytes`` counts both).
    """
    X, W_dkv, W_uk, W_uv, W_q, W_o, H = _mla_check(X, W_dkv, W_uk, W_uv, W_q, W_o, H)
    Dc, Dh, Dv = W_dkv.shape[1], W_uk.shape[1] // H, W_uv.shape[1] // H
    c = X @ W_dkv  # (..., L, Dc): the cache
    Wq_h = W_q.reshape(-1, H, Dh).transpose(1, 0, 2)  # (D, H*Dh) -> (H, D, Dh)
    Wuk_h = W_uk.reshape(Dc, H, Dh).transpose(1, 0, 2)  # (Dc, H*Dh) -> (H, Dc, Dh)
    Wuv_h = W_uv.reshape(Dc, H, Dv).transpose(1, 0, 2)  # (Dc, H*Dv) -> (H, Dc, Dv)
    Wo_h = W_o.reshape(H, Dv, -1)  # (H*Dv, Dout) -> (H, Dv, Dout)
    W_q_latent = Wq_h @ np.swapaxes(Wuk_h, -1, -2)  # (H, D, Dh) x (H, Dh, Dc) -> (H, D, Dc)
    W_o_latent = Wuv_h @ Wo_h  # (H, Dc, Dv) x (H, Dv, Dout) -> (H, Dc, Dout)
    q_lat = X[..., None, :, :] @ W_q_latent  # (..., 1, L, D) x (H, D, Dc) -> (..., H, L, Dc)
    scores = (q_lat / np.sqrt(Dh)) @ np.swapaxes(c, -1, -2)[..., None, :, :]  # (..., H, L, Dc) x (..., 1, Dc, L) -> (..., H, L, L)
    L = X.shape[-2]
    weights = masked_softmax(scores, causal_mask(L, L))  # (..., H, L, L)
    mixed = weights @ c[..., None, :, :]  # (..., H, L, L) x (..., 1, L, Dc) -> (..., H, L, Dc)
    return (mixed @ W_o_latent).sum(axis=-3), weights  # (..., H, L, Dout) summed over heads -> (..., L, Dout)


def mla_cache_bytes(n_layers: int, seq_len: int, latent_dim: int, rope_dim: int, bytes_per_element: int,
                    batch: int = 1) -> int:
    """Bytes MLA's cache holds after ``seq_len`` tokens: per layer and token, one latent of
    ``latent_dim`` numbers and one decoupled RoPE key of ``rope_dim`` numbers, whatever the number
    of heads. Compare ``kv_cache_bytes``, which counts ``2 * num_kv_heads * head_dim`` per layer and
    token (DeepSeek-V2: ``latent_dim = 512``, ``rope_dim = 64``, against ``2 * 128 * 128`` for its
    128 heads of width 128)."""
    n_layers = require_int(n_layers, "n_layers", minimum=1)
    seq_len = require_int(seq_len, "seq_len")
    latent_dim = require_int(latent_dim, "latent_dim", minimum=1)
    rope_dim = require_int(rope_dim, "rope_dim")
    bytes_per_element = require_int(bytes_per_element, "bytes_per_element", minimum=1)
    batch = require_int(batch, "batch", minimum=1)
    return n_layers * seq_len * batch * (latent_dim + rope_dim) * bytes_per_element


# --------------------------------------------------------------------------- top-k attention


def topk_keep(scores: np.ndarray, k: int) -> np.ndarray:
    """Boolean mask of the shape of ``scores (..., Lq, Lk)``: ``True`` at each row's ``k`` highest
    scores, ties broken by the lower key index (a stable sort of the negated scores)."""
    scores = np.asarray(scores, dtype=float)
    require_ndim(scores, "scores", ("Lq", "Lk"))
    Lk = scores.shape[-1]
    k = require_int(k, "k", minimum=1)
    if k > Lk:
        raise ValueError(f"k: expected an integer in [1, Lk={Lk}], got {k}")
    order = np.argsort(-scores, axis=-1, kind="stable")[..., :k]  # (..., Lq, k) best keys first
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, order, True, axis=-1)
    return keep


topk_keep.step = "chooses each query's k best keys"  # feedback's words for it


def topk_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-k attention: each query keeps its ``k`` highest-scoring keys, softmax over those only.

    Args:
        Q: ``(..., Lq, Dh)``; K: ``(..., Lk, Dh)``; V: ``(..., Lk, Dv)``.
        k: keys kept per query, ``1 <= k <= Lk``.

    Returns:
        ``(output (..., Lq, Dv), weights (..., Lq, Lk))``: the weights of the kept keys are
        renormalised to sum to one (not the full softmax with the rest zeroed); among equal
        scores the lower key index is kept. ``k = Lk`` is ``scaled_dot_product_attention``.
    """
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    require_qkv(Q, K, V)
    scores = (Q / np.sqrt(Q.shape[-1])) @ np.swapaxes(K, -1, -2)  # (..., Lq, Lk)
    weights = masked_softmax(scores, topk_keep(scores, k))  # (..., Lq, Lk), zero outside the top k
    return weights @ V, weights  # (..., Lq, Dv)
