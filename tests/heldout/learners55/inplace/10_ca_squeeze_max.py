NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Squeezes each channel by its maximum over the positions instead of its mean.'
NAMED_IF = r"\bmean|average|\bmax"
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        z = X.amax(dim=(-2, -1))
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
        return X * s[..., None, None], s
'''
