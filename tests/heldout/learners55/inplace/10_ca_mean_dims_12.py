NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Averages over dims (1, 2), which are the positions only for an unbatched (C, H, W) map; with a batch it averages over channels and rows.'
NAMED_IF = r"batch|leading|\bdims?\b|axis|axes|positions|from the end|\(1, ?2\)"
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        z = X.mean(dim=(1, 2))
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
        return X * s[..., None, None], s
'''
