"""Edge cases the contract allows, in the checks of notebooks 05 and 09 (issue 27): masked scores
of ±1e4 with each row's largest score on a masked key, one token, odd head widths, B = 1 and
fully masked rows in the module checks. Each added case is what it says, the reference passes
it, and the code it is there to catch fails on it."""
from __future__ import annotations

import numpy as np
import pytest

import attnlab
from attnlab.cards import TransformerDecoderLayer as dec_card
from attnlab.cards import TransformerEncoderLayer as enc_card
from attnlab.cards import multi_head_attention as mha_card
from attnlab.checks import CheckFailure
import attnlab.checks as all_checks  # noqa: E402 - the checks, from their cards
from attnlab.checks import transformer as tr_checks

torch = pytest.importorskip("torch")


def _scores(case):
    X_q, X_kv, W_q, W_k = case.args[:4]
    H = case.args[6]
    Q, K = attnlab.split_heads(X_q @ W_q, H), attnlab.split_heads(X_kv @ W_k, H)
    return Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])  # (B, H, Lq, Lk)


@pytest.mark.parametrize("hidden", [False, True])
def test_nb05_large_case_puts_every_row_maximum_on_a_masked_key(hidden):
    case = mha_card.masked_cases(hidden)[-1]
    scores, mask = _scores(case), np.broadcast_to(case.kwargs["mask"], _scores(case).shape)
    assert np.isclose(np.abs(scores).max(), 1e4)
    top = scores.argmax(axis=-1)[..., None]
    assert not np.take_along_axis(mask, top, axis=-1).any()  # every row's maximum is masked
    assert mask.any(axis=-1).all()  # and every row keeps an allowed key


def _max_over_all_keys(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    """The max subtracted over all keys, masked keys included; the mask applied after exp."""
    Q, K, V = (attnlab.split_heads(X @ W, num_heads) for X, W in ((X_q, W_q), (X_kv, W_k), (X_kv, W_v)))
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    if mask is not None:
        e = np.where(mask, e, 0.0)
    with np.errstate(all="ignore"):
        w = np.nan_to_num(e / e.sum(axis=-1, keepdims=True))  # fully masked rows: 0, as asked
    return attnlab.merge_heads(w @ V) @ W_o, w


@pytest.mark.parametrize("hidden", [False, True])
def test_nb05_large_case_catches_the_max_over_masked_keys(hidden):
    with pytest.raises(CheckFailure, match="±1e4"):
        all_checks.check_multi_head_attention_masked(_max_over_all_keys, hidden=hidden)
    all_checks.check_multi_head_attention_masked(attnlab.multi_head_attention, hidden=hidden)


# ---------------------------------------------------------------------------------------------
# notebook 09: the layers

def _attend(mha, X_q, X_kv, mask, mode):
    """Multi-head attention on ``mha``'s projections with a hand-written masked softmax."""
    from attnlab.torch.multi_head import merge_heads, split_heads

    H = mha.num_heads
    Q, K, V = split_heads(mha.W_q(X_q), H), split_heads(mha.W_k(X_kv), H), split_heads(mha.W_v(X_kv), H)
    s = Q @ K.transpose(-1, -2) / Q.shape[-1] ** 0.5  # (B, H, Lq, Lk)
    allowed = torch.ones_like(s, dtype=torch.bool) if mask is None else mask.expand(s.shape)
    if mode == "finite":  # masked_fill(-10000): a fully masked row gets uniform weights
        w = torch.softmax(s.masked_fill(~allowed, -1e4), dim=-1)
    else:  # "max_all": the max over all keys, masked ones included
        e = torch.exp(s - s.amax(dim=-1, keepdim=True)) * allowed
        w = torch.nan_to_num(e / e.sum(dim=-1, keepdim=True))
    return mha.W_o(merge_heads(w @ V)), w


def _encoder(mode):
    from attnlab.torch.transformer import TransformerEncoderLayer

    class Layer(TransformerEncoderLayer):
        def forward(self, X, mask=None):
            am = None if mask is None else mask[:, None, None, :]
            h = self.norm1(X)
            a, w = _attend(self.self_attn, h, h, am, mode)
            X = X + a
            return X + self.feed_forward(self.norm2(X)), w

    return Layer


def _decoder(mode):
    from attnlab.torch.functional import causal_mask
    from attnlab.torch.transformer import TransformerDecoderLayer

    class Layer(TransformerDecoderLayer):
        def forward(self, X, memory, memory_mask=None):
            Lt = X.shape[1]
            h = self.norm1(X)
            a, sw = self.self_attn(h, h, causal_mask(Lt, Lt))
            X = X + a
            cm = None if memory_mask is None else memory_mask[:, None, None, :]
            c, cw = _attend(self.cross_attn, self.norm2(X), memory, cm, mode)
            X = X + c
            return X + self.feed_forward(self.norm3(X)), sw, cw

    return Layer


@pytest.mark.parametrize("hidden", [False, True])
def test_nb09_a_finite_fill_fails_on_the_fully_masked_rows(hidden):
    with pytest.raises(CheckFailure, match="length 0"):
        all_checks.check_encoder_layer_mask(_encoder("finite"), hidden=hidden)
    with pytest.raises(CheckFailure, match="length 0"):
        all_checks.check_decoder_layer_mask(_decoder("finite"), hidden=hidden)


@pytest.mark.parametrize("hidden", [False, True])
def test_nb09_the_max_over_masked_keys_fails_on_the_large_scores(hidden):
    with pytest.raises(CheckFailure, match="±1e4"):
        all_checks.check_encoder_layer_mask(_encoder("max_all"), hidden=hidden)
    with pytest.raises(CheckFailure, match="±1e4"):
        all_checks.check_decoder_layer_mask(_decoder("max_all"), hidden=hidden)


@pytest.mark.parametrize("hidden", [False, True])
def test_nb09_large_cases_are_what_they_say(hidden):
    for cases, attn in ((enc_card.mask_cases(hidden), "self_attn"),
                        (dec_card.mask_cases(hidden), "cross_attn")):
        large = [c for c in cases if "±1e4" in c.why]
        assert len(large) == 1
        largest, fraction = tr_checks.masked_top(large[0].args[0], attn, large[0].args[1:])
        assert largest > 2e3 and fraction >= 0.5


def test_nb09_one_token_odd_head_width_and_one_sentence():
    for cases in (enc_card.cases(False), dec_card.cases(False)):
        spec, X = cases[-1].args[:2]
        assert X.shape[:2] == (1, 1)  # B = 1, one token
        assert (spec.d_model // spec.num_heads) % 2 == 1  # an odd head width


def test_nb09_hidden_mask_cases_have_a_fully_masked_sentence():
    for cases in (enc_card.mask_cases(True), dec_card.mask_cases(True)):
        masks = [c.args[-1] for c in cases]
        assert any((~m).all(axis=-1).any() for m in masks)
