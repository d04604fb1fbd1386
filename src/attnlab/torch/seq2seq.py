"""A GRU encoder-decoder for translation, with and without attention (notebook 07).

* :class:`Encoder`: embeddings and a bidirectional GRU; padding is packed away, so the backward
  direction starts at each sentence's last real word. Returns the outputs ``(B, Ls, 2He)`` (the
  keys of attention) and the final states of both directions ``(B, 2He)``.
* :class:`AttentionDecoder`: one ``step`` per target word. The GRU reads the previous word's
  embedding; its new state ``s_t`` queries the encoder outputs; the output layer reads the new
  state, the context and the embedding.
* :class:`PlainDecoder`: the same decoder with a fixed context, the encoder's final states (the
  fixed-size bottleneck of Cho et al., 2014, and Sutskever et al., 2014).
* :class:`Seq2Seq`: encoder, a ``tanh`` bridge from the encoder's final states to the decoder's
  first state, and a decoder; ``forward`` is teacher forcing (the gold previous words as inputs).
* :func:`greedy_decode`: the most likely word at every step, fed back as the next input.

The decoders run with any of the scores of :mod:`attnlab.torch.rnn_attention`, always in the
same order of operations, so that only the score function differs between models: Luong et
al.'s (2015) order, where the *new* state ``s_t`` is the query (without their "input feeding").
Bahdanau et al. query with the previous state ``s_{t-1}`` and feed the context into the GRU;
that couples every step to the attention of the one before, whereas here the teacher-forced
decoder runs its GRU over the whole target in one fused call, many times faster on a CPU.
"""
from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .._validate import fmt, require_int
from ..toylang import BOS, EOS, PAD
from .rnn_attention import AdditiveAttention, MultiplicativeAttention

ATTENTIONS = ("none", "additive", "dot", "general")


