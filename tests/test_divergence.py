"""The first sub-module that diverges from the reference's under the same weights
(``attnlab.checks._divergence``): named on constructed wrong modules, never on a correct one,
silent when the two modules cannot be paired part by part; and its sentence in the module
checks of notebooks 03, 05, 09 and 10."""
from __future__ import annotations

import copy

import pytest

torch = pytest.importorskip("torch")
from torch import nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from attnlab.checks import CheckFailure  # noqa: E402
from attnlab.checks import _divergence  # noqa: E402
from attnlab.checks._divergence import first_divergence  # noqa: E402
from attnlab.torch.multi_head import MultiHeadAttention  # noqa: E402


class FFN(nn.Module):
    def __init__(self, D, F_):
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(D, F_), nn.Linear(F_, D)

    def forward(self, X):
        return self.lin2(torch.relu(self.lin1(X)))


class GeluFFN(FFN):
    def forward(self, X):
        return self.lin2(F.gelu(self.lin1(X)))


class ScaledFFN(FFN):
    def forward(self, X):
        return 2 * super().forward(X)


class Block(nn.Module):
    """A pre-norm block: X + attn(norm1(X)), then X + ffn(norm2(X))."""

    def __init__(self, D=6, H=2, F_=10, ffn=FFN):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.attn = MultiHeadAttention(D, H, bias=True)
        self.ffn = ffn(D, F_)

    def forward(self, X, mask=None):
        h = self.norm1(X)
        a, w = self.attn(h, h, mask)
        X = X + a
        return X + self.ffn(self.norm2(X)), w


class FFNBeforeResidual(Block):
    def forward(self, X, mask=None):
        h = self.norm1(X)
        a, w = self.attn(h, h, mask)
        return X + a + self.ffn(self.norm2(X)), w  # the FFN reads the stream before X + a


class NormAfterAttention(Block):
    def forward(self, X, mask=None):
        a, w = self.attn(X, X, mask)
        X = X + self.norm1(a)  # the norm on the branch's output, not its input
        return X + self.ffn(self.norm2(X)), w


class ExtraScale(Block):
    def forward(self, X, mask=None):
        out, w = super().forward(X, mask)
        return 2 * out, w


class OtherRoute(Block):
    """Correct, by another route: the residuals added in another order, einsum-free reshapes."""

    def forward(self, X, mask=None):
        h = self.norm1(X)
        a, w = self.attn(h, h, mask)
        Y = a + X
        f = self.ffn(self.norm2(Y))
        return f + Y, w


class Renamed(nn.Module):
    """Right, but with other names for the parts (``mlp``, ``ln_1``, ...)."""

    def __init__(self, D=6, H=2, F_=10):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.attention = MultiHeadAttention(D, H, bias=True)
        self.mlp = FFN(D, F_)

    def forward(self, X, mask=None):
        h = self.ln_1(X)
        a, w = self.attention(h, h, mask)
        X = X + 3 * a  # and wrong: still no claim, the parts cannot be paired
        return X + self.mlp(self.ln_2(X)), w


def _pair(cls, D=6, H=2, F_=10, **kwargs):
    torch.manual_seed(0)
    ref = Block(D, H, F_).double().eval()
    mine = cls(D, H, F_, **kwargs).double().eval()
    mine.load_state_dict(ref.state_dict(), strict=False)
    return mine, ref


def _forward(X, mask=None):
    return lambda m: m(X, mask)


def _X(B=2, L=4, D=6):
    return torch.randn(B, L, D, dtype=torch.float64, generator=torch.Generator().manual_seed(3))


def test_a_wrong_ffn_is_named_with_its_input_matched():
    mine, ref = _pair(Block, ffn=ScaledFFN)
    found = first_divergence(mine, ref, _forward(_X()))
    assert found is not None and (found.kind, found.name) == ("output", "ffn")
    assert "the first part whose output differs from the reference's under the same weights is `ffn` " \
           "(its input matched)" in found.message().lower()


def test_a_wrong_activation_inside_the_ffn_is_placed_in_the_ffn_s_code():
    mine, ref = _pair(Block, ffn=GeluFFN)
    found = first_divergence(mine, ref, _forward(_X()))
    assert found is not None and (found.kind, found.name, found.parent) == ("input", "ffn.lin2", "ffn")
    assert "`ffn`'s forward code before it calls `ffn.lin2`" in found.message()


def test_the_ffn_reading_the_stream_before_the_residual_is_placed_at_norm2():
    mine, ref = _pair(FFNBeforeResidual)
    found = first_divergence(mine, ref, _forward(_X()))
    assert found is not None and (found.kind, found.name, found.parent) == ("input", "norm2", "")
    assert "`norm2` receives a different input" in found.message("Block")
    assert "Block's own forward code" in found.message("Block")


def test_a_norm_in_the_wrong_place_is_placed_at_the_attention_s_input():
    mine, ref = _pair(NormAfterAttention)
    found = first_divergence(mine, ref, _forward(_X()))
    assert found is not None and (found.kind, found.name) == ("input", "attn")


