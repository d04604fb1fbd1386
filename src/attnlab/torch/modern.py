"""Torch twins of ``attnlab.modern`` (notebook 11): rotary position embeddings, grouped-query
attention, sliding-window masks and the key-value cache size, plus the tiny decoder that
notebook 11 trains with MHA, GQA and MQA.

Same shape letters, conventions and error messages as the numpy module.
"""
from __future__ import annotations

import math

import torch
from torch import nn

from .._validate import fmt, require_int, require_ndim
from .. import modern as _np_modern
from .functional import masked_softmax


def _float(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def rope_frequencies(Dh: int, base: float = 10000.0) -> torch.Tensor:
    """The ``Dh/2`` rotation frequencies of RoPE's pairs (radians per position), as ``rope`` defines them."""
    return torch.from_numpy(_np_modern.rope_frequencies(Dh, base))


def halves_to_interleaved(Dh: int) -> torch.Tensor:
    """The column permutation ``perm`` with ``x_interleaved = x_halves[..., perm]``."""
    return torch.from_numpy(_np_modern.halves_to_interleaved(Dh))


def interleaved_to_halves(Dh: int) -> torch.Tensor:
    """The inverse permutation of ``halves_to_interleaved``: ``x_halves = x_interleaved[..., perm]``."""
    return torch.from_numpy(_np_modern.interleaved_to_halves(Dh))


def rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0,
         interleaved: bool = False) -> torch.Tensor:
    """Rotary position embedding of queries or keys ``x (..., L, Dh)`` at ``positions (L,)``.

    Pair ``k`` of row ``l`` (features ``(k, k + Dh/2)``, or ``(2k, 2k+1)`` when ``interleaved``)
    is turned counter-clockwise, from its first member towards its second, by ``positions[l]``
    times the pair's frequency, keeping its length. Pair 0 turns by 1 radian per position, each
    pair more slowly than the one before by one common factor, such that a pair ``Dh/2`` would
    turn by ``1/base``. Rotating both queries and keys makes their dot product depend on the
    positions only through the offset ``p_q - p_k``.
    ``ValueError`` for an odd ``Dh`` or positions that are not ``L`` integers.
    """
    x = _float(x)
    require_ndim(x, "x", ("L", "Dh"))
    L, Dh = x.shape[-2:]
    if Dh % 2:
        raise ValueError(f"x: expected an even last dimension Dh (pairs of features), got shape {fmt(x.shape)}")
    positions = torch.as_tensor(positions)
    if positions.ndim != 1 or positions.shape[0] != L:
        raise ValueError(f"positions: expected shape (L={L},), got {fmt(positions.shape)}")
    if positions.is_floating_point():
        raise ValueError(f"positions: expected integer positions, got dtype {positions.dtype}")
    freqs = rope_frequencies(Dh, base).to(x.dtype)  # (Dh/2,)
    angles = positions.to(x.device, x.dtype)[:, None] * freqs.to(x.device)[None, :]  # (L, Dh/2)
    cos, sin = torch.cos(angles), torch.sin(angles)  # (L, Dh/2) each
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]  # (..., L, Dh/2) each
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)  # (..., L, Dh)
    a, b = x[..., : Dh // 2], x[..., Dh // 2:]  # (..., L, Dh/2) each
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)  # (..., L, Dh)


def repeat_kv(X: torch.Tensor, n_rep: int) -> torch.Tensor:
    """Key/value heads repeated for grouped-query attention: ``(B, Hkv, L, D) -> (B, Hkv*n_rep, L, D)``.

    Slot ``h`` of the result holds the key/value head of query head ``h``'s group: the groups
    are runs of ``n_rep`` neighbouring query heads, so query head ``h`` reads key/value head
    ``h // n_rep``.
    """
    X = _float(X)
    require_ndim(X, "X", ("B", "Hkv", "L", "D"), batch=False)
    n_rep = require_int(n_rep, "n_rep", minimum=1)
    return X.repeat_interleave(n_rep, dim=1)  # (B, Hkv, L, D) -> (B, Hkv*n_rep, L, D)


