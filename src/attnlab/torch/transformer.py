"""The Transformer, built from the course's pieces (notebook 09).

* :func:`sinusoidal_positional_encoding`: the torch twin of ``attnlab.sinusoidal_positional_encoding``.
* :class:`TransformerEncoderLayer`: pre-norm self-attention and feed-forward, each in a residual
  branch; :class:`TransformerDecoderLayer`: pre-norm causal self-attention, cross-attention to
  the encoder's output and feed-forward. Both use :class:`attnlab.torch.MultiHeadAttention` with
  biases, and their attribute names are a contract (the checks copy known weights into them).
  With copied weights they match ``torch.nn.TransformerEncoderLayer`` / ``DecoderLayer`` with
  ``norm_first=True, dropout=0.0, batch_first=True`` (see :func:`to_torch_encoder_layer`).
* :class:`TransformerSeq2Seq`: embeddings, positions, a stack of each, final norms and the output
  layer: an encoder-decoder translator for ``attnlab.toylang``.
* :func:`decode_with_cache`: greedy decoding that keeps every layer's keys and values, equal to
  :func:`decode_by_recomputation`, which runs the decoder over the whole prefix at every step.

Shape letters: ``B`` batch, ``H`` heads, ``Ls`` source length, ``Lt`` target length, ``D``
model width, ``Dh = D / H``, ``F`` feed-forward width, ``V`` vocabulary size.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .._validate import fmt, require_int
from ..positional import BASE
from ..toylang import BOS
from .functional import causal_mask, scaled_dot_product_attention
from .multi_head import MultiHeadAttention, merge_heads, split_heads

POSITIONS = ("sinusoidal", "learned", "none")


def sinusoidal_positional_encoding(L: int, D: int) -> torch.Tensor:
    """The ``(L, D)`` sinusoidal positional encodings of positions ``0 .. L-1``.

    Column pair ``(2i, 2i+1)`` is a sine and a cosine of the same angle, whose frequency is
    ``1 / 10000^(2i/D)``: ``PE[p, 2i] = sin(p / 10000^(2i/D))`` and
    ``PE[p, 2i+1] = cos(p / 10000^(2i/D))`` (Vaswani et al., 2017, section 3.5). For an odd
    ``D`` the last column is a sine without its cosine.

    Args:
        L: the number of positions (an integer >= 0).
        D: the model width (an integer >= 1).

    Returns:
        ``(L, D)`` in torch's default dtype. Row ``p + k`` is a fixed rotation of row ``p`` in
        every column pair, so ``PE[p] · PE[q]`` depends only on ``p - q``.
    """
    L, D = require_int(L, "L"), require_int(D, "D", minimum=1)
    dtype = torch.get_default_dtype()
    positions = torch.arange(L, dtype=torch.float64)[:, None]  # (L, 1)
    rates = BASE ** (-torch.arange(0, D, 2, dtype=torch.float64) / D)  # (ceil(D/2),)
    angles = positions * rates[None, :]  # (L, ceil(D/2))
    PE = torch.empty(L, D, dtype=torch.float64)
    PE[:, 0::2] = torch.sin(angles)
    PE[:, 1::2] = torch.cos(angles[:, : D // 2])
    return PE.to(dtype)


def _check_tokens(X: torch.Tensor, name: str, d_model: int, letters: tuple[str, str, str]) -> None:
    if X.dim() != 3 or X.shape[-1] != d_model:
        raise ValueError(f"{name}: expected shape {fmt(letters)} with D = d_model = {d_model}, "
                         f"got {fmt(X.shape)}")


def _check_padding(mask: torch.Tensor | None, name: str, B: int, L: int) -> None:
    if mask is None:
        return
    if mask.dtype != torch.bool or tuple(mask.shape) != (B, L):
        raise ValueError(f"{name}: expected a bool tensor of shape (B, L) = {fmt((B, L))}, "
                         f"got {mask.dtype} {fmt(mask.shape)}")


class TransformerEncoderLayer(nn.Module):
    """One pre-norm encoder block: ``X + SelfAttn(LN(X))``, then ``X + FFN(LN(X))``.

    Args:
        d_model: ``D``; num_heads: ``H``, a divisor of ``D``; d_ff: ``F``, the hidden width of
            the feed-forward network; dropout: on each branch's output and inside the FFN
            (0 by default, as in every check).

    Attributes (a contract):
        self_attn: ``MultiHeadAttention(d_model, num_heads, bias=True)``;
        norm1, norm2: ``nn.LayerNorm(d_model)`` before the attention and the FFN;
        linear1: ``nn.Linear(d_model, d_ff)``, linear2: ``nn.Linear(d_ff, d_model)`` with a ReLU
            between them.

    ``forward(X (B, L, D), mask=None)`` with ``mask`` bool ``(B, L)``, ``True`` at real tokens,
    returns ``(output (B, L, D), weights (B, H, L, L))``.
    """

    def __init__(self, d_model: int, num_heads: int, d_ff: int, dropout: float = 0.0) -> None:
        super().__init__()
        d_ff = require_int(d_ff, "d_ff", minimum=1)
        self.self_attn = MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def feed_forward(self, X: torch.Tensor) -> torch.Tensor:
        """``linear2(relu(linear1(X)))``, position by position: ``(B, L, D) -> (B, L, D)``."""
        return self.linear2(self.dropout(F.relu(self.linear1(X))))  # (B, L, F) -> (B, L, D)

    def forward(self, X: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        _check_tokens(X, "X", self.self_attn.d_model, ("B", "L", "D"))
        B, L, D = X.shape
        _check_padding(mask, "mask", B, L)
        attn_mask = None if mask is None else mask[:, None, None, :]  # (B, 1, 1, L): keys only
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)  # (B, L, D), (B, H, L, L)
        X = X + self.dropout(a)  # residual around the normalised branch
        X = X + self.dropout(self.feed_forward(self.norm2(X)))
        return X, weights


class TransformerDecoderLayer(nn.Module):
    """One pre-norm decoder block: causal self-attention, cross-attention, feed-forward.

    ``X + CausalSelfAttn(LN1(X))``, then ``X + CrossAttn(LN2(X), memory)``, then
    ``X + FFN(LN3(X))``: target position ``t`` sees target positions ``0..t`` and every real
    source token; the encoder's output ``memory`` is used as it is (the encoder normalises it).

    Args and attributes as :class:`TransformerEncoderLayer`, plus
        cross_attn: ``MultiHeadAttention(d_model, num_heads, bias=True)``, queries from the
            decoder, keys and values from ``memory``;
        norm3: ``nn.LayerNorm(d_model)``; norm1, norm2, norm3 come before the self-attention,
            the cross-attention and the FFN.

    ``forward(X (B, Lt, D), memory (B, Ls, D), memory_mask=None)`` with ``memory_mask`` bool
    ``(B, Ls)``, ``True`` at real source tokens, returns ``(output (B, Lt, D),
    self_weights (B, H, Lt, Lt), cross_weights (B, H, Lt, Ls))``.
    """

    def __init__(self, d_model: int, num_heads: int, d_ff: int, dropout: float = 0.0) -> None:
        super().__init__()
        d_ff = require_int(d_ff, "d_ff", minimum=1)
        self.self_attn = MultiHeadAttention(d_model, num_heads, bias=True)
        self.cross_attn = MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def feed_forward(self, X: torch.Tensor) -> torch.Tensor:
        """``linear2(relu(linear1(X)))``, position by position: ``(B, L, D) -> (B, L, D)``."""
        return self.linear2(self.dropout(F.relu(self.linear1(X))))

    def forward(self, X: torch.Tensor, memory: torch.Tensor, memory_mask: torch.Tensor | None = None
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        D = self.self_attn.d_model
        _check_tokens(X, "X", D, ("B", "Lt", "D"))
        _check_tokens(memory, "memory", D, ("B", "Ls", "D"))
        B, Lt, _ = X.shape
        Ls = memory.shape[1]
        if memory.shape[0] != B:
            raise ValueError(f"memory: expected batch size B = {B} as X {fmt(X.shape)}, got {fmt(memory.shape)}")
        _check_padding(memory_mask, "memory_mask", B, Ls)
        causal = causal_mask(Lt, Lt).to(X.device)  # (Lt, Lt): position t sees 0..t
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, causal)  # (B, Lt, D), (B, H, Lt, Lt)
        X = X + self.dropout(a)
        cross_mask = None if memory_mask is None else memory_mask[:, None, None, :]  # (B, 1, 1, Ls)
        c, cross_weights = self.cross_attn(self.norm2(X), memory, cross_mask)  # (B, Lt, D), (B, H, Lt, Ls)
        X = X + self.dropout(c)
        X = X + self.dropout(self.feed_forward(self.norm3(X)))
        return X, self_weights, cross_weights


class PostNormEncoderLayer(TransformerEncoderLayer):
    """The original (post-norm) block of Vaswani et al.: ``LN(X + SelfAttn(X))``, then
    ``LN(X + FFN(X))``; same attributes as :class:`TransformerEncoderLayer`."""

    def forward(self, X: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        _check_tokens(X, "X", self.self_attn.d_model, ("B", "L", "D"))
        B, L, D = X.shape
        _check_padding(mask, "mask", B, L)
        attn_mask = None if mask is None else mask[:, None, None, :]
        a, weights = self.self_attn(X, X, attn_mask)
        X = self.norm1(X + self.dropout(a))  # the norm on the residual stream itself
        X = self.norm2(X + self.dropout(self.feed_forward(X)))
        return X, weights


# ---------------------------------------------------------------------------------------------
# torch.nn equivalents

def _copy_mha(ours: MultiHeadAttention, theirs: nn.MultiheadAttention) -> None:
    with torch.no_grad():
        theirs.in_proj_weight.copy_(torch.cat([ours.W_q.weight, ours.W_k.weight, ours.W_v.weight]))
        theirs.in_proj_bias.copy_(torch.cat([ours.W_q.bias, ours.W_k.bias, ours.W_v.bias]))
        theirs.out_proj.weight.copy_(ours.W_o.weight)
        theirs.out_proj.bias.copy_(ours.W_o.bias)


def _copy_common(ours: nn.Module, theirs: nn.Module, norms: tuple[str, ...]) -> None:
    with torch.no_grad():
        for name in ("linear1", "linear2") + norms:
            getattr(theirs, name).load_state_dict(getattr(ours, name).state_dict())


def to_torch_encoder_layer(layer: TransformerEncoderLayer) -> nn.TransformerEncoderLayer:
    """The same block as a ``torch.nn.TransformerEncoderLayer(norm_first=True)`` with copied
    weights (in eval mode, dropout 0); call it with ``src_key_padding_mask=~mask``."""
    D, H = layer.self_attn.d_model, layer.self_attn.num_heads
    theirs = nn.TransformerEncoderLayer(D, H, layer.linear1.out_features, dropout=0.0, batch_first=True,
                                        norm_first=True, dtype=layer.linear1.weight.dtype)
    _copy_mha(layer.self_attn, theirs.self_attn)
    _copy_common(layer, theirs, ("norm1", "norm2"))
    return theirs.eval()


def to_torch_decoder_layer(layer: TransformerDecoderLayer) -> nn.TransformerDecoderLayer:
    """The same block as a ``torch.nn.TransformerDecoderLayer(norm_first=True)`` with copied
    weights (``cross_attn`` becomes its ``multihead_attn``); call it with
    ``tgt_is_causal=True, tgt_mask=~causal_mask(Lt, Lt), memory_key_padding_mask=~memory_mask``."""
    D, H = layer.self_attn.d_model, layer.self_attn.num_heads
    theirs = nn.TransformerDecoderLayer(D, H, layer.linear1.out_features, dropout=0.0, batch_first=True,
                                        norm_first=True, dtype=layer.linear1.weight.dtype)
    _copy_mha(layer.self_attn, theirs.self_attn)
    _copy_mha(layer.cross_attn, theirs.multihead_attn)
    _copy_common(layer, theirs, ("norm1", "norm2", "norm3"))
    return theirs.eval()


# ---------------------------------------------------------------------------------------------
# The translator

class TransformerSeq2Seq(nn.Module):
    """An encoder-decoder Transformer for translation.

    ``TransformerSeq2Seq(src_vocab, tgt_vocab, d_model=64, num_heads=4, d_ff=128, num_layers=2,
    positions="sinusoidal", max_len=128, dropout=0.0)``; ``positions`` is ``"sinusoidal"``,
    ``"learned"`` (an ``nn.Embedding(max_len, d_model)``) or ``"none"``.

    Attributes: ``src_embedding``, ``tgt_embedding`` (``nn.Embedding``, scaled by ``sqrt(D)``),
    ``pe`` (the ``(max_len, D)`` sinusoidal table, a buffer) or ``pos_embedding``,
    ``encoder_layers`` and ``decoder_layers`` (``nn.ModuleList`` of the two layers above),
    ``encoder_norm`` and ``decoder_norm`` (the final ``nn.LayerNorm`` of a pre-norm stack) and
    ``out = nn.Linear(D, V)``.
    """

    def __init__(self, src_vocab: int, tgt_vocab: int, d_model: int = 64, num_heads: int = 4,
                 d_ff: int = 128, num_layers: int = 2, positions: str = "sinusoidal", max_len: int = 128,
                 dropout: float = 0.0) -> None:
        super().__init__()
        if positions not in POSITIONS:
            raise ValueError(f"positions: expected one of {POSITIONS}, got {positions!r}")
        self.config = dict(src_vocab=src_vocab, tgt_vocab=tgt_vocab, d_model=d_model, num_heads=num_heads,
                           d_ff=d_ff, num_layers=num_layers, positions=positions, max_len=max_len,
                           dropout=dropout)
        self.d_model, self.positions, self.max_len = d_model, positions, max_len
        self.src_embedding = nn.Embedding(src_vocab, d_model)
        self.tgt_embedding = nn.Embedding(tgt_vocab, d_model)
        for emb in (self.src_embedding, self.tgt_embedding):
            nn.init.normal_(emb.weight, std=d_model ** -0.5)  # unit scale after the sqrt(D) factor
        if positions == "sinusoidal":
            self.register_buffer("pe", sinusoidal_positional_encoding(max_len, d_model), persistent=False)
        elif positions == "learned":
            self.pos_embedding = nn.Embedding(max_len, d_model)
        self.encoder_layers = nn.ModuleList(
            TransformerEncoderLayer(d_model, num_heads, d_ff, dropout) for _ in range(num_layers))
        self.decoder_layers = nn.ModuleList(
            TransformerDecoderLayer(d_model, num_heads, d_ff, dropout) for _ in range(num_layers))
        self.encoder_norm = nn.LayerNorm(d_model)
        self.decoder_norm = nn.LayerNorm(d_model)
        self.out = nn.Linear(d_model, tgt_vocab)
        self.dropout = nn.Dropout(dropout)

    def position_vectors(self, offset: int, L: int) -> torch.Tensor | None:
        """The ``(L, D)`` vectors added at positions ``offset .. offset+L-1`` (None without positions)."""
        if offset + L > self.max_len:
            raise ValueError(f"positions: expected at most max_len = {self.max_len} positions, "
                             f"got offset {offset} + length {L}")
        if self.positions == "sinusoidal":
            return self.pe[offset:offset + L]
        if self.positions == "learned":
            return self.pos_embedding.weight[offset:offset + L]
        return None

    def _embed(self, embedding: nn.Embedding, tokens: torch.Tensor, offset: int) -> torch.Tensor:
        X = embedding(tokens) * math.sqrt(self.d_model)  # (B, L) -> (B, L, D)
        P = self.position_vectors(offset, tokens.shape[1])
        return self.dropout(X if P is None else X + P)  # (B, L, D) + (L, D)

    def embed_source(self, src: torch.Tensor) -> torch.Tensor:
        """``(B, Ls)`` ids -> ``(B, Ls, D)``: scaled embeddings plus positions ``0 .. Ls-1``."""
        return self._embed(self.src_embedding, src, 0)

    def embed_target(self, tokens: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """``(B, L)`` ids at positions ``offset .. offset+L-1`` -> ``(B, L, D)``."""
        return self._embed(self.tgt_embedding, tokens, offset)

    def encode(self, src: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
        """``memory (B, Ls, D)``: the source through every encoder layer and the final norm."""
        X = self.embed_source(src)  # (B, Ls, D)
        for layer in self.encoder_layers:
            X, _ = layer(X, src_mask)
        return self.encoder_norm(X)

    def decode(self, tgt_in: torch.Tensor, memory: torch.Tensor, src_mask: torch.Tensor
               ) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """``(logits (B, Lt, V), [cross_weights (B, H, Lt, Ls) of every decoder layer])``."""
        X = self.embed_target(tgt_in)  # (B, Lt, D)
        cross = []
        for layer in self.decoder_layers:
            X, _, w = layer(X, memory, src_mask)
            cross.append(w)
        return self.out(self.decoder_norm(X)), cross  # (B, Lt, V)

    def forward(self, src: torch.Tensor, src_mask: torch.Tensor, tgt_in: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher forcing, the whole target at once: ``(logits (B, Lt, V), weights (B, Lt, Ls))``,
        the weights being the last decoder layer's cross-attention averaged over its heads."""
        logits, cross = self.decode(tgt_in, self.encode(src, src_mask), src_mask)
        return logits, cross[-1].mean(dim=1)