def test_all_parts_agreeing_puts_the_difference_in_the_own_forward_code():
    mine, ref = _pair(ExtraScale)
    found = first_divergence(mine, ref, _forward(_X()))
    assert found is not None and found.kind == "own"
    assert found.parts == ("norm1", "attn", "norm2", "ffn")
    assert "own forward code between or after them" in found.message()


def test_inside_a_sub_module_the_enclosing_part_is_named():
    class KeysFromQueries(MultiHeadAttention):
        def forward(self, X_q, X_kv, mask=None):
            return super().forward(X_q, X_q * 1.5, mask)

    torch.manual_seed(0)
    ref = Block().double().eval()
    mine = Block().double().eval()
    mine.attn = KeysFromQueries(6, 2, bias=True).double()
    mine.load_state_dict(ref.state_dict())
    found = first_divergence(mine, ref, _forward(_X()))
    assert found is not None and (found.kind, found.name, found.parent) == ("input", "attn.W_k", "attn")
    assert "`attn`'s forward code before it calls `attn.W_k`" in found.message()


@pytest.mark.parametrize("cls", [Block, OtherRoute])
@pytest.mark.parametrize("B,L", [(2, 4), (1, 1), (1, 0)])
def test_a_correct_module_is_never_blamed(cls, B, L):
    mine, ref = _pair(cls)
    assert first_divergence(mine, ref, _forward(_X(B, L))) is None
    mask = torch.ones(B, 1, 1, L, dtype=torch.bool)
    if L:
        mask[0, ..., -1] = False
    assert first_divergence(mine, ref, _forward(_X(B, L), mask)) is None


def test_a_float32_route_is_not_blamed():
    class Float32Norm(nn.LayerNorm):
        def forward(self, X):
            return super().forward(X.float().double())  # rounds the input through float32

    mine, ref = _pair(Block)
    mine.norm1 = Float32Norm(6).double()
    mine.load_state_dict(ref.state_dict())
    assert first_divergence(mine, ref, _forward(_X())) is None
    assert first_divergence(copy.deepcopy(ref), ref, _forward(_X())) is None


def test_parts_with_other_names_make_no_claim():
    torch.manual_seed(0)
    ref = Block().double().eval()
    mine = Renamed().double().eval()
    assert first_divergence(mine, ref, _forward(_X())) is None


def test_parts_with_other_weights_make_no_claim():
    mine, ref = _pair(Block, ffn=GeluFFN)
    with torch.no_grad():
        mine.norm1.weight.add_(1.0)
    assert first_divergence(mine, ref, _forward(_X())) is None


def test_a_part_never_called_or_called_twice_makes_no_claim():
    class SkipsNorm2(Block):
        def forward(self, X, mask=None):
            h = self.norm1(X)
            a, w = self.attn(h, h, mask)
            X = X + a
            return X + self.ffn(self.norm1(X)), w  # norm1 twice, norm2 never

    mine, ref = _pair(SkipsNorm2)
    assert first_divergence(mine, ref, _forward(_X())) is None


def test_a_mask_in_another_form_makes_no_claim():
    class MaskAsFloat(Block):
        def forward(self, X, mask=None):
            h = self.norm1(X)
            a, w = self.attn(h, h, mask[:, 0])  # (B, 1, L): equivalent, another shape
            X = 2 * (X + a)
            return X + self.ffn(self.norm2(X)), w

    mine, ref = _pair(MaskAsFloat)
    mask = torch.ones(2, 1, 1, 4, dtype=torch.bool)
    assert first_divergence(mine, ref, _forward(_X(), mask)) is None


def test_a_learner_part_that_fails_makes_no_claim():
    class Fails(Block):
        def forward(self, X, mask=None):
            raise RuntimeError("boom")

    mine, ref = _pair(Fails)
    assert first_divergence(mine, ref, _forward(_X())) is None


# ---------------------------------------------------------------------------------------------
# In the module checks

def _message(check, cls) -> str:
    with pytest.raises(CheckFailure) as info:
        check(cls)
    return str(info.value)


def test_nb09_encoder_layer_ffn_before_the_residual():
    from attnlab.checks import check_encoder_layer
    from attnlab.torch.transformer import TransformerEncoderLayer

    class Layer(TransformerEncoderLayer):
        def forward(self, X, mask=None):
            am = None if mask is None else mask[:, None, None, :]
            h = self.norm1(X)
            a, w = self.self_attn(h, h, am)
            return X + a + self.feed_forward(self.norm2(X)), w

    message = _message(check_encoder_layer, Layer)
    assert "`norm2` receives a different input" in message
    assert "TransformerEncoderLayer's own forward code before it calls `norm2`" in message


