"""greedy_decode (notebook 07): translate a batch greedily with a Seq2Seq model, feeding back the
argmax word and carrying the state, keeping <eos>, padding after it, and stopping once every
sentence has ended.

The check runs the learner's function on a tiny ``Seq2Seq`` whose weights come from a seed
(:class:`attnlab.checks.rnn_translation_with_attention.ModelSpec`, :func:`attnlab.checks.rnn_translation_with_attention.invoke_greedy`).
Every mistake is flag-style (``partial(_greedy_variant, ...)``, which the checks combine): its
answer is computed on the same model.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..checks._core import Case, Mistake
from ..checks.rnn_translation_with_attention import ModelSpec, _lengths_mask, _t, invoke_greedy
from ._card import Card, Contract


def _uses() -> dict:
    from attnlab.toylang import BOS, EOS, PAD

    return {"BOS": BOS, "EOS": EOS, "PAD": PAD}  # the setup cell: `from attnlab.toylang import BOS, EOS, PAD`


def _greedy_variant(model, src, src_mask, max_len, *, feed_back=True, carry=True, stop="all",
                    pad_after=True, zero_weights=True, keep_eos=True, include_bos=False, done_first=False):
    """Greedy decoding on ``model``'s Seq2Seq, with its known slips as flags."""
    import torch

    from ..toylang import BOS, EOS, PAD

    m = model.build()
    src, mask = _t(src), _t(src_mask)
    with torch.no_grad():
        enc, h0 = m.encode(src, mask)  # (B, Ls, Dk), (B, H)
        B = src.shape[0]
        prev = torch.full((B,), BOS, dtype=torch.long)
        hidden = h0
        done = torch.zeros(B, dtype=torch.bool)
        tokens, weights = [], []
        if include_bos:
            tokens.append(prev.clone())
            weights.append(torch.zeros_like(mask, dtype=enc.dtype))
        for _ in range(max_len):
            logits, new_hidden, w = m.decoder.step(prev, hidden, enc, mask)
            hidden = new_hidden if carry else h0
            best = logits.argmax(dim=-1)  # (B,)
            out = best
            if done_first:  # (a slip: the step's own <eos> marks it finished before it is written)
                done = done | (best == EOS)
            if not keep_eos:
                out = torch.where(best == EOS, torch.full_like(best, PAD), out)
            if pad_after:
                out = torch.where(done, torch.full_like(best, PAD), out)
            tokens.append(out)
            weights.append(w.masked_fill(done.unsqueeze(-1), 0.0) if zero_weights else w)
            done = done | (best == EOS)
            if feed_back:
                prev = out
            if (stop == "all" and bool(done.all())) or (stop == "any" and bool(done.any())):
                break
        return torch.stack(tokens, 1).numpy(), torch.stack(weights, 1).numpy()


def reference(model, src, src_mask, max_len):
    """``(tokens (B, T), weights (B, T, Ls))`` of greedy decoding on ``model``'s Seq2Seq."""
    return _greedy_variant(model, src, src_mask, max_len)


_HEAD = '''
def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        encoder_outputs, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        prev = torch.full((B,), BOS, dtype=torch.long)
        finished = torch.zeros(B, dtype=torch.bool)
        tokens, weights = [], []
'''
_STEP = '''\
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, encoder_outputs, src_mask)
'''
_PADDED = '''\
            next_token = torch.where(finished, torch.full_like(prev, PAD), logits.argmax(dim=-1))
'''
_RETURN = '''\
    return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
'''


def _cell(body: str) -> str:
    """A learner's cell: the encoder and the set-up of the loop, then this body."""
    return _HEAD + body + _RETURN


_G = "test_greedy_decode"
_GE = "test_greedy_decode_eos"
_BOTH = (_G, _GE)