def grouped_query_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor,
                            mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
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
    Q, K, V = _float(Q), _float(K), _float(V)
    require_ndim(Q, "Q", ("B", "Hq", "Lq", "Dh"), batch=False)
    require_ndim(K, "K", ("B", "Hkv", "Lk", "Dh"), batch=False)
    require_ndim(V, "V", ("B", "Hkv", "Lk", "Dv"), batch=False)
    Hq, Hkv = Q.shape[1], K.shape[1]
    if K.shape[:3] != V.shape[:3]:
        raise ValueError(f"K and V must have the same (B, Hkv, Lk): got K {fmt(K.shape)} and V {fmt(V.shape)}")
    if Q.shape[0] != K.shape[0] or Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"Q and K must have the same batch B and width Dh: got Q {fmt(Q.shape)} and K {fmt(K.shape)}")
    if Hkv == 0 or Hq % Hkv:
        raise ValueError(f"K: expected a number of key/value heads Hkv that divides Hq={Hq}, got {fmt(K.shape)}")
    n_rep = Hq // Hkv
    K_all, V_all = repeat_kv(K, n_rep), repeat_kv(V, n_rep)  # (B, Hkv, Lk, .) -> (B, Hq, Lk, .)
    scores = (Q / math.sqrt(Q.shape[-1])) @ K_all.transpose(-1, -2)  # (B, Hq, Lq, Lk)
    weights = masked_softmax(scores, mask)  # (B, Hq, Lq, Lk)
    return weights @ V_all, weights  # (B, Hq, Lq, Dv)


def sliding_window_mask(Lq: int, Lk: int, window: int, offset: int = 0) -> torch.Tensor:
    """Boolean ``(Lq, Lk)`` sliding-window mask, query row ``i`` at absolute position ``i + offset``
    (default 0, as ``causal_mask``; ``Lk - Lq`` for the newest rows of a cache)."""
    return torch.from_numpy(_np_modern.sliding_window_mask(Lq, Lk, window, offset))


def ring_cache_decode_step(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, cache_k: torch.Tensor,
                           cache_v: torch.Tensor, t: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One decoding step with RoPE, grouped-query attention and a ring of ``W`` slots (as the numpy
    ``ring_cache_decode_step``): the new token's rotated key and value go to slot ``t % W`` of new
    tensors, and it attends over the slots that hold positions ``max(0, t - W + 1)..t``.
    Returns ``(out (B, Hq, 1, Dv), cache_k, cache_v)``."""
    q, k, v, cache_k, cache_v = (_float(a) for a in (q, k, v, cache_k, cache_v))
    t, W = _np_modern.ring_step_shapes(q, k, v, cache_k, cache_v, t)
    position = torch.tensor([t])
    q = rope(q, position)  # (B, Hq, 1, Dh): rotated at the token's position, never its slot
    cache_k, cache_v = cache_k.clone(), cache_v.clone()
    cache_k[:, :, t % W] = rope(k, position)[:, :, 0]  # (B, Hkv, Dh): the oldest token leaves its slot
    cache_v[:, :, t % W] = v[:, :, 0]
    filled = torch.arange(W) <= t  # (W,): before the ring is full, slots above t hold leftovers
    out, _ = grouped_query_attention(q, cache_k, cache_v, filled[None, None, None, :])
    return out, cache_k, cache_v  # (B, Hq, 1, Dv), (B, Hkv, W, Dh), (B, Hkv, W, Dv)


def kv_cache_bytes(num_layers: int, num_kv_heads: int, head_dim: int, seq_len: int, batch: int = 1,
                   bytes_per_value: int = 2, window: int | None = None) -> int:
    """Bytes a decoder's key-value cache holds after ``seq_len`` tokens (see ``attnlab.kv_cache_bytes``)."""
    return _np_modern.kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch,
                                     bytes_per_value, window)


def rope_shift_change(Q: torch.Tensor, K: torch.Tensor, shift: int, dtype: torch.dtype = torch.float32,
                      base: float = 10000.0) -> float:
    """How much RoPE's score matrix moves when every position moves by ``shift``, in ``dtype``.

    ``Q (L, Dh)`` and ``K (L, Dh)`` are cast to ``dtype`` and rotated with ``rope`` at positions
    ``0..L-1`` and at ``shift..shift+L-1``; ``rope`` computes the angles (position times
    frequency), their cosines and sines and the rotation in the dtype of its input, as a model
    whose activations are stored in ``dtype`` would. Returns the relative change of the
    ``(L, L)`` scores, ``||S_shifted - S||_F / ||S||_F``, measured in float64: 0 in exact
    arithmetic, since RoPE scores depend on offsets only; what is left is rounding.
    """
    Q, K = torch.as_tensor(Q).to(dtype), torch.as_tensor(K).to(dtype)
    require_ndim(Q, "Q", ("L", "Dh"), batch=False)
    require_ndim(K, "K", ("L", "Dh"), batch=False)
    if Q.shape != K.shape:
        raise ValueError(f"K: expected the shape of Q (L, Dh) = {fmt(Q.shape)}, got {fmt(K.shape)}")
    p = torch.arange(Q.shape[0])
    scores = lambda pos: (rope(Q, pos, base) @ rope(K, pos, base).T).to(torch.float64)   # (L, L)
    S, S_shifted = scores(p), scores(p + int(shift))
    return float(torch.linalg.norm(S_shifted - S) / torch.linalg.norm(S))