def test_nb09_encoder_layer_a_wrong_activation_is_placed_before_linear2():
    from attnlab.checks import check_encoder_layer
    from attnlab.torch.transformer import TransformerEncoderLayer

    class Layer(TransformerEncoderLayer):
        def feed_forward(self, X):
            return self.linear2(F.gelu(self.linear1(X)))

    assert "`linear2` receives a different input" in _message(check_encoder_layer, Layer)


def test_nb09_decoder_layer_cross_attention_reading_the_wrong_stream():
    from attnlab.checks import check_decoder_layer
    from attnlab.torch.transformer import TransformerDecoderLayer

    class Layer(TransformerDecoderLayer):
        def forward(self, X, memory, memory_mask=None):
            from attnlab.torch.functional import causal_mask

            Lt = X.shape[1]
            h = self.norm1(X)
            a, sw = self.self_attn(h, h, causal_mask(Lt, Lt))
            cm = None if memory_mask is None else memory_mask[:, None, None, :]
            c, cw = self.cross_attn(self.norm2(X), memory, cm)  # the stream before X + a
            X = X + a + c
            return X + self.feed_forward(self.norm3(X)), sw, cw

    message = _message(check_decoder_layer, Layer)
    assert "`norm2` receives a different input" in message


def test_nb05_mha_module_a_squashed_output():
    from attnlab.checks import check_mha_module

    class Layer(MultiHeadAttention):
        def forward(self, X_q, X_kv, mask=None):
            out, w = super().forward(X_q, X_kv, mask)
            return torch.tanh(out), w

    message = _message(check_mha_module, Layer)
    assert "Every part (`W_q`, `W_k`, `W_v`, `W_o`) gets the same input" in message
    assert "MultiHeadAttention's own forward code" in message


def test_nb05_mha_module_output_projection_fed_unmerged_heads():
    from attnlab.checks import check_mha_module
    from attnlab.torch.functional import scaled_dot_product_attention
    from attnlab.torch.multi_head import split_heads

    class Layer(MultiHeadAttention):
        def forward(self, X_q, X_kv, mask=None):
            H = self.num_heads
            Q, K, V = (split_heads(self.W_q(X_q), H), split_heads(self.W_k(X_kv), H),
                       split_heads(self.W_v(X_kv), H))
            Z, w = scaled_dot_product_attention(Q, K, V, mask)
            B, _, Lq, Dh = Z.shape
            return self.W_o(Z.reshape(B, Lq, H * Dh)), w  # heads merged without the transpose

    message = _message(check_mha_module, Layer)
    if "known mistake" not in message:  # the catalogue may name it first
        assert "`W_o` receives a different input" in message


def test_nb03_self_attention_module_own_code():
    from attnlab.checks import check_self_attention_module
    from attnlab.torch.self_attention import SelfAttention

    class Layer(SelfAttention):
        def forward(self, X, mask=None):
            Z, A = super().forward(X, mask)
            return Z * 1.5 + 0.25, A

    message = _message(check_self_attention_module, Layer)
    assert "Every part (`W_q`, `W_k`, `W_v`) gets the same input" in message


def test_nb10_channel_attention_own_code():
    from attnlab.checks import check_channel_attention
    from attnlab.torch.images import ChannelAttention

    class Layer(ChannelAttention):
        def forward(self, X):
            Y, s = super().forward(X)
            return torch.tanh(Y), s

    message = _message(check_channel_attention, Layer)
    assert "Every part (`fc1`, `fc2`) gets the same input" in message


@pytest.mark.parametrize("check,cls", [
    ("check_self_attention_module", "attnlab.torch.self_attention:SelfAttention"),
    ("check_self_attention_module_mask", "attnlab.torch.self_attention:SelfAttention"),
    ("check_mha_module", "attnlab.torch.multi_head:MultiHeadAttention"),
    ("check_mha_module_bias_mask", "attnlab.torch.multi_head:MultiHeadAttention"),
    ("check_encoder_layer", "attnlab.torch.transformer:TransformerEncoderLayer"),
    ("check_encoder_layer_mask", "attnlab.torch.transformer:TransformerEncoderLayer"),
    ("check_decoder_layer", "attnlab.torch.transformer:TransformerDecoderLayer"),
    ("check_decoder_layer_mask", "attnlab.torch.transformer:TransformerDecoderLayer"),
    ("check_channel_attention", "attnlab.torch.images:ChannelAttention"),
])
def test_the_references_pass_and_are_their_own_divergence_free_pair(check, cls):
    import importlib

    import attnlab.checks as checks
    from attnlab.checks import SpecRecorded, SpecRecorder

    module, name = cls.split(":")
    ref_cls = getattr(importlib.import_module(module), name)
    getattr(checks, check)(ref_cls)
    getattr(checks, check)(ref_cls, hidden=True)
    recorder = SpecRecorder()
    with pytest.raises(SpecRecorded):
        getattr(checks, check)(recorder)
    spec = recorder.spec
    for case in spec.cases:
        assert _divergence.diverge(ref_cls, spec.invoke, spec.reference_module, case) is None
