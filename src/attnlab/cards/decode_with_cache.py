"""decode_with_cache (notebook 09): greedy decoding with a key-value cache, for exactly
``max_len`` steps: each new token alone runs through the decoder layers, attending over the keys
and values every layer kept from the earlier steps; the tokens and logits are those of
recomputing the whole prefix at every step.

The check watches the mechanism, not only the result (:func:`attnlab.checks.transformer.invoke_decode`):
how many positions reach each decoder layer at once, and whether a shifted first cached key and
value change the later logits. Every mistake is flag-style (``partial(_decode_variant, ...)``,
which the checks combine), run the same way on the library's model.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..checks._core import Case, Mistake, case_seed
from ..checks.transformer import TranslatorSpec, invoke_decode, lengths_mask
from ._card import Card, Contract, Example


def _uses() -> dict:
    import attnlab.torch as at
    from attnlab.toylang import BOS, EOS, PAD

    return {"at": at, "BOS": BOS, "EOS": EOS, "PAD": PAD}  # the notebook's setup cell


def _decode_on_model(m, src, src_mask, max_len, *, cache="before", offset="t",
                     feed_back=True, probabilities=False, padding=True, final_norm=True, shared=False):
    import torch

    from ..toylang import BOS
    from ..torch.functional import scaled_dot_product_attention
    from ..torch.multi_head import merge_heads, split_heads

    if cache == "recompute":  # the library's recomputation: the whole prefix at every step
        from ..torch.transformer import decode_by_recomputation

        tokens, logits = decode_by_recomputation(m, src, src_mask, max_len)
        return tokens.numpy(), logits.numpy()
    with torch.no_grad():
        memory = m.encode(src, src_mask)
        cross_mask = src_mask[:, None, None, :] if padding else None
        B = src.shape[0]
        caches = [None] * len(m.decoder_layers)
        token = torch.full((B, 1), BOS, dtype=torch.long)
        tokens, logits = [], []
        for t in range(max_len):
            pos = {"t": t, "zero": 0, "next": t + 1}[offset]
            X = m.embed_target(token, offset=pos)
            for i, layer in enumerate(m.decoder_layers):
                attn, H = layer.self_attn, layer.self_attn.num_heads
                h = layer.norm1(X)
                k_new, v_new = attn.W_k(h), attn.W_v(h)
                slot = 0 if shared else i  # (a slip: one cache that every layer appends to)
                old = caches[slot]
                if old is None:
                    k_all, v_all = k_new, v_new
                else:
                    k_all, v_all = torch.cat([old[0], k_new], 1), torch.cat([old[1], v_new], 1)
                if cache == "before":
                    k_use, v_use = k_all, v_all
                elif cache == "after":  # the new token attends to the old cache only
                    if old is None:
                        k_use, v_use = k_new[:, :0], v_new[:, :0]
                    else:
                        k_use, v_use = old
                elif cache == "none":  # only the new token's own key and value
                    k_use, v_use = k_new, v_new
                else:
                    raise ValueError(cache)
                caches[slot] = (k_all, v_all)
                z, _ = scaled_dot_product_attention(split_heads(attn.W_q(h), H), split_heads(k_use, H),
                                                    split_heads(v_use, H))
                X = X + attn.W_o(merge_heads(z))
                c, _ = layer.cross_attn(layer.norm2(X), memory, cross_mask)
                X = X + c
                X = X + layer.feed_forward(layer.norm3(X))
            step = m.out(m.decoder_norm(X) if final_norm else X)[:, 0]
            if probabilities:
                step = torch.softmax(step, dim=-1)
            best = step.argmax(dim=-1, keepdim=True)
            tokens.append(best)
            logits.append(step)
            if feed_back:
                token = best
        return torch.cat(tokens, 1).numpy(), torch.stack(logits, 1).numpy()


def _decode_variant(model: TranslatorSpec, src, src_mask, max_len, **flags):
    """Decoding with its known slips as flags, watched as the learner's code is."""
    return invoke_decode(partial(_decode_on_model, **flags), model, src, src_mask, max_len)


