NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Uses Cr = channels // reduction without max(1, ...), so a reduction larger than the channel count gives a zero-width bottleneck.'
NAMED_IF = 'max ?\\( ?1|\\bCr\\b|at least (1|one)|zero|reduction|fc1'
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = channels // reduction
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        z = X.mean(dim=(-2, -1))
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))
        return X * s[..., None, None], s
'''
