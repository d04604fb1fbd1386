"""Efficient attention: the online softmax and tiled attention with O(L) memory (numpy reference).

Naive attention forms the ``(Lq, Lk)`` weight matrix ``softmax(Q K^T / sqrt(Dk))``. Its output
row ``i`` only needs three running quantities over the keys seen so far, for any order and any
grouping of the keys:

    m_i   = max_j s_ij                       (running max, for stability)
    l_i   = sum_j exp(s_ij - m_i)            (running normaliser)
    acc_i = sum_j exp(s_ij - m_i) v_j        (running unnormalised output)

and ``out_i = acc_i / l_i``. When a new group of keys raises the max from ``m`` to ``m'``,
everything summed so far is rescaled by ``exp(m - m')``: that is the **online softmax**
(Milakov & Gimelshein, 2018). Visiting the keys a tile at a time, and the queries a tile at a
time, gives **tiled attention** (the idea of FlashAttention, Dao et al., 2022): exact, with
extra memory ``O(tile_size^2 + Lq Dv)`` instead of ``O(Lq Lk)``.

Statistics of a query that has seen no key (yet) are ``m = -inf, l = 0, acc = 0``; they merge
with anything without producing NaN.

Shape letters: ``Lq`` queries, ``Lk`` keys/values, ``T`` keys in a tile, ``Dk`` query/key width,
``Dv`` value width; any leading batch dimensions ``...`` are allowed.

Unlike the other references these functions keep the floating dtype of their inputs (float32
in, float32 out): halving the memory is the point here. Integer inputs become float64.
"""
from __future__ import annotations

import numpy as np

from ._validate import fmt, require_equal, require_int, require_ndim, require_qkv

Stats = tuple[np.ndarray, np.ndarray, np.ndarray]


def _floating(*arrays) -> list[np.ndarray]:
    """The arrays as one common floating dtype (float32 stays float32; integers become float64)."""
    arrays = [np.asarray(a) for a in arrays]
    dtype = np.result_type(*arrays)
    if dtype.kind != "f":
        dtype = np.dtype(float)
    return [a.astype(dtype, copy=False) for a in arrays]


def _check_stats(m, l, acc, suffix: str = "") -> None:
    require_ndim(m, "m" + suffix, ("Lq",))
    require_ndim(acc, "acc" + suffix, ("Lq", "Dv"))
    if l.shape != m.shape:
        raise ValueError(f"l{suffix}: expected the shape of m{suffix} {fmt(m.shape)}, got {fmt(l.shape)}")
    if acc.shape[:-1] != m.shape:
        raise ValueError(f"acc{suffix}: expected shape {fmt((*m.shape, 'Dv'))} to match m{suffix} "
                         f"{fmt(m.shape)}, got {fmt(acc.shape)}")


def _safe_max(m: np.ndarray) -> np.ndarray:
    """``m`` with ``-inf`` (no key seen) replaced by 0, so that ``exp(x - m)`` is never NaN."""
    return np.where(m == -np.inf, 0.0, m).astype(m.dtype, copy=False)


def empty_softmax_stats(batch_shape: tuple[int, ...], Lq: int, Dv: int, dtype=float) -> Stats:
    """The statistics of ``Lq`` queries that have seen no key: ``m = -inf``, ``l = 0``, ``acc = 0``.

    Returns:
        ``(m (..., Lq), l (..., Lq), acc (..., Lq, Dv))``.
    """
    Lq, Dv = require_int(Lq, "Lq"), require_int(Dv, "Dv")
    shape = (*tuple(batch_shape), Lq)
    return (np.full(shape, -np.inf, dtype=dtype), np.zeros(shape, dtype=dtype),
            np.zeros((*shape, Dv), dtype=dtype))