def reference(model, src, src_mask, max_len):
    """What a key-value cache returns (the tokens and logits of recomputation), watched."""
    return _decode_variant(model, src, src_mask, max_len)


# A learner's cell, in pieces: the solution's loop, a few lines of which a mistake replaces.
_HEAD = '''
def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        cross_mask = src_mask[:, None, None, :]
        B = src.shape[0]
        cache_k = [None] * len(model.decoder_layers)
        cache_v = [None] * len(model.decoder_layers)
        token = torch.full((B, 1), BOS, dtype=torch.long)
        tokens, logits = [], []
        for t in range(max_len):
'''
_LAYER = '''
            for i, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(X)
                k, v = attn.W_k(h), attn.W_v(h)
'''
_CACHE_FIRST = '''
                if cache_k[i] is not None:
                    k = torch.cat([cache_k[i], k], dim=1)
                    v = torch.cat([cache_v[i], v], dim=1)
                cache_k[i], cache_v[i] = k, v
'''
_REST = '''
                z, _ = at.scaled_dot_product_attention(at.split_heads(attn.W_q(h), H), at.split_heads(k, H),
                                                       at.split_heads(v, H))
                X = X + attn.W_o(at.merge_heads(z))
                c, _ = layer.cross_attn(layer.norm2(X), memory, cross_mask)
                X = X + c
                X = X + layer.linear2(torch.relu(layer.linear1(layer.norm3(X))))
            step = model.out(model.decoder_norm(X))[:, 0]
            token = step.argmax(dim=-1, keepdim=True)
            tokens.append(token)
            logits.append(step)
        return torch.cat(tokens, dim=1), torch.stack(logits, dim=1)
'''

_BOTH = ("test_decode_with_cache", "test_decode_with_cache_positions")


def _cell(embed: str, cache: str = _CACHE_FIRST, rest: str = _REST) -> str:
    """The solution's cell with the line ``X = ...`` (the new token's embedding) as given, the
    cache update ``cache`` and the rest of the loop ``rest``."""
    return _HEAD + f"""
            X = {embed}
""" + _LAYER + cache + rest


_AT_T = "model.embed_target(token, offset=t)"

