"""Attention as today's models use it (numpy reference for notebook 11): rotary position
embeddings, grouped-query attention, sliding windows and the size of the key-value cache.

Shape letters: ``B`` batch, ``Hq`` query heads, ``Hkv`` key/value heads, ``Lq`` query length,
``Lk`` key/value length, ``L`` a sequence length, ``Dh`` head width, ``Dv`` value width.

Conventions fixed by the course contract:

* **RoPE**: pair ``k`` (``k = 0..Dh/2-1``) of a query or key at position ``p`` is turned by
  ``p`` times the pair's frequency, counter-clockwise (see ``rope``). The pairs are
  ``(k, k + Dh/2)`` ("halves", as GPT-NeoX and Llama's Hugging Face port) or ``(2k, 2k+1)``
  (``interleaved=True``, as RoFormer and GPT-J). ``halves_to_interleaved`` is the column
  permutation that turns one layout into the other; ``halves_to_interleaved_weights`` applies it
  to a checkpoint's multi-head projection.
* **GQA**: query head ``h`` reads key/value head ``h // n_rep``, ``n_rep = Hq / Hkv``
  (``repeat_kv`` repeats each key/value head ``n_rep`` times in a row, as
  ``torch.repeat_interleave`` and SDPA's ``enable_gqa``). MQA is ``Hkv = 1``; MHA is ``Hkv = Hq``.
* **Sliding window**: query row ``i`` sits at absolute position ``i + offset`` (``offset``
  defaults to 0, top-left aligned as ``causal_mask``; ``Lk - Lq`` for the newest rows of a cache)
  and may see key ``j`` when ``0 <= (i + offset) - j < window``.
* **Decoding**: ``ring_cache_decode_step`` keeps a window's keys and values in a ring of ``W``
  slots, the token at position ``p`` in slot ``p % W``, its key rotated at ``p``.
* **Memory**: ``kv_cache_bytes`` counts the cached keys and values of every layer and key/value head.
"""
from __future__ import annotations

import numpy as np

from ._validate import fmt, require_int, require_ndim
from .attention import scaled_dot_product_attention