CARD = Card(
    "greedy_decode", "07_rnn_translation_with_attention",
    summary="greedy translation of a batch: the argmax word fed back, the state carried, <eos> kept "
            "and <pad> after it, stopping once every sentence has ended",
    contract=Contract(
        args=("model", "src", "src_mask", "max_len"), reference=reference, invoke=invoke_greedy,
        outputs=("tokens", "weights"),
        shapes="model has encode(src, src_mask) -> (encoder_outputs (B, Ls, Dk), hidden (B, H)) and "
               "decoder.step(prev_token, hidden, encoder_outputs, src_mask) -> (logits (B, V), hidden, "
               "weights (B, Ls)); src (B, Ls) int64, src_mask (B, Ls) bool, max_len the most steps",
        returns="(tokens (B, T) int64, weights (B, T, Ls)), T <= max_len: the argmax word of every step, "
                "<eos> kept, <pad> (and zero weights) after it; T is the step at which the last sentence "
                "produced <eos>, or max_len"),
    uses=_uses,
    mistakes=[
        Mistake(
            "the previous prediction is not fed back (every step reads <bos>)",
            principle="Greedy decoding feeds each step's prediction in as the next input.",
            fix="after each step, the word just chosen becomes the next input: `prev_token = next_token`.",
            fails=_BOTH, impl=partial(_greedy_variant, feed_back=False), code=_cell(_STEP + _PADDED + '''\
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            if finished.all():
                break
''')),
        Mistake(
            "the hidden state is not carried from step to step",
            principle="Each step starts from the state the previous step returned.",
            fix="keep the state `step` returns: `logits, hidden, weights = model.decoder.step(prev_token, "
                "hidden, ...)`.",
            fails=_BOTH, impl=partial(_greedy_variant, carry=False), code=_cell('''\
        start = hidden
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, start, encoder_outputs, src_mask)
''' + _PADDED + '''\
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.all():
                break
''')),
        Mistake(
            "not stopping once every sentence has produced <eos> (always max_len steps)",
            principle="Stop once every sentence has finished.",
            fix="after each step, `if finished.all(): break`.",
            fails=(_GE,), impl=partial(_greedy_variant, stop="never"), code=_cell(_STEP + _PADDED + '''\
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
''')),
        Mistake(
            "stopping as soon as one sentence ends, instead of when all have ended",
            principle="Keep going until every sentence has finished, not just one.",
            fix="stop when *every* sentence is finished: `finished.all()`, not `finished.any()`.",
            fails=_BOTH, impl=partial(_greedy_variant, stop="any"), code=_cell(_STEP + _PADDED + '''\
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.any():
                break
''')),
        Mistake(
            "tokens after <eos> are not replaced by <pad>",
            principle="After a sentence ends, its later positions are padding.",
            fix="once a sentence is finished, write `pad` for it: `next_token = torch.where(finished, "
                "pad, next_token)`.",
            fails=_BOTH, impl=partial(_greedy_variant, pad_after=False), code=_cell(_STEP + '''\
            next_token = logits.argmax(dim=-1)
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.all():
                break
''')),
        Mistake(
            "tokens after <eos> are not replaced by <pad> (and their weights not zeroed)",
            principle="After a sentence ends, its later positions are padding with zero weights.",
            fix="once a sentence is finished, write `pad` for it, `next_token = torch.where(finished, "
                "pad, next_token)`, and zero its weights, `weights.masked_fill(finished.unsqueeze(-1), 0.0)`.",
            fails=_BOTH, impl=partial(_greedy_variant, pad_after=False, zero_weights=False), code=_cell(_STEP + '''\
            next_token = logits.argmax(dim=-1)
            tokens.append(next_token)
            weights.append(w)
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.all():
                break
''')),
        Mistake(
            "the weights of finished sentences are not zeroed",
            principle="Finished sentences attend to nothing: their later weights are zero.",
            fix="zero the weights of finished sentences: `weights.masked_fill(finished.unsqueeze(-1), 0.0)`.",
            fails=_BOTH, impl=partial(_greedy_variant, zero_weights=False), code=_cell(_STEP + _PADDED + '''\
            tokens.append(next_token)
            weights.append(w)
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.all():
                break
''')),
        Mistake(
            "the <eos> token is dropped (replaced by <pad>)",
            principle="Keep the <eos> a sentence produces; only what follows becomes padding.",
            fix="keep the <eos> a sentence produces in `tokens`; only the steps after it are <pad>.",
            fails=_BOTH, impl=partial(_greedy_variant, keep_eos=False), code=_cell(_STEP + '''\
            best = logits.argmax(dim=-1)
            next_token = torch.where(finished | (best == EOS), torch.full_like(prev, PAD), best)
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (best == EOS)
            prev = next_token
            if finished.all():
                break
''')),
        Mistake(
            "the finished flags updated before the step is written: each sentence's <eos> becomes "
            "<pad> and its weights zero",
            principle="A sentence is finished after the step that produces its <eos>: write that step "
                      "(its <eos> and its weights) first, then mark the sentence finished.",
            fix="compute `next_token` and append it and `w` while `finished` still holds the previous "
                "steps; only then `finished = finished | (next_token == EOS)`.",
            fails=_BOTH, impl=partial(_greedy_variant, done_first=True), code=_cell(_STEP + '''\
            best = logits.argmax(dim=-1)
            finished = finished | (best == EOS)
            next_token = torch.where(finished, torch.full_like(prev, PAD), best)
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            prev = next_token
            if finished.all():
                break
''')),
        Mistake(
            "the <bos> token included in the output",
            principle="The output holds the predicted tokens only, not the start token.",
            fix="`tokens` holds the words the decoder produced, starting with the first one, not <bos>.",
            fails=_BOTH, impl=partial(_greedy_variant, include_bos=True), code=_cell('''\
        tokens.append(prev)
        weights.append(torch.zeros(src_mask.shape, dtype=encoder_outputs.dtype))
''' + _STEP + _PADDED + '''\
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.all():
                break
''')),
    ],
)