def merge_softmax_stats(
    m_a: np.ndarray, l_a: np.ndarray, acc_a: np.ndarray,
    m_b: np.ndarray, l_b: np.ndarray, acc_b: np.ndarray,
) -> Stats:
    """Merge the softmax statistics of two disjoint sets of keys, exactly.

    With ``m = max(m_a, m_b)``, each part is rescaled to the common max::

        l   = exp(m_a - m) l_a   + exp(m_b - m) l_b
        acc = exp(m_a - m) acc_a + exp(m_b - m) acc_b

    so that ``acc / l`` is the attention output over the union of the keys. A part that has
    seen no key (``m = -inf, l = 0, acc = 0``) contributes nothing, and never a NaN.

    Args:
        m_a, l_a: ``(..., Lq)`` running max and normaliser of part a; acc_a: ``(..., Lq, Dv)``.
        m_b, l_b, acc_b: the same for part b (same shapes).

    Returns:
        ``(m (..., Lq), l (..., Lq), acc (..., Lq, Dv))``.
    """
    m_a, l_a, acc_a, m_b, l_b, acc_b = _floating(m_a, l_a, acc_a, m_b, l_b, acc_b)
    _check_stats(m_a, l_a, acc_a, "_a")
    _check_stats(m_b, l_b, acc_b, "_b")
    if m_a.shape != m_b.shape or acc_a.shape != acc_b.shape:
        raise ValueError(f"the two parts must have the same shapes: got m_a {fmt(m_a.shape)}, acc_a "
                         f"{fmt(acc_a.shape)} and m_b {fmt(m_b.shape)}, acc_b {fmt(acc_b.shape)}")
    m = np.maximum(m_a, m_b)  # (..., Lq)
    m_safe = _safe_max(m)
    scale_a = np.exp(m_a - m_safe)  # (..., Lq); 0 where part a saw nothing
    scale_b = np.exp(m_b - m_safe)  # (..., Lq)
    l = scale_a * l_a + scale_b * l_b  # (..., Lq)
    acc = scale_a[..., None] * acc_a + scale_b[..., None] * acc_b  # (..., Lq, 1) * (..., Lq, Dv)
    return m, l, acc


def online_softmax_update(
    m: np.ndarray, l: np.ndarray, acc: np.ndarray, scores: np.ndarray, V_tile: np.ndarray
) -> Stats:
    """One step of the online softmax: fold a tile of keys into the running statistics.

    With ``m' = max(m, max_j s_j)`` over the tile's scores ``s_j`` (already scaled)::

        l'   = exp(m - m') l   + sum_j exp(s_j - m')
        acc' = exp(m - m') acc + sum_j exp(s_j - m') v_j

    Equivalent to :func:`merge_softmax_stats` of ``(m, l, acc)`` with the tile's own statistics.
    A score of ``-inf`` is a masked key (weight 0); a query whose scores so far are all
    ``-inf`` keeps ``m = -inf, l = 0, acc = 0`` (never NaN).

    Args:
        m, l: ``(..., Lq)`` running max and normaliser (start: ``-inf`` and ``0``).
        acc: ``(..., Lq, Dv)`` running unnormalised output (start: ``0``).
        scores: ``(..., Lq, T)`` the tile's scores ``q_i . k_j / sqrt(Dk)``, ``-inf`` = masked.
        V_tile: ``(..., T, Dv)`` the tile's values.

    Returns:
        ``(m (..., Lq), l (..., Lq), acc (..., Lq, Dv))``, new arrays (the inputs are unchanged).
    """
    m, l, acc, scores, V_tile = _floating(m, l, acc, scores, V_tile)
    _check_stats(m, l, acc)
    require_ndim(scores, "scores", ("Lq", "T"))
    require_ndim(V_tile, "V_tile", ("T", "Dv"))
    require_equal(scores.shape[-1], V_tile.shape[-2], "tile length T", "scores", scores.shape,
                  "V_tile", V_tile.shape)
    require_equal(scores.shape[-2], m.shape[-1], "number of queries Lq", "scores", scores.shape,
                  "m", m.shape)
    if scores.shape[-1] == 0:  # an empty tile changes nothing
        return m.copy(), l.copy(), acc.copy()
    m_new = np.maximum(m, scores.max(axis=-1))  # (..., Lq)
    m_safe = _safe_max(m_new)
    rescale = np.exp(m - m_safe)  # (..., Lq); 0 if nothing was seen before
    p = np.exp(scores - m_safe[..., None])  # (..., Lq, T); 0 for masked keys
    l_new = rescale * l + p.sum(axis=-1)  # (..., Lq)
    acc_new = rescale[..., None] * acc + p @ V_tile  # (..., Lq, Dv) + (..., Lq, T) x (..., T, Dv)
    return m_new, l_new, acc_new


