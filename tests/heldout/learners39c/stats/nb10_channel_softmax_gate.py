NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'gates with a softmax over the channels (weights summing to one) instead of an independent sigmoid per channel'
NAMED_IF = 'sigmoid|softmax|gate|\\(0, ?1\\)|sum to (1|one)'
CODE = '''class ChannelAttention(nn.Module):
    """Squeeze-and-excitation: one gate in (0, 1) per channel, computed from the whole map."""

    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        z = X.mean(dim=(-2, -1))
        s = torch.softmax(self.fc2(torch.relu(self.fc1(z))), dim=-1)
        return X * s[..., None, None], s
'''
