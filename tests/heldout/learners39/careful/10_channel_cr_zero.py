NOTEBOOK = "10_attention_on_images"
CELL = "ChannelAttention"
MISTAKE = "Uses Cr = channels // reduction without the max(1, ...), so when channels < reduction the bottleneck has width 0."
NAMED_IF = r"max\(1|Cr|bottleneck|width 0|zero width|reduction"
CODE = '''
class ChannelAttention(nn.Module):
    """Squeeze-and-excitation: one gate in (0, 1) per channel, computed from the whole map."""

    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = channels // reduction
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        z = X.mean(dim=(-2, -1))                                   # (..., C)
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))       # (..., C)
        return X * s[..., None, None], s
'''
