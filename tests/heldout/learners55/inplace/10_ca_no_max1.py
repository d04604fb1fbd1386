NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Uses Cr = channels // reduction without max(1, ...), so fewer channels than the reduction give a hidden layer of width 0.'
NAMED_IF = r"\bCr\b|max\(1|at least (1|one)|reduction|zero (hidden|units|features|width)|width 0|shape|fc1"
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = channels // reduction
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(X.mean(dim=(-2, -1))))))
        return X * s[..., None, None], s
'''