def finish_softmax_stats(m: np.ndarray, l: np.ndarray, acc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The attention output and the log-sum-exp from the final statistics.

    Returns:
        ``(output (..., Lq, Dv), logsumexp (..., Lq))`` with ``output = acc / l`` and
        ``logsumexp = m + log(l)``; a query that saw no key gets a zero output and ``-inf``.
    """
    m, l, acc = _floating(m, l, acc)
    _check_stats(m, l, acc)
    seen = l > 0
    output = acc / np.where(seen, l, 1.0)[..., None]  # (..., Lq, Dv)
    with np.errstate(divide="ignore"):
        logsumexp = np.where(seen, _safe_max(m) + np.log(np.where(seen, l, 1.0)), -np.inf)  # (..., Lq)
    return output.astype(acc.dtype, copy=False), logsumexp.astype(m.dtype, copy=False)


def _check_qkv(Q, K, V) -> None:
    require_qkv(Q, K, V)


def tiled_attention(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, tile_size: int, causal: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Scaled dot-product attention a tile at a time, never forming the ``(Lq, Lk)`` weights.

    For each tile of ``tile_size`` queries, the keys and values are visited ``tile_size`` at a
    time and folded into running statistics with :func:`online_softmax_update`; the output is
    ``acc / l``. With ``causal=True`` (query ``i`` sees keys ``j <= i``, top-left aligned as
    :func:`attnlab.causal_mask`), key tiles that lie entirely above the diagonal are skipped,
    never read, and only the tiles that cross the diagonal are masked.

    Args:
        Q: ``(..., Lq, Dk)``; K: ``(..., Lk, Dk)``; V: ``(..., Lk, Dv)``.
        tile_size: queries and keys per tile, an integer >= 1.
        causal: apply the causal mask (and skip the tiles it blanks out).

    Returns:
        ``(output (..., Lq, Dv), logsumexp (..., Lq))``. Not the weights, as the other attention
        functions return: the ``(Lq, Lk)`` weights are exactly what tiling avoids storing. The
        log-sum-exp ``m + log(l)`` of each query's scores is what FlashAttention keeps instead
        (``O(Lq)``): any weight can be recomputed from it, ``exp(s_ij - logsumexp_i)``
        (:func:`weights_from_logsumexp`).

    Equals ``scaled_dot_product_attention(Q, K, V, mask)`` (with ``mask = causal_mask(Lq, Lk)``
    when causal) up to rounding: within ``1e-10`` in float64. Extra memory: ``O(tile_size^2)``
    per step plus the ``O(Lq Dv)`` output and statistics.
    """
    Q, K, V = _floating(Q, K, V)
    _check_qkv(Q, K, V)
    T = require_int(tile_size, "tile_size", minimum=1)
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    Q = Q / np.sqrt(Dk).astype(Q.dtype)  # (..., Lq, Dk): scaled once, not once per tile
    output = np.zeros((*batch, Lq, Dv), dtype=Q.dtype)
    logsumexp = np.full((*batch, Lq), -np.inf, dtype=Q.dtype)
    for i0 in range(0, Lq, T):
        i1 = min(i0 + T, Lq)
        Q_tile = Q[..., i0:i1, :]  # (..., Tq, Dk)
        m, l, acc = empty_softmax_stats(batch, i1 - i0, Dv, Q.dtype)
        last_key = min(Lk, i1) if causal else Lk  # causal: key tiles starting at j0 >= i1 are all masked
        for j0 in range(0, last_key, T):
            j1 = min(j0 + T, Lk)
            scores = Q_tile @ np.swapaxes(K[..., j0:j1, :], -1, -2)  # (..., Tq, Dk) x (..., Dk, T) -> (..., Tq, T)
            if causal and j1 - 1 > i0:  # the tile crosses the diagonal: mask keys j > i
                visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]  # (Tq, T)
                scores = np.where(visible, scores, -np.inf)
            m, l, acc = online_softmax_update(m, l, acc, scores, V[..., j0:j1, :])
        output[..., i0:i1, :], logsumexp[..., i0:i1] = finish_softmax_stats(m, l, acc)
    return output, logsumexp


