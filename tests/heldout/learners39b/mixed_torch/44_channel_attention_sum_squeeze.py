NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Squeezes with a sum over the H x W positions instead of their mean.'
NAMED_IF = '\\bsum\\b|mean|average|squeeze|pool|h ?\\* ?w|number of (pixels|positions)'
CODE = '''\
class ChannelAttention(nn.Module):
    """Squeeze-and-excitation: one gate in (0, 1) per channel, computed from the whole map."""

    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        z = X.sum(dim=(-2, -1))                                    # (..., C)
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))       # (..., C)
        return X * s[..., None, None], s
'''