CARD = Card(
    "decode_with_cache", "09_transformer",
    summary="greedy decoding that runs only the new token through each decoder layer, reading "
            "the keys and values it cached at earlier steps",
    contract=Contract(
        args=("model", "src", "src_mask", "max_len"), reference=reference, invoke=invoke_decode,
        rtol=1e-6, atol=1e-8,
        outputs=("tokens", "logits",
                 "work per step (positions through each decoder layer at once)",
                 "logits of a run whose first cached key and value are shifted"),
        shapes="model an at.TransformerSeq2Seq (encode, embed_target, decoder_layers, decoder_norm, "
               "out); src (B, Ls) int64, src_mask (B, Ls) bool, True at real words; max_len the "
               "number of steps T",
        returns="(tokens (B, T) int64, logits (B, T, V)): those of recomputing the decoder over the "
                "whole prefix at every step, computed with one new position per step through each "
                "decoder layer and the keys and values cached at earlier steps"),
    uses=_uses,
    mistakes=[
        Mistake(
            "recomputes the prefix each step; it keeps no cache: at every step the whole prefix "
            "goes through every decoder layer again (as `at.decode_by_recomputation` does)",
            principle="a key-value cache runs one new position per step through each decoder layer and "
                      "reads the keys and values it stored at earlier steps; the work of a step must not "
                      "grow with the prefix.",
            fix="keep, for every decoder layer, the keys and values of the positions seen so far "
                "(`cache_k[i] = torch.cat([cache_k[i], k], dim=1)`) and run only the new token, "
                "`model.embed_target(token, offset=t)` of shape (B, 1, D), through the layers.",
            fails=_BOTH, impl=partial(_decode_variant, cache="recompute"), code="""
                # a "cache" of the tokens so far: every step runs <bos> y_1 .. y_t through the layers again
                def decode_with_cache(model, src, src_mask, max_len):
                    with torch.no_grad():
                        memory = model.encode(src, src_mask)
                        B = src.shape[0]
                        cache = torch.full((B, 1), BOS, dtype=torch.long)   # the tokens so far
                        logits = []
                        for t in range(max_len):
                            X = model.embed_target(cache)
                            for layer in model.decoder_layers:
                                X, _, _ = layer(X, memory, src_mask)
                            step = model.out(model.decoder_norm(X))[:, -1]
                            logits.append(step)
                            cache = torch.cat([cache, step.argmax(dim=-1, keepdim=True)], dim=1)
                        return cache[:, 1:], torch.stack(logits, dim=1)
                """),
        Mistake(
            "the cache appended after the attention: the new token does not attend to itself",
            principle="Add the new token's key and value to the cache before attending.",
            fix="first add the new token's key and value to the cache, then attend over the whole "
                "cache, itself included (recomputation lets position t see 0..t).",
            fails=_BOTH, impl=partial(_decode_variant, cache="after"), code=_cell(_AT_T, """
                if cache_k[i] is None:
                    k_seen, v_seen = k[:, :0], v[:, :0]
                else:
                    k_seen, v_seen = cache_k[i], cache_v[i]
                z, _ = at.scaled_dot_product_attention(at.split_heads(attn.W_q(h), H),
                                                       at.split_heads(k_seen, H), at.split_heads(v_seen, H))
                cache_k[i] = k if cache_k[i] is None else torch.cat([cache_k[i], k], dim=1)
                cache_v[i] = v if cache_v[i] is None else torch.cat([cache_v[i], v], dim=1)
                X = X + attn.W_o(at.merge_heads(z))
                c, _ = layer.cross_attn(layer.norm2(X), memory, cross_mask)
                X = X + c
                X = X + layer.linear2(torch.relu(layer.linear1(layer.norm3(X))))
""", _REST[_REST.index("            step ="):])),
        Mistake(
            "positions restarted at 0: every new token gets the positional vector of position 0",
            principle="Step t's token carries the positional vector of position t.",
            fix="the token decoded at step t sits at position t: `model.embed_target(token, offset=t)`.",
            fails=_BOTH, impl=partial(_decode_variant, offset="zero"), code=_cell("model.embed_target(token)")),
        Mistake(
            "positions off by one: the token of step t gets the positional vector of t + 1",
            principle="Step t's token carries the positional vector of position t.",
            fix="<bos> is at position 0, the token fed at step t at position t: `offset=t`.",
            fails=_BOTH, impl=partial(_decode_variant, offset="next"),
            code=_cell("model.embed_target(token, offset=t + 1)")),
        Mistake(
            "the cache not kept: each new token attends to its own key and value only",
            principle="The cache keeps every earlier key and value: carry it from step to step.",
            fix="keep every layer's keys and values from step to step and concatenate the new ones: "
                "`cache_k = torch.cat([cache_k, k], dim=1)`.",
            fails=_BOTH, impl=partial(_decode_variant, cache="none"), code=_cell(_AT_T, cache="")),
        Mistake(
            "one cache shared by every layer instead of one per layer: each layer reads the keys and "
            "values the other layers stored",
            principle="Each decoder layer has its own keys and values: keep one cache per layer.",
            fix="keep a list with one (keys, values) entry per layer, `cache_k[i]`, and let layer i read "
                "and extend only its own.",
            fails=_BOTH, impl=partial(_decode_variant, shared=True), code=_cell(_AT_T, """
                if cache_k[0] is not None:
                    k = torch.cat([cache_k[0], k], dim=1)
                    v = torch.cat([cache_v[0], v], dim=1)
                cache_k[0], cache_v[0] = k, v
""")),
        Mistake(
            "the previous prediction is not fed back (every step reads <bos>)",
            principle="Greedy decoding feeds each step's prediction in as the next input.",
            fix="the token chosen at step t is the decoder's input at step t + 1.",
            fails=_BOTH, impl=partial(_decode_variant, feed_back=False),
            code=_cell("model.embed_target(torch.full((B, 1), BOS, dtype=torch.long), offset=t)")),
        Mistake(
            "returning probabilities (a softmax) instead of logits",
            principle="The step returns unnormalised scores (logits) over the vocabulary.",
            fix="return `model.out(...)` as it is.",
            fails=_BOTH, impl=partial(_decode_variant, probabilities=True), code=_cell(_AT_T, rest=_REST.replace(
                "logits.append(step)", "logits.append(torch.softmax(step, dim=-1))"))),
        Mistake(
            "the source mask not passed to the cross-attention",
            principle="Source padding must get no weight in the cross-attention.",
            fix="cross-attend with `src_mask[:, None, None, :]` so that padding gets no weight.",
            fails=_BOTH, impl=partial(_decode_variant, padding=False),
            code=_cell(_AT_T, rest=_REST.replace("memory, cross_mask)", "memory)"))),
        Mistake(
            "the final norm (model.decoder_norm) skipped before the output layer",
            principle="Normalise the decoder's final states before the output layer.",
            fix="a pre-norm stack ends with one more layer norm: `model.out(model.decoder_norm(X))`.",
            fails=_BOTH, impl=partial(_decode_variant, final_norm=False),
            code=_cell(_AT_T, rest=_REST.replace("model.out(model.decoder_norm(X))", "model.out(X)"))),
    ],
    examples=[
        Example("""
            def decode_with_cache(model, src, src_mask, max_len):
                return at.decode_by_recomputation(model, src, src_mask, max_len)
            """, _BOTH, "recomputes the prefix each step; it keeps no cache",
                label="the library's recomputation"),
    ],
)