class GQABlock(nn.Module):
    """A pre-norm decoder block with causal grouped-query self-attention and RoPE.

    ``num_heads`` query heads share ``num_kv_heads`` key/value heads (``num_kv_heads ==
    num_heads`` is MHA, ``1`` is MQA); ``window`` restricts attention to a sliding window.
    """

    def __init__(self, d_model: int, num_heads: int, num_kv_heads: int, d_ff: int,
                 window: int | None = None):
        super().__init__()
        if d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError(f"num_kv_heads: expected a divisor of num_heads={num_heads} (and "
                             f"num_heads a divisor of d_model={d_model}), got {num_kv_heads}")
        self.num_heads, self.num_kv_heads, self.window = num_heads, num_kv_heads, window
        self.head_dim = d_model // num_heads
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.kv_proj = nn.Linear(d_model, 2 * num_kv_heads * self.head_dim, bias=False)
        self.out_proj = nn.Linear(d_model, d_model, bias=False)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        B, L, D = X.shape
        h = self.norm1(X)
        Q = self.q_proj(h).view(B, L, self.num_heads, self.head_dim).transpose(1, 2)  # (B, Hq, L, Dh)
        K, V = self.kv_proj(h).view(B, L, 2, self.num_kv_heads, self.head_dim).permute(2, 0, 3, 1, 4)  # (B, Hkv, L, Dh) x2
        pos = torch.arange(L)
        Q, K = rope(Q, pos), rope(K, pos)
        mask = sliding_window_mask(L, L, self.window or L).to(X.device)  # (L, L)
        Z = torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=mask, enable_gqa=True)  # (B, Hq, L, Dh)
        X = X + self.out_proj(Z.transpose(1, 2).reshape(B, L, D))  # (B, L, D)
        return X + self.ff(self.norm2(X))


class TinyDecoder(nn.Module):
    """A small causal language model: embeddings, ``num_layers`` ``GQABlock``s, a linear head."""

    def __init__(self, vocab_size: int, d_model: int = 32, num_heads: int = 4, num_kv_heads: int = 4,
                 num_layers: int = 2, d_ff: int = 64, window: int | None = None):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.ModuleList(GQABlock(d_model, num_heads, num_kv_heads, d_ff, window)
                                    for _ in range(num_layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        X = self.embed(tokens)  # (B, L) -> (B, L, D)
        for block in self.blocks:
            X = block(X)
        return self.head(self.norm(X))  # (B, L, vocab)


def toy_language_batches(n: int, seed: int = 0, max_len: int = 20) -> tuple[torch.Tensor, int]:
    """Notebook 07's French-like sentences as a language-modelling set: ``(tokens (n, Lmax), vocab)``.

    Each row is ``<bos>`` then the words then ``<eos>``, padded with ``<pad>`` (id 0); sources of
    3 to ``max_len`` words (``toylang.generate_pairs``, deterministic given ``seed``).
    """
    from .. import toylang

    pairs = toylang.generate_pairs(n, seed=seed, max_len=max_len)
    _, vocab = toylang.vocabularies()
    rows = [[toylang.BOS] + vocab.encode(p.tgt) + [toylang.EOS] for p in pairs]
    L = max(len(r) for r in rows)
    out = torch.full((n, L), toylang.PAD, dtype=torch.long)
    for i, r in enumerate(rows):
        out[i, : len(r)] = torch.tensor(r)
    return out, len(vocab)


def language_model_loss(model: nn.Module, tokens: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of predicting token ``t+1`` from tokens ``0..t``, padding ignored."""
    logits = model(tokens[:, :-1])  # (B, L-1, vocab)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1),
                                       ignore_index=0)


def train_language_model(model: nn.Module, train: torch.Tensor, valid: torch.Tensor, steps: int,
                         batch_size: int = 32, lr: float = 3e-3, seed: int = 0, progress=None) -> dict:
    """Adam on random batches of ``train`` for ``steps`` steps; returns the validation loss.

    ``progress(step, train_loss)`` is called every 50 steps and at the end.
    """
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for step in range(1, steps + 1):
        idx = torch.randint(0, train.shape[0], (batch_size,), generator=gen)
        loss = language_model_loss(model, train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if progress is not None and (step % 50 == 0 or step == steps):
            progress(step, loss.item())  # .item(): a number, detached from the graph
    model.eval()
    with torch.no_grad():
        return {"valid loss": float(language_model_loss(model, valid))}