# ---------------------------------------------------------------------------------------------
# Greedy decoding, with and without the cache

def _check_decode_args(src: torch.Tensor, src_mask: torch.Tensor, max_len: int) -> int:
    max_len = require_int(max_len, "max_len", minimum=1)
    if src.dim() != 2 or tuple(src_mask.shape) != tuple(src.shape):
        raise ValueError(f"src, src_mask: expected shapes (B, Ls) and (B, Ls), got {fmt(src.shape)} "
                         f"and {fmt(src_mask.shape)}")
    return max_len


def decode_with_cache(model: TransformerSeq2Seq, src: torch.Tensor, src_mask: torch.Tensor,
                      max_len: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Greedy decoding for exactly ``max_len`` steps, each new token run through the decoder alone.

    Every decoder layer keeps the keys and values of the tokens it has seen (its key-value
    cache); the new token's query attends to them and to its own key and value, which join the
    cache first. The new token sits at position ``t`` (its positional vector is that of ``t``).
    No ``<eos>`` handling: the caller cuts each sentence after its first ``<eos>``.

    Args:
        model: a :class:`TransformerSeq2Seq` (its ``encode``, ``embed_target``,
            ``decoder_layers``, ``decoder_norm`` and ``out``).
        src: ``(B, Ls)`` int64; src_mask: ``(B, Ls)`` bool, True at real words.
        max_len: the number of steps ``T``.

    Returns:
        ``(tokens (B, T) int64, logits (B, T, V))``, the same as :func:`decode_by_recomputation`
        (to float rounding) for a fraction of the work.
    """
    max_len = _check_decode_args(src, src_mask, max_len)
    with torch.no_grad():
        memory = model.encode(src, src_mask)  # (B, Ls, D)
        cross_mask = src_mask[:, None, None, :]  # (B, 1, 1, Ls)
        B = src.shape[0]
        caches: list[tuple[torch.Tensor, torch.Tensor] | None] = [None] * len(model.decoder_layers)
        token = torch.full((B, 1), BOS, dtype=torch.long, device=src.device)  # (B, 1)
        tokens, logits = [], []
        for t in range(max_len):
            X = model.embed_target(token, offset=t)  # (B, 1, D) at position t
            for i, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                h = layer.norm1(X)  # (B, 1, D)
                k, v = attn.W_k(h), attn.W_v(h)  # (B, 1, D) each
                if caches[i] is not None:
                    k = torch.cat([caches[i][0], k], dim=1)  # (B, t+1, D)
                    v = torch.cat([caches[i][1], v], dim=1)
                caches[i] = (k, v)
                H = attn.num_heads
                z, _ = scaled_dot_product_attention(split_heads(attn.W_q(h), H), split_heads(k, H),
                                                    split_heads(v, H))  # (B, H, 1, Dh)
                X = X + attn.W_o(merge_heads(z))  # (B, 1, D)
                c, _ = layer.cross_attn(layer.norm2(X), memory, cross_mask)  # (B, 1, D)
                X = X + c
                X = X + layer.feed_forward(layer.norm3(X))
            step_logits = model.out(model.decoder_norm(X))[:, 0]  # (B, V)
            token = step_logits.argmax(dim=-1, keepdim=True)  # (B, 1)
            tokens.append(token)
            logits.append(step_logits)
        return torch.cat(tokens, dim=1), torch.stack(logits, dim=1)  # (B, T), (B, T, V)


def decode_by_recomputation(model: TransformerSeq2Seq, src: torch.Tensor, src_mask: torch.Tensor,
                            max_len: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Greedy decoding for exactly ``max_len`` steps, running the decoder over the whole prefix
    ``<bos> y_1 .. y_t`` at every step and keeping the last position's logits.

    Same arguments and result as :func:`decode_with_cache`; its work grows like ``T^2`` layers
    of tokens instead of ``T``.
    """
    max_len = _check_decode_args(src, src_mask, max_len)
    with torch.no_grad():
        memory = model.encode(src, src_mask)  # (B, Ls, D)
        prefix = torch.full((src.shape[0], 1), BOS, dtype=torch.long, device=src.device)  # (B, 1)
        logits = []
        for _ in range(max_len):
            all_logits, _ = model.decode(prefix, memory, src_mask)  # (B, t+1, V)
            step_logits = all_logits[:, -1]  # (B, V)
            logits.append(step_logits)
            prefix = torch.cat([prefix, step_logits.argmax(dim=-1, keepdim=True)], dim=1)  # (B, t+2)
        return prefix[:, 1:], torch.stack(logits, dim=1)  # (B, T), (B, T, V)


__all__ = ["PostNormEncoderLayer", "TransformerDecoderLayer", "TransformerEncoderLayer", "TransformerSeq2Seq",
           "decode_by_recomputation", "decode_with_cache", "sinusoidal_positional_encoding",
           "to_torch_decoder_layer", "to_torch_encoder_layer"]
