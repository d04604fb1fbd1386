"""ChannelAttention (notebook 10): squeeze-and-excitation, a torch module. Its mistakes' ``impl``
are numpy variants with the reference's signature (the check builds the learner's class with known
weights and compares its output with them); their ``code`` is the class a learner writes."""
from __future__ import annotations

import numpy as np

from ..checks import _divergence
from ..checks._core import Case, Mistake, case_rng
from ..checks.attention_on_images import (
    LayerMissing, LayerShape, NotAModule, _ca, _ca_reference, _ca_swapped, _raises, invoke_channel_attention,
)
from ._card import Card, Contract

CARD = Card(
    "ChannelAttention", "10_attention_on_images",
    summary="each channel summarised by its mean, a bottleneck MLP, and a sigmoid gate per channel",
    contract=Contract(
        args=("X", "fc1.weight.T", "fc1.bias", "fc2.weight.T", "fc2.bias", "reduction"),
        reference=_ca_reference, invoke=invoke_channel_attention, outputs=("Y", "s"),
        reference_module=_divergence.channel_attention_class,
        shapes="ChannelAttention(channels, reduction); forward(X), X (..., C, H, W)",
        returns="(Y, s): Y the map with every channel scaled by its gate, s (..., C) the gates"),
    mistakes=[
        Mistake(
            'a class that is not an nn.Module',
            principle='The layer must be an nn.Module subclass whose __init__ first initialises the base class.',
            fix='write `class ChannelAttention(nn.Module):` and call `super().__init__()` first in __init__.',
            fails=('test_channel_attention',), impl=_raises(NotAModule),
            code=r'''
                class ChannelAttention:
                    def __init__(self, channels, reduction=4):
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def __call__(self, X):
                        z = X.mean(dim=(-2, -1))
                        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'the two layers are not the nn.Linear attributes fc1 and fc2',
            principle='The check loads known weights into two linear layers with fixed attribute names.',
            fix='create them in __init__ under exactly these names, `self.fc1` (C -> Cr) and `self.fc2` (Cr -> C), both `nn.Linear` with a bias: the check copies known weights into them.',
            fails=('test_channel_attention',), impl=_raises(LayerMissing),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        self.squeeze = nn.Linear(channels, max(1, channels // reduction))
                        self.excite = nn.Linear(max(1, channels // reduction), channels)

                    def forward(self, X):
                        z = X.mean(dim=(-2, -1))
                        s = torch.sigmoid(self.excite(torch.relu(self.squeeze(z))))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'a layer of the wrong size',
            principle='The bottleneck has max(1, channels // reduction) units: the first layer narrows to it, the second widens back.',
            fix='the hidden width is `Cr = max(1, channels // reduction)`: fc1 maps channels -> Cr, fc2 maps Cr -> channels (the bottleneck is smaller, and never empty).',
            fails=('test_channel_attention',), label='no max(1, ...)', impl=_raises(LayerShape),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        self.fc1 = nn.Linear(channels, channels // reduction)
                        self.fc2 = nn.Linear(channels // reduction, channels)

                    def forward(self, X):
                        z = X.mean(dim=(-2, -1))
                        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'the squeeze taken over the channels instead of over the positions',
            principle='Squeeze means one summary number per channel: average each channel over its positions.',
            fix='squeeze means one number per channel: average each channel over its H*W positions, the two last axes.',
            fails=('test_channel_attention',), impl=_ca(squeeze="channels"),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.mean(dim=(1, 2))
                        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'axes counted from the front (e.g. `X.mean(dim=(2, 3))`): right for a batch, wrong for one map (C, H, W)',
            principle='Count the spatial axes from the end, so that the module works with or without a batch.',
            fix='name the spatial axes from the end: `X.mean(dim=(-2, -1))`.',
            fails=('test_channel_attention',), impl=_ca(squeeze="front"),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.mean(dim=(2, 3))
                        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'a max over the positions instead of the mean (global max pooling)',
            principle='Squeeze-and-excitation summarises each channel by its average over the positions.',
            fix='squeeze-and-excitation summarises each channel by its mean over all positions.',
            fails=('test_channel_attention',), impl=_ca(squeeze="max"),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.amax(dim=(-2, -1))
                        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'a sum over the positions instead of the mean',
            principle='The summary is an average: independent of the number of positions.',
            fix='divide by the number of positions: `X.mean(dim=(-2, -1))`.',
            fails=('test_channel_attention',), impl=_ca(squeeze="sum"),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.sum(dim=(-2, -1))
                        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'the sigmoid forgotten: the raw outputs of fc2 used as channel weights',
            principle='Each channel weight is a gate between 0 and 1.',
            fix="each channel's weight is a gate in (0, 1): apply `torch.sigmoid` to fc2's output.",
            fails=('test_channel_attention',), impl=_ca(gate="none"),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.mean(dim=(-2, -1))
                        s = self.fc2(torch.relu(self.fc1(z)))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'a softmax over the channels instead of a sigmoid',
            principle='Channels do not compete for one unit of weight: each gets its own independent gate.',
            fix='channels do not compete for one unit of weight: each gets its own sigmoid gate in (0, 1), independently of the others.',
            fails=('test_channel_attention',), impl=_ca(gate="softmax"),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.mean(dim=(-2, -1))
                        s = torch.softmax(self.fc2(torch.relu(self.fc1(z))), dim=-1)
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'no ReLU between fc1 and fc2',
            principle='The excitation has a nonlinearity between its two layers.',
            fix='the excitation is fc1, then a ReLU, then fc2, then the sigmoid.',
            fails=('test_channel_attention',), impl=_ca(relu=False),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.mean(dim=(-2, -1))
                        s = torch.sigmoid(self.fc2(self.fc1(z)))
                        return X * s[..., :, None, None], s
                '''),
        Mistake(
            'X returned unscaled (the channel weights computed but not applied)',
            principle='The output is the input with every channel multiplied by its weight.',
            fix='multiply every channel of X by its weight, broadcasting s (..., C) as (..., C, 1, 1).',
            fails=('test_channel_attention',), impl=_ca(scale=False),
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.mean(dim=(-2, -1))
                        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
                        return X, s
                '''),
        Mistake(
            'returning (s, Y) instead of (Y, s)',
            principle='The contract returns the reweighted map first, then the channel weights.',
            fix='return the reweighted map first: `return Y, s`.',
            fails=('test_channel_attention',), impl=_ca_swapped,
            code=r'''
                class ChannelAttention(nn.Module):
                    def __init__(self, channels, reduction=4):
                        super().__init__()
                        hidden = max(1, channels // reduction)
                        self.fc1 = nn.Linear(channels, hidden)
                        self.fc2 = nn.Linear(hidden, channels)

                    def forward(self, X):
                        z = X.mean(dim=(-2, -1))
                        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
                        return s, X * s[..., :, None, None]
                '''),
    ],
)


def _case(rng, batch, C, H, W, reduction, why):
    Cr = max(1, C // reduction)
    X = rng.normal(size=(*batch, C, H, W)) + rng.normal(size=(*batch, C, 1, 1))  # channels differ in mean
    W_1, b_1 = rng.normal(size=(C, Cr)) / np.sqrt(C) * 2, rng.normal(size=Cr) * 0.3
    W_2, b_2 = rng.normal(size=(Cr, C)) / np.sqrt(Cr) * 2, rng.normal(size=C) * 0.3
    return Case((X, W_1, b_1, W_2, b_2, reduction),
                why=f"ChannelAttention({C}, reduction={reduction}) with known weights, {why}")


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(106, hidden)
    specs = ([((2,), 4, 4, 4, 2, "C = H = W"), ((), 6, 3, 5, 3, "one map (C, H, W)"),
              ((2,), 8, 2, 3, 2, "a batch"), ((), 2, 4, 3, 4, "channels // reduction = 0")] if hidden
             else [((3,), 5, 5, 5, 2, "C = H = W"), ((), 6, 3, 4, 2, "one map (C, H, W)"),
                   ((2, 2), 8, 4, 6, 4, "a batch (B1, B2, C, H, W)"), ((), 3, 2, 5, 4, "channels // reduction = 0")])
    return [_case(rng, *s) for s in specs]


def check_channel_attention(ChannelAttention, hidden: bool = False) -> None:
    """Check ``ChannelAttention(channels, reduction)``: its ``fc1``, ``fc2`` and ``forward``."""
    CARD.check(ChannelAttention, cases(hidden), hidden=hidden,
               passed="squeeze, excitation and scale match with known weights")