def _case(spec: TranslatorSpec, lengths, max_len, why):
    rng = np.random.default_rng(spec.seed)
    B, Ls = len(lengths), max(lengths)
    mask = lengths_mask(lengths, Ls)
    src = np.where(mask, rng.integers(4, spec.src_vocab, size=(B, Ls)), 0).astype(np.int64)
    return Case((spec, src, mask, max_len), why=why)


def cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_case(TranslatorSpec(9, 11, 8, 2, 2, "sinusoidal", case_seed(1903, True)), [4, 2, 5], 7, "three sentences"),
                _case(TranslatorSpec(8, 10, 6, 3, 1, "sinusoidal", case_seed(1904, True)), [3], 5, "one layer")]
    return [_case(TranslatorSpec(9, 10, 8, 2, 2, "sinusoidal", 1901), [5, 3, 4, 2], 6,
                         "four sentences, two layers, sinusoidal positions"),
            _case(TranslatorSpec(8, 12, 12, 3, 1, "sinusoidal", 1902), [3, 6], 8, "one layer, 3 heads")]


def positions_cases(hidden: bool) -> list[Case]:
    if hidden:
        return [_case(TranslatorSpec(9, 9, 8, 4, 2, "learned", case_seed(1913, True)), [5, 1, 3], 7, "learned positions")]
    return [_case(TranslatorSpec(10, 11, 8, 2, 3, "learned", 1911), [6, 2, 4], 7,
                         "three layers, learned positions"),
            _case(TranslatorSpec(9, 10, 8, 2, 1, "sinusoidal", 1912), [2, 5], 10, "10 steps")]


def check_decode_with_cache(decode_with_cache, hidden: bool = False) -> None:
    """Check ``decode_with_cache(model, src, src_mask, max_len)`` against recomputation."""
    CARD.check(decode_with_cache, cases(hidden), hidden=hidden,
               passed="the same tokens and logits as recomputing every step")


def check_decode_with_cache_positions(decode_with_cache, hidden: bool = False) -> None:
    """Check ``decode_with_cache`` on deeper models, learned positions and longer outputs."""
    CARD.check(decode_with_cache, positions_cases(hidden), hidden=hidden,
               passed="positions and caches right over many steps and layers")