def weights_from_logsumexp(Q: np.ndarray, K: np.ndarray, logsumexp: np.ndarray) -> np.ndarray:
    """Recompute attention weights from the log-sum-exp that :func:`tiled_attention` returns.

    ``weights_ij = exp(q_i . k_j / sqrt(Dk) - logsumexp_i)``; 0 on a row with
    ``logsumexp = -inf`` (a query that saw no key). ``K`` may be *any subset* of the keys (one
    tile, say): the weights are those of the full attention, so a row sums to one only when
    ``K`` holds every key the query saw. FlashAttention's backward pass recomputes each tile of
    weights this way instead of storing them.

    Args:
        Q: ``(..., Lq, Dk)``; K: ``(..., Lk, Dk)``; logsumexp: ``(..., Lq)``.

    Returns:
        ``(..., Lq, Lk)``.
    """
    Q, K, logsumexp = _floating(Q, K, logsumexp)
    require_ndim(Q, "Q", ("Lq", "Dk"))
    require_ndim(K, "K", ("Lk", "Dk"))
    require_equal(Q.shape[-1], K.shape[-1], "last dimension Dk", "Q", Q.shape, "K", K.shape)
    require_ndim(logsumexp, "logsumexp", ("Lq",))
    require_equal(Q.shape[-2], logsumexp.shape[-1], "number of queries Lq", "Q", Q.shape,
                  "logsumexp", logsumexp.shape)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])  # (..., Lq, Dk) x (..., Dk, Lk) -> (..., Lq, Lk)
    seen = np.isfinite(logsumexp)[..., None]  # (..., Lq, 1)
    with np.errstate(over="ignore"):
        weights = np.exp(scores - np.where(seen, logsumexp[..., None], 0.0))  # (..., Lq, Lk)
    return np.where(seen, weights, 0.0).astype(scores.dtype, copy=False)


def _require_shape(x, name: str, expected: tuple[int, ...], letters: tuple[str, ...]) -> None:
    """``x`` must have exactly the shape ``expected`` (named by ``letters`` in the message)."""
    if tuple(x.shape) != tuple(expected):
        raise ValueError(f"{name}: expected shape {fmt(letters)} = {fmt(expected)}, got {fmt(tuple(x.shape))}")


def _check_backward(Q, K, V, output, logsumexp, grad_output) -> tuple[int, ...]:
    """Validate the backward pass's inputs; return the broadcast batch shape."""
    _check_qkv(Q, K, V)
    try:
        batch = tuple(np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]))
    except ValueError:
        raise ValueError(f"Q, K and V: leading batch dimensions must broadcast, got Q {fmt(Q.shape)}, "
                         f"K {fmt(K.shape)} and V {fmt(V.shape)}") from None
    Lq, Dv = Q.shape[-2], V.shape[-1]
    _require_shape(output, "output", (*batch, Lq, Dv), ("...", "Lq", "Dv"))
    _require_shape(logsumexp, "logsumexp", (*batch, Lq), ("...", "Lq"))
    _require_shape(grad_output, "grad_output", (*batch, Lq, Dv), ("...", "Lq", "Dv"))
    return batch


