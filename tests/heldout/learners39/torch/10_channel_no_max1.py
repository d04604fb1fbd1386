NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Sets Cr = channels // reduction without max(1, ...), so with fewer channels than the reduction the bottleneck has width 0.'
NAMED_IF = r"max\(1|Cr|at least (1|one)|bottleneck|reduction|fc1|size mismatch|width 0|zero width"
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        hidden = channels // reduction
        self.fc1 = nn.Linear(channels, hidden)
        self.fc2 = nn.Linear(hidden, channels)

    def forward(self, X):
        z = X.mean(dim=(-2, -1))                                # (..., C)
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))   # (..., C)
        return X * s[..., None, None], s
'''