class Encoder(nn.Module):
    """Embeddings and a bidirectional GRU.

    ``Encoder(vocab_size, emb_dim, hidden_dim)`` holds ``embedding = nn.Embedding(vocab_size,
    emb_dim)`` and ``rnn = nn.GRU(emb_dim, hidden_dim, batch_first=True, bidirectional=True)``.

    ``forward(src (B, Ls), src_mask (B, Ls))`` returns ``(outputs (B, Ls, 2 hidden_dim),
    final (B, 2 hidden_dim))``: at each position the forward and the backward states side by
    side (zeros at padding), and the last forward state beside the last backward state (the
    backward one read the sentence from its end to its first word).
    """

    def __init__(self, vocab_size: int, emb_dim: int, hidden_dim: int) -> None:
        super().__init__()
        self.hidden_dim = hidden_dim
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hidden_dim, batch_first=True, bidirectional=True)

    def forward(self, src: torch.Tensor, src_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        B, Ls = src.shape
        lengths = src_mask.sum(dim=1).cpu()  # (B,)
        if bool((lengths == 0).any()):
            raise ValueError("src_mask: every sentence needs at least one word")
        emb = self.embedding(src)  # (B, Ls) -> (B, Ls, E)
        packed = pack_padded_sequence(emb, lengths, batch_first=True, enforce_sorted=False)
        out, h_n = self.rnn(packed)  # h_n: (2, B, He), forward and backward
        outputs, _ = pad_packed_sequence(out, batch_first=True, total_length=Ls)  # (B, Ls, 2He)
        final = torch.cat([h_n[0], h_n[1]], dim=-1)  # (B, 2He)
        return outputs, final


def _run_gru_cell(cell: nn.GRUCell, inputs: torch.Tensor, hidden: torch.Tensor) -> torch.Tensor:
    """``cell`` over a whole sequence in one fused call: ``(B, L, I), (B, H) -> (B, L, H)``.

    The same as looping ``hidden = cell(inputs[:, t], hidden)`` (``nn.GRU`` and ``nn.GRUCell``
    share the gate layout), many times faster on a CPU.
    """
    gru = nn.GRU(cell.input_size, cell.hidden_size, batch_first=True, device="meta")
    params = {"weight_ih_l0": cell.weight_ih, "weight_hh_l0": cell.weight_hh,
              "bias_ih_l0": cell.bias_ih, "bias_hh_l0": cell.bias_hh}
    outputs, _ = torch.func.functional_call(gru, params, (inputs, hidden.unsqueeze(0)))
    return outputs  # (B, L, H)


class AttentionDecoder(nn.Module):
    """A GRU decoder that attends to the encoder outputs at every step.

    ``AttentionDecoder(vocab_size, emb_dim, hidden_dim, key_dim, attention)`` holds
    ``embedding = nn.Embedding(vocab_size, emb_dim)``, ``gru = nn.GRUCell(emb_dim, hidden_dim)``,
    ``attention`` (a module with ``forward(query (B, hidden_dim), keys (B, Ls, key_dim), mask)
    -> (context (B, key_dim), weights (B, Ls))``) and
    ``out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)``.
    """

    def __init__(self, vocab_size: int, emb_dim: int, hidden_dim: int, key_dim: int,
                 attention: nn.Module) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token: torch.Tensor, hidden: torch.Tensor, encoder_outputs: torch.Tensor,
             src_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """One decoding step.

        Args:
            prev_token: (B,) int64, the previous target word ``y_{t-1}`` (``<bos>`` at first).
            hidden: (B, H), the previous decoder state ``s_{t-1}``.
            encoder_outputs: (B, Ls, Dk), the keys (and values) of attention.
            src_mask: (B, Ls) bool, True at real source words.

        Returns:
            ``(logits (B, V), hidden (B, H), weights (B, Ls))``: the scores of the next word
            ``y_t``, the new state ``s_t`` and the attention weights of this step.
        """
        emb = self.embedding(prev_token)  # (B,) -> (B, E)
        hidden = self.gru(emb, hidden)  # s_t = GRU(y_{t-1}, s_{t-1}): (B, H)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)  # query s_t: (B, Dk), (B, Ls)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))  # (B, H + Dk + E) -> (B, V)
        return logits, hidden, weights

    def forward(self, tgt_in: torch.Tensor, hidden: torch.Tensor, encoder_outputs: torch.Tensor,
                src_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher forcing: every ``step`` at once on the gold inputs ``tgt_in (B, Lt)``.

        Returns ``(logits (B, Lt, V), weights (B, Lt, Ls))``, equal to looping :meth:`step`:
        the states do not depend on the attention, so the GRU runs over the whole target in one
        fused call and all the queries attend together.
        """
        emb = self.embedding(tgt_in)  # (B, Lt) -> (B, Lt, E)
        states = _run_gru_cell(self.gru, emb, hidden)  # (B, Lt, H)
        projected = self.attention.project_keys(encoder_outputs)  # (B, Ls, ...), once
        contexts, weights = self.attention.attend(states, projected, encoder_outputs, src_mask)  # (B, Lt, Dk), (B, Lt, Ls)
        return self.out(torch.cat([states, contexts, emb], dim=-1)), weights  # (B, Lt, V), (B, Lt, Ls)


def final_states(encoder_outputs: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
    """The encoder's summary ``[forward state at the last word; backward state at the first]``
    read off its outputs: ``(B, Ls, 2He), (B, Ls) -> (B, 2He)``."""
    B, Ls, D2 = encoder_outputs.shape
    He = D2 // 2
    last = src_mask.sum(dim=1) - 1  # (B,) index of the last real word
    forward = encoder_outputs[torch.arange(B), last, :He]  # (B, He)
    backward = encoder_outputs[:, 0, He:]  # (B, He)
    return torch.cat([forward, backward], dim=-1)  # (B, 2He)


class PlainDecoder(nn.Module):
    """The decoder without attention: every step sees the same context, the encoder's summary
    ``c`` (:func:`final_states`), whatever the sentence's length. The GRU reads ``[y_{t-1}; c]``
    (Cho et al., 2014), the output layer ``[s_t; c; y_{t-1}]``; ``step`` returns all-zero
    weights (it attends to nothing)."""

    def __init__(self, vocab_size: int, emb_dim: int, hidden_dim: int, key_dim: int) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim + key_dim, hidden_dim)
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token: torch.Tensor, hidden: torch.Tensor, encoder_outputs: torch.Tensor,
             src_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """As :meth:`AttentionDecoder.step`."""
        emb = self.embedding(prev_token)  # (B, E)
        context = final_states(encoder_outputs, src_mask)  # (B, Dk), the same at every step
        hidden = self.gru(torch.cat([emb, context], dim=-1), hidden)  # (B, E + Dk) -> (B, H)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))  # (B, V)
        return logits, hidden, torch.zeros_like(src_mask, dtype=hidden.dtype)

    def forward(self, tgt_in: torch.Tensor, hidden: torch.Tensor, encoder_outputs: torch.Tensor,
                src_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher forcing, as :meth:`AttentionDecoder.forward`."""
        emb = self.embedding(tgt_in)  # (B, Lt, E)
        B, Lt = tgt_in.shape
        context = final_states(encoder_outputs, src_mask)  # (B, Dk)
        contexts = context.unsqueeze(1).expand(B, Lt, context.shape[-1])  # (B, Lt, Dk)
        states = _run_gru_cell(self.gru, torch.cat([emb, contexts], dim=-1), hidden)  # (B, Lt, H)
        weights = encoder_outputs.new_zeros(B, Lt, src_mask.shape[1])  # (B, Lt, Ls)
        return self.out(torch.cat([states, contexts, emb], dim=-1)), weights


def make_attention(kind: str, query_dim: int, key_dim: int, hidden_dim: int) -> nn.Module:
    """``"additive"``, ``"dot"`` or ``"general"`` -> the attention module."""
    if kind == "additive":
        return AdditiveAttention(query_dim, key_dim, hidden_dim)
    if kind in ("dot", "general"):
        return MultiplicativeAttention(query_dim, key_dim, kind)
    raise ValueError(f"attention: expected one of {ATTENTIONS}, got {kind!r}")


class Seq2Seq(nn.Module):
    """Encoder, bridge and decoder.

    ``Seq2Seq(src_vocab, tgt_vocab, emb_dim=64, enc_hidden=64, dec_hidden=128,
    attention="additive", attn_hidden=128)``; ``attention`` is one of ``"none"``,
    ``"additive"``, ``"dot"``, ``"general"`` (``"dot"`` needs ``dec_hidden == 2 enc_hidden``).
    """

    def __init__(self, src_vocab: int, tgt_vocab: int, emb_dim: int = 64, enc_hidden: int = 64,
                 dec_hidden: int = 128, attention: str = "additive", attn_hidden: int = 128) -> None:
        super().__init__()
        if attention not in ATTENTIONS:
            raise ValueError(f"attention: expected one of {ATTENTIONS}, got {attention!r}")
        self.config = dict(src_vocab=src_vocab, tgt_vocab=tgt_vocab, emb_dim=emb_dim,
                           enc_hidden=enc_hidden, dec_hidden=dec_hidden, attention=attention,
                           attn_hidden=attn_hidden)
        key_dim = 2 * enc_hidden
        self.encoder = Encoder(src_vocab, emb_dim, enc_hidden)
        self.bridge = nn.Linear(key_dim, dec_hidden)
        if attention == "none":
            self.decoder = PlainDecoder(tgt_vocab, emb_dim, dec_hidden, key_dim)
        else:
            self.decoder = AttentionDecoder(tgt_vocab, emb_dim, dec_hidden, key_dim,
                                            make_attention(attention, dec_hidden, key_dim, attn_hidden))

    def encode(self, src: torch.Tensor, src_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(encoder_outputs (B, Ls, 2He), first decoder state (B, H))``."""
        outputs, final = self.encoder(src, src_mask)  # (B, Ls, 2He), (B, 2He)
        return outputs, torch.tanh(self.bridge(final))  # s_0 = tanh(W_s [h_fwd; h_bwd]): (B, H)

    def forward(self, src: torch.Tensor, src_mask: torch.Tensor,
                tgt_in: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher forcing: ``(logits (B, Lt, V), weights (B, Lt, Ls))``."""
        outputs, hidden = self.encode(src, src_mask)
        return self.decoder(tgt_in, hidden, outputs, src_mask)


def greedy_decode(model: Seq2Seq, src: torch.Tensor, src_mask: torch.Tensor, max_len: int,
                  bos: int = BOS, eos: int = EOS, pad: int = PAD) -> tuple[torch.Tensor, torch.Tensor]:
    """Translate greedily: at every step the most likely word, fed back as the next input.

    Args:
        model: has ``encode(src, src_mask) -> (encoder_outputs, hidden)`` and
            ``decoder.step(prev_token, hidden, encoder_outputs, src_mask) -> (logits, hidden, weights)``.
        src: (B, Ls) int64 source words; src_mask: (B, Ls) bool, True at real words.
        max_len: the most steps to take.

    Returns:
        ``(tokens (B, T) int64, weights (B, T, Ls))``. Every sentence starts from ``bos``; a
        sentence is finished once it has produced ``eos`` (kept in ``tokens``); after that its
        tokens are ``pad`` and its weights zero. Decoding stops when every sentence is finished
        or after ``max_len`` steps, so ``T <= max_len``.
    """
    max_len = require_int(max_len, "max_len", minimum=1)
    if src.dim() != 2 or tuple(src_mask.shape) != tuple(src.shape):
        raise ValueError(f"src, src_mask: expected shapes (B, Ls) and (B, Ls), got {fmt(src.shape)} "
                         f"and {fmt(src_mask.shape)}")
    with torch.no_grad():
        encoder_outputs, hidden = model.encode(src, src_mask)  # (B, Ls, Dk), (B, H)
        B = src.shape[0]
        prev = torch.full((B,), bos, dtype=torch.long)  # (B,)
        done = torch.zeros(B, dtype=torch.bool)  # (B,)
        tokens, weights = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, encoder_outputs, src_mask)  # (B, V), (B, H), (B, Ls)
            prev = torch.where(done, torch.full_like(prev, pad), logits.argmax(dim=-1))  # (B,)
            tokens.append(prev)
            weights.append(w.masked_fill(done.unsqueeze(-1), 0.0))  # (B, Ls)
            done = done | (prev == eos)
            if bool(done.all()):
                break
        return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)  # (B, T), (B, T, Ls)