def _sum_to(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``x`` summed over the leading axes that broadcasting added to ``shape`` (as autograd does)."""
    extra = x.ndim - len(shape)
    x = x.sum(axis=tuple(range(extra))) if extra else x
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and x.shape[i] != 1)
    return x.sum(axis=axes, keepdims=True) if axes else x


def tiled_attention_backward(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, output: np.ndarray, logsumexp: np.ndarray,
    grad_output: np.ndarray, tile_size: int, causal: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The gradients of tiled attention, a tile at a time, from the saved log-sum-exp.

    With ``s = 1/sqrt(Dk)``, scores ``S = s Q K^T``, weights ``P = exp(S - logsumexp)``, output
    ``O = P V`` and the incoming gradient ``dO = grad_output``::

        D_i = sum_d dO_id O_id         (one number per query: the row sums of dO * O)
        dV  = P^T dO,    dP = dO V^T,    dS = P * (dP - D_i)
        dQ  = s dS K,    dK = s dS^T Q

    Each ``(tile_size, tile_size)`` tile of ``P`` is rebuilt from ``logsumexp`` (as
    :func:`weights_from_logsumexp`), used, and dropped: no ``(Lq, Lk)`` array is formed. With
    ``causal=True`` the key tiles above the diagonal are skipped, as in :func:`tiled_attention`.

    Args:
        Q: ``(..., Lq, Dk)``; K: ``(..., Lk, Dk)``; V: ``(..., Lk, Dv)``: as given to
            :func:`tiled_attention`.
        output: ``(..., Lq, Dv)`` and logsumexp: ``(..., Lq)``: what it returned.
        grad_output: ``(..., Lq, Dv)``, the gradient of the loss with respect to ``output``.
        tile_size: queries and keys per tile, an integer >= 1.
        causal: the mask the forward pass used.

    Returns:
        ``(dQ (..., Lq, Dk), dK (..., Lk, Dk), dV (..., Lk, Dv))``, the gradients of
        ``sum(output * grad_output)``, each with the shape of its input. Equal to autograd of
        naive attention within ``1e-10`` in float64.
    """
    Q, K, V, output, logsumexp, grad_output = _floating(Q, K, V, output, logsumexp, grad_output)
    batch = _check_backward(Q, K, V, output, logsumexp, grad_output)
    T = require_int(tile_size, "tile_size", minimum=1)
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    scale = np.asarray(1.0 / np.sqrt(Dk), dtype=Q.dtype)
    D = (grad_output * output).sum(axis=-1)  # (..., Lq): D_i = sum_d dO_id O_id
    seen = np.isfinite(logsumexp)
    lse = np.where(seen, logsumexp, np.inf)  # (..., Lq); a query that saw no key gets weights 0
    dQ = np.zeros((*batch, Lq, Dk), dtype=Q.dtype)
    dK = np.zeros((*batch, Lk, Dk), dtype=Q.dtype)
    dV = np.zeros((*batch, Lk, Dv), dtype=Q.dtype)
    for i0 in range(0, Lq, T):
        i1 = min(i0 + T, Lq)
        Q_i, dO_i = Q[..., i0:i1, :], grad_output[..., i0:i1, :]  # (..., Tq, Dk), (..., Tq, Dv)
        last_key = min(Lk, i1) if causal else Lk  # causal: key tiles starting at j0 >= i1 are all masked
        for j0 in range(0, last_key, T):
            j1 = min(j0 + T, Lk)
            K_j, V_j = K[..., j0:j1, :], V[..., j0:j1, :]  # (..., T, Dk), (..., T, Dv)
            S = scale * (Q_i @ np.swapaxes(K_j, -1, -2))  # (..., Tq, Dk) x (..., Dk, T) -> (..., Tq, T)
            if causal and j1 - 1 > i0:  # the tile crosses the diagonal: weights of keys j > i are 0
                visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]  # (Tq, T)
                S = np.where(visible, S, -np.inf)
            P = np.exp(S - lse[..., i0:i1, None])  # (..., Tq, T): the tile's weights, rebuilt
            dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ dO_i  # (..., T, Tq) x (..., Tq, Dv)
            dP = dO_i @ np.swapaxes(V_j, -1, -2)  # (..., Tq, Dv) x (..., Dv, T) -> (..., Tq, T)
            dS = P * (dP - D[..., i0:i1, None])  # (..., Tq, T): the softmax's backward
            dQ[..., i0:i1, :] += scale * (dS @ K_j)  # (..., Tq, T) x (..., T, Dk)
            dK[..., j0:j1, :] += scale * (np.swapaxes(dS, -1, -2) @ Q_i)  # (..., T, Tq) x (..., Tq, Dk)
    return _sum_to(dQ, Q.shape), _sum_to(dK, K.shape), _sum_to(dV, V.shape)


__all__ = ["empty_softmax_stats", "finish_softmax_stats", "merge_softmax_stats",
           "online_softmax_update", "tiled_attention", "tiled_attention_backward",
           "weights_from_logsumexp"]