def _case(spec: ModelSpec, lengths, max_len, why):
    rng = np.random.default_rng(spec.seed)
    B, Ls = len(lengths), max(lengths)
    mask = _lengths_mask(lengths, Ls)
    src = np.where(mask, rng.integers(4, spec.src_vocab, size=(B, Ls)), 0).astype(np.int64)
    return Case((spec, src, mask, max_len), why=why)


# Seeds chosen (tests/test_translation.py checks it) so that sentences end at different steps,
# some never within max_len (main cases) or all before it (<eos> cases), and every known mistake
# gives another answer than the reference.
def cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_case(ModelSpec(9, 10, "general", 1740, 0.0, 1.5), [4, 2, 6, 3, 5], 7,
                      "five sentences, some never produce <eos>"),
                _case(ModelSpec(8, 9, "dot", 1755, 3.0, 1.5), [3, 4, 1], 6, "dot attention")]
    return [_case(ModelSpec(8, 9, "additive", 110, 1.0, 1.5), [3, 5, 2, 4], 8,
                  "four sentences, some never produce <eos> within max_len"),
            _case(ModelSpec(9, 8, "general", 112, 0.0, 1.5), [5, 2, 4], 6, "general attention")]


def eos_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_case(ModelSpec(9, 8, "additive", 1817, 0.0, 1.5), [5, 1, 3, 4], 12,
                      "every sentence ends before max_len"),
                _case(ModelSpec(8, 10, "dot", 1742, 0.0, 1.5), [2, 4, 3], 12, "every sentence ends")]
    return [_case(ModelSpec(8, 9, "additive", 110, 3.0, 2.0), [4, 2, 5, 3], 12,
                  "every sentence ends before max_len, at different steps"),
            _case(ModelSpec(9, 9, "dot", 110, 2.0, 1.0), [3, 5, 1], 12, "every sentence ends")]


def check_greedy_decode(greedy_decode, hidden: bool = False) -> None:
    """Check ``greedy_decode(model, src, src_mask, max_len)`` on models with known weights."""
    CARD.check(greedy_decode, cases(hidden), hidden=hidden, passed="argmax fed back, state carried")


def check_greedy_decode_eos(greedy_decode, hidden: bool = False) -> None:
    """Check that ``greedy_decode`` pads after <eos> and stops when every sentence has ended."""
    CARD.check(greedy_decode, eos_cases(hidden), hidden=hidden,
               passed="<eos> kept, <pad> after it, stops when all sentences have ended")