def rope_frequencies(Dh: int, base: float = 10000.0) -> np.ndarray:
    """The ``Dh/2`` rotation frequencies of RoPE's pairs (radians per position), as ``rope`` defines them."""
    Dh = require_int(Dh, "Dh", minimum=2)
    if Dh % 2:
        raise ValueError(f"Dh: expected an even head width (pairs of features), got {Dh}")
    return float(base) ** (-2.0 * np.arange(Dh // 2) / Dh)  # (Dh/2,)


def halves_to_interleaved(Dh: int) -> np.ndarray:
    """The permutation ``perm (Dh,)`` of one head's features with ``x_interleaved = x_halves[..., perm]``:
    each pair of the halves layout lands on the interleaved pair of the same frequency, so that
    ``rope(x[..., perm], p, interleaved=True) == rope(x, p)[..., perm]``. Applied to the columns
    of every head of ``W_q`` and ``W_k`` it converts a checkpoint written for one pairing into
    the other (``halves_to_interleaved_weights``).
    """
    Dh = require_int(Dh, "Dh", minimum=2)
    if Dh % 2:
        raise ValueError(f"Dh: expected an even head width (pairs of features), got {Dh}")
    half = Dh // 2
    return np.stack([np.arange(half), np.arange(half) + half], axis=-1).reshape(Dh)  # (Dh,)


def interleaved_to_halves(Dh: int) -> np.ndarray:
    """The inverse permutation of ``halves_to_interleaved``: ``x_halves = x_interleaved[..., perm]``."""
    return np.argsort(halves_to_interleaved(Dh))


def halves_to_interleaved_weights(W: np.ndarray, num_heads: int) -> np.ndarray:
    """A query or key projection trained with the halves pairing, for code that rotates interleaved pairs.

    Args:
        W: ``(D, num_heads * Dh)``, used as ``X @ W``; head ``h`` is columns ``h*Dh`` to ``(h+1)*Dh - 1``.
        num_heads: the heads side by side in ``W``'s columns.

    Returns:
        ``(D, num_heads * Dh)``, a new array: with interleaved RoPE on ``X @ W'``, every head's
        attention scores are those of halves RoPE on ``X @ W``. The columns of each head are
        permuted within that head, as ``halves_to_interleaved(Dh)`` permutes one head's features.
    """
    W = np.asarray(W)
    require_ndim(W, "W", ("D", "num_heads * Dh"), batch=False)
    num_heads = require_int(num_heads, "num_heads", minimum=1)
    if W.shape[1] % num_heads:
        raise ValueError(f"W: expected num_heads * Dh columns, got {W.shape[1]} for num_heads={num_heads}")
    Dh = W.shape[1] // num_heads
    if Dh % 2:
        raise ValueError(f"W: expected an even head width (pairs of features), got Dh = {Dh}")
    heads = W.reshape(W.shape[0], num_heads, Dh)                          # (D, H, Dh)
    return heads[..., halves_to_interleaved(Dh)].reshape(W.shape).copy()  # each head's columns permuted


def _positions(positions, L: int) -> np.ndarray:
    positions = np.asarray(positions)
    if positions.ndim != 1 or positions.shape[0] != L:
        raise ValueError(f"positions: expected shape (L={L},), got {fmt(positions.shape)}")
    if positions.size and not np.issubdtype(positions.dtype, np.integer):
        raise ValueError(f"positions: expected integer positions, got dtype {positions.dtype}")
    return positions


def rope(x: np.ndarray, positions: np.ndarray, base: float = 10000.0,
         interleaved: bool = False) -> np.ndarray:
    """Rotary position embedding of queries or keys ``x (..., L, Dh)`` at ``positions (L,)``.

    Pair ``k`` of row ``l`` (features ``(k, k + Dh/2)``, or ``(2k, 2k+1)`` when ``interleaved``)
    is turned counter-clockwise, from its first member towards its second, by ``positions[l]``
    times the pair's frequency, keeping its length. Pair 0 turns by 1 radian per position, each
    pair more slowly than the one before by one common factor, such that a pair ``Dh/2`` would
    turn by ``1/base``. Rotating both queries and keys makes their dot product depend on the
    positions only through the offset ``p_q - p_k``.
    ``ValueError`` for an odd ``Dh`` or positions that are not ``L`` integers.
    """
    x = np.asarray(x, dtype=float)
    require_ndim(x, "x", ("L", "Dh"))
    L, Dh = x.shape[-2:]
    if Dh % 2:
        raise ValueError(f"x: expected an even last dimension Dh (pairs of features), got shape {fmt(x.shape)}")
    positions = _positions(positions, L)
    angles = positions[:, None].astype(float) * rope_frequencies(Dh, base)[None, :]  # (L, Dh/2)
    cos, sin = np.cos(angles), np.sin(angles)  # (L, Dh/2) each
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]  # (..., L, Dh/2) each
    else:
        a, b = x[..., : Dh // 2], x[..., Dh // 2:]  # (..., L, Dh/2) each
    ra, rb = a * cos - b * sin, a * sin + b * cos  # (..., L, Dh/2) each
    out = np.empty_like(x)  # (..., L, Dh)
    if interleaved:
        out[..., 0::2], out[..., 1::2] = ra, rb
    else:
        out[..., : Dh // 2], out[..., Dh // 2:] = ra, rb
    return out


def repeat_kv(X: np.ndarray, n_rep: int) -> np.ndarray:
    """Key/value heads repeated for grouped-query attention: ``(B, Hkv, L, D) -> (B, Hkv*n_rep, L, D)``.

    Slot ``h`` of the result holds the key/value head of query head ``h``'s group: the groups
    are runs of ``n_rep`` neighbouring query heads, so query head ``h`` reads key/value head
    ``h // n_rep``.
    """
    X = np.asarray(X, dtype=float)
    require_ndim(X, "X", ("B", "Hkv", "L", "D"), batch=False)
    n_rep = require_int(n_rep, "n_rep", minimum=1)
    return np.repeat(X, n_rep, axis=1)  # (B, Hkv, L, D) -> (B, Hkv*n_rep, L, D)


def grouped_query_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray,
                            mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Grouped-query attention: ``Hq`` query heads share ``Hkv`` key/value heads.

    Args:
        Q: ``(B, Hq, Lq, Dh)`` queries.
        K: ``(B, Hkv, Lk, Dh)`` keys, ``Hq % Hkv == 0``.
        V: ``(B, Hkv, Lk, Dv)`` values.
        mask: boolean, broadcastable to ``(B, Hq, Lq, Lk)``, ``True`` = may attend.

    Returns:
        ``(output (B, Hq, Lq, Dv), weights (B, Hq, Lq, Lk))``, scale ``sqrt(Dh)``; query head
        ``h`` attends with key/value head ``h // (Hq / Hkv)``. Equal to torch's
        ``scaled_dot_product_attention(Q, K, V, attn_mask=mask, enable_gqa=True)``.
    """
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    require_ndim(Q, "Q", ("B", "Hq", "Lq", "Dh"), batch=False)
    require_ndim(K, "K", ("B", "Hkv", "Lk", "Dh"), batch=False)
    require_ndim(V, "V", ("B", "Hkv", "Lk", "Dv"), batch=False)
    Hq, Hkv = Q.shape[1], K.shape[1]
    if K.shape[:2] != V.shape[:2] or K.shape[2] != V.shape[2]:
        raise ValueError(f"K and V must have the same (B, Hkv, Lk): got K {fmt(K.shape)} and V {fmt(V.shape)}")
    if Q.shape[0] != K.shape[0] or Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"Q and K must have the same batch B and width Dh: got Q {fmt(Q.shape)} and K {fmt(K.shape)}")
    if Hkv == 0 or Hq % Hkv:
        raise ValueError(f"K: expected a number of key/value heads Hkv that divides Hq={Hq}, got {fmt(K.shape)}")
    n_rep = Hq // Hkv
    K_all, V_all = repeat_kv(K, n_rep), repeat_kv(V, n_rep)  # (B, Hkv, Lk, .) -> (B, Hq, Lk, .)
    return scaled_dot_product_attention(Q, K_all, V_all, mask)  # (B, Hq, Lq, Dv), (B, Hq, Lq, Lk)


def sliding_window_mask(Lq: int, Lk: int, window: int, offset: int = 0) -> np.ndarray:
    """Boolean ``(Lq, Lk)``: ``True`` where ``0 <= (i + offset) - j < window``.

    Query row ``i`` is the token at absolute position ``i + offset``: ``offset`` is the position
    of query row 0. The default 0 puts it at key 0 (top-left aligned, as ``causal_mask``); the
    newest ``Lq`` rows of a cache of ``Lk`` tokens need ``offset = Lk - Lq``. A token sees itself
    and the ``window - 1`` tokens before it; ``window >= Lk`` with ``offset = 0`` and ``Lq == Lk``
    is the causal mask.
    """
    Lq, Lk = require_int(Lq, "Lq"), require_int(Lk, "Lk")
    window = require_int(window, "window", minimum=1)
    offset = require_int(offset, "offset")
    rel = (np.arange(Lq)[:, None] + offset) - np.arange(Lk)[None, :]  # (Lq, Lk) query minus key position
    return (rel >= 0) & (rel < window)


def ring_step_shapes(q, k, v, cache_k, cache_v, t) -> tuple[int, int]:
    """The checks of ``ring_cache_decode_step``'s arguments (numpy arrays or torch tensors): a
    ``ValueError`` that names the first argument whose shape does not fit; ``(t, W)`` otherwise."""
    require_ndim(q, "q", ("B", "Hq", "1", "Dh"), batch=False)
    require_ndim(k, "k", ("B", "Hkv", "1", "Dh"), batch=False)
    require_ndim(v, "v", ("B", "Hkv", "1", "Dv"), batch=False)
    require_ndim(cache_k, "cache_k", ("B", "Hkv", "W", "Dh"), batch=False)
    require_ndim(cache_v, "cache_v", ("B", "Hkv", "W", "Dv"), batch=False)
    t = require_int(t, "t")
    if q.shape[2] != 1 or k.shape[2] != 1 or v.shape[2] != 1:
        raise ValueError(f"q, k, v: expected one token each (length 1 on axis 2), got {fmt(q.shape)}, "
                         f"{fmt(k.shape)}, {fmt(v.shape)}")
    if cache_k.shape[:2] != k.shape[:2] or cache_k.shape[3] != k.shape[3]:
        raise ValueError(f"cache_k: expected (B, Hkv, W, Dh) = ({k.shape[0]}, {k.shape[1]}, W, {k.shape[3]}), "
                         f"got {fmt(cache_k.shape)}")
    if cache_v.shape[:3] != cache_k.shape[:3] or cache_v.shape[3] != v.shape[3]:
        raise ValueError(f"cache_v: expected (B, Hkv, W, Dv) = {fmt(cache_k.shape[:3] + (v.shape[3],))}, "
                         f"got {fmt(cache_v.shape)}")
    W = int(cache_k.shape[2])
    if W < 1:
        raise ValueError(f"cache_k: expected a ring of at least one slot, got {fmt(cache_k.shape)}")
    return t, W


def ring_cache_decode_step(q: np.ndarray, k: np.ndarray, v: np.ndarray, cache_k: np.ndarray,
                           cache_v: np.ndarray, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One decoding step of grouped-query attention with RoPE and a sliding window of ``W`` tokens,
    its keys and values kept in a ring buffer of ``W`` slots.

    Args:
        q: ``(B, Hq, 1, Dh)``, k: ``(B, Hkv, 1, Dh)``, v: ``(B, Hkv, 1, Dv)``: the projections of
            the token at position ``t``, not yet rotated.
        cache_k: ``(B, Hkv, W, Dh)``, cache_v: ``(B, Hkv, W, Dv)``: the ring. Slot ``p % W`` holds
            the token at position ``p`` (its key rotated by RoPE at position ``p``, its value) for
            the ``min(t, W)`` positions before ``t``; any other slot holds leftovers.
        t: the position of the new token (0 for the first).

    Returns:
        ``(out (B, Hq, 1, Dv), cache_k, cache_v)``: the new token's key (rotated at ``t``) and
        value written into slot ``t % W`` (new arrays; the arguments are left as they were), and
        its attention output over the positions ``max(0, t - W + 1)..t``: the row ``t`` of
        ``grouped_query_attention`` over the whole sequence with ``sliding_window_mask(L, L, W)``.
        The slots' order does not matter to attention, so they are not reordered.
    """
    q, k, v, cache_k, cache_v = (np.asarray(a, dtype=float) for a in (q, k, v, cache_k, cache_v))
    t, W = ring_step_shapes(q, k, v, cache_k, cache_v, t)
    position = np.array([t])
    q = rope(q, position)  # (B, Hq, 1, Dh): rotated at the token's position, never its slot
    cache_k, cache_v = cache_k.copy(), cache_v.copy()
    cache_k[:, :, t % W] = rope(k, position)[:, :, 0]  # (B, Hkv, Dh): the oldest token leaves its slot
    cache_v[:, :, t % W] = v[:, :, 0]
    filled = np.arange(W) <= t  # (W,): before the ring is full, slots above t hold leftovers
    out, _ = grouped_query_attention(q, cache_k, cache_v, filled[None, None, None, :])
    return out, cache_k, cache_v  # (B, Hq, 1, Dv), (B, Hkv, W, Dh), (B, Hkv, W, Dv)


def kv_cache_bytes(num_layers: int, num_kv_heads: int, head_dim: int, seq_len: int, batch: int = 1,
                   bytes_per_value: int = 2, window: int | None = None) -> int:
    """Bytes a decoder's key-value cache holds after ``seq_len`` tokens.

    Args:
        num_layers: decoder layers, each with its own cache.
        num_kv_heads, head_dim: each layer's ``W_k`` and ``W_v`` map a token to
            ``num_kv_heads * head_dim`` numbers.
        seq_len: tokens decoded so far.  batch: sequences decoded together.
        bytes_per_value: 2 for bf16/fp16, 4 for float32.
        window: a sliding window of this many tokens (``None``: every token is kept).

    Returns:
        int: the bytes of every cached key and value. Divide by ``1e9`` for GB, by ``2**30`` for GiB.
    """
    num_layers = require_int(num_layers, "num_layers", minimum=1)
    num_kv_heads = require_int(num_kv_heads, "num_kv_heads", minimum=1)
    head_dim = require_int(head_dim, "head_dim", minimum=1)
    seq_len = require_int(seq_len, "seq_len")
    batch = require_int(batch, "batch", minimum=1)
    bytes_per_value = require_int(bytes_per_value, "bytes_per_value", minimum=1)
    tokens = seq_len if window is None else min(seq_len, require_int(window, "window", minimum=1))
    return 2 * num_layers * num_kv_heads * head_dim * tokens * batch * bytes_per_value


def kv_heads_for_budget(num_heads: int, num_layers: int, head_dim: int, seq_len: int, budget_bytes: int,
                        batch: int = 1, bytes_per_value: int = 2) -> int:
    """The most key/value heads a grouped-query layout of ``num_heads`` query heads affords in a cache budget.

    Args:
        num_heads: query heads per layer; each key/value head serves an equal group of them.
        num_layers, head_dim, seq_len, batch, bytes_per_value: as in :func:`kv_cache_bytes`.
        budget_bytes: the bytes the key-value cache may take.

    Returns:
        int: the largest ``num_kv_heads`` that makes a valid grouping of ``num_heads`` and whose
        ``kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch, bytes_per_value)`` is at
        most ``budget_bytes`` (an exact fit is allowed).

    Raises:
        ValueError: a non-positive integer argument, or a budget too small for even one key/value head
        (the message names ``budget_bytes`` and the bytes one key/value head needs).
    """
    num_heads = require_int(num_heads, "num_heads", minimum=1)
    budget_bytes = require_int(budget_bytes, "budget_bytes", minimum=1)
    require_int(seq_len, "seq_len", minimum=1)
    per_head = kv_cache_bytes(num_layers, 1, head_dim, seq_len, batch=batch, bytes_per_value=bytes_per_value)
    if per_head > budget_bytes:
        raise ValueError(f"budget_bytes={budget_bytes} is too small: one key/value head needs {per_head} bytes")
    return max(g for g in range(1, num_heads + 1) if num_heads % g == 0 and g * per_head <= budget_bytes)
